import { eq } from "drizzle-orm";
import type { z } from "zod";
import { ATTEMPT_COOKIE_MAX_AGE_S } from "../../core/auth/constants";
import { authMessages, ourAuthMessages } from "../../core/auth/messages";
import { newPasswordProblem } from "../../core/auth/password-policy";
import { safeGoto } from "../../core/auth/goto";
import { userAgentLabel } from "../../core/auth/user-agent";
import { roles, signInAttempts } from "../../schema/d1";
import { consentInfo } from "../data-api/consent";
import { principalOf } from "../services/race-access";
import { approve, authorizeParamsFrom, checkAuthorizeRequest } from "../data-api/oauth";
import {
  checkPasswordSchema,
  createAttemptSchema,
  loginFormSchema,
  mailSchema,
  passkeyAuthenticateBeginSchema,
  passkeyAuthenticateCompleteSchema,
  passkeyDeleteSchema,
  passkeyRegisterBeginSchema,
  passkeyRegisterCompleteSchema,
  setPasswordSchema,
  signupSchema,
  verifyAttemptSchema,
} from "../../schema/wire/auth";
import { apiNotFound, json } from "../http";
import type { RequestContext } from "../request-context";
import { AUTH_BODY_LIMITS, readObjectBody } from "../request-limits";
import { changePassword } from "./account";
import { createAttempt, getAttemptByToken, resetPassword, sendAttemptMail, verifyAttempt, type AuthDeps, type Failure, type VerifyReply } from "./attempts";
import { clearCookie, cookieNames, readCookie, serializeCookie } from "./cookies";
import { deviceOf, withDeviceCookie } from "./devices";
import { clientKeyOf } from "./failures";
import { defaultSignedInPath, originOf } from "./hosts";
import {
  beginPasskeyAuthentication,
  beginPasskeyRegistration,
  completePasskeyAuthentication,
  completePasskeyRegistration,
  listPasskeys,
  mayRegisterPasskey,
  removePasskey,
} from "./passkeys";
import { reauthHref, sessionProof } from "./reauth";
import { sessionCookie } from "./request-session";
import { claimSession, deleteSession, setActiveRole } from "./sessions";
import { signUp } from "./signup";

/** `body` is the request's object, read once within the /_auth limits (empty for GET). */
type Handler = (request: Request, context: RequestContext, deps: AuthDeps, body: Record<string, unknown>) => Promise<Response>;

function badRequest(error: z.ZodError | string): Response {
  const message = typeof error === "string" ? error : (error.issues[0]?.message ?? "Invalid request");
  return json({ error: message }, { status: 400 });
}

/** A refused call's reply; a throttled one says when to try again. */
function failure(refused: Failure): Response {
  const headers: Record<string, string> = refused.retryAfterSeconds ? { "Retry-After": String(refused.retryAfterSeconds) } : {};
  return json({ error: refused.message }, { status: refused.status, headers });
}

function unauthorized(): Response {
  return json({ error: authMessages.unauthorized }, { status: 401 });
}

/** A sensitive change asked of a session whose sign-in is too old: where to re-authenticate (sudo mode). */
function reauthRequired(message: string, goto: string): Response {
  return json({ error: message, reauth: reauthHref(goto) }, { status: 403 });
}

/** GET /_auth/session: whether this browser is signed in here, and as whom. DELETE signs it out. */
const session: Handler = async (request, { session, db }) => {
  if (request.method === "DELETE") {
    if (session) await deleteSession(db, session.id);
    return json({ valid: false }, { headers: { "Set-Cookie": clearCookie(cookieNames.session) } });
  }
  if (!session) return json({ valid: false, session: null, user: null });
  return json({
    valid: true,
    session: { id: session.id, host: session.host, expires_at: session.expiresAt, active_role: session.activeRoleId },
    user: { uuid: session.user.id, name: session.user.name, email: session.user.email, emoji: session.user.emoji },
  });
};

