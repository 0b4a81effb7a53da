import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { authMessages } from "../../core/auth/messages";
import { newPasswordFormProblem } from "../../core/auth/password-policy";
import { normaliseTotpCode } from "../../core/auth/totp-code";
import { ourAuthMessages } from "../../core/auth/messages";
import { openDb } from "../../schema/d1";
import { setPasswordForUser } from "../../workers/auth/attempts";
import { beginTotpSetup, disableTotp, isTotpEnabled, verifyTotpCode } from "../../workers/auth/totp";
import { findUserById } from "../../workers/auth/users";
import { authDeps, requireSession } from "../auth.server";
import { FormMessage } from "../components/auth-card";

export const meta: MetaFunction = () => [{ title: "Password and two-factor" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireSession(request, context);
  const db = openDb(context.env.DB);
  const user = await findUserById(db, session.user.id);
  return { hasPassword: Boolean(user?.passwordHash), totpEnabled: await isTotpEnabled(db, session.user.id) };
}

const formSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("password"), password: z.string().max(1000), confirm: z.string().max(1000) }),
  z.object({ intent: z.literal("totp-begin") }),
  z.object({ intent: z.literal("totp-confirm"), code: z.string().max(20) }),
  z.object({ intent: z.literal("totp-off"), confirm: z.literal("yes", { message: "Tick the box to confirm" }) }),
]);

type Result = { area: "password" | "totp"; error: string | null; notice: string | null; setup?: { qrSvg: string; typedSecret: string } };

export async function action({ request, context }: ActionFunctionArgs): Promise<Result> {
  const session = requireSession(request, context);
  const parsed = formSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return { area: "totp", error: parsed.error.issues[0]?.message ?? "Invalid request", notice: null };
  const form = parsed.data;
  const deps = authDeps(request, context);
  if (form.intent === "password") {
    const problem = newPasswordFormProblem(form.password, form.confirm);
    if (problem) return { area: "password", error: problem, notice: null };
    const done = await setPasswordForUser(deps, session.user.id, form.password);
    return done.ok ? { area: "password", error: null, notice: "Your password is set." } : { area: "password", error: done.message, notice: null };
  }
  if (form.intent === "totp-begin") {
    const setup = await beginTotpSetup(context.env, deps.db, session.user, context.tenant.theme.name, context.now);
    return { area: "totp", error: null, notice: null, setup: { qrSvg: setup.qrSvg, typedSecret: setup.typedSecret } };
  }
  if (form.intent === "totp-confirm") {
    const code = normaliseTotpCode(form.code);
    const ok = code !== null && (await verifyTotpCode(context.env, deps.db, session.user.id, code, context.now, { enabling: true }));
    return ok ? { area: "totp", error: null, notice: "Two-factor authentication is on." } : { area: "totp", error: code ? authMessages.incorrectCode : ourAuthMessages.codeFormat, notice: null };
  }
  await disableTotp(deps.db, session.user.id);
  return { area: "totp", error: null, notice: "Two-factor authentication is off." };
}

export default function Security() {
  const { hasPassword, totpEnabled } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const setup = result?.setup;
  return (
    <main className="page auth-page">
      <p>
        <Link to="/manage">← Manage</Link>
      </p>
      <h1>Password and two-factor</h1>
      <section className="auth-card" aria-labelledby="password-heading">
        <h2 id="password-heading">{hasPassword ? "Change your password" : "Set a password"}</h2>
        <Form method="post" className="stack">
          <input type="hidden" name="intent" value="password" />
          <div className="field">
            <label htmlFor="password">New Password</label>
            <input id="password" name="password" type="password" autoComplete="new-password" minLength={8} required />
          </div>
          <div className="field">
            <label htmlFor="confirm">Confirm New Password</label>
            <input id="confirm" name="confirm" type="password" autoComplete="new-password" required />
          </div>
          {result?.area === "password" ? <FormMessage error={result.error} notice={result.notice} /> : null}
          <button type="submit" disabled={busy}>Save password</button>
        </Form>
      </section>
      <section className="auth-card" aria-labelledby="totp-heading">
        <h2 id="totp-heading">Two-factor authentication</h2>
        {result?.area === "totp" ? <FormMessage error={result.error} notice={result.notice} /> : null}
        {setup ? (
          <Form method="post" className="stack" key={setup.typedSecret}>
            <p>Scan this code with your authenticator app, or type the key below, then enter the 6-digit code it shows.</p>
            <div className="qr" role="img" aria-label="QR code for your authenticator app" dangerouslySetInnerHTML={{ __html: setup.qrSvg }} />
            <p>
              Key: <span className="secret" data-testid="totp-secret">{setup.typedSecret}</span>
            </p>
            <input type="hidden" name="intent" value="totp-confirm" />
            <div className="field">
              <label htmlFor="code">6-digit code</label>
              <input id="code" name="code" className="code-input" inputMode="numeric" autoComplete="one-time-code" maxLength={9} required />
            </div>
            <button type="submit" disabled={busy}>Turn on two-factor</button>
          </Form>
        ) : totpEnabled ? (
          <Form method="post" className="stack">
            <p>Two-factor authentication is on: signing in with a password or link also asks for a code.</p>
            <input type="hidden" name="intent" value="totp-off" />
            <label>
              <input type="checkbox" name="confirm" value="yes" required /> Yes, turn two-factor off
            </label>
            <button type="submit" className="danger" disabled={busy}>Turn off two-factor</button>
          </Form>
        ) : (
          <Form method="post" className="stack">
            <p>Add a second step to signing in: a 6-digit code from an authenticator app.</p>
            <input type="hidden" name="intent" value="totp-begin" />
            <button type="submit" disabled={busy}>Set up two-factor</button>
          </Form>
        )}
      </section>
    </main>
  );
}
