import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as z from "zod";
import { ourAuthMessages } from "../../../core/auth/messages";
import { newPasswordFormProblem } from "../../../core/auth/password-policy";
import { openDb } from "../../../schema/d1";
import { changePassword, confirmTotpSetup, newRecoveryCodes, turnOffTotp } from "../../../workers/auth/account";
import { requestEmailChange } from "../../../workers/auth/email-change";
import { isFresh, reauthHref, sessionProof } from "../../../workers/auth/reauth";
import { countUnusedRecoveryCodes } from "../../../workers/auth/recovery-codes";
import { listSessions, revokeSession } from "../../../workers/auth/session-list";
import { beginTotpSetup, isTotpEnabled, pendingTotpSetup } from "../../../workers/auth/totp";
import { findUserById } from "../../../workers/auth/users";
import { authDeps, redirectToReauth, requireSession } from "../../auth.server";
import { EmailSection, PasswordSection, SessionsSection, TotpSection, type AreaResult } from "../../components/security-sections";

export const meta: MetaFunction = () => [{ title: "Password and two-factor" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireSession(request, context);
  const db = openDb(context.env.DB);
  const user = await findUserById(db, session.user.id);
  const enabled = await isTotpEnabled(db, session.user.id);
  // A set-up waiting for its first code is shown again as it was, so a wrong code never loses the scanned key.
  const setup = enabled ? null : await pendingTotpSetup(context.env, db, session.user, context.tenant.theme.name);
  return {
    email: user?.email ?? session.user.email,
    hasPassword: Boolean(user?.passwordHash),
    // Set when the last full sign-in is older than the window: forms that need it confirm first.
    reauthHref: isFresh(session, context.now) ? null : reauthHref("/manage/security"),
    totp: {
      enabled,
      setup: setup && { qrSvg: setup.qrSvg, typedSecret: setup.typedSecret },
      recoveryRemaining: enabled ? await countUnusedRecoveryCodes(db, session.user.id) : 0,
    },
    sessions: await listSessions(db, session.user.id, session.id, context.now),
  };
}

const formSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("password"),
    current: z.string().max(1000).optional(),
    password: z.string().max(1000),
    confirm: z.string().max(1000),
    sign_out_others: z.literal("yes").optional(),
  }),
  z.object({ intent: z.literal("email"), email: z.string().trim().max(320) }),
  z.object({ intent: z.literal("totp-begin") }),
  z.object({ intent: z.literal("totp-restart") }),
  z.object({ intent: z.literal("totp-confirm"), code: z.string().max(20) }),
  z.object({ intent: z.literal("totp-off"), proof: z.string().max(1000) }),
  z.object({ intent: z.literal("codes-new") }),
  z.object({ intent: z.literal("session-revoke"), handle: z.string().max(128) }),
]);

export async function action({ request, context }: ActionFunctionArgs): Promise<AreaResult> {
  const session = requireSession(request, context);
  const parsed = formSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return { area: "totp", error: parsed.error.issues[0]?.message ?? "Invalid request", notice: null };
  const form = parsed.data;
  const deps = authDeps(request, context);
  const proof = sessionProof(session);
  switch (form.intent) {
    case "password": {
      const problem = newPasswordFormProblem(form.password, form.confirm);
      if (problem) return { area: "password", error: problem, notice: null };
      const done = await changePassword(deps, proof, { current: form.current ?? null, password: form.password, signOutOthers: form.sign_out_others === "yes" });
      if (!done.ok) return "reauth" in done ? redirectToReauth(request) : { area: "password", error: done.message, notice: null };
      return { area: "password", error: null, notice: done.signedOutOthers ? ourAuthMessages.passwordChangedOthersOut : ourAuthMessages.passwordChanged };
    }
    case "email": {
      const done = await requestEmailChange(deps, proof, form.email);
      if (!done.ok) return "reauth" in done ? redirectToReauth(request) : { area: "email", error: done.message, notice: null };
      return { area: "email", error: null, notice: ourAuthMessages.emailChangeSent(done.email) };
    }
    case "totp-begin":
    case "totp-restart":
      await beginTotpSetup(context.env, deps.db, session.user, context.tenant.theme.name, context.now, form.intent === "totp-restart");
      return { area: "totp", error: null, notice: null };
    case "totp-confirm": {
      const done = await confirmTotpSetup(deps, proof, form.code);
      return done.ok ? { area: "totp", error: null, notice: ourAuthMessages.totpOn, codes: done.codes } : { area: "totp", error: done.message, notice: null };
    }
    case "totp-off": {
      const done = await turnOffTotp(deps, proof, form.proof);
      return done.ok ? { area: "totp", error: null, notice: ourAuthMessages.totpOff } : { area: "totp", error: done.message, notice: null };
    }
    case "codes-new": {
      const done = await newRecoveryCodes(deps, proof);
      if (!done.ok) return "reauth" in done ? redirectToReauth(request) : { area: "totp", error: done.message, notice: null };
      return { area: "totp", error: null, notice: ourAuthMessages.recoveryCodesNew, codes: done.codes };
    }
    case "session-revoke": {
      const done = await revokeSession(deps.db, session.user.id, form.handle);
      return { area: "sessions", error: done ? null : ourAuthMessages.sessionNotFound, notice: done ? ourAuthMessages.sessionRevoked : null };
    }
  }
}

export default function Security() {
  const { email, hasPassword, reauthHref: confirmHref, totp, sessions } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <main className="page auth-page">
      <p>
        <Link to="/manage">← Manage</Link>
      </p>
      <h1>Password and two-factor</h1>
      <PasswordSection hasPassword={hasPassword} reauthHref={confirmHref} result={result} busy={busy} />
      <TotpSection totp={totp} result={result} busy={busy} />
      <EmailSection email={email} reauthHref={confirmHref} result={result} busy={busy} />
      <SessionsSection sessions={sessions} result={result} busy={busy} />
    </main>
  );
}
