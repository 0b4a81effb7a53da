/**
 * One page of a series' standings (decision 0064): a series of thousands of racers is not one HTML page. With
 * no category chosen each category shows its first page; a chosen category shows the page asked for.
 */
import type { CategoryStandings, SeriesStandings } from "./standings";

export const STANDINGS_PAGE_SIZE = 100;

export interface CategoryPage {
  readonly category: string;
  /** 1-based; `pages` is at least 1. */
  readonly page: number;
  readonly pages: number;
  readonly racers: number;
}

export interface StandingsPage {
  readonly standings: SeriesStandings;
  readonly pages: readonly CategoryPage[];
  /** The category chosen, when it is one of the standings'. */
  readonly category: string | null;
}

export function standingsPage(standings: SeriesStandings, category: string | null, page: number, size = STANDINGS_PAGE_SIZE): StandingsPage {
  const chosen = category !== null && standings.categories.some((c) => c.category === category) ? category : null;
  const shown: CategoryStandings[] = [];
  const pages: CategoryPage[] = [];
  for (const c of standings.categories) {
    if (chosen !== null && c.category !== chosen) continue;
    const count = Math.max(1, Math.ceil(c.rows.length / size));
    const at = chosen !== null ? Math.min(Math.max(1, Math.floor(page) || 1), count) : 1;
    shown.push({ category: c.category, rows: c.rows.slice((at - 1) * size, at * size) });
    pages.push({ category: c.category, page: at, pages: count, racers: c.rows.length });
  }
  return { standings: { ...standings, categories: shown }, pages, category: chosen };
}