/** GET /_auth/check: whether the calling page's origin may use this host's sign-in (first-party only until apps arrive). */
const check: Handler = async (request, { env, tenant, session }) => {
  const origin = request.headers.get("Origin") ?? request.headers.get("X-Client-Origin");
  if (origin !== originOf(env, tenant.hostname)) return json({ valid: false, client_id: null, error: authMessages.couldNotVerifyConnection });
  return json({ valid: Boolean(session), client_id: null, error: session ? null : authMessages.unauthorized });
};

/** POST /_auth/attempt creates an attempt; GET /_auth/attempt?token returns the last one. */
const attempt: Handler = async (request, context, deps, body) => {
  if (request.method === "GET") {
    const token = new URL(request.url).searchParams.get("token") ?? readCookie(request, cookieNames.attempt);
    const found = token ? await getAttemptByToken(context.db, token) : null;
    return found ? json(found) : json({ error: authMessages.failedToGetAttempt }, { status: 404 });
  }
  const parsed = createAttemptSchema.safeParse(body);
  if (!parsed.success) return badRequest(parsed.error);
  const created = await createAttempt(deps, parsed.data);
  if (!created.ok) return failure(created);
  const { ok: _ok, ...reply } = created;
  return json(reply, { headers: { "Set-Cookie": serializeCookie(cookieNames.attempt, created.token, ATTEMPT_COOKIE_MAX_AGE_S) } });
};

async function verifyFromBody(context: RequestContext, deps: AuthDeps, body: Record<string, unknown>): Promise<VerifyReply | Response> {
  const parsed = verifyAttemptSchema.safeParse(body);
  if (!parsed.success) return badRequest(parsed.error);
  const { verify } = parsed.data;
  if ("session" in verify) {
    // Proof by session: the signed-in user on this host must be the attempt's user.
    const found = await deps.db.query.signInAttempts.findFirst({ where: (a, { eq: equal }) => equal(a.id, parsed.data.attempt_id) });
    if (!context.session || !found || found.userId !== context.session.user.id) return unauthorized();
    return verifyAttempt(deps, parsed.data.attempt_id, { session: context.session.id });
  }
  return verifyAttempt(deps, parsed.data.attempt_id, verify);
}

/** POST /_auth/attempt/verify (the sign-in app): one verification step; the reply of section 7. */
const verifyStep: Handler = async (request, context, deps, body) => {
  const reply = await verifyFromBody(context, deps, body);
  if (reply instanceof Response) return reply;
  return withDeviceCookie(request, json(reply, { status: reply.status === "failed" ? 401 : 200 }), reply.status === "verified");
};

/** POST /_auth/verify (the data-service client): the same step, answered as a two-element array. */
const verifyForClient: Handler = async (request, context, deps, body) => {
  const reply = await verifyFromBody(context, deps, body);
  if (reply instanceof Response) return reply;
  const answer = json([reply, { attempt_id: null, status: reply.status }], { status: reply.status === "failed" ? 401 : 200 });
  return withDeviceCookie(request, answer, reply.status === "verified");
};

/** POST /_auth/mail {email, attempt_id}: sends the attempt's sign-in or reset link. */
const mail: Handler = async (request, _context, deps, body) => {
  const parsed = mailSchema.safeParse(body);
  if (!parsed.success) return badRequest(parsed.error);
  const sent = await sendAttemptMail(deps, parsed.data.attempt_id, parsed.data.email);
  return sent.ok ? json({ sent: true }) : failure(sent);
};

