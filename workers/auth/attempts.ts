import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { ATTEMPT_TTL_MS, LINK_VALID_MS } from "../../core/auth/constants";
import { safeGoto } from "../../core/auth/goto";
import { authMessages, ourAuthMessages } from "../../core/auth/messages";
import { newPasswordProblem } from "../../core/auth/password-policy";
import { normaliseRecoveryCode } from "../../core/auth/recovery-code";
import { normaliseTotpCode } from "../../core/auth/totp-code";
import { signInAttempts, type Db } from "../../schema/d1";
import type { Tenant } from "../../tenants/resolve";
import { sendMail } from "../mail/mailer";
import { hashPassword, verifyPassword } from "./password";
import { hashToken, randomToken } from "./crypto";
import { rememberDevice } from "./devices";
import { releaseGuess, reserveGuess } from "./failures";
import { originOf, resolveTargetHost } from "./hosts";
import { applyVerifiedAttempt, sessionOrigin } from "./attempt-effects";
import { verifySecondFactor } from "./second-factor";
import { createSession } from "./sessions";
import { takeThrottle, addressSubject, type Throttled } from "./throttle";
import { isTotpEnabled } from "./totp";
import { countPasskeys, findUserByEmail, findUserById } from "./users";

export type AttemptMethod = "password" | "link" | "reset" | "switch";

export interface AuthDeps {
  env: Env;
  db: Db;
  tenant: Tenant;
  now: number;
  clientKey: string;
  /** This browser's `sl_device` id, or the one its response will issue (workers/auth/devices.ts). */
  deviceId?: string | null;
  /** "Chrome on Linux": names the device in a new-device notice. */
  deviceLabel?: string;
}

export type Failure = { ok: false; status: number; message: string; retryAfterSeconds?: number };
const fail = (status: number, message: string): Failure => ({ ok: false, status, message });
const throttled = (refused: Extract<Throttled, { ok: false }>, message: string): Failure => ({
  ...fail(429, message),
  retryAfterSeconds: refused.retryAfterSeconds,
});

/** The reply to creating an attempt (spec: attempt_id, plus what the sign-in screen needs). */
export interface AttemptCreated {
  ok: true;
  attempt_id: string;
  token: string;
  user_id: string;
  name: string;
  email: string;
  emoji: string | null;
  options: { password: boolean; passkeys: boolean };
  host: string;
  goto: string | null;
}

/** The reply to a verification (spec: status, token, message, user_id, verify list, prompt_passkey, host, goto). */
export interface VerifyReply {
  attempt_id: string | null;
  status: "verified" | "partial" | "failed" | "password_invalid";
  token: string | null;
  message: string;
  user_id: string | null;
  verify: string[];
  prompt_passkey: boolean;
  host: string | null;
  goto: string | null;
  /** A re-authentication: the asking session was refreshed; there is no new session (token is null). */
  reauth?: boolean;
}

const failed = (message: string, userId: string | null = null): VerifyReply => ({
  attempt_id: null,
  status: "failed",
  token: null,
  message,
  user_id: userId,
  verify: [],
  prompt_passkey: false,
  host: null,
  goto: null,
});

export async function createAttempt(
  deps: AuthDeps,
  input: {
    email?: string | null;
    userId?: string | null;
    method: AttemptMethod;
    goto?: string | null;
    domain?: string | null;
    roleId?: string | null;
    reauthSessionId?: string | null;
  },
  /** The caller already proved who this is (a checked passkey assertion, a session): nothing to throttle. */
  options: { proven?: boolean } = {},
): Promise<AttemptCreated | Failure> {
  const { db, env, tenant, now } = deps;
  if (!input.email && !input.userId) return fail(400, authMessages.emailOrUserIdRequired);
  // Before the lookup: it also slows a client probing which addresses have accounts. A club's shared network
  // must not lose passkey sign-ins or role switches to it, so proven callers skip it.
  if (!options.proven) {
    const allowed = await takeThrottle(db, "attemptsFromClient", deps.clientKey, now);
    if (!allowed.ok) return throttled(allowed, ourAuthMessages.tooManyRequests);
  }
  const user = input.userId ? await findUserById(db, input.userId) : await findUserByEmail(db, input.email ?? "");
  if (!user) return fail(404, authMessages.invalidEmail);
  const host = await resolveTargetHost(db, env, tenant, input.domain);
  if (!host) return fail(400, "That sign-in domain is not part of this site");
  const goto = safeGoto(input.goto, [host]);
  const token = randomToken();
  const id = crypto.randomUUID();
  await db.insert(signInAttempts).values({
    id,
    tokenHash: hashToken(token),
    userId: user.id,
    method: input.method,
    status: "pending",
    verifiedBy: [],
    host,
    goto,
    roleId: input.roleId ?? null,
    reauthSessionId: input.reauthSessionId ?? null,
    createdAt: now,
    expiresAt: now + ATTEMPT_TTL_MS,
  });
  return {
    ok: true,
    attempt_id: id,
    token,
    user_id: user.id,
    name: user.name,
    email: user.email,
    emoji: user.emoji,
    options: { password: user.passwordHash !== null, passkeys: (await countPasskeys(db, user.id, host)) > 0 },
    host,
    goto,
  };
}

