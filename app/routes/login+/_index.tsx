import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as z from "zod";
import { ATTEMPT_COOKIE_MAX_AGE_S, REAUTH_DEFAULT_GOTO } from "../../../core/auth/constants";
import { safeGoto } from "../../../core/auth/goto";
import { authMessages, ourAuthMessages } from "../../../core/auth/messages";
import { createAttempt, getAttemptByToken, sendAttemptMail, verifyAttempt } from "../../../workers/auth/attempts";
import { clearCookie, cookieNames, readCookie, serializeCookie } from "../../../workers/auth/cookies";
import { defaultSignedInPath } from "../../../workers/auth/hosts";
import { findUserById } from "../../../workers/auth/users";
import { authDeps, continueSignIn } from "../../auth.server";
import { AuthCard, FormMessage } from "../../components/auth-card";
import { PasskeySignIn } from "../../components/passkey-sign-in";

export const meta: MetaFunction = () => [{ title: "Sign in" }];

function loginParams(url: URL) {
  return { goto: url.searchParams.get("goto"), domain: url.searchParams.get("domain") };
}

function loginHref(goto: string | null, domain: string | null): string {
  const params = new URLSearchParams();
  if (goto) params.set("goto", goto);
  if (domain) params.set("domain", domain);
  const query = params.toString();
  return query ? `/login?${query}` : "/login";
}

/** `/login?reauth=1&goto=…` while signed in: the same sign-in, for the same user, refreshing this session. */
function reauthSession(url: URL, context: LoaderFunctionArgs["context"]) {
  return url.searchParams.get("reauth") === "1" ? context.session : null;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  // Any login URL carrying both role and goto is a role switch.
  if (url.searchParams.has("role") && url.searchParams.has("goto")) throw redirect(`/login/switch?${url.searchParams}`);
  const { goto, domain } = loginParams(url);
  const reauth = reauthSession(url, context);
  if (reauth) {
    const user = await findUserById(authDeps(request, context).db, reauth.user.id);
    const returning = {
      userId: reauth.user.id,
      name: reauth.user.name,
      email: reauth.user.email,
      emoji: reauth.user.emoji,
      canUsePassword: Boolean(user?.passwordHash),
    };
    return { returning, goto: safeGoto(goto, [context.tenant.hostname]) ?? REAUTH_DEFAULT_GOTO, domain: null, reauth: true };
  }
  if (context.session) {
    throw redirect(safeGoto(goto, [context.tenant.hostname]) ?? defaultSignedInPath(context.tenant));
  }
  const token = readCookie(request, cookieNames.attempt);
  const last = token ? await getAttemptByToken(authDeps(request, context).db, token) : null;
  const returning = last ? { userId: last.user_id, name: last.name, email: last.email, emoji: last.emoji, canUsePassword: last.options.password } : null;
  return { returning, goto, domain, reauth: false };
}

const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("email"), email: z.string().trim().min(1, "Enter your email address").max(320) }),
  z.object({ intent: z.literal("different") }),
  z.object({ intent: z.literal("password"), password: z.string().min(1, "Enter your password").max(1000) }),
  z.object({ intent: z.literal("link") }),
]);