/** POST /_auth/set_password {password, token}: with a reset link's token, or for the signed-in user. */
const setPassword: Handler = async (request, context, deps, body) => {
  const parsed = setPasswordSchema.safeParse(body);
  if (!parsed.success) return badRequest(parsed.error);
  if (parsed.data.token) {
    const reply = await resetPassword(deps, parsed.data.token, parsed.data.email ?? null, parsed.data.password);
    if ("ok" in reply) return failure(reply);
    return withDeviceCookie(request, json(reply), reply.status === "verified");
  }
  if (!context.session) return unauthorized();
  const signOutOthers = !["false", "no", false].includes(parsed.data.sign_out_others ?? true);
  const done = await changePassword(deps, sessionProof(context.session), {
    current: parsed.data.current_password ?? null,
    password: parsed.data.password,
    signOutOthers,
  });
  if (!done.ok) return "reauth" in done ? reauthRequired(done.message, "/manage/security") : json({ error: done.message }, { status: done.status });
  return json({ valid: true, signed_out_others: done.signedOutOthers });
};

/** POST /_auth/reset/check {password}: whether a new password is allowed, and why not. */
const resetCheck: Handler = async (request, _context, _deps, body) => {
  const parsed = checkPasswordSchema.safeParse(body);
  if (!parsed.success) return json({ valid: false, reason: authMessages.errorCheckingPassword }, { status: 400 });
  const reason = newPasswordProblem(parsed.data.password);
  return json({ valid: reason === null, reason });
};

/**
 * POST {host}/_auth/login {token, role}: turns a verified sign-in's token into this host's session cookie
 * (once), optionally narrowed to one of the user's roles, then goes to goto.
 */
const login: Handler = async (request, context, _deps, body) => {
  const parsed = loginFormSchema.safeParse(body);
  if (!parsed.success) return badRequest(parsed.error);
  const { db, tenant, now } = context;
  const claimed = await claimSession(db, parsed.data.token, tenant.hostname, now, userAgentLabel(request.headers.get("User-Agent")));
  if (!claimed) return json({ error: authMessages.failedToCompleteLogin }, { status: 401 });
  if (parsed.data.role) {
    const role = await db.query.roles.findFirst({ where: eq(roles.id, parsed.data.role) });
    if (!role || role.userId !== claimed.user.id) {
      await deleteSession(db, claimed.id);
      return json({ error: authMessages.errorCompletingSwitch }, { status: 403 });
    }
    await setActiveRole(db, claimed.id, role.id);
  }
  const goto = safeGoto(parsed.data.goto, [tenant.hostname]) ?? defaultSignedInPath(tenant);
  const headers = new Headers({ Location: goto });
  headers.append("Set-Cookie", sessionCookie(parsed.data.token));
  return new Response(null, { status: 303, headers });
};

/**
 * Who may add a passkey to a user: the signed-in user after a fresh sign-in, or the sign-in attempt that
 * is enrolling one. Both steps of the ceremony check it; a Response is the refusal.
 */
async function passkeyEnrolment(request: Request, context: RequestContext, deps: AuthDeps, data: { user_id: string; attempt_token?: string | null }) {
  const attemptToken = data.attempt_token ?? readCookie(request, cookieNames.attempt);
  const may = await mayRegisterPasskey(
    deps.db,
    context.tenant.hostname,
    data.user_id,
    { session: context.session && sessionProof(context.session), attemptToken },
    deps.now,
  );
  if (may === "yes") return { attemptToken };
  return may === "reauth" ? reauthRequired(ourAuthMessages.reauthRequired, "/login/managePasskey") : unauthorized();
}

const passkeyRegisterBegin: Handler = async (request, context, deps, body) => {
  const parsed = passkeyRegisterBeginSchema.safeParse(body);
  if (!parsed.success) return badRequest(parsed.error);
  const enrolment = await passkeyEnrolment(request, context, deps, parsed.data);
  if (enrolment instanceof Response) return enrolment;
  const begun = await beginPasskeyRegistration(deps, parsed.data.user_id);
  return begun.ok ? json(begun.options) : json({ error: begun.message }, { status: begun.status });
};

