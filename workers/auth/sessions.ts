import { and, eq } from "drizzle-orm";
import { SESSION_ABSOLUTE_MS, SESSION_HANDOFF_MS, SESSION_RENEW_BELOW_MS, SESSION_TTL_MS } from "../../core/auth/constants";
import { sessions, users, type Db } from "../../schema/d1";
import { constantTimeEqualText, hashToken, randomToken } from "./crypto";

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  emoji: string | null;
}

export interface ValidSession {
  id: string;
  host: string;
  expiresAt: number;
  activeRoleId: string | null;
  createdAt: number;
  /** When this session last completed a full sign-in or re-authentication (null: never recorded). */
  verifiedAt: number | null;
  user: SessionUser;
  /** True when the expiry moved forward: the cookie must be sent again. */
  renewed: boolean;
}

/**
 * Creates a session for `host`. A session for another host starts unclaimed and short-lived: it becomes a
 * cookie only when that host's /_auth/login receives its token.
 */
export async function createSession(
  db: Db,
  userId: string,
  host: string,
  now: number,
  claimed: boolean,
  // A session made from another session (a role switch) keeps its age and verification, so switching never refreshes either.
  from: { createdAt: number; verifiedAt: number | null } = { createdAt: now, verifiedAt: now },
): Promise<{ token: string; expiresAt: number }> {
  const id = randomToken(15);
  const secret = randomToken(20);
  const expiresAt = Math.min(now + (claimed ? SESSION_TTL_MS : SESSION_HANDOFF_MS), from.createdAt + SESSION_ABSOLUTE_MS);
  await db.insert(sessions).values({
    id,
    secretHash: hashToken(secret),
    userId,
    host,
    isClaimed: claimed,
    createdAt: from.createdAt,
    expiresAt,
    lastUsedAt: now,
    verifiedAt: from.verifiedAt,
  });
  return { token: `${id}.${secret}`, expiresAt };
}

async function findSession(db: Db, token: string, host: string, now: number) {
  const [id, secret] = token.split(".");
  if (!id || !secret) return null;
  const [row] = await db
    .select({ session: sessions, user: { id: users.id, name: users.name, email: users.email, emoji: users.emoji } })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, id))
    .limit(1);
  if (!row) return null;
  if (!constantTimeEqualText(row.session.secretHash, hashToken(secret))) return null;
  if (row.session.host !== host) return null;
  if (row.session.expiresAt <= now || row.session.createdAt + SESSION_ABSOLUTE_MS <= now) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  return row;
}

function validFrom(row: { session: typeof sessions.$inferSelect; user: SessionUser }, host: string, expiresAt: number, renewed: boolean): ValidSession {
  const { id, activeRoleId, createdAt, verifiedAt } = row.session;
  return { id, host, expiresAt, activeRoleId, createdAt, verifiedAt, user: row.user, renewed };
}

/**
 * The session a cookie names on this host, with its expiry slid forward when less than half remains, but
 * never past its absolute limit: 90 days after creation however often it is used.
 */
export async function validateSession(db: Db, token: string, host: string, now: number): Promise<ValidSession | null> {
  const row = await findSession(db, token, host, now);
  if (!row || !row.session.isClaimed) return null;
  let { expiresAt } = row.session;
  const limit = row.session.createdAt + SESSION_ABSOLUTE_MS;
  const renewed = expiresAt - now < SESSION_RENEW_BELOW_MS && expiresAt < limit;
  if (renewed) expiresAt = Math.min(now + SESSION_TTL_MS, limit);
  await db.update(sessions).set({ lastUsedAt: now, expiresAt }).where(eq(sessions.id, row.session.id));
  return validFrom(row, host, expiresAt, renewed);
}

/** Turns a handed-over token into this host's session, once; a second claim of the same token fails. */
export async function claimSession(db: Db, token: string, host: string, now: number, userAgent: string | null = null): Promise<ValidSession | null> {
  const row = await findSession(db, token, host, now);
  if (!row || row.session.isClaimed) return null;
  const expiresAt = Math.min(now + SESSION_TTL_MS, row.session.createdAt + SESSION_ABSOLUTE_MS);
  const claimed = await db
    .update(sessions)
    .set({ isClaimed: true, expiresAt, lastUsedAt: now, userAgent })
    .where(and(eq(sessions.id, row.session.id), eq(sessions.isClaimed, false)))
    .returning({ id: sessions.id });
  if (claimed.length === 0) return null;
  return validFrom(row, host, expiresAt, true);
}

export async function setActiveRole(db: Db, sessionId: string, roleId: string | null): Promise<void> {
  await db.update(sessions).set({ activeRoleId: roleId }).where(eq(sessions.id, sessionId));
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}
