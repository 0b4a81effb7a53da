import { and, eq, isNull } from "drizzle-orm";
import { apiApplications, oauthGrants, oauthTokens, type Db } from "../../schema/d1";

/** An app the user has authorised to act for them (ASVS 3.5.1: the user can see and revoke it). */
export interface ConnectedApp {
  appId: string;
  name: string;
  description: string | null;
  scopes: string;
  authorisedAt: number;
}

/** The apps this user has authorised, newest first; only the user's own grants, whichever host issued them. */
export async function listConnectedApps(db: Db, userId: string): Promise<ConnectedApp[]> {
  const rows = await db
    .select({
      appId: oauthGrants.appId,
      name: apiApplications.name,
      description: apiApplications.description,
      scopes: oauthGrants.scopes,
      authorisedAt: oauthGrants.updatedAt,
    })
    .from(oauthGrants)
    .innerJoin(apiApplications, eq(apiApplications.id, oauthGrants.appId))
    .where(eq(oauthGrants.userId, userId));
  return rows.sort((a, b) => b.authorisedAt - a.authorisedAt);
}

/**
 * Disconnects an app from this user: the grant goes (the app must ask again) and every token it holds for the
 * user is revoked at once, in one batch. Another user's grant is never touched; false when there was none.
 */
export async function disconnectApp(db: Db, userId: string, appId: string, now: number): Promise<boolean> {
  const [removed] = await db.batch([
    db
      .delete(oauthGrants)
      .where(and(eq(oauthGrants.userId, userId), eq(oauthGrants.appId, appId)))
      .returning({ id: oauthGrants.id }),
    db
      .update(oauthTokens)
      .set({ revokedAt: now })
      .where(and(eq(oauthTokens.userId, userId), eq(oauthTokens.appId, appId), isNull(oauthTokens.revokedAt))),
  ]);
  return removed.length > 0;
}
