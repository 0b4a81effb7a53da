import { and, eq, isNull, or, sql } from "drizzle-orm";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { sha256 } from "@oslojs/crypto/sha2";
import { formatScopeText, parseScopeText, scopesOfRoles } from "../../core/access/scope-text";
import { intersectScopes, type ScopeGrant } from "../../core/access/scopes";
import { apiApplications, oauthCodes, oauthGrants, oauthTokens, type Db } from "../../schema/d1";
import type { Tenant } from "../../tenants/resolve";
import { constantTimeEqualText, hashToken, randomToken } from "../auth/crypto";
import { loadRoles } from "../auth/roles";
import { accessTokenRefusal, checkAccessToken } from "../../durable/access-tokens";
import { familyOf, newFamilyId, revokeFamily } from "./token-families";

/** An access token outlives the SDK's refresh threshold of 3000 s (spec section 9) by ten minutes. */
export const ACCESS_TOKEN_TTL_MS = 60 * 60 * 1000;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const CODE_TTL_MS = 2 * 60 * 1000;

export const MISSING_PARAMETERS = "Missing required parameters for app authorization";

export type App = typeof apiApplications.$inferSelect;

/** An app as a tenant sees it: a site's own apps on its host, platform apps (no site) on the main and admin hosts. */
export async function findApp(db: Db, tenant: Tenant, clientId: string | null | undefined): Promise<App | null> {
  if (!clientId) return null;
  const app = await db.query.apiApplications.findFirst({ where: eq(apiApplications.id, clientId) });
  if (!app) return null;
  const appTenant = app.siteId ?? null;
  const requestTenant = tenant.kind === "site" ? tenant.siteId : null;
  return appTenant === requestTenant ? app : null;
}

export interface AuthorizeParams {
  response_type: string | null;
  client_id: string | null;
  redirect_uri: string | null;
  state: string | null;
  scope: string | null;
  code_challenge: string | null;
  code_challenge_method: string | null;
}

export function authorizeParamsFrom(search: URLSearchParams | FormData): AuthorizeParams {
  const get = (name: string) => {
    const value = search.get(name);
    return typeof value === "string" && value !== "" ? value : null;
  };
  return {
    response_type: get("response_type"),
    client_id: get("client_id"),
    redirect_uri: get("redirect_uri"),
    state: get("state"),
    scope: get("scope"),
    code_challenge: get("code_challenge"),
    code_challenge_method: get("code_challenge_method"),
  };
}

export type AuthorizeCheck =
  | {
      ok: true;
      app: App;
      params: AuthorizeParams & { redirect_uri: string; state: string; code_challenge: string };
      requested: ScopeGrant[];
      illegal: string[];
    }
  /** Shown on our own page: with no trusted redirect URI we never redirect. */
  | { ok: false; kind: "page"; message: string }
  /** Sent back to the app's registered redirect URI as an OAuth error. */
  | { ok: false; kind: "redirect"; location: string };

function errorRedirect(redirectUri: string, error: string, description: string, state: string | null): string {
  const url = new URL(redirectUri);
  url.searchParams.set("error", error);
  url.searchParams.set("error_description", description);
  if (state) url.searchParams.set("state", state);
  return url.toString();
}

/** Validates an authorisation request (RFC 6749 4.1.1 with PKCE, S256 only). */
export async function checkAuthorizeRequest(db: Db, tenant: Tenant, params: AuthorizeParams): Promise<AuthorizeCheck> {
  if (!params.client_id || !params.redirect_uri || !params.response_type) return { ok: false, kind: "page", message: MISSING_PARAMETERS };
  const app = await findApp(db, tenant, params.client_id);
  if (!app) return { ok: false, kind: "page", message: "Unknown application" };
  // With no valid redirect URI, render the error here; never redirect.
  if (!app.redirectUris.includes(params.redirect_uri))
    return { ok: false, kind: "page", message: "That redirect address is not registered for this application" };
  const redirectUri = params.redirect_uri;
  if (params.response_type !== "code")
    return {
      ok: false,
      kind: "redirect",
      location: errorRedirect(redirectUri, "unsupported_response_type", "Only response_type=code is supported", params.state),
    };
  if (!params.state) return { ok: false, kind: "redirect", location: errorRedirect(redirectUri, "invalid_request", "state is required", null) };
  if (!params.code_challenge || params.code_challenge_method !== "S256") {
    return {
      ok: false,
      kind: "redirect",
      location: errorRedirect(redirectUri, "invalid_request", "PKCE with code_challenge_method=S256 is required", params.state),
    };
  }
  const { grants, unknown } = parseScopeText(params.scope);
  const allowed = parseScopeText(app.scopes).grants;
  const requested = intersectScopes(grants, allowed);
  const illegal = [...unknown, ...grants.filter((g) => !allowed.some((a) => a.scope === g.scope)).map((g) => g.scope)];
  return { ok: true, app, params: { ...params, redirect_uri: redirectUri, state: params.state, code_challenge: params.code_challenge }, requested, illegal };
}

