/**
 * Patch frames (decision 0059): a socket that holds a whole format (`?patch=1`) is sent only what changed in
 * each racer's row, not the row again. Most of a row is the same from one crossing to the next (name, club,
 * groups, the splits already passed), and bytes are what a shard's sends cost per socket. A racer the socket
 * does not hold yet, or a row that lost a field, goes whole.
 */
import type { ResultRow, RowChange } from "./race-socket";

export type { RowChange };

/**
 * The change that takes `before` to `after` (the same racer): the fields whose value changed, and for splits
 * only the new ones when the held ones are unchanged (a racer passing a point adds one). Null when `after` must go whole: it dropped a
 * field `before` had, which a change cannot say.
 */
export function rowChange(before: ResultRow, after: ResultRow): RowChange | null {
  // A racer deleted and added again has a new handle: the client must learn it from the whole row.
  if (before.h !== after.h) return null;
  // Named by handle: a few bytes where the id is 36 characters that do not compress (41% of a patch frame).
  const change: RowChange = after.h === undefined ? { racerId: after.racerId } : { h: after.h };
  // A key holding undefined is absent on the wire (JSON), whichever way the row came.
  for (const key of Object.keys(before) as (keyof ResultRow)[]) if (before[key] !== undefined && after[key] === undefined) return null;
  for (const key of Object.keys(after) as (keyof ResultRow)[]) {
    if (key === "racerId" || key === "h" || after[key] === undefined) continue;
    if (key === "splits") {
      const from = sharedPrefix(before.splits, after.splits);
      if (from === after.splits.length && from === before.splits.length) continue;
      change.splits = after.splits.slice(from);
      if (from > 0) change.splitsFrom = from;
      continue;
    }
    if (!sameValue(before[key], after[key])) (change as Record<string, unknown>)[key] = after[key];
  }
  return change;
}

/** `before` with `change` applied; the racer's row as the server has it. */
export function applyRowChange(before: ResultRow, change: RowChange): ResultRow {
  const { racerId: _racerId, h: _h, splitsFrom, splits, ...fields } = change;
  const row = { ...before, ...fields } as ResultRow;
  if (splits !== undefined) row.splits = splitsFrom === undefined ? splits : [...before.splits.slice(0, splitsFrom), ...splits];
  return row;
}

/** A frame's rows as a patch frame's two lists: changes to rows the socket holds, and rows it gets whole. */
export function patchRows(held: ReadonlyMap<string, ResultRow>, rows: readonly ResultRow[]): { rows: ResultRow[]; changes: RowChange[] } {
  const whole: ResultRow[] = [];
  const changes: RowChange[] = [];
  for (const row of rows) {
    const before = held.get(row.racerId);
    const change = before ? rowChange(before, row) : null;
    if (change) changes.push(change);
    else whole.push(row);
  }
  return { rows: whole, changes };
}

/** How many leading splits two lists share (a racer's splits mostly only grow). */
function sharedPrefix(a: ResultRow["splits"], b: ResultRow["splits"]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.index !== y.index || x.coursePointId !== y.coursePointId || x.lap !== y.lap || x.time !== y.time || x.elapsed !== y.elapsed) return i;
  }
  return n;
}

/** Equal as JSON values (rows are JSON: numbers, strings, null, arrays and plain objects). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((value, i) => sameValue(value, other[i]));
  }
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return keysA.length === keysB.length && keysA.every((key) => key in b && sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
