/**
 * Pages of a format for the results page (schema/wire/results-window.ts). Each group is ranked once per
 * snapshot, and a snapshot lives until the next change, so a crowd asking for pages of one version costs one
 * ranking per group; each request then only filters and slices. Kept beside the snapshot it was cut from
 * (a WeakMap), so nothing here can outlive or disagree with the results.
 */
import type { FormatSnapshot, ResultRow } from "../../schema/wire/race-socket";
import { latestFinishers, rankGroup, resultsWindow, type RankedGroup } from "../../schema/wire/results-ranking";
import type { ResultsWindow, WindowQuery } from "../../schema/wire/results-window";

interface SnapshotGroups {
  totals: { group: FormatSnapshot["groups"][number]; total: number }[];
  ranked: Map<string, RankedGroup>;
  latest?: ResultRow[];
}

export class ResultWindows {
  private bySnapshot = new WeakMap<FormatSnapshot, SnapshotGroups>();

  window(snapshot: FormatSnapshot, query: WindowQuery): ResultsWindow {
    const held = this.groupsOf(snapshot);
    const { rows: _rows, groups: _groups, ...format } = snapshot;
    const latest = () => (held.latest ??= latestFinishers(snapshot.rows));
    return resultsWindow(format, held.totals, (groupId) => this.ranked(snapshot, held, groupId, query.ranking), query, latest);
  }

  private groupsOf(snapshot: FormatSnapshot): SnapshotGroups {
    let held = this.bySnapshot.get(snapshot);
    if (!held) {
      const counts = new Map<string, number>();
      for (const row of snapshot.rows) for (const id of row.groups) counts.set(id, (counts.get(id) ?? 0) + 1);
      held = { totals: snapshot.groups.map((group) => ({ group, total: counts.get(group.id) ?? 0 })), ranked: new Map() };
      this.bySnapshot.set(snapshot, held);
    }
    return held;
  }

  private ranked(snapshot: FormatSnapshot, held: SnapshotGroups, groupId: string, ranking: WindowQuery["ranking"]): RankedGroup | null {
    const key = `${ranking}:${groupId}`;
    const cached = held.ranked.get(key);
    if (cached) return cached;
    const group = snapshot.groups.find((g) => g.id === groupId);
    if (!group) return null;
    const ranked = rankGroup(snapshot, group, snapshot.rows, ranking);
    held.ranked.set(key, ranked);
    return ranked;
  }
}
