import { env } from "cloudflare:workers";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { describe, expect, it } from "vitest";
import { ATTEMPT_WINDOW_MS, MAX_ATTEMPTS_PER_CLIENT } from "../../core/auth/constants";
import { fixedWindowStart } from "../../core/auth/failure-limit";
import { throttleCounts } from "../../schema/d1";
import { clientKeyOf } from "../../workers/auth/failures";
import { throttleKey } from "../../workers/auth/throttle";
import { beginTotpSetup } from "../../workers/auth/totp";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { authPost, cookieFrom, createUserWithPassword, db, formPost, signIn, worker } from "./auth-fixtures";
import { SoftAuthenticator } from "./soft-authenticator";

const HOST = "localhost";
const ORIGIN = "http://localhost:8787";

async function registerPasskey(cookie: string, userId: string, host = HOST, origin = ORIGIN) {
  const authenticator = await SoftAuthenticator.create();
  const options = await (
    await authPost(host, "/_auth/passkey/register/begin", { user_id: userId }, { cookie })
  ).json<{ challenge: string; rp: { id: string } }>();
  expect(options.rp.id).toBe(host);
  const credential = await authenticator.register(options, origin);
  const done = await authPost(host, "/_auth/passkey/register/complete", { user_id: userId, credential }, { cookie });
  return { authenticator, done, body: await done.json<Record<string, unknown>>() };
}

async function passkeySignIn(authenticator: SoftAuthenticator, userId: string | null, options: { rpId?: string; counterStep?: number; host?: string } = {}) {
  const host = options.host ?? HOST;
  const begin = await (await authPost(host, "/_auth/passkey/authenticate/begin", { user_id: userId, client: "test" })).json<{ challenge: string }>();
  const credential = await authenticator.authenticate(begin, `http://${host}:8787`, options.rpId ?? host, options.counterStep ?? 1);
  const response = await authPost(host, "/_auth/passkey/authenticate/complete", { credential, goto: "/manage" });
  return { response, body: await response.json<Record<string, unknown>[]>() };
}

