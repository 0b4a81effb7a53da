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

/** A racer's cell while the standings are built: `counted` is settled once all races are in. */
interface WorkingCell {
  points: number;
  place: number | null;
  status: ResultStatus | null;
  counted: boolean;
}

interface Racer {
  identity: string;
  name: string;
  club: string | null;
  carried: number;
  cells: (WorkingCell | null)[];
  total: number;
  /** The tie-break text, built only for a racer who shares a total with another (see rankCategory). */
  key: string;
}

const byOrder = (a: SeriesRace, b: SeriesRace) => a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The positions of a racer's cells that count: the best `bestOf` by points, the earlier race first among equals. */
export function countedCells(cells: readonly ({ points: number } | null)[], bestOf: number | null): Set<number> {
  const taken = cells.flatMap((cell, i) => (cell ? [{ i, points: cell.points }] : []));
  if (bestOf === null || taken.length <= bestOf) return new Set(taken.map((t) => t.i));
  taken.sort((a, b) => b.points - a.points || a.i - b.i);
  return new Set(taken.slice(0, bestOf ?? taken.length).map((t) => t.i));
}

/**
 * Marks a racer's counted cells in place and returns the counted points: countedCells' rule without its
 * allocations, since a season of 20 races × 5,000 racers runs it 10,000 times per recompute.
 */
function markCounted(cells: readonly (WorkingCell | null)[], bestOf: number | null, scratch: number[]): number {
  scratch.length = 0;
  for (let i = 0; i < cells.length; i++) if (cells[i]) scratch.push(i);
  let total = 0;
  if (bestOf === null || scratch.length <= bestOf) {
    for (const i of scratch) {
      const cell = cells[i]!;
      cell.counted = true;
      total += cell.points;
    }
    return total;
  }
  scratch.sort((a, b) => cells[b]!.points - cells[a]!.points || a - b);
  for (let k = 0; k < scratch.length; k++) {
    const cell = cells[scratch[k]!]!;
    cell.counted = k < bestOf;
    if (cell.counted) total += cell.points;
  }
  return total;
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
  const raceCount = ordered.length;
  const categories = new Map<string, Map<string, Racer>>(categoryOrder.map((c) => [c, new Map()]));
  const racerIn = (category: string, identity: string, name: string, club: string | null): Racer => {
    let racers = categories.get(category);
    if (!racers) categories.set(category, (racers = new Map()));
    let racer = racers.get(identity);
    if (!racer) {
      const cells = new Array<WorkingCell | null>(raceCount).fill(null);
      racers.set(identity, (racer = { identity, name, club, carried: 0, cells, total: 0, key: "" }));
    }
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
        const before = racer.cells[r];
        if (before && points[i]! <= before.points) return;
        racer.cells[r] = {
          points: points[i]!,
          place: entry.outcome.kind === "placed" ? entry.outcome.place : null,
          status: entry.outcome.kind === "status" ? entry.outcome.status : null,
          counted: false,
        };
      });
    }
  });
  for (const c of carried) racerIn(c.category, c.identity, c.name, c.club).carried += c.points;

  const scratch: number[] = [];
  const result: CategoryStandings[] = [];
  for (const [category, racers] of categories) result.push({ category, rows: rankCategory([...racers.values()], system.bestOf, scratch) });
  return { races: ordered.map((r) => ({ id: r.id, name: r.name, scale: r.scale })), bestOf: system.bestOf, categories: result };
}

/** One category's racers totalled and ranked, equal rankings sharing a rank (1, 1, 3). */
function rankCategory(rows: Racer[], bestOf: number | null, scratch: number[]): StandingRow[] {
  const racersWithTotal = new Map<number, number>();
  for (const row of rows) {
    row.total = row.carried + markCounted(row.cells, bestOf, scratch);
    racersWithTotal.set(row.total, (racersWithTotal.get(row.total) ?? 0) + 1);
  }
  // Only racers level on points need the tie-breakers; most of a large field is not.
  for (const row of rows) if (racersWithTotal.get(row.total)! > 1) row.key = tieBreakKey(row.cells);
  rows.sort((a, b) => compareRows(a, b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.identity < b.identity ? -1 : 1));
  const ranked: StandingRow[] = [];
  rows.forEach((row, i) => {
    const previous = ranked[i - 1];
    const rank = previous && compareRows(rows[i - 1]!, row) === 0 ? previous.rank : i + 1;
    ranked.push({ rank, identity: row.identity, name: row.name, club: row.club, total: row.total, carried: row.carried, cells: row.cells });
  });
  return ranked;
}
