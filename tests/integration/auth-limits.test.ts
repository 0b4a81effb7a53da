import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import workerModule from "../../workers/index";
import { describe, expect, it } from "vitest";
import {
  FAILURE_WINDOW_MS,
  MAIL_WINDOW_MS,
  MAX_ATTEMPTS_PER_CLIENT,
  MAX_FAILURES_PER_CLIENT,
  MAX_FAILURES_PER_USER,
  MAX_MAILS_PER_ADDRESS,
  MAX_MAILS_PER_CLIENT,
  MAX_SIGNUPS_PER_CLIENT,
  SIGNUP_WINDOW_MS,
} from "../../core/auth/constants";
import { fixedWindowStart } from "../../core/auth/failure-limit";
import { authMessages, ourAuthMessages } from "../../core/auth/messages";
import { capturedMail, throttleCounts } from "../../schema/d1";
import { clientKeyOf } from "../../workers/auth/failures";
import { throttleKey } from "../../workers/auth/throttle";
import { beginTotpSetup, verifyTotpCode } from "../../workers/auth/totp";
import { hostRequest } from "./fixtures";
import { authPost, cookieFrom, createUserWithPassword, db, formPost, latestMailTo, linkIn, worker } from "./auth-fixtures";

const HOST = "localhost";
const PASSWORD = "glacier-ski-42";
const CHROME_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";

/** A browser: its network address (each test uses its own, as counters are shared within this file), agent and cookie. */
type Browser = { ip: string; userAgent?: string; cookie?: string };
const headersOf = (browser: Browser) => ({ "CF-Connecting-IP": browser.ip, ...(browser.userAgent ? { "User-Agent": browser.userAgent } : {}) });

const post = (browser: Browser, path: string, body: unknown) => authPost(HOST, path, body, { headers: headersOf(browser), cookie: browser.cookie });

async function createAttempt(browser: Browser, email: string, method: "password" | "link" | "reset"): Promise<string> {
  const response = await post(browser, "/_auth/attempt", { email, method });
  expect(response.status).toBe(200);
  return (await response.json<{ attempt_id: string }>()).attempt_id;
}

type Reply = { status: string; message: string; token: string | null };
async function verifyPassword(browser: Browser, attemptId: string, password: string): Promise<{ response: Response; reply: Reply }> {
  const response = await post(browser, "/_auth/attempt/verify", { attempt_id: attemptId, verify: { password } });
  return { response, reply: await response.json<Reply>() };
}

/** Signs in by password from `browser` and returns the reply and the device cookie the response issued, if any. */
async function signInFrom(browser: Browser, email: string) {
  const { response, reply } = await verifyPassword(browser, await createAttempt(browser, email, "password"), PASSWORD);
  return { reply, deviceCookie: cookieFrom(response, "sl_device") };
}

/**
 * The Worker counts in fixed windows of Date.now(); when the current window ends within `marginMs`, wait for
 * the next, so a test's requests all fall in one window and a roll cannot hand out a fresh allowance.
 */
