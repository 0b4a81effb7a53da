/**
 * Token families (issue 28): a replayed code or a reused refresh token ends every token of its grant;
 * revocation answers only the client the token was issued to; the consent screen names no private race
 * of a club where the user has no role.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { oauthTokens } from "../../schema/d1";
import { hashToken } from "../../workers/auth/crypto";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { createUserWithPassword, db, signIn, worker } from "./auth-fixtures";
import { approveApp, authorizeQuery, bearerGet, createApp, pkce, REDIRECT, tokenRequest } from "./oauth-fixtures";

const HOST = "localhost";
const PASSWORD = "glacier-ski-42";
type Tokens = { access_token: string; refresh_token: string };

/** A user with a race role, an approved app, and the code's verifier. */
async function approvedCode(email: string, appOptions: { secret?: string } = {}) {
  const { race } = await createSiteWithRace(db(), { hostname: `${email.split("@")[0]}.localhost`, siteName: "Fam", raceName: "Family Race" });
  await createUserWithPassword(email, PASSWORD, [{ type: "race_admin", scope: race.id }]);
  const cookie = await signIn(HOST, email, PASSWORD);
  const appId = await createApp(appOptions);
  const { verifier, challenge } = pkce();
  const { code } = await approveApp(HOST, cookie, authorizeQuery(appId, challenge));
  const exchange = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: appId, code_verifier: verifier };
  return { appId, exchange, cookie, race };
}

async function grant(email: string, appOptions: { secret?: string } = {}) {
  const flow = await approvedCode(email, appOptions);
  const extra: Record<string, string> = appOptions.secret ? { client_secret: appOptions.secret } : {};
  const response = await tokenRequest(HOST, { ...flow.exchange, ...extra });
  expect(response.status).toBe(200);
  return { ...flow, tokens: await response.json<Tokens>() };
}

const refresh = (appId: string, refreshToken: string, extra: Record<string, string> = {}) =>
  tokenRequest(HOST, { grant_type: "refresh_token", refresh_token: refreshToken, client_id: appId, ...extra });
const works = async (accessToken: string) => (await bearerGet(HOST, "/data-api/me", accessToken)).status === 200;

function revoke(form: Record<string, string>, headers: Record<string, string> = {}) {
  return worker.fetch(
    hostRequest(HOST, "/data-api/revoke", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(form).toString(),
    }),
  );
}

describe("code replay", () => {
  it("revokes the access and refresh tokens issued from the code, and answers invalid_grant", async () => {
    const { appId, exchange, tokens } = await grant("replay@example.com");
    expect(await works(tokens.access_token)).toBe(true);
    const replay = await tokenRequest(HOST, exchange);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
    expect(await works(tokens.access_token)).toBe(false);
    expect(await (await refresh(appId, tokens.refresh_token)).json()).toMatchObject({ error: "invalid_grant" });
  });

  it("revokes the tokens rotated from the code's first pair too", async () => {
    const { appId, exchange, tokens } = await grant("replay-chain@example.com");
    const rotated = await (await refresh(appId, tokens.refresh_token)).json<Tokens>();
    expect(await works(rotated.access_token)).toBe(true);
    await tokenRequest(HOST, exchange);
    expect(await works(rotated.access_token)).toBe(false);
  });
});

describe("refresh token rotation", () => {
  it("keeps a legitimate chain of rotations working, each pair replacing the last", async () => {
    const { appId, tokens } = await grant("chain@example.com");
    let current = tokens;
    for (let i = 0; i < 3; i++) {
      const next = await refresh(appId, current.refresh_token);
      expect(next.status).toBe(200);
      const pair = await next.json<Tokens>();
      expect(await works(current.access_token)).toBe(false);
      expect(await works(pair.access_token)).toBe(true);
      current = pair;
    }
    const family = await db()
      .select()
      .from(oauthTokens)
      .where(eq(oauthTokens.refreshTokenHash, hashToken(current.refresh_token)));
    const members = await db().select().from(oauthTokens).where(eq(oauthTokens.familyId, family[0]!.familyId!));
    expect(members).toHaveLength(4);
  });

  it("revokes the whole family when a rotated refresh token is used again", async () => {
    const { appId, tokens } = await grant("reuse@example.com");
    const second = await (await refresh(appId, tokens.refresh_token)).json<Tokens>();
    const third = await (await refresh(appId, second.refresh_token)).json<Tokens>();
    expect(await works(third.access_token)).toBe(true);
    const reuse = await refresh(appId, tokens.refresh_token);
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toMatchObject({ error: "invalid_grant" });
    expect(await works(third.access_token)).toBe(false);
    expect(await (await refresh(appId, third.refresh_token)).json()).toMatchObject({ error: "invalid_grant" });
  });

  it("leaves a token alone when another app presents it", async () => {
    const { tokens } = await grant("otherapp-refresh@example.com");
    const otherApp = await createApp();
    expect(await (await refresh(otherApp, tokens.refresh_token)).json()).toMatchObject({ error: "invalid_grant" });
    expect(await works(tokens.access_token)).toBe(true);
  });

  it("treats a pair from before families as a family of its own", async () => {
    const { appId, tokens } = await grant("legacy@example.com");
    await db()
      .update(oauthTokens)
      .set({ familyId: null })
      .where(eq(oauthTokens.accessTokenHash, hashToken(tokens.access_token)));
    const next = await (await refresh(appId, tokens.refresh_token)).json<Tokens>();
    expect(await works(next.access_token)).toBe(true);
    await refresh(appId, tokens.refresh_token);
    expect(await works(next.access_token)).toBe(false);
  });
});

