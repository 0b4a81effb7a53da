/**
 * A points series' standings (issue 27): each category's racers with their points race by race, the best N
 * counted, carried points added, ranked by total and then by the tie-breakers of decision 0048 (more wins,
 * then more second places …, then the better place in the latest race). Pure: the same races give the same
 * standings whatever order they are passed in.
 */
import { racePoints, type PointsSystem, type RaceOutcome, type ResultStatus } from "./points";

export interface RaceEntry {
  /** Who the racer is across races (identity.ts). */
  readonly identity: string;
  readonly name: string;
  readonly club: string | null;
  readonly category: string;
  readonly outcome: RaceOutcome;
}

export interface SeriesRace {
  readonly id: string;
  readonly name: string;
  /** Where the race stands in the season (its start time); the latest race breaks ties. */
  readonly order: number;
  readonly scale: number;
  readonly entries: readonly RaceEntry[];
}

/** Points brought in from a points file (last season, races timed elsewhere), in hundredths. */
export interface CarriedPoints {
  readonly identity: string;
  readonly name: string;
  readonly club: string | null;
  readonly category: string;
  readonly points: number;
}

export interface RaceCell {
  readonly points: number;
  readonly place: number | null;
  readonly status: ResultStatus | null;
  /** Among the racer's best N (dropped results are shown, not added). */
  readonly counted: boolean;
}

export interface StandingRow {
  readonly rank: number;
  readonly identity: string;
  readonly name: string;
  readonly club: string | null;
  readonly total: number;
  readonly carried: number;
  /** One per race of the standings, in season order; null where the racer has no result. */
  readonly cells: readonly (RaceCell | null)[];
}

export interface CategoryStandings {
  readonly category: string;
  readonly rows: readonly StandingRow[];
}

export interface SeriesStandings {
  readonly races: readonly { readonly id: string; readonly name: string; readonly scale: number }[];
  /** How many of a racer's results count (null: all), for the page to say so. */
  readonly bestOf: number | null;
  readonly categories: readonly CategoryStandings[];
}

interface Racer {
  identity: string;
  name: string;
  club: string | null;
  carried: number;
  /** Per race, the racer's position in that race's scored entries, or -1. */
  picks: number[];
  cells: (RaceCell | null)[];
  total: number;
  /** The tie-break text, built only for a racer who shares a total with another (see rankCategory). */
  key: string;
}

/**
 * A race's entries grouped by category, each with its cell as counted and as dropped. Cells never change once
 * made, so the standings of every recompute share them: a season of 20 races × 5,000 racers made 100,000 cells
 * at each one, and most of its time went to making and collecting them (decision 0081).
 */
interface ScoredRace {
  readonly entries: readonly RaceEntry[];
  readonly counted: readonly RaceCell[];
  readonly dropped: readonly RaceCell[];
}

/** Scored races by their entries (which are never changed once made) and the points system and scale. */
const scoredRaces = new WeakMap<readonly RaceEntry[], Map<string, ScoredRace>>();

function scoredRace(system: PointsSystem, systemKey: string, race: SeriesRace): ScoredRace {
  const key = `${race.scale}|${systemKey}`;
  let bySystem = scoredRaces.get(race.entries);
  const known = bySystem?.get(key);
  if (known) return known;
  const byCategory = new Map<string, RaceEntry[]>();
  for (const entry of race.entries) {
    const list = byCategory.get(entry.category);
    if (list) list.push(entry);
    else byCategory.set(entry.category, [entry]);
  }
  const entries: RaceEntry[] = [];
  const counted: RaceCell[] = [];
  const dropped: RaceCell[] = [];
  for (const group of byCategory.values()) {
    const points = racePoints(
      system,
      group.map((e) => e.outcome),
      race.scale,
    );
    group.forEach((entry, i) => {
      const place = entry.outcome.kind === "placed" ? entry.outcome.place : null;
      const status = entry.outcome.kind === "status" ? entry.outcome.status : null;
      entries.push(entry);
      counted.push({ points: points[i]!, place, status, counted: true });
      dropped.push({ points: points[i]!, place, status, counted: false });
    });
  }
  const scored = { entries, counted, dropped };
  if (!bySystem) scoredRaces.set(race.entries, (bySystem = new Map()));
  bySystem.set(key, scored);
  return scored;
}

const byOrder = (a: SeriesRace, b: SeriesRace) => a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Sets a racer's cells to the counted or dropped ones and returns the counted points. The best `bestOf` by points
 * count, the earlier race first among equals (core/testing/series-standings-reference.ts states the rule plainly);
 * written without allocations, since a season of 20 races × 5,000 racers runs it 10,000 times per recompute.
 */
function markCounted(racer: Racer, scored: readonly ScoredRace[], bestOf: number | null, scratch: number[]): number {
  const { picks, cells } = racer;
  scratch.length = 0;
  for (let r = 0; r < picks.length; r++) {
    cells[r] = picks[r]! < 0 ? null : scored[r]!.counted[picks[r]!]!;
    if (cells[r]) scratch.push(r);
  }
  let total = 0;
  if (bestOf === null || scratch.length <= bestOf) {
    for (const r of scratch) total += cells[r]!.points;
    return total;
  }
  // More points first, the earlier race first among equals.
  insertionSort(scratch, (a, b) => cells[a]!.points > cells[b]!.points || (cells[a]!.points === cells[b]!.points && a < b));
  for (let k = 0; k < scratch.length; k++) {
    const r = scratch[k]!;
    if (k < bestOf) total += cells[r]!.points;
    else cells[r] = scored[r]!.dropped[picks[r]!]!;
  }
  return total;
}