async function clearOfWindowEdge(windowMs: number, marginMs = 15_000): Promise<void> {
  const left = fixedWindowStart(Date.now(), windowMs) + windowMs - Date.now();
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** Sign-up is a form post answered with a redirect to /welcome (303) when accepted. */
const signUpFrom = (ip: string, email: string, name: string) => formPost(HOST, "/_auth/signup", { email, name }, { "CF-Connecting-IP": ip });

/** Tests that may first wait for a window's edge, or that send dozens of password checks, get more time. */
const SLOW = { timeout: 60_000 };

const mailsTo = async (email: string) => (await db().select().from(capturedMail)).filter((m) => m.to === email);

describe("failure limits that strangers cannot turn against the owner", () => {
  it("checks exactly the limit's number of 30 wrong passwords sent in parallel", SLOW, async () => {
    await clearOfWindowEdge(FAILURE_WINDOW_MS);
    await createUserWithPassword("parallel@example.com", PASSWORD);
    const attacker = { ip: "203.0.113.1" };
    const attemptId = await createAttempt(attacker, "parallel@example.com", "password");
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => verifyPassword(attacker, attemptId, `wrong-guess-${i}`)));
    const messages = replies.map((r) => r.reply.message);
    expect(messages.filter((m) => m === authMessages.incorrectPassword)).toHaveLength(MAX_FAILURES_PER_USER);
    expect(messages.filter((m) => m === authMessages.tooManyAttempts)).toHaveLength(30 - MAX_FAILURES_PER_USER);
    expect(replies.filter((r) => r.reply.message === authMessages.tooManyAttempts).every((r) => r.response.status === 401)).toBe(true);
  });

  it("lets the owner sign in by e-mailed link, and by password from their known browser, during an attack", SLOW, async () => {
    await clearOfWindowEdge(FAILURE_WINDOW_MS);
    await createUserWithPassword("victim@example.com", PASSWORD, [{ type: "system_admin" }]);
    const laptop: Browser = { ip: "198.51.100.10", userAgent: CHROME_LINUX };
    const first = await signInFrom(laptop, "victim@example.com");
    expect(first.reply.status).toBe("verified");
    expect(first.deviceCookie).not.toBeNull();
    laptop.cookie = first.deviceCookie!;

    const attacker = { ip: "203.0.113.2" };
    const attackId = await createAttempt(attacker, "victim@example.com", "password");
    for (let i = 0; i < MAX_FAILURES_PER_USER + 2; i++) await verifyPassword(attacker, attackId, `guess-${i}`);
    // The account is closed to strangers' passwords, even a right one from a new browser elsewhere.
    expect(
      (await verifyPassword({ ip: "203.0.113.3" }, await createAttempt({ ip: "203.0.113.3" }, "victim@example.com", "password"), PASSWORD)).reply.message,
    ).toBe(authMessages.tooManyAttempts);

    // A new phone on another network: the real link flow, mail read back from D1.
    const phone: Browser = { ip: "198.51.100.11", userAgent: FIREFOX_WINDOWS };
    const linkAttempt = await createAttempt(phone, "victim@example.com", "link");
    expect((await post(phone, "/_auth/mail", { email: "victim@example.com", attempt_id: linkAttempt })).status).toBe(200);
    const link = linkIn((await latestMailTo("victim@example.com"))!.text);
    const byLink = await post(phone, "/_auth/attempt/verify", { attempt_id: linkAttempt, verify: { link: link.token } });
    expect(await byLink.json()).toMatchObject({ status: "verified" });

    // The known laptop's password guesses are its own, so the owner's password still works there.
    expect((await signInFrom(laptop, "victim@example.com")).reply.status).toBe("verified");
  });

  it("stops one client guessing across many accounts at the per-client limit", SLOW, async () => {
    // Sixty password checks take a few seconds on a busy machine: keep well clear of the window's end.
    await clearOfWindowEdge(FAILURE_WINDOW_MS, 25_000);
    const attacker = { ip: "203.0.113.20" };
    const accounts = Array.from({ length: 6 }, (_, i) => `spray${i}@example.com`);
    for (const email of accounts) await createUserWithPassword(email, PASSWORD);
    const attempts = await Promise.all(accounts.map((email) => createAttempt(attacker, email, "password")));
    // 60 guesses, none past any account's own limit of 10: only the client's limit can stop them.
    const replies = await Promise.all(
      attempts.flatMap((id) => Array.from({ length: MAX_FAILURES_PER_USER }, (_, i) => verifyPassword(attacker, id, `spray-${i}`))),
    );
    expect(replies.filter((r) => r.reply.message === authMessages.incorrectPassword)).toHaveLength(MAX_FAILURES_PER_CLIENT);

    await createUserWithPassword("bystander@example.com", PASSWORD);
    expect((await verifyPassword(attacker, await createAttempt(attacker, "bystander@example.com", "password"), PASSWORD)).reply.message).toBe(
      authMessages.tooManyAttempts,
    );
    expect((await signInFrom({ ip: "198.51.100.20" }, "bystander@example.com")).reply.status).toBe("verified");
  });
});

