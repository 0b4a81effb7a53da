/**
 * Pages of a result format cut from its groups ranked on all their racers (decision 0044): the RaceRoom
 * ranks each group once per version (durable/race/result-windows.ts) and every request only filters and
 * slices. The pages' shapes and address are in results-window.ts.
 */
import { compareKeys, rankSorted } from "../../core/timing/rank";
import { allStagesResult, type RankingType } from "../../core/timing/multistage";
import { columnStandings } from "../../core/timing/result-columns";
import { relayMembersOf, teamResults, type TeamResult } from "../../core/timing/relay";
import type { FormatSnapshot, ResultGroupWire, ResultRow } from "./race-socket";
import {
  isSplitColumn,
  searchMatcher,
  WINDOW_PAGE_SIZE,
  windowSortKey,
  type GroupWindow,
  type ResultsWindow,
  type WindowEntry,
  type WindowQuery,
  type WindowStanding,
} from "./results-window";

/** One group ranked on all its racers: what a window is cut from (the room keeps it per version). */
export interface RankedGroup {
  group: ResultGroupWire;
  ranked: WindowEntry[];
  /** The rank order's rows (All Stages rekeyed), for standings and relays. */
  rows: ResultRow[];
  leaderLaps: number | null;
  teams?: TeamResult[];
  /** Built on first use and kept with the group: each request then only filters and slices. */
  memo: { standings?: ReturnType<typeof columnStandings>; orders: Map<number, ColumnOrder> };
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

/** Cuts the page `query` asks for from a ranked group. */
export function groupWindow(ranked: RankedGroup, query: WindowQuery, multistage: boolean): GroupWindow {
  const { group } = ranked;
  const matches = searchMatcher(query.search);
  const sortedColumn = query.sort !== null ? group.columns.find((c) => c.index === query.sort && isSplitColumn(c)) : undefined;
  const effective: WindowQuery = { ...query, sort: sortedColumn ? sortedColumn.index : null };
  if (ranked.teams) return teamWindow(ranked, ranked.teams, effective);
  const ordered = orderedBy(ranked, effective, multistage);
  const entries = (ordered?.order ?? ranked.ranked).filter((entry) => matches(entry.row));
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
  if (group.splitRanks || group.splitGaps || query.behind) window.standings = standingsFor(ranked, slice);
  if (ordered)
    window.sortPlaces = Object.fromEntries(
      slice.flatMap((e) => (ordered.places.has(e.row.racerId) ? [[e.row.racerId, ordered.places.get(e.row.racerId)!]] : [])),
    );
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

/** A group in a column's order, with each racer's place by that column's value (equal values share a place). */
interface ColumnOrder {
  order: WindowEntry[];
  places: Map<string, number>;
}

/** The group's entries in the page's order: the ranking, or a column's values (sorted once per group and version). */
function orderedBy(ranked: RankedGroup, query: WindowQuery, multistage: boolean): ColumnOrder | null {
  if (query.sort === null) return null;
  const cached = ranked.memo.orders.get(query.sort);
  if (cached) return cached;
  const keyed = ranked.ranked.map((entry) => ({ entry, key: windowSortKey(entry.row, ranked.group, query, multistage) }));
  keyed.sort((a, b) => compareKeys(a.key, b.key));
  const places = new Map<string, number>();
  keyed.forEach((k, i) => {
    // Keys start [missing, value, …]: racers without the split get no place.
    if (k.key[0] !== 0) return;
    const previous = keyed[i - 1];
    const tied = previous !== undefined && previous.key[1] === k.key[1];
    places.set(k.entry.row.racerId, tied ? places.get(previous.entry.row.racerId)! : i + 1);
  });
  const order = { order: keyed.map((k) => k.entry), places };
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