describe("revocation (RFC 7009)", () => {
  it("revokes nothing when another client presents the token, yet answers 200", async () => {
    const { tokens } = await grant("revoke-other@example.com");
    const otherApp = await createApp();
    const response = await revoke({ token: tokens.refresh_token, client_id: otherApp });
    expect(response.status).toBe(200);
    expect(await works(tokens.access_token)).toBe(true);
    expect((await revoke({ token: tokens.access_token, client_id: otherApp })).status).toBe(200);
    expect(await works(tokens.access_token)).toBe(true);
  });

  it("revokes the refresh token's family for the right client", async () => {
    const { appId, tokens } = await grant("revoke-right@example.com");
    const second = await (await refresh(appId, tokens.refresh_token)).json<Tokens>();
    expect((await revoke({ token: second.refresh_token, client_id: appId, token_type_hint: "refresh_token" })).status).toBe(200);
    expect(await works(second.access_token)).toBe(false);
    expect(await (await refresh(appId, second.refresh_token)).json()).toMatchObject({ error: "invalid_grant" });
  });

  it("requires a confidential client's secret, in the form or as HTTP Basic", async () => {
    const { appId, tokens } = await grant("revoke-secret@example.com", { secret: "top-secret-value" });
    expect((await revoke({ token: tokens.refresh_token, client_id: appId })).status).toBe(401);
    expect((await revoke({ token: tokens.refresh_token, client_id: appId, client_secret: "wrong" })).status).toBe(401);
    expect(await works(tokens.access_token)).toBe(true);
    const basic = `Basic ${btoa(`${appId}:top-secret-value`)}`;
    expect((await revoke({ token: tokens.refresh_token }, { Authorization: basic })).status).toBe(200);
    expect(await works(tokens.access_token)).toBe(false);
  });
});

describe("consent screen", () => {
  it("never names a private race of a club where the user has no role", async () => {
    const own = await createSiteWithRace(db(), { hostname: "consent-own.localhost", siteName: "Own", raceName: "Own Race" });
    const hidden = await createSiteWithRace(db(), {
      hostname: "consent-x.localhost",
      siteName: "X",
      raceName: "Secret Selection Trial",
      visibility: "private",
    });
    const open = await createSiteWithRace(db(), { hostname: "consent-open.localhost", siteName: "Open", raceName: "Open Loppet" });
    await createUserWithPassword("consent-private@example.com", PASSWORD, [{ type: "race_admin", scope: own.race.id }]);
    const cookie = await signIn(HOST, "consent-private@example.com", PASSWORD);
    const appId = await createApp({ scopes: "races" });
    const query = authorizeQuery(appId, pkce().challenge, { scope: `races:${own.race.id},${hidden.race.id},${open.race.id}` });
    const response = await worker.fetch(hostRequest(HOST, `/_auth/app?${query}`, { headers: { Cookie: cookie } }));
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).not.toContain("Secret Selection Trial");
    expect(text).not.toContain("X Club");
    const info = JSON.parse(text) as { new_scopes: { items: { item_id: string; item_name: string }[] }[] };
    const names = Object.fromEntries(info.new_scopes.flatMap((s) => s.items).map((i) => [i.item_id, i.item_name]));
    expect(names).toEqual({ [own.race.id]: "Own Race", [hidden.race.id]: hidden.race.id, [open.race.id]: "Open Loppet" });
    // The consent page renders the same data.
    const page = await worker.fetch(hostRequest(HOST, `/login/authorize?${query}`, { headers: { Cookie: cookie } }));
    expect(await page.text()).not.toContain("Secret Selection Trial");
  });

  it("names a private race to a user whose role reaches it", async () => {
    const hidden = await createSiteWithRace(db(), {
      hostname: "consent-staff.localhost",
      siteName: "Staff",
      raceName: "Staff Only Sprint",
      visibility: "private",
    });
    await createUserWithPassword("consent-staff@example.com", PASSWORD, [{ type: "race_admin", scope: hidden.race.id }]);
    const cookie = await signIn(HOST, "consent-staff@example.com", PASSWORD);
    const appId = await createApp({ scopes: "races" });
    const query = authorizeQuery(appId, pkce().challenge, { scope: `races:${hidden.race.id}` });
    const info = await (await worker.fetch(hostRequest(HOST, `/_auth/app?${query}`, { headers: { Cookie: cookie } }))).json();
    expect(JSON.stringify(info)).toContain("Staff Only Sprint");
  });
});