describe("two-factor codes under attack", () => {
  /** A user with two-factor on, and the code generator of their authenticator app. */
  async function userWithTotp(email: string) {
    const user = await createUserWithPassword(email, PASSWORD);
    const setup = await beginTotpSetup(env, db(), { id: user.id, email }, "Startline", Date.now());
    const key = decodeBase32IgnorePadding(setup.typedSecret.replace(/\s/g, ""));
    const code = (stepsAhead: number) => generateHOTP(key, BigInt(Math.floor(Date.now() / 30_000) + stepsAhead), 6);
    expect(await verifyTotpCode(env, db(), user.id, code(-1), Date.now(), { enabling: true })).toBe(true);
    return code;
  }

  it("lets the owner finish a link sign-in with their code after strangers used up the password limit", SLOW, async () => {
    await clearOfWindowEdge(FAILURE_WINDOW_MS);
    const code = await userWithTotp("twofactor@example.com");
    const attacker = { ip: "203.0.113.80" };
    const attackId = await createAttempt(attacker, "twofactor@example.com", "password");
    for (let i = 0; i < MAX_FAILURES_PER_USER; i++) await verifyPassword(attacker, attackId, `guess-${i}`);
    expect((await verifyPassword(attacker, attackId, PASSWORD)).reply.message).toBe(authMessages.tooManyAttempts);

    const owner = { ip: "198.51.100.80" };
    const linkAttempt = await createAttempt(owner, "twofactor@example.com", "link");
    await post(owner, "/_auth/mail", { email: "twofactor@example.com", attempt_id: linkAttempt });
    const link = linkIn((await latestMailTo("twofactor@example.com"))!.text);
    expect(await (await post(owner, "/_auth/attempt/verify", { attempt_id: linkAttempt, verify: { link: link.token } })).json()).toMatchObject({
      status: "partial",
    });
    expect(await (await post(owner, "/_auth/attempt/verify", { attempt_id: linkAttempt, verify: { totp: code(0) } })).json()).toMatchObject({
      status: "verified",
    });
  });

  it("checks exactly the limit's number of 30 wrong codes sent in parallel", SLOW, async () => {
    await clearOfWindowEdge(FAILURE_WINDOW_MS);
    const code = await userWithTotp("codes@example.com");
    const browser = { ip: "203.0.113.81" };
    const attemptId = await createAttempt(browser, "codes@example.com", "password");
    expect((await verifyPassword(browser, attemptId, PASSWORD)).reply.status).toBe("partial");
    const accepted = new Set([code(-1), code(0), code(1)]);
    const wrong = Array.from({ length: 40 }, (_, i) => String((Number(code(0)) + 1 + i) % 1_000_000).padStart(6, "0"))
      .filter((c) => !accepted.has(c))
      .slice(0, 30);
    const replies = await Promise.all(
      wrong.map(async (totp) => (await post(browser, "/_auth/attempt/verify", { attempt_id: attemptId, verify: { totp } })).json<Reply>()),
    );
    expect(replies.filter((r) => r.message === authMessages.incorrectCode)).toHaveLength(MAX_FAILURES_PER_USER);
    expect(replies.filter((r) => r.message === authMessages.tooManyAttempts)).toHaveLength(30 - MAX_FAILURES_PER_USER);
  });
});