describe("passkeys", () => {
  it("registers a passkey for the signed-in user on this domain and lists it as never used", async () => {
    const user = await createUserWithPassword("pk@example.com", "glacier-ski-42");
    const cookie = await signIn(HOST, "pk@example.com", "glacier-ski-42");
    const { body, authenticator } = await registerPasskey(cookie, user.id);
    expect(body).toMatchObject({ verified: true, host: HOST });
    const list = await (await worker.fetch(hostRequest(HOST, `/_auth/passkey/credentials?user_id=${user.id}`, { headers: { Cookie: cookie } }))).json();
    expect(list).toEqual([{ id: authenticator.id, domain: HOST, created_at: expect.any(Number), last_used: null }]);
  });

  it("refuses to register the same passkey twice", async () => {
    const user = await createUserWithPassword("pk2@example.com", "glacier-ski-42");
    const cookie = await signIn(HOST, "pk2@example.com", "glacier-ski-42");
    const { authenticator } = await registerPasskey(cookie, user.id);
    const options = await (
      await authPost(HOST, "/_auth/passkey/register/begin", { user_id: user.id }, { cookie })
    ).json<{ challenge: string; rp: { id: string } }>();
    const again = await authPost(
      HOST,
      "/_auth/passkey/register/complete",
      { user_id: user.id, credential: await authenticator.register(options, ORIGIN) },
      { cookie },
    );
    expect(await again.json()).toEqual({ verified: false, error: "This passkey is already registered" });
  });

  it("will not add a passkey to someone else's account", async () => {
    await createUserWithPassword("me@example.com", "glacier-ski-42");
    const victim = await createUserWithPassword("victim@example.com", "glacier-ski-42");
    const cookie = await signIn(HOST, "me@example.com", "glacier-ski-42");
    expect((await authPost(HOST, "/_auth/passkey/register/begin", { user_id: victim.id }, { cookie })).status).toBe(401);
  });

  it("signs in with a passkey, records its use, and clears the offer's skip cookie", async () => {
    const user = await createUserWithPassword("pk3@example.com", "glacier-ski-42");
    const cookie = await signIn(HOST, "pk3@example.com", "glacier-ski-42");
    const { authenticator } = await registerPasskey(cookie, user.id);
    const { response, body } = await passkeySignIn(authenticator, user.id);
    expect(body[0]).toMatchObject({ status: "verified", user_id: user.id, host: HOST, goto: "/manage", prompt_passkey: false });
    expect(response.headers.getSetCookie().some((c) => c.startsWith("sl_passkey_skip=;") && c.includes("Max-Age=0"))).toBe(true);
    const login = await formPost(HOST, "/_auth/login", { token: String(body[0]!.token) });
    expect(login.status).toBe(303);
    const stored = await db().query.passkeys.findFirst({ where: (p, { eq }) => eq(p.id, authenticator.id) });
    expect(stored?.lastUsedAt).not.toBeNull();
    expect(stored?.counter).toBe(1);
  });

  it("signs in with a passkey from a network that used up its sign-in attempts, which an email sign-in cannot", async () => {
    const user = await createUserWithPassword("shared-net@example.com", "glacier-ski-42");
    const { authenticator } = await registerPasskey(await signIn(HOST, "shared-net@example.com", "glacier-ski-42"), user.id);
    const clubWifi = { "CF-Connecting-IP": "198.51.100.200" };
    const now = Date.now();
    await db()
      .insert(throttleCounts)
      .values({
        key: throttleKey("attemptsFromClient", clientKeyOf(new Request("http://x", { headers: clubWifi }))),
        windowStart: fixedWindowStart(now, ATTEMPT_WINDOW_MS),
        count: MAX_ATTEMPTS_PER_CLIENT,
      });
    const byEmail = await authPost(HOST, "/_auth/attempt", { email: "shared-net@example.com", method: "password" }, { headers: clubWifi });
    expect(byEmail.status).toBe(429);
    const begin = await (
      await authPost(HOST, "/_auth/passkey/authenticate/begin", { user_id: user.id, client: "test" }, { headers: clubWifi })
    ).json<{ challenge: string }>();
    const credential = await authenticator.authenticate(begin, ORIGIN, HOST, 1);
    const response = await authPost(HOST, "/_auth/passkey/authenticate/complete", { credential, goto: "/manage" }, { headers: clubWifi });
    expect(response.status).toBe(200);
    expect((await response.json<Record<string, unknown>[]>())[0]).toMatchObject({ status: "verified" });
  });

  it("says 'No passkeys found for this account' when the user has none", async () => {
    const user = await createUserWithPassword("nopk@example.com", "glacier-ski-42");
    const begin = await authPost(HOST, "/_auth/passkey/authenticate/begin", { user_id: user.id });
    expect(await begin.json()).toEqual({ error: "No passkeys found for this account" });
  });

  it("refuses another user's passkey for a sign-in asked for this user", async () => {
    const alice = await createUserWithPassword("alice@example.com", "glacier-ski-42");
    const bob = await createUserWithPassword("bob@example.com", "glacier-ski-42");
    await registerPasskey(await signIn(HOST, "alice@example.com", "glacier-ski-42"), alice.id);
    const bobs = await registerPasskey(await signIn(HOST, "bob@example.com", "glacier-ski-42"), bob.id);
    const { body } = await passkeySignIn(bobs.authenticator, alice.id);
    expect(body[0]).toEqual({ status: "failed", message: "Invalid credential" });
  });

  it("refuses a passkey registered on another domain", async () => {
    await createSiteWithRace(db(), { hostname: "pkclub.localhost", siteName: "PK Club", raceName: "R" });
    const user = await createUserWithPassword("domains@example.com", "glacier-ski-42");
    const cookie = await signIn(HOST, "domains@example.com", "glacier-ski-42");
    const { authenticator } = await registerPasskey(cookie, user.id);
    const { body } = await passkeySignIn(authenticator, null, { host: "pkclub.localhost" });
    expect(body[0]).toEqual({ status: "failed", message: "Invalid credential" });
  });

  it("refuses an assertion signed for another relying party, and a counter that goes backwards", async () => {
    const user = await createUserWithPassword("phish@example.com", "glacier-ski-42");
    const cookie = await signIn(HOST, "phish@example.com", "glacier-ski-42");
    const { authenticator } = await registerPasskey(cookie, user.id);
    const phished = await passkeySignIn(authenticator, user.id, { rpId: "evil.example" });
    expect(phished.body[0]).toEqual({ status: "failed", message: "Passkey authentication failed. Please try again or use another sign-in method." });
    expect((await passkeySignIn(authenticator, user.id, { counterStep: 5 })).body[0]).toMatchObject({ status: "verified" });
    const replayed = await passkeySignIn(authenticator, user.id, { counterStep: -3 });
    expect(replayed.body[0]).toMatchObject({ status: "failed" });
  });

  it("deletes only the owner's passkey", async () => {
    const user = await createUserWithPassword("del@example.com", "glacier-ski-42");
    await createUserWithPassword("other@example.com", "glacier-ski-42");
    const cookie = await signIn(HOST, "del@example.com", "glacier-ski-42");
    const { authenticator } = await registerPasskey(cookie, user.id);
    const otherCookie = await signIn(HOST, "other@example.com", "glacier-ski-42");
    const stolen = await authPost(
      HOST,
      "/_auth/passkey/credentials",
      { passkey_id: authenticator.id, user_id: user.id },
      { cookie: otherCookie, method: "DELETE" },
    );
    expect(await stolen.json()).toEqual({ error: "Failed to delete passkey" });
    const own = await authPost(HOST, "/_auth/passkey/credentials", { passkey_id: authenticator.id, user_id: user.id }, { cookie, method: "DELETE" });
    expect(await own.json()).toEqual({ deleted: true });
    const listOther = await worker.fetch(hostRequest(HOST, `/_auth/passkey/credentials?user_id=${user.id}`, { headers: { Cookie: otherCookie } }));
    expect(await listOther.json()).toEqual({ error: "Failed to get passkeys" });
  });
});