/** The attempt a browser's stored attempt token names (spec: GET /_auth/attempt?token), expired or not. */
export async function getAttemptByToken(db: Db, token: string, now: number = Date.now()) {
  const attempt = await db.query.signInAttempts.findFirst({ where: eq(signInAttempts.tokenHash, hashToken(token)) });
  if (!attempt) return null;
  const user = await findUserById(db, attempt.userId);
  if (!user) return null;
  return {
    attempt_id: attempt.id,
    status: attempt.status,
    method: attempt.method,
    user_id: user.id,
    name: user.name,
    email: user.email,
    emoji: user.emoji,
    options: { password: user.passwordHash !== null, passkeys: (await countPasskeys(db, user.id, attempt.host)) > 0 },
    verify: attempt.status === "partial" ? ["totp"] : [],
    host: attempt.host,
    goto: attempt.goto,
    is_expired: attempt.expiresAt <= now,
  };
}

/** `userVerified` is the passkey assertion's UV flag: only with it does a passkey count as two factors. */
export type VerifyInput = { password: string } | { totp: string } | { link: string } | { session: string } | { passkey: string; userVerified?: boolean };

/**
 * Verifies one step of an attempt. Password, emailed link, session or passkey is the first factor; when
 * the user has two-factor on, the attempt is then partial until a code is given. A guessable secret
 * (password, code) is checked only after a try was reserved in D1 (workers/auth/failures.ts): past a limit
 * it is not checked at all; a right one gives its try back. Links and passkeys are never limited here, so
 * strangers' guesses cannot lock the owner out of them.
 */