export async function grantedScopes(db: Db, userId: string, appId: string): Promise<ScopeGrant[]> {
  const grant = await db.query.oauthGrants.findFirst({ where: and(eq(oauthGrants.userId, userId), eq(oauthGrants.appId, appId)) });
  return grant ? parseScopeText(grant.scopes).grants : [];
}

/** Records the user's approval and issues a single-use code that starts a token family; returns where to send the browser. */
export async function approve(
  db: Db,
  tenant: Tenant,
  userId: string,
  check: Extract<AuthorizeCheck, { ok: true }>,
  now: number,
): Promise<{ code: string; state: string; location: string }> {
  const previously = await grantedScopes(db, userId, check.app.id);
  const approved = formatScopeText([...previously, ...check.requested.filter((r) => !previously.some((p) => p.scope === r.scope && p.anyItem))]);
  await db
    .insert(oauthGrants)
    .values({ id: crypto.randomUUID(), userId, appId: check.app.id, scopes: approved, updatedAt: now })
    .onConflictDoUpdate({ target: [oauthGrants.userId, oauthGrants.appId], set: { scopes: approved, updatedAt: now } });
  const code = randomToken(32);
  await db.insert(oauthCodes).values({
    codeHash: hashToken(code),
    appId: check.app.id,
    userId,
    host: tenant.hostname,
    redirectUri: check.params.redirect_uri,
    scopes: formatScopeText(check.requested),
    codeChallenge: check.params.code_challenge,
    expiresAt: now + CODE_TTL_MS,
    familyId: newFamilyId(),
  });
  const location = new URL(check.params.redirect_uri);
  location.searchParams.set("code", code);
  location.searchParams.set("state", check.params.state);
  return { code, state: check.params.state, location: location.toString() };
}

export type TokenReply = { access_token: string; token_type: "Bearer"; expires_in: number; expires_at: number; refresh_token: string; scope: string };
export type OAuthError = { error: string; error_description: string };
const oauthError = (error: string, error_description: string): OAuthError => ({ error, error_description });

async function issueTokens(db: Db, app: App, userId: string, host: string, scopes: ScopeGrant[], family: string, now: number): Promise<TokenReply> {
  const accessToken = randomToken(32);
  const refreshToken = randomToken(32);
  const scopeText = formatScopeText(scopes);
  await db.insert(oauthTokens).values({
    id: crypto.randomUUID(),
    accessTokenHash: hashToken(accessToken),
    refreshTokenHash: hashToken(refreshToken),
    appId: app.id,
    userId,
    host,
    scopes: scopeText,
    accessExpiresAt: now + ACCESS_TOKEN_TTL_MS,
    refreshExpiresAt: now + REFRESH_TOKEN_TTL_MS,
    createdAt: now,
    familyId: family,
  });
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_TTL_MS / 1000,
    expires_at: Math.floor((now + ACCESS_TOKEN_TTL_MS) / 1000),
    refresh_token: refreshToken,
    scope: scopeText,
  };
}

/** The calling app on this tenant: a confidential app must prove itself with its secret; a public one relies on PKCE. */
export async function authenticateClient(db: Db, tenant: Tenant, clientId: string, clientSecret: string | null): Promise<App | null> {
  const app = await findApp(db, tenant, clientId);
  if (!app) return null;
  if (app.isPublic) return app;
  return clientSecret && app.clientSecretHash && constantTimeEqualText(app.clientSecretHash, hashToken(clientSecret)) ? app : null;
}

/** grant_type=authorization_code: checks the code, its app, redirect URI, host and the PKCE verifier. */
export async function exchangeCode(
  db: Db,
  tenant: Tenant,
  form: { code: string; redirect_uri: string; client_id: string; code_verifier: string; client_secret: string | null },
  now: number,
): Promise<TokenReply | OAuthError> {
  const app = await authenticateClient(db, tenant, form.client_id, form.client_secret);
  if (!app) return oauthError("invalid_client", "Unknown client or wrong credentials");
  const codeHash = hashToken(form.code);
  // Claiming the code first makes a replayed code fail even when two requests race; a code from before families gets one now.
  const [code] = await db
    .update(oauthCodes)
    .set({ usedAt: now, familyId: sql`coalesce(${oauthCodes.familyId}, ${newFamilyId()})` })
    .where(and(eq(oauthCodes.codeHash, codeHash), isNull(oauthCodes.usedAt)))
    .returning();
  if (!code) {
    await revokeFamilyOfReplayedCode(db, codeHash, now);
    return oauthError("invalid_grant", "The code is invalid, expired or already used");
  }
  if (code.expiresAt <= now) return oauthError("invalid_grant", "The code is invalid, expired or already used");
  if (code.appId !== app.id || code.redirectUri !== form.redirect_uri || code.host !== tenant.hostname)
    return oauthError("invalid_grant", "The code was not issued for this request");
  const challenge = encodeBase64urlNoPadding(sha256(new TextEncoder().encode(form.code_verifier)));
  if (!constantTimeEqualText(challenge, code.codeChallenge)) return oauthError("invalid_grant", "The code_verifier does not match the code_challenge");
  const scopes = intersectScopes(scopesOfRoles(await loadRoles(db, code.userId)), parseScopeText(code.scopes).grants);
  return issueTokens(db, app, code.userId, code.host, scopes, code.familyId ?? newFamilyId(), now);
}

