/**
 * One page of a series' standings (decision 0064): a series of thousands of racers is not one HTML page. With
 * no category chosen each category shows its first page; a chosen category shows the page asked for. The page
 * carries its points as the text it shows (decision 0080): a season of 20 races sent as cell objects was a
 * quarter of a megabyte of page data for 200 racers, and its encoding a third of the page's time.
 */
import { formatPoints } from "./points";
import type { SeriesStandings, StandingRow } from "./standings";
import { cellText } from "./standings-csv";

export const STANDINGS_PAGE_SIZE = 100;

export interface CategoryPage {
  readonly category: string;
  /** 1-based; `pages` is at least 1. */
  readonly page: number;
  readonly pages: number;
  readonly racers: number;
}

/** A racer's line as shown: points as text, "" for a race without a result, and which results are dropped. */
export interface ShownRow {
  readonly rank: number;
  readonly identity: string;
  readonly name: string;
  readonly club: string | null;
  readonly total: string;
  readonly carried: string;
  /** One per race, in season order: cellText's text (a dropped result in brackets). */
  readonly cells: readonly string[];
  /** The positions in `cells` of results dropped by best-N, in order. */
  readonly dropped: readonly number[];
}

export interface ShownStandings {
  readonly races: SeriesStandings["races"];
  readonly bestOf: number | null;
  /** Whether any racer of the series carries points (the column is shown on every page, or on none). */
  readonly carried: boolean;
  readonly categories: readonly { readonly category: string; readonly rows: readonly ShownRow[] }[];
}

export interface StandingsPage {
  readonly standings: ShownStandings;
  readonly pages: readonly CategoryPage[];
  /** The category chosen, when it is one of the standings'. */
  readonly category: string | null;
}

export function shownRow(row: StandingRow): ShownRow {
  const dropped: number[] = [];
  row.cells.forEach((cell, i) => {
    if (cell && !cell.counted) dropped.push(i);
  });
  return {
    rank: row.rank,
    identity: row.identity,
    name: row.name,
    club: row.club,
    total: formatPoints(row.total),
    carried: formatPoints(row.carried),
    cells: row.cells.map((cell) => cellText(cell ?? null)),
    dropped,
  };
}

export function standingsPage(standings: SeriesStandings, category: string | null, page: number, size = STANDINGS_PAGE_SIZE): StandingsPage {
  const chosen = category !== null && standings.categories.some((c) => c.category === category) ? category : null;
  const shown: ShownStandings["categories"][number][] = [];
  const pages: CategoryPage[] = [];
  for (const c of standings.categories) {
    if (chosen !== null && c.category !== chosen) continue;
    const count = Math.max(1, Math.ceil(c.rows.length / size));
    const at = chosen !== null ? Math.min(Math.max(1, Math.floor(page) || 1), count) : 1;
    shown.push({ category: c.category, rows: c.rows.slice((at - 1) * size, at * size).map(shownRow) });
    pages.push({ category: c.category, page: at, pages: count, racers: c.rows.length });
  }
  const carried = standings.categories.some((c) => c.rows.some((r) => r.carried !== 0));
  return { standings: { races: standings.races, bestOf: standings.bestOf, carried, categories: shown }, pages, category: chosen };
}