describe("two-factor codes", () => {
  async function userWithTotp(email: string) {
    const user = await createUserWithPassword(email, "glacier-ski-42");
    const setup = await beginTotpSetup(env, db(), { id: user.id, email }, "Startline", Date.now());
    const key = decodeBase32IgnorePadding(setup.typedSecret.replace(/\s/g, ""));
    const code = (stepsAhead: number) => generateHOTP(key, BigInt(Math.floor(Date.now() / 30_000) + stepsAhead), 6);
    const { verifyTotpCode } = await import("../../workers/auth/totp");
    expect(await verifyTotpCode(env, db(), user.id, code(-1), Date.now(), { enabling: true })).toBe(true);
    return { user, code };
  }

  async function partialAttempt(email: string) {
    const attempt = await (await authPost(HOST, "/_auth/attempt", { email, method: "password" })).json<{ attempt_id: string }>();
    const first = await (await authPost(HOST, "/_auth/attempt/verify", { attempt_id: attempt.attempt_id, verify: { password: "glacier-ski-42" } })).json();
    expect(first).toMatchObject({ status: "partial", verify: ["totp"], token: null });
    return attempt.attempt_id;
  }

  it("requires a code after the password once two-factor is on, and accepts one step of drift", async () => {
    const { code } = await userWithTotp("totp@example.com");
    const attemptId = await partialAttempt("totp@example.com");
    const verified = await authPost(HOST, "/_auth/attempt/verify", { attempt_id: attemptId, verify: { totp: code(1) } });
    expect(await verified.json()).toMatchObject({ status: "verified", verify: [] });
  });

  it("answers a wrong code with 'Incorrect Code' and keeps the attempt open", async () => {
    const { code } = await userWithTotp("wrongcode@example.com");
    const attemptId = await partialAttempt("wrongcode@example.com");
    const right = code(0);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");
    expect(await (await authPost(HOST, "/_auth/attempt/verify", { attempt_id: attemptId, verify: { totp: wrong } })).json()).toMatchObject({
      status: "partial",
      message: "Incorrect Code",
    });
    expect(await (await authPost(HOST, "/_auth/attempt/verify", { attempt_id: attemptId, verify: { totp: "12ab56" } })).json()).toMatchObject({
      status: "partial",
      message: "Incorrect Code",
    });
    expect(await (await authPost(HOST, "/_auth/attempt/verify", { attempt_id: attemptId, verify: { totp: right } })).json()).toMatchObject({
      status: "verified",
    });
  });

  it("refuses a code from two steps away and a replayed code", async () => {
    const { code } = await userWithTotp("replay@example.com");
    const first = await partialAttempt("replay@example.com");
    expect(await (await authPost(HOST, "/_auth/attempt/verify", { attempt_id: first, verify: { totp: code(2) } })).json()).toMatchObject({
      message: "Incorrect Code",
    });
    expect(await (await authPost(HOST, "/_auth/attempt/verify", { attempt_id: first, verify: { totp: code(0) } })).json()).toMatchObject({
      status: "verified",
    });
    const second = await partialAttempt("replay@example.com");
    expect(await (await authPost(HOST, "/_auth/attempt/verify", { attempt_id: second, verify: { totp: code(0) } })).json()).toMatchObject({
      message: "Incorrect Code",
    });
  });

  // Issue 28: only a passkey with user verification (UV) counts as both factors; without it the code step follows.
  it("does not ask a user-verified passkey sign-in for a code, and asks one without UV", async () => {
    const { user } = await userWithTotp("pktotp@example.com");
    const { SoftAuthenticator: Soft } = await import("./soft-authenticator");
    const authenticator = await Soft.create();
    const { createAttempt, verifyAttempt } = await import("../../workers/auth/attempts");
    const deps = {
      env,
      db: db(),
      tenant: {
        kind: "main" as const,
        hostname: HOST,
        theme: { name: "S", colours: { primary: "#000000", accent: "#000000", background: "#ffffff", text: "#000000" } },
      },
      now: Date.now(),
      clientKey: "client:t",
    };
    const attempt = await createAttempt(deps, { userId: user.id, method: "password" });
    if (!attempt.ok) throw new Error(attempt.message);
    expect((await verifyAttempt(deps, attempt.attempt_id, { passkey: authenticator.id, userVerified: true })).status).toBe("verified");
    const second = await createAttempt(deps, { userId: user.id, method: "password" });
    if (!second.ok) throw new Error(second.message);
    expect((await verifyAttempt(deps, second.attempt_id, { passkey: authenticator.id })).status).toBe("partial");
  });
});