/** "No place" sorts after every place (a place is two characters, so any place sorts as text). */
const NO_PLACE = 0xffff;

/** Sorts `list` ascending by `before` in place: insertion, as a racer's handful of results is no work for a sort. */
function insertionSort(list: number[], before: (a: number, b: number) => boolean): void {
  for (let i = 1; i < list.length; i++) {
    const item = list[i]!;
    let j = i - 1;
    while (j >= 0 && before(item, list[j]!)) {
      list[j + 1] = list[j]!;
      j--;
    }
    list[j + 1] = item;
  }
}

const ascending = (a: number, b: number) => a < b;

/**
 * The tie-breakers after the total as one text that sorts as they rank: countback (the racer's places best
 * first, a place beating none), then the places race by race from the latest. Built once per racer as one
 * flat string, so a sort of thousands of equal totals compares strings instead of rebuilding place lists.
 */
export function tieBreakKey(cells: readonly ({ place: number | null } | null)[], places: number[] = [], codes: number[] = []): string {
  places.length = 0;
  codes.length = 0;
  for (const cell of cells) if (cell?.place != null) places.push(cell.place);
  insertionSort(places, ascending);
  for (const place of places) codes.push(place >>> 16, place & 0xffff);
  // Countbacks of equal text have equal lengths, so the latest-race part starts at the same position in both.
  codes.push(NO_PLACE, NO_PLACE);
  for (let r = cells.length - 1; r >= 0; r--) {
    const place = cells[r]?.place ?? null;
    if (place === null) codes.push(NO_PLACE, NO_PLACE);
    else codes.push(place >>> 16, place & 0xffff);
  }
  return String.fromCharCode.apply(null, codes);
}

interface Ranked {
  readonly total: number;
  readonly key: string;
}

/** Negative when `a` ranks ahead: more points, then more wins, more seconds …, then the latest race's place. */
const compareRows = (a: Ranked, b: Ranked): number => (a.total !== b.total ? b.total - a.total : a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

export function computeStandings(
  system: PointsSystem,
  races: readonly SeriesRace[],
  carried: readonly CarriedPoints[] = [],
  categoryOrder: readonly string[] = [],
): SeriesStandings {
  const ordered = [...races].sort(byOrder);
  const raceCount = ordered.length;
  const systemKey = JSON.stringify(system);
  const scored = ordered.map((race) => scoredRace(system, systemKey, race));
  const categories = new Map<string, Map<string, Racer>>(categoryOrder.map((c) => [c, new Map()]));
  const racerIn = (category: string, identity: string, name: string, club: string | null): Racer => {
    let racers = categories.get(category);
    if (!racers) categories.set(category, (racers = new Map()));
    let racer = racers.get(identity);
    if (!racer) {
      const cells = new Array<RaceCell | null>(raceCount).fill(null);
      racers.set(identity, (racer = { identity, name, club, carried: 0, picks: new Array<number>(raceCount).fill(-1), cells, total: 0, key: "" }));
    }
    return racer;
  };
  scored.forEach(({ entries, counted }, r) => {
    entries.forEach((entry, i) => {
      const racer = racerIn(entry.category, entry.identity, entry.name, entry.club);
      // The latest race names the racer; two entries of one racer in a race keep the better.
      racer.name = entry.name;
      racer.club = entry.club;
      const before = racer.picks[r]!;
      if (before < 0 || counted[i]!.points > counted[before]!.points) racer.picks[r] = i;
    });
  });
  for (const c of carried) racerIn(c.category, c.identity, c.name, c.club).carried += c.points;

  const scratch: number[] = [];
  const result: CategoryStandings[] = [];
  for (const [category, racers] of categories) result.push({ category, rows: rankCategory([...racers.values()], scored, system.bestOf, scratch) });
  return { races: ordered.map((r) => ({ id: r.id, name: r.name, scale: r.scale })), bestOf: system.bestOf, categories: result };
}

/** One category's racers totalled and ranked, equal rankings sharing a rank (1, 1, 3). */
function rankCategory(rows: Racer[], scored: readonly ScoredRace[], bestOf: number | null, scratch: number[]): StandingRow[] {
  const racersWithTotal = new Map<number, number>();
  for (const row of rows) {
    row.total = row.carried + markCounted(row, scored, bestOf, scratch);
    racersWithTotal.set(row.total, (racersWithTotal.get(row.total) ?? 0) + 1);
  }
  // Only racers level on points need the tie-breakers; most of a large field is not.
  const places: number[] = [];
  for (const row of rows) if (racersWithTotal.get(row.total)! > 1) row.key = tieBreakKey(row.cells, places, scratch);
  rows.sort((a, b) => compareRows(a, b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.identity < b.identity ? -1 : 1));
  const ranked: StandingRow[] = [];
  rows.forEach((row, i) => {
    const previous = ranked[i - 1];
    const rank = previous && compareRows(rows[i - 1]!, row) === 0 ? previous.rank : i + 1;
    ranked.push({ rank, identity: row.identity, name: row.name, club: row.club, total: row.total, carried: row.carried, cells: row.cells });
  });
  return ranked;
}
