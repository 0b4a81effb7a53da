/**
 * A page of a result format: the results page of a race of any size shows one group at a time, a page of
 * rows at a time, ranked on the whole group by the RaceRoom (decision 0044). The ranking, the search and the
 * orderings live here once: the room builds windows with them and the browser decides with the same
 * `windowSortKey` whether a pushed row can change the page it shows.
 */
import { compareKeys, rankSorted } from "../../core/timing/rank";
import { allStagesResult, type RankingType } from "../../core/timing/multistage";
import { columnStandings, splitCellTime } from "../../core/timing/result-columns";
import { relayMembersOf, teamResults, type TeamResult } from "../../core/timing/relay";
import type { RankedResult } from "../../core/timing/model";
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

/** One group ranked on all its racers: what a window is cut from (the room keeps it per version). */
export interface RankedGroup {
  group: ResultGroupWire;
  ranked: WindowEntry[];
  /** The rank order's rows (All Stages rekeyed), for standings and relays. */
  rows: ResultRow[];
  leaderLaps: number | null;
  teams?: TeamResult[];
  /** Built on first use and kept with the group: each request then only filters and slices. */
  memo: { standings?: ReturnType<typeof columnStandings>; orders: Map<number, WindowEntry[]> };
}

/** A search by bib (a number, exactly), or by part of a name or club. */
export function searchMatcher(query: string): (row: ResultRow) => boolean {
  const needle = query.trim().toLowerCase();
  if (needle === "") return () => true;
  if (/^\d+$/.test(needle)) return (row) => String(row.bib ?? "") === needle;
  return (row) => row.name.toLowerCase().includes(needle) || (row.club ?? "").toLowerCase().includes(needle);
}

/** A relay search: a team matches by its name, or when any member matches (a bib finds its racer's team). */
export function teamMatcher(query: string, rowOf: (racerId: string) => ResultRow | undefined): (team: TeamResult) => boolean {
  const matches = searchMatcher(query);
  const needle = query.trim().toLowerCase();
  const isBib = /^\d+$/.test(needle);
  return (team) =>
    needle === "" ||
    (!isBib && team.team.toLowerCase().includes(needle)) ||
    team.legs.some((leg) => {
      const row = rowOf(leg.racerId);
      return row !== undefined && matches(row);
    });
}

/**
 * A group's racers in rank order with places, shown times and diffs. In a multistage race the "multistage"
 * ranking (All Stages) ranks on every stage's total; the row shown stays the racer's own.
 */
export function rankGroup(
  snapshot: Pick<FormatSnapshot, "stage" | "relay">,
  group: ResultGroupWire,
  rows: Iterable<ResultRow>,
  ranking: RankingType,
): RankedGroup {
  const byId = new Map<string, ResultRow>();
  for (const row of rows) if (row.groups.includes(group.id)) byId.set(row.racerId, row);
  const inGroup = [...byId.values()];
  const rekeyed =
    ranking === "multistage" && snapshot.stage ? inGroup.map((row) => allStagesResult(row, row.stageTimes ?? [], row.stageBonuses ?? [])) : inGroup;
  const sorted = rekeyed.sort((a, b) => compareKeys(a.key, b.key));
  const ranked = rankSorted(sorted, group.sameTimeThreshold).map(({ result, ...place }) => ({
    ...place,
    row: byId.get(result.racerId) ?? (result as ResultRow),
  }));
  const leader = ranked.find((r) => r.rank === 1);
  const out: RankedGroup = { group, ranked, rows: sorted, leaderLaps: leader ? leader.row.laps : null, memo: { orders: new Map() } };
  if (snapshot.relay) {
    const members = relayMembersOf(
      sorted.map((row) => ({ ...row, leg: row.leg ?? null, handover: row.handover ?? null })),
      snapshot.relay.memberCount,
    );
    out.teams = teamResults(members, { memberCount: snapshot.relay.memberCount });
  }
  return out;
}

/**
 * Where a row sorts on a page ordered by `query`: the engine's key for the ranking (All Stages rekeyed), or the
 * sorted column's value with racers without one after everyone (then by their ranking key).
 */
export function windowSortKey(row: ResultRow, group: ResultGroupWire, query: Pick<WindowQuery, "sort" | "ranking">, multistage: boolean): number[] {
  const key = query.ranking === "multistage" && multistage ? allStagesResult(row, row.stageTimes ?? [], row.stageBonuses ?? []).key : row.key;
  if (query.sort === null) return key;
  const column = group.columns.find((c) => c.index === query.sort);
  const value = column ? splitCellTime(row.splits, column) : null;
  return [value === null ? 1 : 0, value ?? 0, ...key];
}

/** Cuts the page `query` asks for from a ranked group. */
export function groupWindow(ranked: RankedGroup, query: WindowQuery, multistage: boolean): GroupWindow {
  const { group } = ranked;
  const matches = searchMatcher(query.search);
  const sortedColumn = query.sort !== null ? group.columns.find((c) => c.index === query.sort && isSplitColumn(c)) : undefined;
  const effective: WindowQuery = { ...query, sort: sortedColumn ? sortedColumn.index : null };
  if (ranked.teams) return teamWindow(ranked, ranked.teams, effective);
  const entries = orderedBy(ranked, effective, multistage).filter((entry) => matches(entry.row));
  const { page, pages, slice } = cut(entries, effective);
  const window: GroupWindow = {
    group,
    total: ranked.ranked.length,
    matched: entries.length,
    page,
    pages,
    entries: slice,
    leaderLaps: ranked.leaderLaps,
    lastKey: slice.length === WINDOW_PAGE_SIZE ? windowSortKey(slice[slice.length - 1]!.row, group, effective, multistage) : null,
  };
  // Places and gaps at each split: asked for by the group's options, shown when ordering by a split or by times behind.
  if (group.splitRanks || group.splitGaps || sortedColumn || query.behind) window.standings = standingsFor(ranked, slice);
  return window;
}

