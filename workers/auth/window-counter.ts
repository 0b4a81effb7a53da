import { and, eq, gt, sql } from "drizzle-orm";
import { slidingWindow } from "../../core/auth/failure-limit";
import type { authFailures, throttleCounts, Db } from "../../schema/d1";

/** The two window counter tables share one shape: (key, window_start) -> count. */
type CounterTable = typeof authFailures | typeof throttleCounts;

/**
 * Takes one unit from `key`'s sliding window (core/auth/failure-limit.ts) if one more fits, in one
 * conditional write: the upsert inserts or adds only while current × W + previous × overlap ≤ (limit − 1) × W,
 * and RETURNING is empty when it did not, so parallel callers never exceed the limit (a read-then-write would
 * let them all through). Returns the fixed window the unit was taken from (to give it back), or null.
 */
export async function takeFromWindow(db: Db, table: CounterTable, key: string, now: number, windowMs: number, limit: number): Promise<number | null> {
  const w = slidingWindow(now, windowMs);
  const previous = sql`COALESCE((SELECT p.count FROM ${table} AS p WHERE p.key = ${key} AND p.window_start = ${w.previousStart}), 0)`;
  const room = sql`(${limit} - 1) * ${windowMs}`;
  const taken = await db.all<{ count: number }>(sql`
    INSERT INTO ${table} (key, window_start, count)
    SELECT ${key}, ${w.windowStart}, 1 WHERE ${previous} * ${w.previousOverlapMs} <= ${room}
    ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1
      WHERE count * ${windowMs} + ${previous} * ${w.previousOverlapMs} <= ${room}
    RETURNING count`);
  return taken.length === 1 ? w.windowStart : null;
}

/** Gives one unit back to `key`'s window (never below zero). */
export async function giveBackToWindow(db: Db, table: CounterTable, key: string, windowStart: number): Promise<void> {
  await db
    .update(table)
    .set({ count: sql`${table.count} - 1` })
    .where(and(eq(table.key, key), eq(table.windowStart, windowStart), gt(table.count, 0)));
}
