/**
 * A results page's copy of one format, kept current by socket frames. Ranking uses the same
 * core/timing/rank.ts as the server, so a pushed row lands exactly where a reload would put it.
 */
import type { RankingType } from "../../core/timing/multistage";
import type { TeamResult } from "../../core/timing/relay";
import { columnStandings, type ColumnStanding } from "../../core/timing/result-columns";
import type { RankedResult } from "../../core/timing/model";
import type { FormatSnapshot, ResultGroupWire, ResultRow } from "../../schema/wire/race-socket";
import { searchMatcher } from "../../schema/wire/results-window";
import { rankGroup, teamMatcher } from "../../schema/wire/results-ranking";

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
 * Each group's rows in order, ranked on the whole group, then narrowed to a search by name, club or bib. In a
 * multistage race the "multistage" ranking (All Stages) ranks on every stage's total.
 */
export function groupViews(state: ResultsState, query: string, ranking: RankingType = "default"): GroupView[] {
  const matches = searchMatcher(query);
  return state.snapshot.groups.map((group) => {
    const ranked = rankGroup(state.snapshot, group, state.rows.values(), ranking);
    const view: GroupView = {
      group,
      ranked: ranked.ranked.filter((r) => matches(r.row)).map((r) => ({ ...r, result: r.row })),
      total: ranked.ranked.length,
      leaderLaps: ranked.leaderLaps,
    };
    if (group.splitRanks || group.splitGaps) view.standings = columnStandings(ranked.rows, group.columns);
    if (!ranked.teams) return view;
    return { ...view, teams: ranked.teams.filter(teamMatcher(query, (racerId) => state.rows.get(racerId))) };
  });
}