export async function action({ request, context }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const { goto, domain } = loginParams(url);
  const parsed = intentSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? authMessages.loginFailed, notice: null };
  const deps = authDeps(request, context);
  const form = parsed.data;

  if (form.intent === "different") {
    return redirect(loginHref(goto, domain), { headers: { "Set-Cookie": clearCookie(cookieNames.attempt) } });
  }
  if (form.intent === "email") {
    const created = await createAttempt(deps, { email: form.email, method: "password", goto, domain });
    if (!created.ok) return { error: created.message, notice: null };
    return redirect(loginHref(goto, domain), { headers: { "Set-Cookie": serializeCookie(cookieNames.attempt, created.token, ATTEMPT_COOKIE_MAX_AGE_S) } });
  }

  // Password and link both continue the returning user's attempt (or re-authenticate this session's user), with a fresh one for this method.
  const method = form.intent === "link" ? "link" : "password";
  const reauth = reauthSession(url, context);
  const token = readCookie(request, cookieNames.attempt);
  const last = reauth || !token ? null : await getAttemptByToken(deps.db, token);
  if (!reauth && !last) return { error: authMessages.failedToGetAttempt, notice: null };
  const attempt = reauth
    ? await createAttempt(deps, {
        userId: reauth.user.id,
        method,
        goto: safeGoto(goto, [context.tenant.hostname]) ?? REAUTH_DEFAULT_GOTO,
        reauthSessionId: reauth.id,
      })
    : await createAttempt(deps, { userId: last!.user_id, method, goto: goto ?? last!.goto, domain: domain ?? last!.host });
  if (!attempt.ok) return { error: attempt.message, notice: null };

  if (form.intent === "link") {
    const sent = await sendAttemptMail(deps, attempt.attempt_id, attempt.email);
    // A throttled send says so (429); anything else keeps the spec's message.
    if (!sent.ok) return { error: sent.status === 429 ? sent.message : authMessages.failedToSendMagicLink, notice: null };
    return { error: null, notice: ourAuthMessages.linkSent(attempt.email) };
  }
  const reply = await verifyAttempt(deps, attempt.attempt_id, { password: form.password });
  const next = continueSignIn(request, reply, attempt.token);
  if (next) return next;
  return { error: reply.message || authMessages.loginFailed, notice: null };
}

export default function Login() {
  const { returning, goto, domain, reauth } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const busyIntent = busy ? navigation.formData?.get("intent") : null;

  if (!returning) {
    return (
      <AuthCard title="Sign in">
        <Form method="post" className="stack">
          <input type="hidden" name="intent" value="email" />
          <div className="field">
            <label htmlFor="email">Email address</label>
            <input id="email" name="email" type="email" autoComplete="username webauthn" required autoFocus />
          </div>
          <FormMessage error={result?.error} />
          <button type="submit" disabled={busy}>
            {busy ? "Checking…" : "Continue"}
          </button>
        </Form>
        <p>
          New here? <Link to="/signup">{authMessages.createAccount}</Link>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={reauth ? ourAuthMessages.reauthTitle : authMessages.welcomeBack}>
      {reauth ? <p>{ourAuthMessages.reauthIntro}</p> : null}
      <p className="returning-user">
        {returning.emoji ? <span aria-hidden="true">{returning.emoji} </span> : null}
        <strong>{returning.name}</strong>
        <br />
        <span>{returning.email}</span>
      </p>
      {reauth ? null : (
        <Form method="post">
          <input type="hidden" name="intent" value="different" />
          <button type="submit" className="link-button">
            {authMessages.differentEmail}
          </button>
        </Form>
      )}
      <FormMessage error={result?.error} notice={result?.notice} />
      <div className="stack">
        <Form method="post" className="stack">
          <input type="hidden" name="intent" value="link" />
          <button type="submit" disabled={busy}>
            {busyIntent === "link" ? "Sending…" : "Email me a sign-in link"}
          </button>
        </Form>
        <PasskeySignIn userId={returning.userId} goto={goto} reauth={reauth} />
      </div>
      <p className="divider">{authMessages.orPassword}</p>
      <Form method="post" className="stack">
        <input type="hidden" name="intent" value="password" />
        <input type="hidden" name="username" value={returning.email} autoComplete="username" />
        <div className="field">
          <label htmlFor="password">Password</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required disabled={!returning.canUsePassword} />
          {returning.canUsePassword ? null : <span className="hint">This account has no password yet. Use a sign-in link or a passkey.</span>}
        </div>
        <button type="submit" disabled={!returning.canUsePassword || busy}>
          {busyIntent === "password" ? "Signing in…" : "Sign in"}
        </button>
      </Form>
      {reauth ? (
        <p>
          <Link to={goto ?? REAUTH_DEFAULT_GOTO}>Cancel</Link>
        </p>
      ) : (
        <p>
          <Link to={`/login/reset?email=${encodeURIComponent(returning.email)}${domain ? `&domain=${encodeURIComponent(domain)}` : ""}`}>
            {authMessages.forgotPassword}
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
