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
  cells: (Omit<RaceCell, "counted"> | null)[];
}

const byOrder = (a: SeriesRace, b: SeriesRace) => a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The positions of a racer's cells that count: the best `bestOf` by points, the earlier race first among equals. */
export function countedCells(cells: readonly ({ points: number } | null)[], bestOf: number | null): Set<number> {
  const taken = cells.flatMap((cell, i) => (cell ? [{ i, points: cell.points }] : []));
  if (bestOf === null || taken.length <= bestOf) return new Set(taken.map((t) => t.i));
  taken.sort((a, b) => b.points - a.points || a.i - b.i);
  return new Set(taken.slice(0, bestOf ?? taken.length).map((t) => t.i));
}

/** A place as two characters (so any place sorts as text), and "no place" after every place. */
const placeChars = (place: number | null) => (place === null ? "\uffff\uffff" : String.fromCharCode(place >>> 16, place & 0xffff));

/**
 * The tie-breakers after the total as one text that sorts as they rank: countback (the racer's places best
 * first, a place beating none), then the places race by race from the latest. Built once per racer, so a sort
 * of thousands of equal totals compares strings instead of rebuilding place lists at each comparison.
 */
export function tieBreakKey(cells: readonly ({ place: number | null } | null)[]): string {
  const places: number[] = [];
  for (const cell of cells) if (cell?.place != null) places.push(cell.place);
  places.sort((x, y) => x - y);
  let key = "";
  for (const place of places) key += placeChars(place);
  // Countbacks of equal text have equal lengths, so the latest-race part starts at the same position in both.
  key += placeChars(null);
  for (let r = cells.length - 1; r >= 0; r--) key += placeChars(cells[r]?.place ?? null);
  return key;
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
  const categories = new Map<string, Map<string, Racer>>(categoryOrder.map((c) => [c, new Map()]));
  const racerIn = (category: string, identity: string, name: string, club: string | null): Racer => {
    let racers = categories.get(category);
    if (!racers) categories.set(category, (racers = new Map()));
    let racer = racers.get(identity);
    if (!racer) racers.set(identity, (racer = { identity, name, club, carried: 0, cells: ordered.map(() => null) }));
    return racer;
  };
  ordered.forEach((race, r) => {
    const byCategory = new Map<string, RaceEntry[]>();
    for (const entry of race.entries) {
      const list = byCategory.get(entry.category);
      if (list) list.push(entry);
      else byCategory.set(entry.category, [entry]);
    }
    for (const [category, entries] of byCategory) {
      const points = racePoints(
        system,
        entries.map((e) => e.outcome),
        race.scale,
      );
      entries.forEach((entry, i) => {
        const racer = racerIn(category, entry.identity, entry.name, entry.club);
        // The latest race names the racer; two entries of one racer in a race keep the better.
        racer.name = entry.name;
        racer.club = entry.club;
        const cell = {
          points: points[i]!,
          place: entry.outcome.kind === "placed" ? entry.outcome.place : null,
          status: entry.outcome.kind === "status" ? entry.outcome.status : null,
        };
        const before = racer.cells[r];
        if (!before || cell.points > before.points) racer.cells[r] = cell;
      });
    }
  });
  for (const c of carried) racerIn(c.category, c.identity, c.name, c.club).carried += c.points;

  const result: CategoryStandings[] = [];
  for (const [category, racers] of categories) {
    const rows = [...racers.values()].map((racer) => {
      const counted = countedCells(racer.cells, system.bestOf);
      const cells = racer.cells.map((cell, i) => (cell ? { ...cell, counted: counted.has(i) } : null));
      const total = racer.carried + cells.reduce((sum, cell) => sum + (cell?.counted ? cell.points : 0), 0);
      return { identity: racer.identity, name: racer.name, club: racer.club, total, carried: racer.carried, cells, key: tieBreakKey(cells) };
    });
    rows.sort((a, b) => compareRows(a, b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.identity < b.identity ? -1 : 1));
    const ranked: StandingRow[] = [];
    rows.forEach((row, i) => {
      const previous = ranked[i - 1];
      const rank = previous && compareRows(rows[i - 1]!, row) === 0 ? previous.rank : i + 1;
      ranked.push({ rank, identity: row.identity, name: row.name, club: row.club, total: row.total, carried: row.carried, cells: row.cells });
    });
    result.push({ category, rows: ranked });
  }
  return { races: ordered.map((r) => ({ id: r.id, name: r.name, scale: r.scale })), bestOf: system.bestOf, categories: result };
}