describe("request throttles", () => {
  it("refuses the 6th sign-in, reset or sign-up mail to one address in ten minutes, whichever clients ask", SLOW, async () => {
    await clearOfWindowEdge(MAIL_WINDOW_MS);
    const email = "flooded@example.com";
    await createUserWithPassword(email, PASSWORD);
    const client = (n: number): Browser => ({ ip: `192.0.2.${n}` });
    const sendLink = async (browser: Browser, method: "link" | "reset") =>
      post(browser, "/_auth/mail", { email, attempt_id: await createAttempt(browser, email, method) });
    expect((await sendLink(client(1), "link")).status).toBe(200);
    expect((await sendLink(client(2), "link")).status).toBe(200);
    expect((await sendLink(client(3), "reset")).status).toBe(200);
    expect((await signUpFrom(client(4).ip, email, "Flooded")).status).toBe(303);
    expect((await signUpFrom(client(5).ip, email, "Flooded")).status).toBe(303);
    expect(await mailsTo(email)).toHaveLength(MAX_MAILS_PER_ADDRESS);

    const sixth = await sendLink(client(6), "link");
    expect(sixth.status).toBe(429);
    expect(await sixth.json()).toEqual({ error: ourAuthMessages.tooManyMails });
    expect(Number(sixth.headers.get("Retry-After"))).toBeGreaterThan(0);
    const bySignUp = await signUpFrom(client(7).ip, email, "Flooded");
    expect(bySignUp.status).toBe(429);
    expect(await mailsTo(email)).toHaveLength(MAX_MAILS_PER_ADDRESS);
  });

  it("refuses a client's sign-in attempts and mails past their limits, with Retry-After", SLOW, async () => {
    await clearOfWindowEdge(MAIL_WINDOW_MS);
    await createUserWithPassword("busy@example.com", PASSWORD);
    const busy = { ip: "203.0.113.90" };
    const subject = clientKeyOf(new Request("http://x/", { headers: { "CF-Connecting-IP": busy.ip } }));
    const windowStart = fixedWindowStart(Date.now(), MAIL_WINDOW_MS);
    // One short of each limit, rather than sending over a hundred requests.
    await db()
      .insert(throttleCounts)
      .values([
        { key: throttleKey("attemptsFromClient", subject), windowStart, count: MAX_ATTEMPTS_PER_CLIENT - 1 },
        { key: throttleKey("mailsFromClient", subject), windowStart, count: MAX_MAILS_PER_CLIENT - 1 },
      ]);
    const attemptId = await createAttempt(busy, "busy@example.com", "link");
    const refusedAttempt = await post(busy, "/_auth/attempt", { email: "busy@example.com", method: "link" });
    expect(refusedAttempt.status).toBe(429);
    expect(await refusedAttempt.json()).toEqual({ error: ourAuthMessages.tooManyRequests });
    expect(Number(refusedAttempt.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await post(busy, "/_auth/mail", { email: "busy@example.com", attempt_id: attemptId })).status).toBe(200);
    const refusedMail = await post(busy, "/_auth/mail", { email: "busy@example.com", attempt_id: attemptId });
    expect(refusedMail.status).toBe(429);
    expect(await refusedMail.json()).toEqual({ error: ourAuthMessages.tooManyRequests });
  });

  it("refuses a sign-up flood from one client", SLOW, async () => {
    await clearOfWindowEdge(SIGNUP_WINDOW_MS);
    const flooder = "203.0.113.40";
    for (let i = 0; i < MAX_SIGNUPS_PER_CLIENT; i++) expect((await signUpFrom(flooder, `flood${i}@example.com`, `Flood ${i}`)).status).toBe(303);
    const refused = await signUpFrom(flooder, "flood-last@example.com", "Flood");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: ourAuthMessages.tooManyRequests });
    expect(await db().query.users.findFirst({ where: (u, { eq }) => eq(u.email, "flood-last@example.com") })).toBeUndefined();
    // Another client is not affected.
    expect((await signUpFrom("198.51.100.40", "calm@example.com", "Calm")).status).toBe(303);
  });

  it("answers the data API with 429 and Retry-After past a token's limit, and serves other tokens", async () => {
    // The real limits are lifted for the test run (vitest.workers.config.ts); a limiter of 3 a minute stands in.
    const tiny = { ...env, DATA_API_TOKEN_LIMIT: env.TEST_TINY_LIMIT } as Env;
    const call = async (auth: string, ip = "203.0.113.90") => {
      const ctx = createExecutionContext();
      const request = hostRequest(HOST, "/data-api/me", { headers: { Authorization: auth, Origin: "https://app.example", "CF-Connecting-IP": ip } });
      const response = await workerModule.fetch(request as Request<unknown, IncomingRequestCfProperties>, tiny, ctx);
      await waitOnExecutionContext(ctx);
      return response;
    };
    const authorization = "Bearer flood-token-123";
    for (let i = 0; i < 3; i++) expect((await call(authorization)).status).toBe(401);
    const refused = await call(authorization);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: "rate_limited" });
    expect(Number(refused.headers.get("Retry-After"))).toBe(60);
    expect(refused.headers.get("Access-Control-Expose-Headers")).toContain("Retry-After");
    // From another address too: the budget is the token's.
    expect((await call(authorization, "203.0.113.91")).status).toBe(429);
    expect((await call("Bearer another-token")).status).toBe(401);
  });

  it("counts the data API per client too, so made-up tokens cannot dodge the limit", async () => {
    const tiny = { ...env, DATA_API_CLIENT_LIMIT: env.TEST_TINY_LIMIT } as Env;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const ctx = createExecutionContext();
      const request = hostRequest(HOST, "/data-api/me", { headers: { Authorization: `Bearer made-up-${i}`, "CF-Connecting-IP": "203.0.113.99" } });
      statuses.push((await workerModule.fetch(request as Request<unknown, IncomingRequestCfProperties>, tiny, ctx)).status);
      await waitOnExecutionContext(ctx);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });
});

