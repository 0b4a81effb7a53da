/**
 * Token families (RFC 6749 §4.1.2, RFC 9700 §4.14.2): every pair issued from one authorisation code, and every
 * pair rotated from those, shares a family id, so a sign of theft (a replayed code, a reused refresh token)
 * can end the whole grant at once. Rows made before families existed are each their own family (their id).
 */
import { and, eq, isNull, or } from "drizzle-orm";
import { oauthTokens, type Db } from "../../schema/d1";

export function newFamilyId(): string {
  return crypto.randomUUID();
}

/** The family a token row belongs to; a row from before families is a family of one, keyed by its id. */
export function familyOf(row: { id: string; familyId: string | null }): string {
  return row.familyId ?? row.id;
}

/** Revokes every still-live pair of a family (its access tokens with their refresh tokens). */
export async function revokeFamily(db: Db, family: string, now: number): Promise<void> {
  await db
    .update(oauthTokens)
    .set({ revokedAt: now })
    .where(and(or(eq(oauthTokens.familyId, family), eq(oauthTokens.id, family)), isNull(oauthTokens.revokedAt)));
}