const passkeyRegisterComplete: Handler = async (request, context, deps, body) => {
  const parsed = passkeyRegisterCompleteSchema.safeParse(body);
  if (!parsed.success) return badRequest(parsed.error);
  const enrolment = await passkeyEnrolment(request, context, deps, parsed.data);
  if (enrolment instanceof Response) return enrolment;
  const { attemptToken } = enrolment;
  const done = await completePasskeyRegistration(deps, parsed.data.user_id, parsed.data.credential);
  if (!done.ok) return json({ verified: false, error: done.message }, { status: done.status });
  const found = attemptToken ? await getAttemptByToken(deps.db, attemptToken) : null;
  return json({ verified: true, host: found?.host ?? context.tenant.hostname, goto: found?.goto ?? null });
};

const passkeyAuthenticateBegin: Handler = async (request, _context, deps, body) => {
  const parsed = passkeyAuthenticateBeginSchema.safeParse(body);
  if (!parsed.success) return badRequest(parsed.error);
  const begun = await beginPasskeyAuthentication(deps, parsed.data.user_id ?? null);
  return begun.ok ? json(begun.options) : json({ error: begun.message }, { status: begun.status });
};

/** The reply is a list whose first element has the status (spec); a passkey sign-in clears the offer's skip cookie. */
const passkeyAuthenticateComplete: Handler = async (request, context, deps, body) => {
  const parsed = passkeyAuthenticateCompleteSchema.safeParse(body);
  if (!parsed.success) return badRequest(parsed.error);
  if (parsed.data.reauth && !context.session) return unauthorized();
  const reauthSession = parsed.data.reauth && context.session ? { id: context.session.id, userId: context.session.user.id } : null;
  const done = await completePasskeyAuthentication(deps, parsed.data.credential, parsed.data.goto ?? null, reauthSession);
  if (!done.ok) return json([{ status: "failed", message: done.message }], { status: done.status });
  const headers = new Headers();
  headers.append("Set-Cookie", clearCookie(cookieNames.passkeySkip));
  headers.append("Set-Cookie", serializeCookie(cookieNames.attempt, done.attemptToken, ATTEMPT_COOKIE_MAX_AGE_S));
  return withDeviceCookie(request, json([done.reply], { headers }), done.reply.status === "verified");
};

/** GET lists the signed-in user's passkeys; DELETE removes one. Only for the user's own account. */
const passkeyCredentials: Handler = async (request, context, deps, body) => {
  if (!context.session) return unauthorized();
  if (request.method === "GET") {
    const userId = new URL(request.url).searchParams.get("user_id") ?? context.session.user.id;
    if (userId !== context.session.user.id) return json({ error: authMessages.failedToGetPasskeys }, { status: 403 });
    return json(await listPasskeys(context.db, userId));
  }
  const parsed = passkeyDeleteSchema.safeParse(body);
  if (!parsed.success) return badRequest(parsed.error);
  if (parsed.data.user_id !== context.session.user.id) return json({ error: authMessages.failedToDeletePasskey }, { status: 404 });
  const removed = await removePasskey(deps, sessionProof(context.session), parsed.data.passkey_id);
  if (!removed.ok)
    return "reauth" in removed ? reauthRequired(removed.message, "/login/managePasskey") : json({ error: removed.message }, { status: removed.status });
  return json({ deleted: true });
};

/** POST /_auth/signup (form {email, name, phone}): a new administrator account and its first sign-in link. */
const signup: Handler = async (request, _context, deps, body) => {
  const parsed = signupSchema.safeParse(body);
  if (!parsed.success) return badRequest(parsed.error);
  const done = await signUp(deps, parsed.data);
  if (!done.ok) return failure(done);
  return new Response(null, { status: 303, headers: { Location: "/welcome" } });
};

/**
 * GET /_auth/app: what an app asks of the signed-in user (401 when signed out). POST approves it (approve=yes)
 * and sends the browser back to the app with a code; a system app may instead present a verified attempt
 * (attempt_id) and get {code, state} as JSON.
 */