export async function verifyAttempt(deps: AuthDeps, attemptId: string, input: VerifyInput): Promise<VerifyReply> {
  const { db, now } = deps;
  const attempt = await db.query.signInAttempts.findFirst({ where: eq(signInAttempts.id, attemptId) });
  if (!attempt || attempt.expiresAt <= now || attempt.status === "failed") return failed(authMessages.loginFailed);
  // A re-authentication must prove something new; the (stale) session itself proves nothing.
  if ("session" in input && attempt.reauthSessionId) return failed(authMessages.loginFailed);
  const user = await findUserById(db, attempt.userId);
  if (!user) return failed(authMessages.loginFailed);

  let passed: string;
  if ("totp" in input) {
    if (attempt.status !== "partial") return failed(authMessages.loginFailed, user.id);
    const wrongCode = { ...failed(authMessages.incorrectCode, user.id), attempt_id: attempt.id, status: "partial" as const, verify: ["totp"] };
    // Something that is neither a code nor a recovery code is never checked, so it uses up no try.
    if (!normaliseTotpCode(input.totp) && !normaliseRecoveryCode(input.totp)) return wrongCode;
    const reservation = await reserveGuess(deps, user.id, "code");
    if (!reservation) return failed(authMessages.tooManyAttempts, user.id);
    const second = await verifySecondFactor(deps, user, input.totp);
    if (!second) return wrongCode;
    await releaseGuess(db, reservation);
    passed = second;
  } else {
    if (attempt.status !== "pending") return failed(authMessages.loginFailed, user.id);
    if ("password" in input) {
      const reservation = await reserveGuess(deps, user.id, "password");
      if (!reservation) return failed(authMessages.tooManyAttempts, user.id);
      if (!user.passwordHash || !(await verifyPassword(input.password, user.passwordHash))) {
        return { ...failed(authMessages.incorrectPassword, user.id), attempt_id: attempt.id, status: "password_invalid" };
      }
      await releaseGuess(db, reservation);
      passed = "password";
    } else if ("link" in input) {
      if (!(await consumeLink(db, attempt.id, input.link, now))) return failed(authMessages.linkExpired, user.id);
      passed = "link";
    } else {
      // Session and passkey proofs are checked by their callers before they reach here.
      passed = "session" in input ? "session" : "passkey";
    }
  }

  const verifiedBy = [...attempt.verifiedBy, passed];
  // A passkey with user verification is already two factors (without it, one); a session was already fully verified.
  const oneFactor = passed === "password" || passed === "link" || ("passkey" in input && input.userVerified !== true);
  const needsCode = oneFactor && (await isTotpEnabled(db, user.id));
  if (needsCode) {
    await db.update(signInAttempts).set({ status: "partial", verifiedBy }).where(eq(signInAttempts.id, attempt.id));
    return {
      attempt_id: attempt.id,
      status: "partial",
      token: null,
      message: "",
      user_id: user.id,
      verify: ["totp"],
      prompt_passkey: false,
      host: attempt.host,
      goto: attempt.goto,
    };
  }
  await db.update(signInAttempts).set({ status: "verified", verifiedBy }).where(eq(signInAttempts.id, attempt.id));
  const effect = await applyVerifiedAttempt(deps, attempt, user);
  if (effect === "reauth-failed") return failed(authMessages.loginFailed, user.id);
  if (effect === "reauth-done")
    return {
      attempt_id: attempt.id,
      status: "verified",
      token: null,
      message: "",
      user_id: user.id,
      verify: [],
      prompt_passkey: false,
      host: attempt.host,
      goto: attempt.goto,
      reauth: true,
    };
  // The session is for the attempt's host; if that is another host, it is claimed there through /_auth/login.
  const session = await createSession(db, user.id, attempt.host, now, false, "session" in input ? await sessionOrigin(db, input.session) : undefined);
  // A switch by session is not a new sign-in; every other proof remembers the browser it came from.
  if (passed !== "session") await rememberDevice(deps, user);
  const hasPasskey = (await countPasskeys(db, user.id, attempt.host)) > 0;
  return {
    attempt_id: attempt.id,
    status: "verified",
    token: session.token,
    message: "",
    user_id: user.id,
    verify: [],
    prompt_passkey: !hasPasskey && !verifiedBy.includes("passkey"),
    host: attempt.host,
    goto: attempt.goto,
  };
}

/** Marks an emailed link used if it is this attempt's, unused and younger than 10 minutes. */
async function consumeLink(db: Db, attemptId: string, linkToken: string, now: number): Promise<boolean> {
  const used = await db
    .update(signInAttempts)
    .set({ linkUsedAt: now })
    .where(
      and(
        eq(signInAttempts.id, attemptId),
        eq(signInAttempts.linkTokenHash, hashToken(linkToken)),
        isNull(signInAttempts.linkUsedAt),
        gt(signInAttempts.linkSentAt, now - LINK_VALID_MS),
      ),
    )
    .returning({ id: signInAttempts.id });
  return used.length === 1;
}

/** The attempt an emailed link belongs to, when its email matches; used or expired links still resolve. */
export async function findAttemptByLink(db: Db, linkToken: string, email: string | null) {
  const attempt = await db.query.signInAttempts.findFirst({ where: eq(signInAttempts.linkTokenHash, hashToken(linkToken)) });
  if (!attempt) return null;
  const user = await findUserById(db, attempt.userId);
  if (!user || (email !== null && user.email !== email.trim().toLowerCase())) return null;
  return attempt;
}

/** Verifies a sign-in link from the email (spec: /login/link?email&token). */
export async function verifyLink(deps: AuthDeps, linkToken: string, email: string): Promise<VerifyReply> {
  const attempt = await findAttemptByLink(deps.db, linkToken, email);
  // A used, stale or already-finished link gets the link's own message, not the generic failure.
  const stale =
    !attempt ||
    attempt.method === "reset" ||
    attempt.linkUsedAt !== null ||
    attempt.status !== "pending" ||
    (attempt.linkSentAt ?? 0) <= deps.now - LINK_VALID_MS;
  if (!attempt || stale) return failed(authMessages.linkExpired, attempt?.userId ?? null);
  return verifyAttempt(deps, attempt.id, { link: linkToken });
}

