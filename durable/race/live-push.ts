/**
 * What spectators have been sent, kept in the RaceRoom's storage (table live_push, one row, and
 * live_pending_racers). The room may be evicted between any two requests; a fresh instance reads this back
 * and rebuilds its results at the last published log position, so the next push still finds every change.
 * docs/decisions/0023-live-results-across-eviction.md.
 */

export interface PushState {
  /** The newest result version published; every change gets the next one. */
  version: number;
  /** The crossing-log position that version includes: reads after it are not yet sent. */
  pushedSeq: number;
  /** A setup change: every format is sent whole at the next push. */
  snapshotDue: boolean;
  heatsVersion: number;
  heatsDue: boolean;
  /** Spectator shards this race publishes to (they grow with the audience). */
  shards: number;
  /** Per format, the version of its last change: a format's frames chain from one change to the next. */
  formatVersions: Record<string, number>;
}

interface PushRow extends Record<string, SqlStorageValue> {
  version: number;
  pushed_seq: number;
  snapshot_due: number;
  heats_version: number;
  heats_due: number;
  shards: number;
  format_versions: string;
}

export class LivePushStore {
  constructor(private readonly sql: SqlStorage) {}

  read(): PushState {
    const row = this.sql.exec<PushRow>("SELECT * FROM live_push WHERE id = 1").toArray()[0];
    if (!row) return { version: 0, pushedSeq: 0, snapshotDue: false, heatsVersion: 0, heatsDue: false, shards: 1, formatVersions: {} };
    return {
      version: row.version,
      pushedSeq: row.pushed_seq,
      snapshotDue: row.snapshot_due === 1,
      heatsVersion: row.heats_version,
      heatsDue: row.heats_due === 1,
      shards: row.shards,
      formatVersions: JSON.parse(row.format_versions) as Record<string, number>,
    };
  }

  /** Racers whose rows must go out at the next push (written with the change that touched them). */
  markRacers(racerIds: Iterable<string>): void {
    for (const id of racerIds) this.sql.exec("INSERT INTO live_pending_racers (racer_id) VALUES (?) ON CONFLICT DO NOTHING", id);
  }

  pendingRacers(): string[] {
    return this.sql
      .exec<{ racer_id: string }>("SELECT racer_id FROM live_pending_racers")
      .toArray()
      .map((r) => r.racer_id);
  }

  markSnapshot(): void {
    this.sql.exec("UPDATE live_push SET snapshot_due = 1 WHERE id = 1");
  }

  /** The bracket changed: it gets its new version now, so a page reading it sees the version its frame will carry. */
  markHeats(now: number): void {
    this.sql.exec("UPDATE live_push SET heats_due = 1, heats_version = MAX(?, heats_version + 1) WHERE id = 1", now);
  }

  /** Whether anything written is not yet published. */
  hasWork(lastSeq: number): boolean {
    const state = this.read();
    return state.snapshotDue || state.heatsDue || lastSeq > state.pushedSeq || this.pendingRacers().length > 0;
  }

  /** Records a published version: what it includes, and that its pending racers and flags are done. */
  commit(next: { version: number; pushedSeq: number; formatVersions: Record<string, number> }): void {
    this.sql.exec(
      "UPDATE live_push SET version = ?, pushed_seq = ?, format_versions = ?, snapshot_due = 0, heats_due = 0 WHERE id = 1",
      next.version,
      next.pushedSeq,
      JSON.stringify(next.formatVersions),
    );
    this.sql.exec("DELETE FROM live_pending_racers");
  }

  setShards(count: number): void {
    this.sql.exec("UPDATE live_push SET shards = ? WHERE id = 1", count);
  }
}
