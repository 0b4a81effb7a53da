import { describe, expect, it } from "vitest";
import { MAX_FAILURES_PER_USER } from "../../core/auth/constants";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { authPost, cookieFrom, createUserWithPassword, db, formPost, latestMailTo, linkIn, signIn, worker } from "./auth-fixtures";

const HOST = "localhost";

async function createAttempt(email: string, extra: Record<string, unknown> = {}) {
  const response = await authPost(HOST, "/_auth/attempt", { email, method: "password", ...extra });
  return { response, body: await response.json<Record<string, unknown>>() };
}

describe("sign-in attempts", () => {
  it("creates an attempt with the user's options and remembers it for 'Welcome Back'", async () => {
    await createUserWithPassword("rita@example.com", "glacier-ski-42");
    const { response, body } = await createAttempt("Rita@Example.com");
    expect(response.status).toBe(200);
    expect(body).toMatchObject({ email: "rita@example.com", options: { password: true, passkeys: false }, host: "localhost" });
    const stored = cookieFrom(response, "sl_attempt")!;
    const last = await worker.fetch(hostRequest(HOST, "/_auth/attempt", { headers: { Cookie: stored } }));
    expect(await last.json()).toMatchObject({ attempt_id: body.attempt_id, name: "User rita" });
    const byToken = await worker.fetch(hostRequest(HOST, `/_auth/attempt?token=${body.token}`));
    expect(await byToken.json()).toMatchObject({ attempt_id: body.attempt_id });
  });

  it("offers no password to a user who has none", async () => {
    await createUserWithPassword("linkonly@example.com", null);
    expect((await createAttempt("linkonly@example.com")).body).toMatchObject({ options: { password: false } });
  });

  it("says 'Invalid email address' for an unknown email and asks for an email or user id", async () => {
    expect((await createAttempt("nobody@example.com")).body).toEqual({ error: "Invalid email address" });
    const missing = await authPost(HOST, "/_auth/attempt", { method: "password" });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: "Either email or userID must be provided to create a sign-in attempt" });
  });

  it("drops a goto that points at another site", async () => {
    await createUserWithPassword("goto@example.com", "glacier-ski-42");
    expect((await createAttempt("goto@example.com", { goto: "https://evil.example/phish" })).body.goto).toBeNull();
    expect((await createAttempt("goto@example.com", { goto: "/manage" })).body.goto).toBe("/manage");
  });

  it("refuses a target domain that is not one of ours, and accepts a registered club site from the main host", async () => {
    await createUserWithPassword("domain@example.com", "glacier-ski-42");
    expect((await createAttempt("domain@example.com", { domain: "evil.example" })).response.status).toBe(400);
    await createSiteWithRace(db(), { hostname: "club1.localhost", siteName: "Club One", raceName: "R" });
    expect((await createAttempt("domain@example.com", { domain: "club1.localhost" })).body.host).toBe("club1.localhost");
  });
});

