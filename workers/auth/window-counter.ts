import { and, eq, gt, sql } from "drizzle-orm";
import type { authFailures, throttleCounts, Db } from "../../schema/d1";

/** The two fixed-window counter tables share one shape: (key, window_start) -> count. */
type CounterTable = typeof authFailures | typeof throttleCounts;

/**
 * Takes one unit from `key`'s window if fewer than `limit` are taken, in one conditional write: the upsert
 * only updates while count < limit, and RETURNING is empty when it did not, so parallel callers never
 * exceed the limit (a read-then-write would let them all through).
 */
export async function takeFromWindow(db: Db, table: CounterTable, key: string, windowStart: number, limit: number): Promise<boolean> {
  const taken = await db
    .insert(table)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({ target: [table.key, table.windowStart], set: { count: sql`${table.count} + 1` }, setWhere: sql`${table.count} < ${limit}` })
    .returning({ count: table.count });
  return taken.length === 1;
}

/** Gives one unit back to `key`'s window (never below zero). */
export async function giveBackToWindow(db: Db, table: CounterTable, key: string, windowStart: number): Promise<void> {
  await db
    .update(table)
    .set({ count: sql`${table.count} - 1` })
    .where(and(eq(table.key, key), eq(table.windowStart, windowStart), gt(table.count, 0)));
}