const app: Handler = async (request, context, deps, body) => {
  const url = new URL(request.url);
  if (request.method === "GET") {
    if (!context.session) return unauthorized();
    const check = await checkAuthorizeRequest(deps.db, context.tenant, authorizeParamsFrom(url.searchParams));
    if (!check.ok) return json({ error: check.kind === "page" ? check.message : authMessages.authorizationError }, { status: 400 });
    const principal = await principalOf(deps.db, context.session);
    if (!principal) return unauthorized();
    return json(await consentInfo(deps.db, context.tenant, principal, check));
  }
  const form = formFieldsOf(body);
  const check = await checkAuthorizeRequest(deps.db, context.tenant, authorizeParamsFrom(form));
  if (!check.ok) return json({ error: check.kind === "page" ? check.message : authMessages.authorizationError }, { status: 400 });
  const attemptId = form.get("attempt_id");
  if (typeof attemptId === "string" && attemptId) {
    const attempt = await deps.db.query.signInAttempts.findFirst({ where: eq(signInAttempts.id, attemptId) });
    const fresh = attempt && attempt.status === "verified" && attempt.expiresAt > deps.now && attempt.host === context.tenant.hostname;
    if (!check.app.isSystem || !fresh) return unauthorized();
    const { code, state } = await approve(deps.db, context.tenant, attempt.userId, check, deps.now);
    return json({ code, state });
  }
  if (!context.session) return unauthorized();
  if (form.get("approve") !== "yes") return Response.redirect(deniedLocation(check.params.redirect_uri, check.params.state), 303);
  const { location } = await approve(deps.db, context.tenant, context.session.user.id, check, deps.now);
  return new Response(null, { status: 303, headers: { Location: location } });
};

/** The text fields of a posted body, as the authorisation request's parameters are read. */
function formFieldsOf(body: Record<string, unknown>): URLSearchParams {
  return new URLSearchParams(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

function deniedLocation(redirectUri: string, state: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set("error", "access_denied");
  url.searchParams.set("state", state);
  return url.toString();
}

const routes: Record<string, Partial<Record<string, Handler>>> = {
  "/_auth/app": { GET: app, POST: app },
  "/_auth/session": { GET: session, DELETE: session },
  "/_auth/check": { GET: check },
  "/_auth/attempt": { GET: attempt, POST: attempt },
  "/_auth/attempt/verify": { POST: verifyStep },
  "/_auth/verify": { POST: verifyForClient },
  "/_auth/mail": { POST: mail },
  "/_auth/set_password": { POST: setPassword },
  "/_auth/reset/check": { POST: resetCheck },
  "/_auth/login": { POST: login },
  "/_auth/signup": { POST: signup },
  "/_auth/passkey/register/begin": { POST: passkeyRegisterBegin },
  "/_auth/passkey/register/complete": { POST: passkeyRegisterComplete },
  "/_auth/passkey/authenticate/begin": { POST: passkeyAuthenticateBegin },
  "/_auth/passkey/authenticate/complete": { POST: passkeyAuthenticateComplete },
  "/_auth/passkey/credentials": { GET: passkeyCredentials, DELETE: passkeyCredentials },
};

/** The sign-in API (`/_auth/*`, platform.md section 7). */
export async function handleAuthApi(request: Request, context: RequestContext): Promise<Response> {
  const { pathname } = new URL(request.url);
  const methods = routes[pathname.replace(/\/$/, "")];
  if (!methods) return apiNotFound(pathname);
  const handler = methods[request.method];
  if (!handler) return json({ error: "method_not_allowed" }, { status: 405, headers: { Allow: Object.keys(methods).join(", ") } });
  // Every body is bounded and parsed here, once, before any handler (or authentication) sees it.
  const body = request.method === "GET" ? { ok: true as const, value: {} } : await readObjectBody(request, AUTH_BODY_LIMITS);
  if (!body.ok) return json({ error: body.message }, { status: body.status });
  const deps: AuthDeps = { env: context.env, db: context.db, tenant: context.tenant, now: context.now, clientKey: clientKeyOf(request), ...deviceOf(request) };
  return handler(request, context, deps, body.value);
}