describe("roles at sign-in", () => {
  it("refuses to start a session in a role the user does not hold", async () => {
    const other = await createUserWithPassword("roleowner@example.com", "glacier-ski-42", [{ type: "org_admin", clubId: null }]);
    await createUserWithPassword("nosuchrole@example.com", "glacier-ski-42");
    const attempt = await (await authPost(HOST, "/_auth/attempt", { email: "nosuchrole@example.com" })).json<{ attempt_id: string }>();
    const verified = await (
      await authPost(HOST, "/_auth/attempt/verify", { attempt_id: attempt.attempt_id, verify: { password: "glacier-ski-42" } })
    ).json<{ token: string }>();
    const login = await formPost(HOST, "/_auth/login", { token: verified.token, role: other.roleIds[0]! });
    expect(login.status).toBe(403);
    expect(await login.json()).toEqual({ error: "Error completing switch" });
    expect(cookieFrom(login, "__Host-sl_session")).toBeNull();
  });

  it("starts a session in a role the user holds", async () => {
    const user = await createUserWithPassword("roleheld@example.com", "glacier-ski-42", [{ type: "race_timer", scope: crypto.randomUUID() }]);
    const attempt = await (await authPost(HOST, "/_auth/attempt", { email: "roleheld@example.com" })).json<{ attempt_id: string }>();
    const verified = await (
      await authPost(HOST, "/_auth/attempt/verify", { attempt_id: attempt.attempt_id, verify: { password: "glacier-ski-42" } })
    ).json<{ token: string }>();
    const cookie = cookieFrom(await formPost(HOST, "/_auth/login", { token: verified.token, role: user.roleIds[0]! }), "__Host-sl_session")!;
    const info = await (await worker.fetch(hostRequest(HOST, "/_auth/session", { headers: { Cookie: cookie } }))).json();
    expect(info).toMatchObject({ valid: true, session: { active_role: user.roleIds[0] } });
  });
});

describe("the API's edges", () => {
  it("checks the calling origin", async () => {
    const own = await worker.fetch(hostRequest(HOST, "/_auth/check", { headers: { Origin: ORIGIN } }));
    expect(await own.json()).toEqual({ valid: false, client_id: null, error: "Unauthorized" });
    const foreign = await worker.fetch(hostRequest(HOST, "/_auth/check", { headers: { Origin: "https://evil.example" } }));
    expect(await foreign.json()).toEqual({ valid: false, client_id: null, error: "Could not verify your connection" });
  });

  it("answers unknown paths and methods", async () => {
    expect((await worker.fetch(hostRequest(HOST, "/_auth/nope"))).status).toBe(404);
    expect((await worker.fetch(hostRequest(HOST, "/_auth/mail"))).status).toBe(405);
  });

  it("takes the data-service client's verify call and answers with two elements", async () => {
    await createUserWithPassword("sdk@example.com", "glacier-ski-42");
    const attempt = await (await authPost(HOST, "/_auth/attempt", { email: "sdk@example.com", provider: "password" })).json<{ attempt_id: string }>();
    const reply = await (await authPost(HOST, "/_auth/verify", { attempt_id: attempt.attempt_id, verify: { password: "glacier-ski-42" } })).json<unknown[]>();
    expect(reply).toHaveLength(2);
    expect(reply[0]).toMatchObject({ status: "verified" });
  });
});