/**
 * Sends the attempt's email: a sign-in link, or for a reset attempt a password reset link. A reset link
 * cannot be sent again while an earlier one for the same user is still valid.
 */
export async function sendAttemptMail(deps: AuthDeps, attemptId: string, email: string): Promise<{ ok: true } | Failure> {
  const { db, env, now, tenant } = deps;
  const fromClient = await takeThrottle(db, "mailsFromClient", deps.clientKey, now);
  if (!fromClient.ok) return throttled(fromClient, ourAuthMessages.tooManyRequests);
  const attempt = await db.query.signInAttempts.findFirst({ where: eq(signInAttempts.id, attemptId) });
  const user = attempt ? await findUserById(db, attempt.userId) : null;
  if (!attempt || !user || user.email !== email.trim().toLowerCase()) return fail(404, authMessages.invalidEmail);
  if (attempt.expiresAt <= now || (attempt.method !== "link" && attempt.method !== "reset")) return fail(400, authMessages.failedToSendLink);
  if (attempt.method === "reset") {
    const pending = await db.query.signInAttempts.findFirst({
      where: and(
        eq(signInAttempts.userId, user.id),
        eq(signInAttempts.method, "reset"),
        isNull(signInAttempts.linkUsedAt),
        gt(signInAttempts.linkSentAt, now - LINK_VALID_MS),
      ),
      orderBy: desc(signInAttempts.linkSentAt),
    });
    if (pending) return fail(429, authMessages.resetNotYet);
  }
  // Counted last, so only a mail that would really go out uses up the address's few.
  const toAddress = await takeThrottle(db, "mailsToAddress", addressSubject(user.email), now);
  if (!toAddress.ok) return throttled(toAddress, ourAuthMessages.tooManyMails);
  const linkToken = randomToken();
  await db
    .update(signInAttempts)
    .set({ linkTokenHash: hashToken(linkToken), linkSentAt: now, linkUsedAt: null })
    .where(eq(signInAttempts.id, attempt.id));
  const page = attempt.method === "reset" ? "/login/reset" : "/login/link";
  const url = `${originOf(env, attempt.host)}${page}?email=${encodeURIComponent(user.email)}&token=${encodeURIComponent(linkToken)}`;
  const site = tenant.theme.name;
  const subject = attempt.method === "reset" ? `Reset your ${site} password` : `Your ${site} sign-in link`;
  const purpose = attempt.method === "reset" ? "To choose a new password, open this link" : "To sign in, open this link";
  const text = `Hello ${user.name},\n\n${purpose}:\n\n${url}\n\nIt is valid for only ten minutes and can be used only once. If you did not ask for it, ignore this message.\n`;
  await sendMail(env, db, { to: user.email, subject, text });
  return { ok: true };
}

/**
 * Sets a new password with a reset link's token (spec: POST /_auth/set_password {password, token}), then
 * continues the reset attempt as a sign-in verified by that link.
 */
export async function resetPassword(deps: AuthDeps, linkToken: string, email: string | null, password: string): Promise<VerifyReply | Failure> {
  const problem = newPasswordProblem(password);
  if (problem) return fail(400, problem);
  const attempt = await findAttemptByLink(deps.db, linkToken, email);
  if (!attempt || attempt.method !== "reset" || attempt.linkUsedAt !== null || (attempt.linkSentAt ?? 0) <= deps.now - LINK_VALID_MS) {
    return fail(400, authMessages.linkNotVerified);
  }
  // Saved on the attempt and applied only once every factor is verified (a two-factor account's code comes next).
  await deps.db
    .update(signInAttempts)
    .set({ pendingPasswordHash: await hashPassword(password) })
    .where(eq(signInAttempts.id, attempt.id));
  const reply = await verifyAttempt(deps, attempt.id, { link: linkToken });
  if (reply.status === "failed") return fail(400, reply.message || authMessages.failedToResetPassword);
  return reply;
}

/**
 * Gives an attempt a new browser token. An emailed link is often opened in another browser than the one that
 * asked for it; that browser needs its own token for the two-factor screen and the passkey offer.
 */
export async function rotateAttemptToken(db: Db, attemptId: string): Promise<string> {
  const token = randomToken();
  await db
    .update(signInAttempts)
    .set({ tokenHash: hashToken(token) })
    .where(eq(signInAttempts.id, attemptId));
  return token;
}