describe("known devices", () => {
  it("sends a new-device notice for a sign-in from a new browser once a known one exists, not on the first", async () => {
    const email = "devices@example.com";
    await createUserWithPassword(email, PASSWORD);
    const noticesTo = async () => (await mailsTo(email)).filter((m) => m.subject.includes("New sign-in"));
    const laptop: Browser = { ip: "198.51.100.50", userAgent: CHROME_LINUX };
    const first = await signInFrom(laptop, email);
    expect(first.reply.status).toBe("verified");
    expect(await noticesTo()).toHaveLength(0);
    const setCookie = first.deviceCookie!;
    laptop.cookie = setCookie;

    const again = await signInFrom(laptop, email);
    expect(again.deviceCookie).toBeNull();
    expect(await noticesTo()).toHaveLength(0);

    const newBrowser = await signInFrom({ ip: "198.51.100.51", userAgent: FIREFOX_WINDOWS }, email);
    expect(newBrowser.deviceCookie).not.toBeNull();
    expect(newBrowser.deviceCookie).not.toBe(setCookie);
    const notices = await noticesTo();
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toContain("Firefox on Windows");
    expect(notices[0]!.text).not.toContain(newBrowser.deviceCookie!.split("=")[1]!);
  });

  it("issues a host-only HttpOnly device cookie and stores only its hash", async () => {
    await createUserWithPassword("cookie@example.com", PASSWORD);
    const browser = { ip: "198.51.100.60" };
    const response = (await verifyPassword(browser, await createAttempt(browser, "cookie@example.com", "password"), PASSWORD)).response;
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith("sl_device="))!;
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("Secure");
    expect(setCookie).not.toContain("Domain=");
    expect(Number(/Max-Age=(\d+)/.exec(setCookie)![1])).toBeGreaterThan(300 * 24 * 60 * 60);
    const id = decodeURIComponent(setCookie.split(";")[0]!.split("=")[1]!);
    const rows = await db().query.knownDevices.findMany();
    expect(rows.some((r) => r.deviceHash.includes(id))).toBe(false);
    expect(rows.length).toBeGreaterThan(0);
  });

  it("remembers the browser of a sign-in through the /login page", async () => {
    await createUserWithPassword("page@example.com", PASSWORD);
    const page = (fields: Record<string, string>, cookie?: string) =>
      worker.fetch(
        hostRequest(`${HOST}:8787`, "/login?index", {
          method: "POST",
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            Origin: `http://${HOST}:8787`,
            "Sec-Fetch-Site": "same-origin",
            "CF-Connecting-IP": "198.51.100.70",
            ...(cookie ? { Cookie: cookie } : {}),
          },
          body: new URLSearchParams(fields).toString(),
          redirect: "manual",
        }),
      );
    const emailStep = await page({ intent: "email", email: "page@example.com" });
    const attemptCookie = cookieFrom(emailStep, "sl_attempt")!;
    const passwordStep = await page({ intent: "password", password: PASSWORD }, attemptCookie);
    expect(passwordStep.status).toBe(302);
    expect(cookieFrom(passwordStep, "sl_device")).not.toBeNull();
    expect(await db().query.knownDevices.findMany({ where: (d, { eq }) => eq(d.label, "an unknown browser") })).not.toHaveLength(0);
  });
});
