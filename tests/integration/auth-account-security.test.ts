import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { recoveryCodes, sessions, users } from "../../schema/d1";
import { hashToken } from "../../workers/auth/crypto";
import { isTotpEnabled } from "../../workers/auth/totp";
import { hostRequest } from "./fixtures";
import {
  authPost,
  cookieFrom,
  createUserWithPassword,
  db,
  formPost,
  latestMailTo,
  latestMailWithSubject,
  linkIn,
  pagePost,
  signIn,
  worker,
} from "./auth-fixtures";
import { SoftAuthenticator } from "./soft-authenticator";

// Issue 28: each test here failed on main before the account-security work.

const HOST = "localhost";
const ORIGIN = "http://localhost:8787";
const PASSWORD = "glacier-ski-42";
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

function get(path: string, cookie?: string) {
  return worker.fetch(hostRequest(`${HOST}:8787`, path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" }));
}

function sessionIdOf(cookie: string): string {
  return decodeURIComponent(cookie.split("=")[1]!).split(".")[0]!;
}

async function isSignedIn(cookie: string): Promise<boolean> {
  const info = await (await worker.fetch(hostRequest(HOST, "/_auth/session", { headers: { Cookie: cookie } }))).json<{ valid: boolean }>();
  return info.valid;
}

/** Moves the session's last full sign-in `minutes` into the past (time is controlled through the row, not by sleeping). */
async function ageVerification(cookie: string, minutes: number) {
  await db()
    .update(sessions)
    .set({ verifiedAt: Date.now() - minutes * MINUTE })
    .where(eq(sessions.id, sessionIdOf(cookie)));
}

function codeFor(typedSecret: string, stepsAhead: number): string {
  const key = decodeBase32IgnorePadding(typedSecret.replace(/\s/g, ""));
  return generateHOTP(key, BigInt(Math.floor(Date.now() / 30_000) + stepsAhead), 6);
}

async function shownSecret(cookie: string): Promise<string | null> {
  const html = await (await get("/manage/security", cookie)).text();
  return /data-testid="totp-secret">([A-Z2-7 ]+)</.exec(html)?.[1] ?? null;
}

function codesIn(html: string): string[] {
  return [...html.matchAll(/<li>([a-z0-9]{5}-[a-z0-9]{5})<\/li>/g)].map((m) => m[1]!);
}

/** Turns two-factor on through the security page, as a person does; returns the key and the recovery codes shown. */
async function enableTotp(cookie: string) {
  await pagePost(HOST, "/manage/security", { intent: "totp-begin" }, cookie);
  const secret = (await shownSecret(cookie))!;
  const confirmed = await pagePost(HOST, "/manage/security", { intent: "totp-confirm", code: codeFor(secret, -1) }, cookie);
  const html = await confirmed.text();
  expect(html).toContain("Two-factor authentication is on.");
  return { secret, codes: codesIn(html), code: (stepsAhead: number) => codeFor(secret, stepsAhead) };
}

async function passwordAttempt(email: string, password = PASSWORD) {
  const created = await authPost(HOST, "/_auth/attempt", { email, method: "password" });
  const attempt = await created.json<{ attempt_id: string }>();
  const reply = await (await authPost(HOST, "/_auth/attempt/verify", { attempt_id: attempt.attempt_id, verify: { password } })).json<{ status: string }>();
  return { attemptId: attempt.attempt_id, attemptCookie: cookieFrom(created, "sl_attempt")!, reply };
}

async function registerPasskey(cookie: string, userId: string) {
  const authenticator = await SoftAuthenticator.create();
  const options = await (
    await authPost(HOST, "/_auth/passkey/register/begin", { user_id: userId }, { cookie })
  ).json<{ challenge: string; rp: { id: string } }>();
  const done = await authPost(
    HOST,
    "/_auth/passkey/register/complete",
    { user_id: userId, credential: await authenticator.register(options, ORIGIN) },
    { cookie },
  );
  expect(await done.json()).toMatchObject({ verified: true });
  return authenticator;
}

describe("passkeys on a two-factor account", () => {
  it("asks for user verification and treats an assertion without UV as one factor", async () => {
    const user = await createUserWithPassword("uv@example.com", PASSWORD);
    const cookie = await signIn(HOST, "uv@example.com", PASSWORD);
    const authenticator = await registerPasskey(cookie, user.id);
    const totp = await enableTotp(cookie);

    const begin = await (
      await authPost(HOST, "/_auth/passkey/authenticate/begin", { user_id: user.id })
    ).json<{ challenge: string; userVerification: string }>();
    expect(begin.userVerification).toBe("required");
    const withoutUv = await authenticator.authenticate(begin, ORIGIN, HOST, 1, false);
    const partial = await authPost(HOST, "/_auth/passkey/authenticate/complete", { credential: withoutUv, goto: "/manage" });
    const [reply] = await partial.json<{ status: string; token: string | null; attempt_id: string }[]>();
    expect(reply).toMatchObject({ status: "partial", token: null, verify: ["totp"] });
    // The code step then completes it.
    const verified = await (await authPost(HOST, "/_auth/attempt/verify", { attempt_id: reply!.attempt_id, verify: { totp: totp.code(0) } })).json();
    expect(verified).toMatchObject({ status: "verified" });

    const again = await (await authPost(HOST, "/_auth/passkey/authenticate/begin", { user_id: user.id })).json<{ challenge: string }>();
    const withUv = await authenticator.authenticate(again, ORIGIN, HOST, 1, true);
    const [full] = await (await authPost(HOST, "/_auth/passkey/authenticate/complete", { credential: withUv })).json<{ status: string; token: string }[]>();
    expect(full).toMatchObject({ status: "verified", token: expect.any(String) });
  });

  it("prefers user verification when the user is not known beforehand, and checks the flag after", async () => {
    const user = await createUserWithPassword("uv2@example.com", PASSWORD);
    const cookie = await signIn(HOST, "uv2@example.com", PASSWORD);
    const authenticator = await registerPasskey(cookie, user.id);
    await enableTotp(cookie);
    const begin = await (await authPost(HOST, "/_auth/passkey/authenticate/begin", { user_id: null })).json<{ challenge: string; userVerification: string }>();
    expect(begin.userVerification).toBe("preferred");
    const [reply] = await (
      await authPost(HOST, "/_auth/passkey/authenticate/complete", { credential: await authenticator.authenticate(begin, ORIGIN, HOST, 1, false) })
    ).json<{ status: string }[]>();
    expect(reply!.status).toBe("partial");
  });
});

describe("two-factor set-up", () => {
  it("keeps the same key after a wrong code; only 'start again' makes a new one", async () => {
    await createUserWithPassword("keep@example.com", PASSWORD);
    const cookie = await signIn(HOST, "keep@example.com", PASSWORD);
    await pagePost(HOST, "/manage/security", { intent: "totp-begin" }, cookie);
    const first = await shownSecret(cookie);
    expect(first).toMatch(/^[A-Z2-7 ]+$/);
    const wrong = String((Number(codeFor(first!, 0)) + 1) % 1_000_000).padStart(6, "0");
    const answer = await (await pagePost(HOST, "/manage/security", { intent: "totp-confirm", code: wrong }, cookie)).text();
    expect(answer).toContain("Incorrect Code");
    expect(answer).toContain(first!);
    expect(await shownSecret(cookie)).toBe(first);
    await pagePost(HOST, "/manage/security", { intent: "totp-begin" }, cookie);
    expect(await shownSecret(cookie)).toBe(first);
    await pagePost(HOST, "/manage/security", { intent: "totp-restart" }, cookie);
    const second = await shownSecret(cookie);
    expect(second).not.toBe(first);
  });
});

describe("recovery codes", () => {
  it("makes ten, stores only hashes, and each signs in once with a notice", async () => {
    const user = await createUserWithPassword("codes@example.com", PASSWORD);
    const cookie = await signIn(HOST, "codes@example.com", PASSWORD);
    const { codes } = await enableTotp(cookie);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const rows = await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(rows).toHaveLength(10);
    const stored = JSON.stringify(rows);
    for (const code of codes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace("-", ""));
    }
    // Shown once: the page does not show them again.
    expect(codesIn(await (await get("/manage/security", cookie)).text())).toEqual([]);

    // The sign-in page's code step takes a recovery code (typed in capitals, with spaces).
    const { attemptCookie, reply } = await passwordAttempt("codes@example.com");
    expect(reply.status).toBe("partial");
    const used = await pagePost(HOST, "/login/totp", { code: ` ${codes[0]!.toUpperCase().replace("-", " ")} ` }, attemptCookie);
    expect(used.status).toBe(302);
    expect(used.headers.get("Location")).toMatch(/^\/login\/(complete|passkey)$/);
    const notice = (await latestMailWithSubject("codes@example.com", "A recovery code was used"))!;
    expect(notice.subject).toContain("A recovery code was used");
    expect(notice.text).toContain("9 unused codes remain");

    // A second use of the same code is refused.
    const second = await passwordAttempt("codes@example.com");
    const refused = await (await authPost(HOST, "/_auth/attempt/verify", { attempt_id: second.attemptId, verify: { totp: codes[0]! } })).json();
    expect(refused).toMatchObject({ status: "partial", message: "Incorrect Code", token: null });
    const other = await (await authPost(HOST, "/_auth/attempt/verify", { attempt_id: second.attemptId, verify: { totp: codes[1]! } })).json();
    expect(other).toMatchObject({ status: "verified" });
  });

  it("are replaced by 'make new codes' with a fresh sign-in, and the old ones stop working", async () => {
    await createUserWithPassword("newcodes@example.com", PASSWORD);
    const cookie = await signIn(HOST, "newcodes@example.com", PASSWORD);
    const { codes } = await enableTotp(cookie);
    const html = await (await pagePost(HOST, "/manage/security", { intent: "codes-new" }, cookie)).text();
    const fresh = codesIn(html);
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(codes[0]);
    expect((await latestMailWithSubject("newcodes@example.com", "New recovery codes"))?.subject).toContain("New recovery codes");
    const { attemptId } = await passwordAttempt("newcodes@example.com");
    expect(await (await authPost(HOST, "/_auth/attempt/verify", { attempt_id: attemptId, verify: { totp: codes[0]! } })).json()).toMatchObject({
      status: "partial",
    });
  });
});

describe("changing the password", () => {
  it("needs the current password, signs out the other sessions and keeps this one", async () => {
    await createUserWithPassword("change@example.com", PASSWORD);
    const here = await signIn(HOST, "change@example.com", PASSWORD);
    const elsewhere = await signIn(HOST, "change@example.com", PASSWORD);
    const form = { intent: "password", password: "new-birch-trail-7", confirm: "new-birch-trail-7", sign_out_others: "yes" };

    expect(await (await pagePost(HOST, "/manage/security", form, here)).text()).toContain("Your current password is not correct.");
    expect(await (await pagePost(HOST, "/manage/security", { ...form, current: "wrong-password-1" }, here)).text()).toContain(
      "Your current password is not correct.",
    );
    const api = await authPost(HOST, "/_auth/set_password", { password: "new-birch-trail-7" }, { cookie: here });
    expect(api.status).toBe(400);
    expect((await passwordAttempt("change@example.com", "new-birch-trail-7")).reply.status).toBe("password_invalid");
    expect(await isSignedIn(elsewhere)).toBe(true);

    const done = await (await pagePost(HOST, "/manage/security", { ...form, current: PASSWORD }, here)).text();
    expect(done).toContain("Your other sessions are signed out.");
    expect(await isSignedIn(here)).toBe(true);
    expect(await isSignedIn(elsewhere)).toBe(false);
    expect((await passwordAttempt("change@example.com", "new-birch-trail-7")).reply.status).toBe("verified");
    expect((await latestMailWithSubject("change@example.com", "Your password was changed"))?.subject).toContain("Your password was changed");
  });

  it("asks an account without a password for a fresh sign-in instead", async () => {
    await createUserWithPassword("nopass@example.com", null);
    // A sign-in link is the only way in for this account.
    const attempt = await (await authPost(HOST, "/_auth/attempt", { email: "nopass@example.com", method: "link" })).json<{ attempt_id: string }>();
    await authPost(HOST, "/_auth/mail", { email: "nopass@example.com", attempt_id: attempt.attempt_id });
    const link = linkIn((await latestMailTo("nopass@example.com"))!.text);
    const reply = await (
      await authPost(HOST, "/_auth/attempt/verify", { attempt_id: attempt.attempt_id, verify: { link: link.token } })
    ).json<{ token: string }>();
    const cookie = cookieFrom(await formPost(HOST, "/_auth/login", { token: reply.token }), "__Host-sl_session")!;
    await ageVerification(cookie, 6);
    const form = { intent: "password", password: "first-pass-word-9", confirm: "first-pass-word-9" };
    const stale = await pagePost(HOST, "/manage/security", form, cookie);
    expect(stale.status).toBe(302);
    expect(stale.headers.get("Location")).toBe("/login?reauth=1&goto=%2Fmanage%2Fsecurity");
    await ageVerification(cookie, 1);
    expect(await (await pagePost(HOST, "/manage/security", form, cookie)).text()).toContain("Your password is set.");
  });
});

describe("turning two-factor off", () => {
  it("needs a code, a recovery code or the password, not the session alone", async () => {
    const user = await createUserWithPassword("off@example.com", PASSWORD);
    const cookie = await signIn(HOST, "off@example.com", PASSWORD);
    await enableTotp(cookie);
    // The old confirm-only form, and a wrong proof, change nothing.
    await pagePost(HOST, "/manage/security", { intent: "totp-off", confirm: "yes" }, cookie);
    expect(await (await pagePost(HOST, "/manage/security", { intent: "totp-off", proof: "" }, cookie)).text()).toContain(
      "Enter a code from your authenticator app",
    );
    expect(await (await pagePost(HOST, "/manage/security", { intent: "totp-off", proof: "not-my-password" }, cookie)).text()).toContain(
      "That code or password is not correct.",
    );
    expect(await isTotpEnabled(db(), user.id)).toBe(true);
    expect(await (await pagePost(HOST, "/manage/security", { intent: "totp-off", proof: PASSWORD }, cookie)).text()).toContain(
      "Two-factor authentication is off.",
    );
    expect(await isTotpEnabled(db(), user.id)).toBe(false);
    expect(await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toHaveLength(0);
    expect((await latestMailWithSubject("off@example.com", "Two-factor authentication is off"))?.subject).toContain("Two-factor authentication is off");
  });
});

describe("re-authentication for sensitive changes", () => {
  it("refuses passkey add and remove and new codes on a sign-in older than 5 minutes, and accepts them after re-authenticating the same session", async () => {
    const user = await createUserWithPassword("sudo@example.com", PASSWORD);
    const cookie = await signIn(HOST, "sudo@example.com", PASSWORD);
    const authenticator = await registerPasskey(cookie, user.id);
    expect((await latestMailWithSubject("sudo@example.com", "A passkey was added"))?.subject).toContain("A passkey was added");
    const totp = await enableTotp(cookie);
    await ageVerification(cookie, 6);

    const begin = await authPost(HOST, "/_auth/passkey/register/begin", { user_id: user.id }, { cookie });
    expect(begin.status).toBe(403);
    expect(await begin.json()).toMatchObject({ reauth: "/login?reauth=1&goto=%2Flogin%2FmanagePasskey" });
    const remove = await authPost(HOST, "/_auth/passkey/credentials", { passkey_id: authenticator.id, user_id: user.id }, { cookie, method: "DELETE" });
    expect(remove.status).toBe(403);
    const codes = await pagePost(HOST, "/manage/security", { intent: "codes-new" }, cookie);
    expect(codes.headers.get("Location")).toBe("/login?reauth=1&goto=%2Fmanage%2Fsecurity");
    const email = await pagePost(HOST, "/manage/security", { intent: "email", email: "sudo-new@example.com" }, cookie);
    expect(email.headers.get("Location")).toBe("/login?reauth=1&goto=%2Fmanage%2Fsecurity");
    // The session alone cannot stand in for the re-authentication.
    const reauthPage = await (await get("/login?reauth=1&goto=%2Fmanage%2Fsecurity", cookie)).text();
    expect(reauthPage).toContain("Confirm it&#x27;s you");

    // Re-authenticate: the same sign-in as always (password, then code), for the same session.
    const sessionCountBefore = (await db().select().from(sessions).where(eq(sessions.userId, user.id))).length;
    const step1 = await pagePost(HOST, "/login?reauth=1&goto=%2Fmanage%2Fsecurity", { intent: "password", password: PASSWORD }, cookie);
    expect(step1.headers.get("Location")).toBe("/login/totp");
    const attemptCookie = cookieFrom(step1, "sl_attempt")!;
    const step2 = await pagePost(HOST, "/login/totp", { code: totp.code(0) }, `${cookie}; ${attemptCookie}`);
    expect(step2.headers.get("Location")).toBe("/manage/security");
    const row = await db().query.sessions.findFirst({ where: eq(sessions.id, sessionIdOf(cookie)) });
    expect(Date.now() - row!.verifiedAt!).toBeLessThan(MINUTE);
    expect((await db().select().from(sessions).where(eq(sessions.userId, user.id))).length).toBe(sessionCountBefore);

    expect(codesIn(await (await pagePost(HOST, "/manage/security", { intent: "codes-new" }, cookie)).text())).toHaveLength(10);
    expect((await authPost(HOST, "/_auth/passkey/register/begin", { user_id: user.id }, { cookie })).status).toBe(200);
    const removed = await authPost(HOST, "/_auth/passkey/credentials", { passkey_id: authenticator.id, user_id: user.id }, { cookie, method: "DELETE" });
    expect(await removed.json()).toEqual({ deleted: true });
    expect((await latestMailWithSubject("sudo@example.com", "A passkey was removed"))?.subject).toContain("A passkey was removed");
  });

  it("re-authenticates with a passkey for the same user only, and never by the session itself", async () => {
    const user = await createUserWithPassword("pkre@example.com", PASSWORD);
    await createUserWithPassword("pkother@example.com", PASSWORD);
    const cookie = await signIn(HOST, "pkre@example.com", PASSWORD);
    const otherCookie = await signIn(HOST, "pkother@example.com", PASSWORD);
    const authenticator = await registerPasskey(cookie, user.id);
    await ageVerification(otherCookie, 10);
    await ageVerification(cookie, 10);

    const foreign = await (await authPost(HOST, "/_auth/passkey/authenticate/begin", { user_id: null })).json<{ challenge: string }>();
    const wrongUser = await authPost(
      HOST,
      "/_auth/passkey/authenticate/complete",
      { credential: await authenticator.authenticate(foreign, ORIGIN, HOST), reauth: true },
      { cookie: otherCookie },
    );
    expect((await wrongUser.json<{ status: string }[]>())[0]!.status).toBe("failed");

    const begin = await (await authPost(HOST, "/_auth/passkey/authenticate/begin", { user_id: user.id })).json<{ challenge: string }>();
    const done = await authPost(
      HOST,
      "/_auth/passkey/authenticate/complete",
      { credential: await authenticator.authenticate(begin, ORIGIN, HOST), reauth: true, goto: "/login/managePasskey" },
      { cookie },
    );
    expect((await done.json<unknown[]>())[0]).toMatchObject({ status: "verified", reauth: true, token: null, goto: "/login/managePasskey" });
    const row = await db().query.sessions.findFirst({ where: eq(sessions.id, sessionIdOf(cookie)) });
    expect(Date.now() - row!.verifiedAt!).toBeLessThan(MINUTE);

    // A stale session cannot finish its own re-authentication attempt with the session as proof.
    await ageVerification(cookie, 10);
    const step1 = await pagePost(HOST, "/login?reauth=1&goto=%2Fmanage%2Fsecurity", { intent: "password", password: "wrong-password-1" }, cookie);
    expect(step1.status).toBe(200);
    const attempts = await db().query.signInAttempts.findMany({ where: (a, { eq: equal }) => equal(a.userId, user.id) });
    const reauthAttempt = attempts.find((a) => a.reauthSessionId === sessionIdOf(cookie))!;
    const bySession = await authPost(HOST, "/_auth/attempt/verify", { attempt_id: reauthAttempt.id, verify: { session: true } }, { cookie });
    expect(await bySession.json()).toMatchObject({ status: "failed" });
  });
});

describe("re-authentication by e-mailed link", () => {
  it("refreshes the same session of an account without a password and returns to the page", async () => {
    const user = await createUserWithPassword("relink@example.com", null);
    const attempt = await (await authPost(HOST, "/_auth/attempt", { email: "relink@example.com", method: "link" })).json<{ attempt_id: string }>();
    await authPost(HOST, "/_auth/mail", { email: "relink@example.com", attempt_id: attempt.attempt_id });
    const first = linkIn((await latestMailTo("relink@example.com"))!.text);
    const reply = await (
      await authPost(HOST, "/_auth/attempt/verify", { attempt_id: attempt.attempt_id, verify: { link: first.token } })
    ).json<{ token: string }>();
    const cookie = cookieFrom(await formPost(HOST, "/_auth/login", { token: reply.token }), "__Host-sl_session")!;
    await ageVerification(cookie, 30);
    // The page asks to confirm first rather than showing a form whose typed password would be lost.
    expect(await (await get("/manage/security", cookie)).text()).toContain('href="/login?reauth=1&amp;goto=%2Fmanage%2Fsecurity"');

    const sent = await pagePost(HOST, "/login?reauth=1&goto=%2Fmanage%2Fsecurity", { intent: "link" }, cookie);
    expect(await sent.text()).toContain("We sent a sign-in link to relink@example.com");
    const link = linkIn((await latestMailTo("relink@example.com"))!.text);
    const opened = await pagePost(HOST, "/login/link", { intent: "verify", email: link.email, token: link.token }, cookie);
    expect(opened.headers.get("Location")).toBe("/manage/security");
    const row = await db().query.sessions.findFirst({ where: eq(sessions.id, sessionIdOf(cookie)) });
    expect(Date.now() - row!.verifiedAt!).toBeLessThan(MINUTE);
    expect((await db().select().from(sessions).where(eq(sessions.userId, user.id))).length).toBe(1);
  });
});

describe("the session list", () => {
  async function signInWithAgent(email: string, userAgent: string) {
    const attempt = await (await authPost(HOST, "/_auth/attempt", { email, method: "password" })).json<{ attempt_id: string }>();
    const verified = await (
      await authPost(HOST, "/_auth/attempt/verify", { attempt_id: attempt.attempt_id, verify: { password: PASSWORD } })
    ).json<{ token: string }>();
    return cookieFrom(await formPost(HOST, "/_auth/login", { token: verified.token }, { "User-Agent": userAgent }), "__Host-sl_session")!;
  }

  it("lists the user's sessions and revokes only the user's own", async () => {
    await createUserWithPassword("list@example.com", PASSWORD);
    await createUserWithPassword("stranger@example.com", PASSWORD);
    const here = await signInWithAgent("list@example.com", "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0");
    const phone = await signInWithAgent(
      "list@example.com",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
    );
    const stranger = await signIn(HOST, "stranger@example.com", PASSWORD);

    const page = await (await get("/manage/security", here)).text();
    expect(page).toContain("Firefox on Linux");
    expect(page).toContain("(this device)");
    expect(page).toContain("Safari on iOS");
    expect(page).not.toContain(sessionIdOf(here));

    const strangerHandle = hashToken(sessionIdOf(stranger));
    expect(await (await pagePost(HOST, "/manage/security", { intent: "session-revoke", handle: strangerHandle }, here)).text()).toContain(
      "That session was not found.",
    );
    expect(await isSignedIn(stranger)).toBe(true);

    expect(await (await pagePost(HOST, "/manage/security", { intent: "session-revoke", handle: hashToken(sessionIdOf(phone)) }, here)).text()).toContain(
      "That session is signed out.",
    );
    expect(await isSignedIn(phone)).toBe(false);
    expect(await isSignedIn(here)).toBe(true);
  });
});

describe("session lifetimes", () => {
  it("ends a session 90 days after creation even if it was used yesterday", async () => {
    await createUserWithPassword("old@example.com", PASSWORD);
    const cookie = await signIn(HOST, "old@example.com", PASSWORD);
    const now = Date.now();
    await db()
      .update(sessions)
      .set({ createdAt: now - 91 * DAY, lastUsedAt: now - DAY, expiresAt: now + 29 * DAY })
      .where(eq(sessions.id, sessionIdOf(cookie)));
    expect(await isSignedIn(cookie)).toBe(false);
  });

  it("keeps sliding a younger session, but never past its absolute limit", async () => {
    await createUserWithPassword("young@example.com", PASSWORD);
    const cookie = await signIn(HOST, "young@example.com", PASSWORD);
    const now = Date.now();
    const createdAt = now - 89 * DAY;
    await db()
      .update(sessions)
      .set({ createdAt, lastUsedAt: now - DAY, expiresAt: now + DAY })
      .where(eq(sessions.id, sessionIdOf(cookie)));
    expect(await isSignedIn(cookie)).toBe(true);
    const row = await db().query.sessions.findFirst({ where: eq(sessions.id, sessionIdOf(cookie)) });
    expect(row!.expiresAt).toBeLessThanOrEqual(createdAt + 90 * DAY);
  });
});

describe("password reset on a two-factor account", () => {
  it("saves the new password only after the second factor", async () => {
    const user = await createUserWithPassword("reset2fa@example.com", PASSWORD);
    const cookie = await signIn(HOST, "reset2fa@example.com", PASSWORD);
    const totp = await enableTotp(cookie);
    const attempt = await (await authPost(HOST, "/_auth/attempt", { email: "reset2fa@example.com", method: "reset" })).json<{ attempt_id: string }>();
    await authPost(HOST, "/_auth/mail", { email: "reset2fa@example.com", attempt_id: attempt.attempt_id });
    const link = linkIn((await latestMailTo("reset2fa@example.com"))!.text);

    const reply = await (await authPost(HOST, "/_auth/set_password", { password: "reset-pass-word-3", token: link.token, email: link.email })).json();
    expect(reply).toMatchObject({ status: "partial", verify: ["totp"], token: null });
    const before = await db().query.users.findFirst({ where: eq(users.id, user.id) });
    expect((await passwordAttempt("reset2fa@example.com", "reset-pass-word-3")).reply.status).toBe("password_invalid");

    const wrong = String((Number(totp.code(0)) + 1) % 1_000_000).padStart(6, "0");
    expect(await (await authPost(HOST, "/_auth/attempt/verify", { attempt_id: attempt.attempt_id, verify: { totp: wrong } })).json()).toMatchObject({
      status: "partial",
    });
    expect((await db().query.users.findFirst({ where: eq(users.id, user.id) }))!.passwordHash).toBe(before!.passwordHash);

    expect(await (await authPost(HOST, "/_auth/attempt/verify", { attempt_id: attempt.attempt_id, verify: { totp: totp.code(0) } })).json()).toMatchObject({
      status: "verified",
    });
    expect((await passwordAttempt("reset2fa@example.com", "reset-pass-word-3")).reply.status).toBe("partial");
    expect((await latestMailWithSubject("reset2fa@example.com", "Your password was reset"))?.subject).toContain("Your password was reset");
    // A reset signs out every older session.
    expect(await isSignedIn(cookie)).toBe(false);
  });
});

describe("changing the e-mail address", () => {
  it("sends a link to the new address, changes it when opened, and tells the old address", async () => {
    const user = await createUserWithPassword("before@example.com", PASSWORD);
    const cookie = await signIn(HOST, "before@example.com", PASSWORD);
    expect(await (await pagePost(HOST, "/manage/security", { intent: "email", email: "After@Example.com" }, cookie)).text()).toContain(
      "We sent a confirmation link to after@example.com",
    );
    const mail = (await latestMailTo("after@example.com"))!;
    const token = new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get("token")!;
    expect((await db().query.users.findFirst({ where: eq(users.id, user.id) }))!.email).toBe("before@example.com");
    expect(await (await pagePost(HOST, "/manage/email", { token })).text()).toContain("Your e-mail address is now after@example.com");
    expect((await db().query.users.findFirst({ where: eq(users.id, user.id) }))!.email).toBe("after@example.com");
    const notice = (await latestMailTo("before@example.com"))!;
    expect(notice.subject).toContain("Your e-mail address was changed");
    expect(await (await pagePost(HOST, "/manage/email", { token })).text()).toContain("This confirmation link is invalid, used or expired.");
  });
});
