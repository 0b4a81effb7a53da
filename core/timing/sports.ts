/** The sport types a race can be set up for (timing.md section 1), each race-capable or not. */

export interface Sport {
  name: string;
  /** Race-capable: can be timed and ranked. */
  isRace: boolean;
  techniques?: readonly string[];
}

export const SPORTS: readonly Sport[] = [
  { name: "Cross Country Skiing", isRace: true, techniques: ["Free", "Classic"] },
  { name: "Biathlon", isRace: true },
  { name: "Cycling", isRace: true },
  { name: "Mountain Biking", isRace: true },
  { name: "Running", isRace: true },
  { name: "Trail Running", isRace: true },
  { name: "Triathlon", isRace: true },
  { name: "Duathlon", isRace: true },
  { name: "Canoe", isRace: true },
  { name: "Kayak", isRace: true },
  { name: "Rowing", isRace: true },
  { name: "Swimming", isRace: true },
  { name: "Alpine Skiing", isRace: true },
  { name: "Snowshoe", isRace: true },
  { name: "Soccer", isRace: false },
  { name: "Music", isRace: false },
  { name: "Art", isRace: false },
  { name: "Curling", isRace: false },
  { name: "Baseball", isRace: false },
  { name: "Hockey", isRace: false },
  { name: "Figure Skating", isRace: false },
  { name: "Gymnastics", isRace: false },
  { name: "Dining Club", isRace: false },
  { name: "Orienteering", isRace: false },
];

const fold = (name: string) => name.trim().toLowerCase();

/** Sorted by name ignoring case (code-unit order of the lowercased names, so the same on every runtime). */
export function sortSportsCaseInsensitive<T extends Pick<Sport, "name">>(sports: readonly T[]): T[] {
  return [...sports].sort((a, b) => {
    const x = fold(a.name);
    const y = fold(b.name);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** The sport list as offered: sorted case-insensitively. */
export function sportsSorted(): Sport[] {
  return sortSportsCaseInsensitive(SPORTS);
}

/** The sport of that name (ignoring case and surrounding spaces), or undefined. */
export function findSport(name: string): Sport | undefined {
  return SPORTS.find((sport) => fold(sport.name) === fold(name));
}

/** Unknown sports are not race-capable. */
export function isRaceSport(name: string): boolean {
  return findSport(name)?.isRace ?? false;
}

/** The techniques a sport offers (Cross Country Skiing: Free and Classic), else none. */
export function sportTechniques(name: string): readonly string[] {
  return findSport(name)?.techniques ?? [];
}
