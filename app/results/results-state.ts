/**
 * A results page's copy of one format, kept current by socket frames. Ranking uses the same
 * core/timing/rank.ts as the server, so a pushed row lands exactly where a reload would put it.
 */
import { compareKeys, rankSorted } from "../../core/timing/rank";
import { allStagesResult, type RankingType } from "../../core/timing/multistage";
import { relayMembersOf, teamResults, type TeamResult } from "../../core/timing/relay";
import { columnStandings, type ColumnStanding } from "../../core/timing/result-columns";
import type { RankedResult } from "../../core/timing/model";
import type { FormatSnapshot, ResultGroupWire, ResultRow } from "../../schema/wire/race-socket";

export interface ResultsState {
  snapshot: Omit<FormatSnapshot, "rows">;
  rows: ReadonlyMap<string, ResultRow>;
  /** Racers whose row changed in the last frame, for a brief highlight. */
  changed: ReadonlySet<string>;
}

export function stateFromSnapshot(snapshot: FormatSnapshot): ResultsState {
  const { rows, ...rest } = snapshot;
  return { snapshot: rest, rows: new Map(rows.map((row) => [row.racerId, row])), changed: new Set() };
}

/**
 * Applies a frame of changed rows. Returns null when the frame does not follow this copy's version
 * (a push was missed): the page must fetch a snapshot instead of guessing.
 */
export function applyRows(state: ResultsState, from: string, version: string, rows: readonly ResultRow[]): ResultsState | null {
  if (from !== state.snapshot.version) return null;
  const next = new Map(state.rows);
  for (const row of rows) {
    if (row.groups.length === 0) next.delete(row.racerId);
    else next.set(row.racerId, row);
  }
  return { snapshot: { ...state.snapshot, version }, rows: next, changed: new Set(rows.map((r) => r.racerId)) };
}

export interface GroupView {
  group: ResultGroupWire;
  ranked: (RankedResult & { row: ResultRow })[];
  /** Rows in the group before the search narrowed it. */
  total: number;
  /** Relay races: the group's teams in rank order (narrowed by the search to teams it matches). */
  teams?: TeamResult[];
  /** Places and fastest values at each split column, over the whole group (when the group shows split places or gaps). */
  standings?: Map<number, ColumnStanding>;
  /** Laps of the group's leader (before any search), for laps-behind diffs. */
  leaderLaps: number | null;
}

/**
 * Each group's rows in order, ranked on the whole group, then narrowed to a search by name or bib. In a
 * multistage race the "multistage" ranking (All Stages) ranks on every stage's total.
 */
export function groupViews(state: ResultsState, query: string, ranking: RankingType = "default"): GroupView[] {
  const needle = query.trim().toLowerCase();
  // A number is a bib (exactly), anything else part of a name.
  const isBib = /^\d+$/.test(needle);
  const matches = (row: ResultRow) => needle === "" || (isBib ? String(row.bib ?? "") === needle : row.name.toLowerCase().includes(needle));
  return state.snapshot.groups.map((group) => {
    const inGroup = [...state.rows.values()].filter((row) => row.groups.includes(group.id));
    const rekeyed =
      ranking === "multistage" && state.snapshot.stage ? inGroup.map((row) => allStagesResult(row, row.stageTimes ?? [], row.stageBonuses ?? [])) : inGroup;
    const rows = rekeyed.sort((a, b) => compareKeys(a.key, b.key));
    // The page shows the racer's own row (this stage's time in All Stages too); the rank, shown time and diff are the ranking's.
    const ranked = rankSorted(rows, group.sameTimeThreshold).map((r) => ({ ...r, row: state.rows.get(r.result.racerId) ?? (r.result as ResultRow) }));
    const leader = ranked.find((r) => r.rank === 1);
    const view: GroupView = { group, ranked: ranked.filter((r) => matches(r.row)), total: rows.length, leaderLaps: leader ? leader.row.laps : null };
    if (group.splitRanks || group.splitGaps) view.standings = columnStandings(rows, group.columns);
    const relay = state.snapshot.relay;
    if (!relay) return view;
    // A team matches when its name does or any member does (a bib finds its racer's team).
    const teamMatches = (team: TeamResult) =>
      needle === "" || (!isBib && team.team.toLowerCase().includes(needle)) || team.legs.some((leg) => matches(state.rows.get(leg.racerId) as ResultRow));
    const members = relayMembersOf(
      rows.map((row) => ({ ...row, leg: row.leg ?? null, handover: row.handover ?? null })),
      relay.memberCount,
    );
    return { ...view, teams: teamResults(members, { memberCount: relay.memberCount }).filter(teamMatches) };
  });
}

/** The announcer's view: the latest finishers of the whole format, newest first. */
export function latestFinishers(state: ResultsState, count: number): ResultRow[] {
  return [...state.rows.values()]
    .filter((row) => row.status === "finished" && row.finish !== null)
    .sort((a, b) => (b.finish ?? 0) - (a.finish ?? 0))
    .slice(0, count);
}