describe("password verification and sessions", () => {
  it("answers a wrong password with 'Incorrect password.' and lets the user try again", async () => {
    await createUserWithPassword("pw@example.com", "glacier-ski-42");
    const { body } = await createAttempt("pw@example.com");
    const wrong = await authPost(HOST, "/_auth/attempt/verify", { attempt_id: body.attempt_id, verify: { password: "nope-nope" } });
    expect(await wrong.json()).toMatchObject({ status: "password_invalid", message: "Incorrect password.", token: null });
    const right = await authPost(HOST, "/_auth/attempt/verify", { attempt_id: body.attempt_id, verify: { password: "glacier-ski-42" } });
    expect(await right.json()).toMatchObject({ status: "verified", verify: [], prompt_passkey: true, host: "localhost" });
  });

  it("turns the verified token into a session cookie once, and the session names the user", async () => {
    const user = await createUserWithPassword("session@example.com", "glacier-ski-42");
    const { body } = await createAttempt("session@example.com", { goto: "/manage" });
    const verified = await (
      await authPost(HOST, "/_auth/attempt/verify", { attempt_id: body.attempt_id, verify: { password: "glacier-ski-42" } })
    ).json<{ token: string }>();
    const login = await formPost(HOST, "/_auth/login", { token: verified.token, goto: "/manage" });
    expect(login.status).toBe(303);
    expect(login.headers.get("Location")).toBe("/manage");
    const setCookie = login.headers.getSetCookie().find((c) => c.startsWith("__Host-sl_session="))!;
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("Secure");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).not.toContain("Domain=");
    const cookie = setCookie.split(";")[0]!;
    const info = await (await worker.fetch(hostRequest(HOST, "/_auth/session", { headers: { Cookie: cookie } }))).json();
    expect(info).toMatchObject({ valid: true, user: { uuid: user.id, email: "session@example.com" } });
    expect((await formPost(HOST, "/_auth/login", { token: verified.token })).status).toBe(401);
  });

  it("stores only a hash of the session secret", async () => {
    await createUserWithPassword("hash@example.com", "glacier-ski-42");
    const cookie = await signIn(HOST, "hash@example.com", "glacier-ski-42");
    const secret = decodeURIComponent(cookie.split("=")[1]!).split(".")[1]!;
    const rows = await db().query.sessions.findMany();
    expect(rows.some((r) => r.secretHash.includes(secret))).toBe(false);
  });

  it("treats a forged or expired cookie as signed out and clears it", async () => {
    await createUserWithPassword("forged@example.com", "glacier-ski-42");
    const cookie = await signIn(HOST, "forged@example.com", "glacier-ski-42");
    const forged = cookie.replace(/\.[^.]+$/, ".forgedsecret");
    const answer = await worker.fetch(hostRequest(HOST, "/_auth/session", { headers: { Cookie: forged } }));
    expect(await answer.json()).toMatchObject({ valid: false });
    expect(answer.headers.getSetCookie().some((c) => c.startsWith("__Host-sl_session=;") && c.includes("Max-Age=0"))).toBe(true);
    const [id] = decodeURIComponent(cookie.split("=")[1]!).split(".");
    await db()
      .update((await import("../../schema/d1")).sessions)
      .set({ expiresAt: Date.now() - 1 });
    const expired = await worker.fetch(hostRequest(HOST, "/_auth/session", { headers: { Cookie: cookie } }));
    expect(await expired.json()).toMatchObject({ valid: false });
    expect(await db().query.sessions.findFirst({ where: (s, { eq }) => eq(s.id, id!) })).toBeUndefined();
  });

  it("does not accept one host's session on another host", async () => {
    await createSiteWithRace(db(), { hostname: "club2.localhost", siteName: "Club Two", raceName: "R" });
    await createUserWithPassword("hosts@example.com", "glacier-ski-42");
    const cookie = await signIn(HOST, "hosts@example.com", "glacier-ski-42");
    const elsewhere = await worker.fetch(hostRequest("club2.localhost", "/_auth/session", { headers: { Cookie: cookie } }));
    expect(await elsewhere.json()).toMatchObject({ valid: false });
  });

  it("signs out with DELETE /_auth/session", async () => {
    await createUserWithPassword("out@example.com", "glacier-ski-42");
    const cookie = await signIn(HOST, "out@example.com", "glacier-ski-42");
    const out = await authPost(HOST, "/_auth/session", {}, { cookie, method: "DELETE" });
    expect(out.headers.getSetCookie().some((c) => c.includes("Max-Age=0"))).toBe(true);
    expect(await (await worker.fetch(hostRequest(HOST, "/_auth/session", { headers: { Cookie: cookie } }))).json()).toMatchObject({ valid: false });
  });

  it("stops checking passwords after too many failures", async () => {
    await createUserWithPassword("locked@example.com", "glacier-ski-42");
    const { body } = await createAttempt("locked@example.com");
    for (let i = 0; i < MAX_FAILURES_PER_USER; i++) {
      await authPost(HOST, "/_auth/attempt/verify", { attempt_id: body.attempt_id, verify: { password: `wrong-${i}` } });
    }
    const right = await authPost(HOST, "/_auth/attempt/verify", { attempt_id: body.attempt_id, verify: { password: "glacier-ski-42" } });
    expect(await right.json()).toMatchObject({
      status: "failed",
      message: "You've made too many failed attempts. Please try again later, or reset your password.",
    });
  });

  it("refuses a cross-site POST", async () => {
    await createUserWithPassword("csrf@example.com", "glacier-ski-42");
    const response = await worker.fetch(
      hostRequest(HOST, "/_auth/attempt", {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
        body: JSON.stringify({ email: "csrf@example.com" }),
      }),
    );
    expect(response.status).toBe(403);
  });

  it("verifies an attempt by the user's own session, and refuses another user's", async () => {
    await createSiteWithRace(db(), { hostname: "club4.localhost", siteName: "Club Four", raceName: "R" });
    await createUserWithPassword("bysession@example.com", "glacier-ski-42");
    await createUserWithPassword("someoneelse@example.com", "glacier-ski-42");
    const cookie = await signIn(HOST, "bysession@example.com", "glacier-ski-42");
    const otherCookie = await signIn(HOST, "someoneelse@example.com", "glacier-ski-42");
    const { body } = await createAttempt("bysession@example.com", { method: "switch", domain: "club4.localhost" });
    const verify = { attempt_id: body.attempt_id, verify: { session: true } };
    expect((await authPost(HOST, "/_auth/attempt/verify", verify, { cookie: otherCookie })).status).toBe(401);
    expect((await authPost(HOST, "/_auth/attempt/verify", verify)).status).toBe(401);
    const reply = await (await authPost(HOST, "/_auth/attempt/verify", verify, { cookie })).json();
    expect(reply).toMatchObject({ status: "verified", host: "club4.localhost", verify: [] });
  });

  it("hands a sign-in on the main host over to a club site's /_auth/login", async () => {
    await createSiteWithRace(db(), { hostname: "club3.localhost", siteName: "Club Three", raceName: "R" });
    await createUserWithPassword("handoff@example.com", "glacier-ski-42");
    const { body } = await createAttempt("handoff@example.com", { domain: "club3.localhost", goto: "/races" });
    const verified = await (
      await authPost(HOST, "/_auth/attempt/verify", { attempt_id: body.attempt_id, verify: { password: "glacier-ski-42" } })
    ).json<{ token: string; host: string }>();
    expect(verified.host).toBe("club3.localhost");
    // The main host cannot use a token meant for the club site.
    expect((await formPost(HOST, "/_auth/login", { token: verified.token })).status).toBe(401);
    const claimed = await formPost(
      "club3.localhost",
      "/_auth/login",
      { token: verified.token, goto: "/races" },
      { Origin: "http://localhost:8787", "Sec-Fetch-Site": "same-site" },
    );
    expect(claimed.status).toBe(303);
    expect(claimed.headers.get("Location")).toBe("/races");
    expect(cookieFrom(claimed, "__Host-sl_session")).not.toBeNull();
  });
});

