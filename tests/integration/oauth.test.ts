import { describe, expect, it } from "vitest";
import { oauthTokens } from "../../schema/d1";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { createUserWithPassword, db, formPost, signIn, worker } from "./auth-fixtures";
import { approveApp, authorizeQuery, bearerGet, createApp, pkce, REDIRECT, tokenRequest } from "./oauth-fixtures";

const HOST = "localhost";

async function signedInUserWithRaceRole(email: string, raceId: string) {
  const user = await createUserWithPassword(email, "glacier-ski-42", [{ type: "race_admin", scope: raceId }]);
  return { user, cookie: await signIn(HOST, email, "glacier-ski-42") };
}

async function fullFlow(email: string) {
  const { race } = await createSiteWithRace(db(), { hostname: `${email.split("@")[0]}.localhost`, siteName: "Flow", raceName: "Flow Race" });
  const { user, cookie } = await signedInUserWithRaceRole(email, race.id);
  const appId = await createApp();
  const { verifier, challenge } = pkce();
  const query = authorizeQuery(appId, challenge);
  const { code, state } = await approveApp(HOST, cookie, query);
  const response = await tokenRequest(HOST, { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: appId, code_verifier: verifier });
  return { race, user, cookie, appId, verifier, challenge, code, state, response, tokens: await response.json<Record<string, unknown>>() };
}

describe("authorisation requests", () => {
  it("sends a valid request to the consent page", async () => {
    const appId = await createApp();
    const response = await worker.fetch(hostRequest(HOST, `/data-api/authorize?${authorizeQuery(appId, pkce().challenge)}`, { redirect: "manual" }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/login\/authorize\?response_type=code&client_id=/);
  });

  it("never redirects to an unregistered redirect_uri", async () => {
    const appId = await createApp();
    const response = await worker.fetch(
      hostRequest(HOST, `/data-api/authorize?${authorizeQuery(appId, pkce().challenge, { redirect_uri: "https://evil.example/cb" })}`, { redirect: "manual" }),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("Location")).toBeNull();
  });

  it("returns a missing state or a plain PKCE method to the app as an error", async () => {
    const appId = await createApp();
    const query = authorizeQuery(appId, pkce().challenge);
    query.delete("state");
    const noState = await worker.fetch(hostRequest(HOST, `/data-api/authorize?${query}`, { redirect: "manual" }));
    expect(new URL(noState.headers.get("Location")!).searchParams.get("error")).toBe("invalid_request");
    const plain = await worker.fetch(
      hostRequest(HOST, `/data-api/authorize?${authorizeQuery(appId, "x", { code_challenge_method: "plain" })}`, { redirect: "manual" }),
    );
    expect(new URL(plain.headers.get("Location")!).searchParams.get("error_description")).toBe("PKCE with code_challenge_method=S256 is required");
  });

  it("says 'Missing required parameters for app authorization' without client_id, redirect_uri or response_type", async () => {
    const response = await worker.fetch(hostRequest(HOST, "/data-api/authorize?client_id=x"));
    expect(await response.json()).toEqual({ error: "invalid_request", error_description: "Missing required parameters for app authorization" });
    const page = await worker.fetch(hostRequest(HOST, "/login/authorize"));
    expect(await page.text()).toContain("Missing required parameters for app authorization");
  });
});

describe("consent", () => {
  it("describes the app, its new and approved scopes and its illegal requests", async () => {
    const { race } = await createSiteWithRace(db(), { hostname: "consent.localhost", siteName: "C", raceName: "Consent Race" });
    const { cookie } = await signedInUserWithRaceRole("consent@example.com", race.id);
    const appId = await createApp({ scopes: "races" });
    const query = authorizeQuery(appId, pkce().challenge, { scope: `races:${race.id} registrations users-everything` });
    const info = await (await worker.fetch(hostRequest(HOST, `/_auth/app?${query}`, { headers: { Cookie: cookie } }))).json();
    expect(info).toEqual({
      app_name: "Results Helper",
      app_description: "Posts your race results to your club's newsletter",
      system_app: false,
      illegal_requests: ["users-everything", "registrations"],
      new_scopes: [{ type: "races", any_item: false, items: [{ item_id: race.id, item_name: "Consent Race" }] }],
      granted_scopes: [],
    });
    await approveApp(HOST, cookie, query);
    const again = await (
      await worker.fetch(hostRequest(HOST, `/_auth/app?${query}`, { headers: { Cookie: cookie } }))
    ).json<{ new_scopes: unknown[]; granted_scopes: unknown[] }>();
    expect(again.new_scopes).toEqual([]);
    expect(again.granted_scopes).toHaveLength(1);
  });

  it("answers 401 to a signed-out GET /_auth/app", async () => {
    const appId = await createApp();
    expect((await worker.fetch(hostRequest(HOST, `/_auth/app?${authorizeQuery(appId, pkce().challenge)}`))).status).toBe(401);
  });

  it("sends the browser back with access_denied when the user denies", async () => {
    await createUserWithPassword("deny@example.com", "glacier-ski-42");
    const cookie = await signIn(HOST, "deny@example.com", "glacier-ski-42");
    const appId = await createApp();
    const response = await formPost(HOST, "/_auth/app", { ...Object.fromEntries(authorizeQuery(appId, pkce().challenge)), approve: "no" }, { Cookie: cookie });
    const location = new URL(response.headers.get("Location")!);
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("code")).toBeNull();
  });

  it("gives a system app a code for a verified sign-in attempt", async () => {
    await createUserWithPassword("system@example.com", "glacier-ski-42");
    const appId = await createApp({ isSystem: true });
    const { authPost } = await import("./auth-fixtures");
    const attempt = await (await authPost(HOST, "/_auth/attempt", { email: "system@example.com" })).json<{ attempt_id: string }>();
    const query = { ...Object.fromEntries(authorizeQuery(appId, pkce().challenge)), attempt_id: attempt.attempt_id };
    expect((await formPost(HOST, "/_auth/app", query)).status).toBe(401);
    await authPost(HOST, "/_auth/attempt/verify", { attempt_id: attempt.attempt_id, verify: { password: "glacier-ski-42" } });
    const reply = await (await formPost(HOST, "/_auth/app", query)).json<{ code: string; state: string }>();
    expect(reply.state).toBe("st-123");
    expect(reply.code.length).toBeGreaterThan(30);
  });
});

