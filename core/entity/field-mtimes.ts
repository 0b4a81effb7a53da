/**
 * Per-field modification times (spec: "Changes are tracked by modification time per field").
 * Each row keeps a map field -> epoch milliseconds of its last write, so a client can send only the
 * fields it changed, a stale write to one field is detectable, and subscribers get only what changed.
 */
export type FieldMtimes = Record<string, number>;

export interface FieldChangeResult<T extends Record<string, unknown>> {
  /** The fields whose value actually changed, with their new values. */
  changed: Partial<T>;
  /** The row's field times after the change. */
  mtimes: FieldMtimes;
  /** Fields the caller based on an older version than the one stored; they were not written. */
  stale: string[];
}

/** Field times for a newly created row: every given field stamped with `now`. */
export function initialMtimes(fields: Record<string, unknown>, now: number): FieldMtimes {
  const mtimes: FieldMtimes = {};
  for (const key of Object.keys(fields)) {
    if (fields[key] !== undefined) mtimes[key] = now;
  }
  return mtimes;
}

/**
 * Applies a partial update. `baseMtimes` are the field times the client last read; a field stored with a
 * newer time than the client's base was changed by someone else since, so that write is refused as stale.
 * Times only move forward: a field written twice in one millisecond still gets a strictly larger time.
 */
export function applyFieldChanges<T extends Record<string, unknown>>(
  current: T,
  currentMtimes: FieldMtimes,
  changes: Partial<T>,
  now: number,
  baseMtimes?: FieldMtimes,
): FieldChangeResult<T> {
  const changed: Partial<T> = {};
  const mtimes: FieldMtimes = { ...currentMtimes };
  const stale: string[] = [];
  for (const key of Object.keys(changes) as (keyof T & string)[]) {
    const next = changes[key];
    if (next === undefined) continue;
    // A write of what is already stored loses nothing, however old its base: a resent form (a double click, a
    // reload) is a no-op rather than a conflict.
    if (sameValue(current[key], next)) continue;
    const storedTime = currentMtimes[key] ?? 0;
    const base = baseMtimes?.[key];
    if (base !== undefined && storedTime > base) {
      stale.push(key);
      continue;
    }
    changed[key] = next;
    mtimes[key] = Math.max(now, storedTime + 1);
  }
  return { changed, mtimes, stale };
}

/** The newest modification time of a row, or 0 for a row with none. */
export function lastModified(mtimes: FieldMtimes): number {
  let latest = 0;
  for (const time of Object.values(mtimes)) latest = Math.max(latest, time);
  return latest;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a === "object" && typeof b === "object" && a !== null && b !== null) {
    return JSON.stringify(a) === JSON.stringify(b);
  }
  return false;
}

/** Field times move forward for the fields just written (style: `Math.max(now, last + 1)`). */
export function bumpMtimes(mtimes: FieldMtimes, fields: readonly string[], now: number): FieldMtimes {
  const next = { ...mtimes };
  for (const field of fields) next[field] = Math.max(now, (next[field] ?? 0) + 1);
  return next;
}
