import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { sha256 } from "@oslojs/crypto/sha2";
import { initialMtimes } from "../../core/entity/field-mtimes";
import { apiApplications, oauthTokens } from "../../schema/d1";
import { hashToken } from "../../workers/auth/crypto";
import { db, formPost, worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";

export const REDIRECT = "https://app.example/callback";

export async function createApp(options: { scopes?: string; isSystem?: boolean; siteId?: string | null; secret?: string } = {}) {
  const id = crypto.randomUUID();
  const fields = {
    name: "Results Helper",
    description: "Posts your race results to your club's newsletter",
    scopes: options.scopes ?? "registrations races",
    redirectUris: [REDIRECT],
  };
  await db()
    .insert(apiApplications)
    .values({
      id,
      ...fields,
      isSystem: options.isSystem ?? false,
      isPublic: !options.secret,
      clientSecretHash: options.secret ? hashToken(options.secret) : null,
      siteId: options.siteId ?? null,
      fieldMtimes: initialMtimes(fields, Date.now()),
    });
  return id;
}

export function pkce() {
  const verifier = encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = encodeBase64urlNoPadding(sha256(new TextEncoder().encode(verifier)));
  return { verifier, challenge };
}

export function authorizeQuery(clientId: string, challenge: string, extra: Record<string, string> = {}) {
  return new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    state: "st-123",
    scope: "registrations races",
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...extra,
  });
}

/** Approves an app as the signed-in user (cookie) and returns the code from the redirect. */
export async function approveApp(host: string, cookie: string, query: URLSearchParams): Promise<{ code: string; state: string }> {
  const response = await formPost(host, "/_auth/app", { ...Object.fromEntries(query), approve: "yes" }, { Cookie: cookie });
  const location = new URL(response.headers.get("Location")!);
  return { code: location.searchParams.get("code")!, state: location.searchParams.get("state")! };
}

export function tokenRequest(host: string, form: Record<string, string>) {
  return worker.fetch(
    hostRequest(host, "/data-api/token", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    }),
  );
}

export function bearerGet(host: string, path: string, accessToken: string) {
  return worker.fetch(hostRequest(host, path, { headers: { Authorization: `Bearer ${accessToken}` } }));
}

/** A data API call with an app's bearer token, a JSON body when given. */
export function apiCall(host: string, token: string, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return worker.fetch(hostRequest(host, path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
}

/** An access token for a user and app on a host, stored as the token endpoint would store it (for entity tests). */
export async function issueToken(userId: string, appId: string, host: string, scopes: string, ttlMs = 3_600_000): Promise<string> {
  const access = encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(32)));
  const now = Date.now();
  await db()
    .insert(oauthTokens)
    .values({
      id: crypto.randomUUID(),
      accessTokenHash: hashToken(access),
      refreshTokenHash: hashToken(encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(32)))),
      appId,
      userId,
      host,
      scopes,
      accessExpiresAt: now + ttlMs,
      refreshExpiresAt: now + 30 * 86_400_000,
      createdAt: now,
    });
  return access;
}