describe("emailed links", () => {
  it("sends a single-use sign-in link valid for ten minutes", async () => {
    await createUserWithPassword("link@example.com", null);
    const { body } = await createAttempt("link@example.com", { method: "link" });
    expect(await (await authPost(HOST, "/_auth/mail", { email: "link@example.com", attempt_id: body.attempt_id })).json()).toEqual({ sent: true });
    const mail = await latestMailTo("link@example.com");
    expect(mail?.text).toContain("valid for only ten minutes");
    const link = linkIn(mail!.text);
    expect(link.url.pathname).toBe("/login/link");
    const verify = { attempt_id: body.attempt_id, verify: { link: link.token } };
    expect(await (await authPost(HOST, "/_auth/attempt/verify", verify)).json()).toMatchObject({ status: "verified" });
  });

  it("refuses a reused or expired link with the spec's message", async () => {
    await createUserWithPassword("reuse@example.com", null);
    const { body } = await createAttempt("reuse@example.com", { method: "link" });
    await authPost(HOST, "/_auth/mail", { email: "reuse@example.com", attempt_id: body.attempt_id });
    const link = linkIn((await latestMailTo("reuse@example.com"))!.text);
    const { verifyLink } = await import("../../workers/auth/attempts");
    const { env } = await import("cloudflare:workers");
    const deps = {
      env,
      db: db(),
      tenant: {
        kind: "main" as const,
        hostname: HOST,
        theme: { name: "S", colours: { primary: "#000000", accent: "#000000", background: "#ffffff", text: "#000000" } },
      },
      now: Date.now(),
      clientKey: "client:test",
    };
    expect((await verifyLink(deps, link.token, link.email)).status).toBe("verified");
    const reused = await verifyLink(deps, link.token, link.email);
    expect(reused).toMatchObject({ status: "failed", message: "This sign-in link has already been used or has expired. Please request a new one." });

    const second = await createAttempt("reuse@example.com", { method: "link" });
    await authPost(HOST, "/_auth/mail", { email: "reuse@example.com", attempt_id: second.body.attempt_id });
    const late = linkIn((await latestMailTo("reuse@example.com"))!.text);
    const elevenMinutesLater = { ...deps, now: Date.now() + 11 * 60 * 1000 };
    expect((await verifyLink(elevenMinutesLater, late.token, late.email)).message).toBe(
      "This sign-in link has already been used or has expired. Please request a new one.",
    );
  });

  it("still accepts a link nine minutes after it was sent", async () => {
    await createUserWithPassword("nine@example.com", null);
    const { body } = await createAttempt("nine@example.com", { method: "link" });
    await authPost(HOST, "/_auth/mail", { email: "nine@example.com", attempt_id: body.attempt_id });
    const link = linkIn((await latestMailTo("nine@example.com"))!.text);
    const { verifyLink } = await import("../../workers/auth/attempts");
    const { env } = await import("cloudflare:workers");
    const tenant = {
      kind: "main" as const,
      hostname: HOST,
      theme: { name: "S", colours: { primary: "#000000", accent: "#000000", background: "#ffffff", text: "#000000" } },
    };
    const nineMinutesLater = { env, db: db(), tenant, now: Date.now() + 9 * 60 * 1000, clientKey: "client:test" };
    expect((await verifyLink(nineMinutesLater, link.token, link.email)).status).toBe("verified");
  });

  it("will not send a second reset link while the first is valid, and resets the password with it", async () => {
    await createUserWithPassword("reset@example.com", "old-password-1");
    const first = await createAttempt("reset@example.com", { method: "reset" });
    expect((await authPost(HOST, "/_auth/mail", { email: "reset@example.com", attempt_id: first.body.attempt_id })).status).toBe(200);
    const second = await createAttempt("reset@example.com", { method: "reset" });
    const refused = await authPost(HOST, "/_auth/mail", { email: "reset@example.com", attempt_id: second.body.attempt_id });
    expect(await refused.json()).toEqual({ error: "A new password reset link cannot be sent until the first one expires." });
    const link = linkIn((await latestMailTo("reset@example.com"))!.text);
    expect(link.url.pathname).toBe("/login/reset");
    const common = await authPost(HOST, "/_auth/set_password", { password: "password", token: link.token });
    expect(await common.json()).toEqual({ error: "This password is not allowed" });
    const done = await authPost(HOST, "/_auth/set_password", { password: "new-password-22", token: link.token, email: link.email });
    expect(await done.json()).toMatchObject({ status: "verified" });
    await signIn(HOST, "reset@example.com", "new-password-22");
  });

  it("checks a new password on the server", async () => {
    expect(await (await authPost(HOST, "/_auth/reset/check", { password: "qwerty" })).json()).toEqual({
      valid: false,
      reason: "Passwords must be at least 8 characters long",
    });
    expect(await (await authPost(HOST, "/_auth/reset/check", { password: "football" })).json()).toEqual({
      valid: false,
      reason: "This password is not allowed",
    });
    expect(await (await authPost(HOST, "/_auth/reset/check", { password: "blue-lake-trail-9" })).json()).toEqual({ valid: true, reason: null });
  });
});

describe("sign-up", () => {
  it("creates an account, sends the first sign-in link and goes to /welcome", async () => {
    const response = await formPost(HOST, "/_auth/signup", { email: "New.Admin@Example.com", name: "New Admin", phone: "613-555-0100" });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/welcome");
    const user = await db().query.users.findFirst({ where: (u, { eq }) => eq(u.email, "new.admin@example.com") });
    expect(user).toMatchObject({ name: "New Admin", phone: "613-555-0100", passwordHash: null });
    expect(linkIn((await latestMailTo("new.admin@example.com"))!.text).url.pathname).toBe("/login/link");
  });

  it("refuses an email without an at-sign or an empty name", async () => {
    expect((await formPost(HOST, "/_auth/signup", { email: "nope", name: "X" })).status).toBe(400);
    expect((await formPost(HOST, "/_auth/signup", { email: "a@b.c", name: "  " })).status).toBe(400);
  });
});