describe("tokens", () => {
  it("exchanges a code with its verifier for a scoped token pair, stored only as hashes", async () => {
    const { response, tokens, state, race } = await fullFlow("flow@example.com");
    expect(state).toBe("st-123");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: `races:${race.id}` });
    const rows = await db().select().from(oauthTokens);
    expect(rows.some((r) => r.accessTokenHash === tokens.access_token || r.refreshTokenHash === tokens.refresh_token)).toBe(false);
    const me = await (await bearerGet(HOST, "/data-api/me", String(tokens.access_token))).json();
    expect(me).toMatchObject({ classname: "User", email: "flow@example.com", scope: `races:${race.id}` });
  });

  it("refuses a wrong code_verifier and a reused code", async () => {
    const { race } = await createSiteWithRace(db(), { hostname: "verifier.localhost", siteName: "V", raceName: "V" });
    const { cookie } = await signedInUserWithRaceRole("verifier@example.com", race.id);
    const appId = await createApp();
    const { verifier, challenge } = pkce();
    const { code } = await approveApp(HOST, cookie, authorizeQuery(appId, challenge));
    const wrong = await tokenRequest(HOST, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: appId,
      code_verifier: pkce().verifier,
    });
    expect(await wrong.json()).toEqual({ error: "invalid_grant", error_description: "The code_verifier does not match the code_challenge" });
    // The wrong verifier used the code up.
    const retried = await tokenRequest(HOST, { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: appId, code_verifier: verifier });
    expect(await retried.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a code presented twice", async () => {
    const { code, appId, verifier } = await fullFlow("twice@example.com");
    const again = await tokenRequest(HOST, { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: appId, code_verifier: verifier });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: "invalid_grant", error_description: "The code is invalid, expired or already used" });
  });

  it("rotates refresh tokens: the old one stops working, and presenting it again ends the family", async () => {
    const { tokens, appId } = await fullFlow("rotate@example.com");
    const refreshed = await (
      await tokenRequest(HOST, { grant_type: "refresh_token", refresh_token: String(tokens.refresh_token), client_id: appId })
    ).json<Record<string, string>>();
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect((await bearerGet(HOST, "/data-api/me", refreshed.access_token!)).status).toBe(200);
    expect((await bearerGet(HOST, "/data-api/me", String(tokens.access_token))).status).toBe(401);
    const reused = await tokenRequest(HOST, { grant_type: "refresh_token", refresh_token: String(tokens.refresh_token), client_id: appId });
    expect(await reused.json()).toMatchObject({ error: "invalid_grant" });
    // RFC 9700 section 4.14.2: reuse after rotation revokes the whole family, the current pair included.
    expect((await bearerGet(HOST, "/data-api/me", refreshed.access_token!)).status).toBe(401);
  });

  it("revokes a token (RFC 7009 shape)", async () => {
    const { tokens, appId } = await fullFlow("revoke@example.com");
    const response = await worker.fetch(
      hostRequest(HOST, "/data-api/revoke", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: `token=${tokens.access_token}&token_type_hint=access_token&client_id=${appId}`,
      }),
    );
    expect(response.status).toBe(200);
    expect((await bearerGet(HOST, "/data-api/me", String(tokens.access_token))).status).toBe(401);
    const unknown = await worker.fetch(
      hostRequest(HOST, "/data-api/revoke", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: `token=nonsense&client_id=${appId}`,
      }),
    );
    expect(unknown.status).toBe(200);
    // RFC 7009 section 2.1: the client must identify itself.
    const anonymous = await worker.fetch(
      hostRequest(HOST, "/data-api/revoke", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "token=nonsense" }),
    );
    expect(anonymous.status).toBe(401);
  });

  it("answers an expired token with an invalid_token challenge", async () => {
    const { tokens } = await fullFlow("expired@example.com");
    await db()
      .update(oauthTokens)
      .set({ accessExpiresAt: Date.now() - 1 });
    const response = await bearerGet(HOST, "/data-api/me", String(tokens.access_token));
    expect(response.status).toBe(401);
    expect(response.headers.get("WWW-Authenticate")).toBe('Bearer realm="data-api", error="invalid_token", error_description="The access token expired"');
  });

  it("answers a call without the scope with 403 insufficient_scope naming it", async () => {
    const { tokens, race } = await fullFlow("scope@example.com");
    const own = await bearerGet(HOST, `/data-api/Race/${race.id}`, String(tokens.access_token));
    expect(await own.json()).toMatchObject({ classname: "Race", uuid: race.id, name: "Flow Race" });
    const other = await createSiteWithRace(db(), { hostname: "otherrace.localhost", siteName: "O", raceName: "Other" });
    const response = await bearerGet(HOST, `/data-api/Race/${other.race.id}`, String(tokens.access_token));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: "insufficient_scope", scope: "races" });
    expect(response.headers.get("WWW-Authenticate")).toContain('error="insufficient_scope", scope="races"');
  });

  it("refuses a token on another tenant's host, and another tenant's app", async () => {
    const { tokens } = await fullFlow("tenant@example.com");
    await createSiteWithRace(db(), { hostname: "tenantb.localhost", siteName: "B", raceName: "B" });
    expect((await bearerGet("tenantb.localhost", "/data-api/me", String(tokens.access_token))).status).toBe(401);
    const site = await createSiteWithRace(db(), { hostname: "tenantc.localhost", siteName: "C", raceName: "C" });
    const siteApp = await createApp({ siteId: site.site.id });
    const response = await worker.fetch(hostRequest(HOST, `/data-api/authorize?${authorizeQuery(siteApp, pkce().challenge)}`, { redirect: "manual" }));
    expect(await response.json()).toMatchObject({ error_description: "Unknown application" });
  });

  it("requires a confidential app's secret", async () => {
    const { race } = await createSiteWithRace(db(), { hostname: "secret.localhost", siteName: "S", raceName: "S" });
    const { cookie } = await signedInUserWithRaceRole("secret@example.com", race.id);
    const appId = await createApp({ secret: "top-secret-value" });
    const { verifier, challenge } = pkce();
    const { code } = await approveApp(HOST, cookie, authorizeQuery(appId, challenge));
    const base = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: appId, code_verifier: verifier };
    expect((await tokenRequest(HOST, { ...base, client_secret: "wrong" })).status).toBe(401);
  });

  it("takes only form-encoded token requests with a known grant", async () => {
    const json = await worker.fetch(hostRequest(HOST, "/data-api/token", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }));
    expect(json.status).toBe(400);
    expect(await (await tokenRequest(HOST, { grant_type: "password", username: "x" })).json()).toMatchObject({ error: "unsupported_grant_type" });
  });

  it("answers a CORS preflight from any origin without credentials", async () => {
    const response = await worker.fetch(
      hostRequest(HOST, "/data-api/me", { method: "OPTIONS", headers: { Origin: "https://app.example", "Access-Control-Request-Method": "GET" } }),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example");
    expect(response.headers.get("Access-Control-Allow-Credentials")).toBeNull();
  });
});
