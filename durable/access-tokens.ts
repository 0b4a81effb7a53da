import { eq } from "drizzle-orm";
import { parseScopeText } from "../core/access/scope-text";
import type { ScopeGrant } from "../core/access/scopes";
import { hashToken } from "../core/auth/tokens";
import { oauthTokens, type Db } from "../schema/d1";

export type AccessTokenCheck =
  | { ok: true; userId: string; appId: string; scopes: ScopeGrant[]; expiresAt: number }
  | { ok: false; reason: "missing" | "invalid" | "expired" };

/**
 * Who an OAuth access token acts for. It is valid only on the host it was issued for, until it expires or is
 * revoked (a revoked family included). It lives below the Worker because the DataHub checks the tokens its
 * sockets send too; workers/data-api/oauth.ts turns a refusal into the HTTP challenge.
 */
export async function checkAccessToken(db: Db, host: string, authorization: string | null, now: number): Promise<AccessTokenCheck> {
  const match = /^Bearer\s+([A-Za-z0-9_-]+)$/.exec(authorization ?? "");
  if (!match?.[1]) return { ok: false, reason: "missing" };
  const token = await db.query.oauthTokens.findFirst({ where: eq(oauthTokens.accessTokenHash, hashToken(match[1])) });
  if (!token || token.revokedAt !== null || token.host !== host) return { ok: false, reason: "invalid" };
  if (token.accessExpiresAt <= now) return { ok: false, reason: "expired" };
  return { ok: true, userId: token.userId, appId: token.appId, scopes: parseScopeText(token.scopes).grants, expiresAt: token.accessExpiresAt };
}

/** The refusal's words, shared by the HTTP challenge and the socket's error message. */
export const accessTokenRefusal = {
  missing: "No bearer token",
  invalid: "The access token is invalid",
  expired: "The access token expired",
} as const;