/** A relay group's page: teams that match (by name, or by any member), a page of them, and their members' rows. */
function teamWindow(ranked: RankedGroup, teams: TeamResult[], query: WindowQuery): GroupWindow {
  const rows = new Map(ranked.ranked.map((entry) => [entry.row.racerId, entry]));
  const matching = teams.filter(teamMatcher(query.search, (racerId) => rows.get(racerId)?.row));
  const { page, pages, slice } = cut(matching, query);
  const entries = slice.flatMap((team) => team.legs.flatMap((leg) => rows.get(leg.racerId) ?? []));
  return {
    group: ranked.group,
    total: teams.length,
    matched: matching.length,
    page,
    pages,
    entries,
    teams: slice,
    leaderLaps: ranked.leaderLaps,
    // A relay page is refetched on any change to its group: a team's place moves with any member.
    lastKey: null,
  };
}

/** The page asked for (the racer's page when one is named and on the list), clamped to the pages there are. */
function cut<T>(items: T[], query: WindowQuery): { page: number; pages: number; slice: T[] } {
  const pages = Math.max(1, Math.ceil(items.length / WINDOW_PAGE_SIZE));
  let page = Math.min(query.page, pages);
  if (query.racer !== null) {
    const at = items.findIndex((item) => racerOf(item) === query.racer || teamHas(item, query.racer));
    if (at >= 0) page = Math.floor(at / WINDOW_PAGE_SIZE) + 1;
  }
  return { page, pages, slice: items.slice((page - 1) * WINDOW_PAGE_SIZE, page * WINDOW_PAGE_SIZE) };
}

function racerOf(item: unknown): string | null {
  return typeof item === "object" && item !== null && "row" in item ? (item as WindowEntry).row.racerId : null;
}

function teamHas(item: unknown, racerId: string | null): boolean {
  return typeof item === "object" && item !== null && "legs" in item && (item as TeamResult).legs.some((leg) => leg.racerId === racerId);
}

/** A column of split times (not a shooting, run, enduro segment or stage): what can be ordered by and folded away on phones. */
export function isSplitColumn(column: ResultGroupWire["columns"][number]): boolean {
  return column.shooting === undefined && column.run === undefined && column.segment === undefined && column.stage === undefined;
}

/** The group's entries in the page's order: the ranking, or a column's values (sorted once per group and version). */
function orderedBy(ranked: RankedGroup, query: WindowQuery, multistage: boolean): WindowEntry[] {
  if (query.sort === null) return ranked.ranked;
  const cached = ranked.memo.orders.get(query.sort);
  if (cached) return cached;
  const keyed = ranked.ranked.map((entry) => ({ entry, key: windowSortKey(entry.row, ranked.group, query, multistage) }));
  keyed.sort((a, b) => compareKeys(a.key, b.key));
  const order = keyed.map((k) => k.entry);
  ranked.memo.orders.set(query.sort, order);
  return order;
}

/** Standings over the whole group, kept only for the page's rows (the page needs their places, not 27,000). */
function standingsFor(ranked: RankedGroup, slice: readonly WindowEntry[]): WindowStanding[] {
  ranked.memo.standings ??= columnStandings(ranked.rows, ranked.group.columns);
  return [...ranked.memo.standings].map(([index, standing]) => {
    const places: Record<string, number> = {};
    for (const entry of slice) {
      const place = standing.ranks.get(entry.row.racerId);
      if (place !== undefined) places[entry.row.racerId] = place;
    }
    return { index, best: standing.best, places };
  });
}

/** Finishers the announcer's view lists. */
export const ANNOUNCER_LATEST = 10;

/** The announcer's view: the latest finishers of the whole format, newest first. */
export function latestFinishers(rows: Iterable<ResultRow>, count: number = ANNOUNCER_LATEST): ResultRow[] {
  return [...rows]
    .filter((row) => row.status === "finished" && row.finish !== null)
    .sort((a, b) => (b.finish ?? 0) - (a.finish ?? 0))
    .slice(0, count);
}

/** The groups' tab list and the chosen group's page: the first group when none (or an unknown one) is asked for. */
export function resultsWindow(
  format: Omit<FormatSnapshot, "rows" | "groups">,
  groups: readonly { group: ResultGroupWire; total: number }[],
  rankedOf: (groupId: string) => RankedGroup | null,
  query: WindowQuery,
  latest?: () => ResultRow[],
): ResultsWindow {
  const chosen = groups.find((g) => g.group.id === query.group) ?? groups[0];
  const ranked = chosen ? rankedOf(chosen.group.id) : null;
  const current = ranked ? groupWindow(ranked, query, format.stage !== undefined) : null;
  return {
    format,
    groups: groups.map((g) => ({ id: g.group.id, name: g.group.name, total: g.total })),
    current,
    // The page shown (a racer's, or the last when past it), so fetching this query again keeps the reader where they are.
    query: { ...query, group: chosen?.group.id ?? null, page: current?.page ?? 1 },
    ...(format.isAnnouncer && latest ? { latest: latest() } : {}),
  };
}
