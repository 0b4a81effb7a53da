/** A spectator shard's copy of a format's rows, kept in step with the frames it forwards. */
import type { FormatSnapshot, ResultRow } from "../schema/wire/race-socket";
import type { WireFrame } from "./frame-history";

/** A format's rows as this shard last forwarded them, so a new socket gets a snapshot that its next frame follows. */
export interface CachedFormat {
  snapshot: FormatSnapshot;
  rows: Map<string, ResultRow>;
  /** The snapshot frame as sent (packed once, decision 0039), built when a socket first needs it. */
  wire: WireFrame | null;
}

export function cacheOf(snapshot: FormatSnapshot): CachedFormat {
  const { rows, ...rest } = snapshot;
  return { snapshot: { ...rest, rows: [] }, rows: new Map(rows.map((r) => [r.racerId, r])), wire: null };
}

/** A frame's rows replace the racers' rows in the cache (an empty group list takes a racer out). */
export function applyRows(cached: CachedFormat, rows: readonly ResultRow[], version: string): void {
  for (const row of rows) {
    if (row.groups.length === 0) cached.rows.delete(row.racerId);
    else cached.rows.set(row.racerId, row);
  }
  cached.snapshot = { ...cached.snapshot, version };
  cached.wire = null;
}
