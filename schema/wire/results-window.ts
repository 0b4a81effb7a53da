/**
 * A page of a result format: the results page of a race of any size shows one group at a time, a page of
 * rows at a time, ranked on the whole group by the RaceRoom (decision 0044; the ranking is in
 * results-ranking.ts). What the page and the browser share lives here: the address, the wire shape, the
 * search, and `windowSortKey`, with which the browser decides whether a pushed row can change its page.
 * Nothing here ranks, so the results page's script stays small.
 */
import { allStagesResult, type RankingType } from "../../core/timing/multistage";
import { splitCellTime } from "../../core/timing/result-columns";
import type { RankedResult } from "../../core/timing/model";
import type { TeamResult } from "../../core/timing/relay";
import type { FormatSnapshot, ResultGroupWire, ResultRow } from "./race-socket";

/** Rows per page: a phone's first screen and a few scrolls, well under the page's DOM budget (issue 23). */
export const WINDOW_PAGE_SIZE = 50;
/** A search longer than this is cut: no name or club is longer, and every row is compared with it. */
export const WINDOW_SEARCH_MAX = 80;

/** What a results page asks for, read from its address (`?group=&q=&sort=&page=&racer=&ranking=&view=`). */
export interface WindowQuery {
  group: string | null;
  search: string;
  /** A column's index to order by (its cell's value, fastest first), or null for the group's ranking. */
  sort: number | null;
  page: number;
  /** Show the page that holds this racer. */
  racer: string | null;
  ranking: RankingType;
  /** Times behind: split cells as gaps to the fastest there, the time as the gap to the leader. */
  behind: boolean;
}

/** Reads a page's address leniently: a results link is shared and typed by hand, so nonsense falls back to the default. */
export function readWindowQuery(params: URLSearchParams): WindowQuery {
  const page = Number(params.get("page"));
  const sort = params.get("sort");
  return {
    group: params.get("group") || null,
    search: (params.get("q") ?? "").trim().slice(0, WINDOW_SEARCH_MAX),
    sort: sort !== null && /^\d{1,6}$/.test(sort) ? Number(sort) : null,
    page: Number.isInteger(page) && page >= 1 && page <= 1_000_000 ? page : 1,
    racer: params.get("racer") || null,
    ranking: params.get("ranking") === "multistage" ? "multistage" : "default",
    behind: params.get("view") === "behind",
  };
}

/** The address of a page of results, with only what differs from the default. */
export function windowSearch(query: WindowQuery, formatId: string | null): string {
  const params = new URLSearchParams();
  if (formatId) params.set("format", formatId);
  if (query.group) params.set("group", query.group);
  if (query.search) params.set("q", query.search);
  if (query.sort !== null) params.set("sort", String(query.sort));
  if (query.ranking !== "default") params.set("ranking", query.ranking);
  if (query.behind) params.set("view", "behind");
  if (query.page > 1) params.set("page", String(query.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export type WindowEntry = Omit<RankedResult, "result"> & { row: ResultRow };

/** Places and the fastest value at a split column, for the rows on the page (the places are over the whole group). */
export interface WindowStanding {
  index: number;
  best: number | null;
  places: Record<string, number>;
}

/** One group's page. */
export interface GroupWindow {
  group: ResultGroupWire;
  /** Racers in the group, and those the search leaves. */
  total: number;
  matched: number;
  page: number;
  pages: number;
  /** Rows of the page in order: ranked racers, or for a relay every member of the page's teams. */
  entries: WindowEntry[];
  /** Relay races: the page's teams in rank order. */
  teams?: TeamResult[];
  standings?: WindowStanding[];
  /** Ordered by a column: each row's place by that column's value, over the whole group. */
  sortPlaces?: Record<string, number>;
  leaderLaps: number | null;
  /** The sort key of the page's last row when the page is full: a pushed row that sorts after it cannot show here. */
  lastKey: number[] | null;
}

/** A page of a format as the results page renders it; `version` is what the race socket's frames chain from. */
export interface ResultsWindow {
  format: Omit<FormatSnapshot, "rows" | "groups">;
  /** Every group, for the tabs. */
  groups: { id: string; name: string; total: number }[];
  current: GroupWindow | null;
  query: WindowQuery;
  /** Announcer formats: the latest finishers of the whole format, newest first. */
  latest?: ResultRow[];
}

/** A search by bib (a number, exactly), or by part of a name or club. */
export function searchMatcher(query: string): (row: ResultRow) => boolean {
  const needle = query.trim().toLowerCase();
  if (needle === "") return () => true;
  if (/^\d+$/.test(needle)) return (row) => String(row.bib ?? "") === needle;
  return (row) => row.name.toLowerCase().includes(needle) || (row.club ?? "").toLowerCase().includes(needle);
}

/**
 * Where a row sorts on a page ordered by `query`: the engine's key for the ranking (All Stages rekeyed), or the
 * sorted column's value with racers without one after everyone (then by their ranking key).
 */
export function windowSortKey(row: ResultRow, group: ResultGroupWire, query: Pick<WindowQuery, "sort" | "ranking">, multistage: boolean): number[] {
  const key = rankingKey(row, query.ranking, multistage);
  if (query.sort === null) return key;
  const column = group.columns.find((c) => c.index === query.sort);
  const value = column ? splitCellTime(row.splits, column) : null;
  return [value === null ? 1 : 0, value ?? 0, ...key];
}

/** Where a row ranks in its group: the engine's key, or the All Stages key on a multistage ranking. */
export function rankingKey(row: ResultRow, ranking: RankingType, multistage: boolean): number[] {
  return ranking === "multistage" && multistage ? allStagesResult(row, row.stageTimes ?? [], row.stageBonuses ?? []).key : row.key;
}

/** A column of split times (not a shooting, run, enduro segment or stage): what can be ordered by and folded away on phones. */
export function isSplitColumn(column: ResultGroupWire["columns"][number]): boolean {
  return column.shooting === undefined && column.run === undefined && column.segment === undefined && column.stage === undefined;
}
