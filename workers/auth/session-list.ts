import { and, eq, gt, ne } from "drizzle-orm";
import { SESSION_ABSOLUTE_MS } from "../../core/auth/constants";
import { sessions, type Db } from "../../schema/d1";
import { hashToken } from "./crypto";

/** One row of "your sessions"; `handle` names it in forms so the session id (half the cookie) never reaches a page. */
export interface SessionRow {
  handle: string;
  host: string;
  createdAt: number;
  lastUsedAt: number;
  userAgent: string | null;
  current: boolean;
}

export async function listSessions(db: Db, userId: string, currentSessionId: string | null, now: number): Promise<SessionRow[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.isClaimed, true), gt(sessions.expiresAt, now), gt(sessions.createdAt, now - SESSION_ABSOLUTE_MS)));
  return rows
    .map((s) => ({
      handle: hashToken(s.id),
      host: s.host,
      createdAt: s.createdAt,
      lastUsedAt: s.lastUsedAt,
      userAgent: s.userAgent,
      current: s.id === currentSessionId,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastUsedAt - a.lastUsedAt);
}

/** Signs out one of the user's own sessions; a handle of another user's session matches nothing. */
export async function revokeSession(db: Db, userId: string, handle: string): Promise<boolean> {
  const own = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId));
  const target = own.find((s) => hashToken(s.id) === handle);
  if (!target) return false;
  const removed = await db
    .delete(sessions)
    .where(and(eq(sessions.id, target.id), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return removed.length === 1;
}

/** Signs out every session of the user but `keepSessionId` (null: all of them). */
export async function revokeOtherSessions(db: Db, userId: string, keepSessionId: string | null): Promise<void> {
  await db.delete(sessions).where(keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId));
}

/** Records a completed re-authentication on the user's own session. */
export async function markSessionVerified(db: Db, sessionId: string, userId: string, now: number): Promise<boolean> {
  const done = await db
    .update(sessions)
    .set({ verifiedAt: now })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return done.length === 1;
}
