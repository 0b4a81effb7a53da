/**
 * The standings as computed before decision 0064 made them fast (tie-breakers compared as text, stored race
 * entries): kept here as the reference the fast path must equal on any season.
 */
import { racePoints, type PointsSystem } from "../series/points";
import type { CarriedPoints, CategoryStandings, RaceCell, RaceEntry, SeriesRace, SeriesStandings, StandingRow } from "../series/standings";

interface Racer {
  identity: string;
  name: string;
  club: string | null;
  carried: number;
  cells: (Omit<RaceCell, "counted"> | null)[];
}

const byOrder = (a: SeriesRace, b: SeriesRace) => a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The positions of a racer's cells that count: the best `bestOf` by points, the earlier race first among equals. */
function countedCells(cells: readonly ({ points: number } | null)[], bestOf: number | null): Set<number> {
  const taken = cells.flatMap((cell, i) => (cell ? [{ i, points: cell.points }] : []));
  taken.sort((a, b) => b.points - a.points || a.i - b.i);
  return new Set(taken.slice(0, bestOf ?? taken.length).map((t) => t.i));
}

/** Negative when `a` ranks ahead: more points, then more wins, more seconds …, then the latest race's place. */
function compareRows(a: { total: number; cells: readonly (RaceCell | null)[] }, b: typeof a): number {
  if (a.total !== b.total) return b.total - a.total;
  const places = (row: typeof a) => row.cells.flatMap((c) => (c?.place != null ? [c.place] : [])).sort((x, y) => x - y);
  const pa = places(a);
  const pb = places(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    // Countback: the first differing place decides; having a place beats having none.
    if (pa[i] === pb[i]) continue;
    if (pa[i] === undefined) return 1;
    if (pb[i] === undefined) return -1;
    return pa[i]! - pb[i]!;
  }
  for (let r = a.cells.length - 1; r >= 0; r--) {
    const x = a.cells[r]?.place ?? null;
    const y = b.cells[r]?.place ?? null;
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    return x - y;
  }
  return 0;
}

function referenceStandings(
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
    for (const entry of race.entries) byCategory.set(entry.category, [...(byCategory.get(entry.category) ?? []), entry]);
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
      return { identity: racer.identity, name: racer.name, club: racer.club, total, carried: racer.carried, cells };
    });
    rows.sort((a, b) => compareRows(a, b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.identity < b.identity ? -1 : 1));
    const ranked: StandingRow[] = [];
    rows.forEach((row, i) => {
      const previous = ranked[i - 1];
      const rank = previous && compareRows(previous, row) === 0 ? previous.rank : i + 1;
      ranked.push({ rank, ...row });
    });
    result.push({ category, rows: ranked });
  }
  return { races: ordered.map((r) => ({ id: r.id, name: r.name, scale: r.scale })), bestOf: system.bestOf, categories: result };
}

export { referenceStandings };