/** A used code presented again has leaked: RFC 6749 §4.1.2, revoke every token issued from it. */
async function revokeFamilyOfReplayedCode(db: Db, codeHash: string, now: number): Promise<void> {
  const used = await db.query.oauthCodes.findFirst({ where: eq(oauthCodes.codeHash, codeHash) });
  if (used && used.usedAt !== null && used.familyId) await revokeFamily(db, used.familyId, now);
}

/** grant_type=refresh_token: rotates the pair within its family; the old refresh token stops working at once. */
export async function refreshTokens(
  db: Db,
  tenant: Tenant,
  form: { refresh_token: string; client_id: string; client_secret: string | null },
  now: number,
): Promise<TokenReply | OAuthError> {
  const app = await authenticateClient(db, tenant, form.client_id, form.client_secret);
  if (!app) return oauthError("invalid_client", "Unknown client or wrong credentials");
  const refreshHash = hashToken(form.refresh_token);
  // Only the owning app on its own host can claim (and so use up) a refresh token.
  const [old] = await db
    .update(oauthTokens)
    .set({ revokedAt: now })
    .where(
      and(eq(oauthTokens.refreshTokenHash, refreshHash), eq(oauthTokens.appId, app.id), eq(oauthTokens.host, tenant.hostname), isNull(oauthTokens.revokedAt)),
    )
    .returning();
  if (!old) {
    await revokeFamilyOfReusedRefreshToken(db, tenant, app, refreshHash, now);
    return oauthError("invalid_grant", "The refresh token is invalid, expired or revoked");
  }
  if (old.refreshExpiresAt <= now) return oauthError("invalid_grant", "The refresh token is invalid, expired or revoked");
  // Roles may have changed since: the new pair carries only what the user still holds.
  const scopes = intersectScopes(scopesOfRoles(await loadRoles(db, old.userId)), parseScopeText(old.scopes).grants);
  return issueTokens(db, app, old.userId, old.host, scopes, familyOf(old), now);
}

/** A rotated (revoked) refresh token presented again means two holders: RFC 9700 §4.14.2, revoke its whole family. */
async function revokeFamilyOfReusedRefreshToken(db: Db, tenant: Tenant, app: App, refreshHash: string, now: number): Promise<void> {
  const reused = await db.query.oauthTokens.findFirst({ where: eq(oauthTokens.refreshTokenHash, refreshHash) });
  if (reused && reused.revokedAt !== null && reused.appId === app.id && reused.host === tenant.hostname) await revokeFamily(db, familyOf(reused), now);
}

/** RFC 7009: the authenticated app revokes one of its tokens; unknown tokens are not an error. */
export async function revokeToken(db: Db, tenant: Tenant, app: App, token: string, now: number): Promise<void> {
  const hash = hashToken(token);
  const row = await db.query.oauthTokens.findFirst({ where: or(eq(oauthTokens.accessTokenHash, hash), eq(oauthTokens.refreshTokenHash, hash)) });
  // RFC 7009 §2.1: a client may revoke only tokens issued to it (here, on this host); another's token is ignored with the same 200.
  if (!row || row.appId !== app.id || row.host !== tenant.hostname) return;
  // Revoking a refresh token ends its grant: every access token of the family goes with it (RFC 7009 §2.1).
  if (row.refreshTokenHash === hash) return revokeFamily(db, familyOf(row), now);
  // An access token goes with its own refresh token, the pair it was issued in.
  await db
    .update(oauthTokens)
    .set({ revokedAt: now })
    .where(and(eq(oauthTokens.id, row.id), isNull(oauthTokens.revokedAt)));
}

export type BearerCheck =
  | { ok: true; userId: string; appId: string; scopes: ScopeGrant[]; expiresAt: number }
  | { ok: false; status: 401; challenge: string; error: OAuthError };

/** The caller behind `Authorization: Bearer …` (durable/access-tokens.ts), with RFC 6750's challenge when refused. */
export async function authenticateBearer(db: Db, host: string, authorization: string | null, now: number): Promise<BearerCheck> {
  const check = await checkAccessToken(db, host, authorization, now);
  if (check.ok) return check;
  const description = accessTokenRefusal[check.reason];
  if (check.reason === "missing") return { ok: false, status: 401, challenge: 'Bearer realm="data-api"', error: oauthError("invalid_request", description) };
  return {
    ok: false,
    status: 401,
    challenge: `Bearer realm="data-api", error="invalid_token", error_description="${description}"`,
    error: oauthError("invalid_token", description),
  };
}
