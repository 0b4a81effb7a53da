import { and, eq, inArray, sql } from "drizzle-orm";
import { failureWindowStart, isOverFailureLimit } from "../../core/auth/failure-limit";
import { authFailures, type Db } from "../../schema/d1";
import { hashToken } from "./crypto";

/** A client is its connecting IP as Cloudflare reports it, hashed: we count, we do not keep addresses. */
export function clientKeyOf(request: Request): string {
  return `client:${hashToken(request.headers.get("CF-Connecting-IP") ?? "local").slice(0, 32)}`;
}

const userKey = (userId: string) => `user:${userId}`;

/** Whether this user or this client has failed too often in the current window (counted in D1, not memory). */
export async function isLockedOut(db: Db, userId: string, clientKey: string, now: number): Promise<boolean> {
  const windowStart = failureWindowStart(now);
  const rows = await db
    .select()
    .from(authFailures)
    .where(and(eq(authFailures.windowStart, windowStart), inArray(authFailures.key, [userKey(userId), clientKey])));
  const count = (key: string) => rows.find((r) => r.key === key)?.count ?? 0;
  return isOverFailureLimit({ user: count(userKey(userId)), client: count(clientKey) });
}

/** Counts one failed verification against the user and the client, atomically per key. */
export async function recordFailure(db: Db, userId: string, clientKey: string, now: number): Promise<void> {
  const windowStart = failureWindowStart(now);
  for (const key of [userKey(userId), clientKey]) {
    await db
      .insert(authFailures)
      .values({ key, windowStart, count: 1 })
      .onConflictDoUpdate({ target: [authFailures.key, authFailures.windowStart], set: { count: sql`${authFailures.count} + 1` } });
  }
}
