import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { authMessages, ourAuthMessages } from "../../../core/auth/messages";
import { normaliseRecoveryCode } from "../../../core/auth/recovery-code";
import { normaliseTotpCode } from "../../../core/auth/totp-code";
import { getAttemptByToken, verifyAttempt } from "../../../workers/auth/attempts";
import { cookieNames, readCookie } from "../../../workers/auth/cookies";
import { authDeps, continueSignIn } from "../../auth.server";
import { AuthCard, FormMessage } from "../../components/auth-card";

export const meta: MetaFunction = () => [{ title: "Two-factor code" }];

async function partialAttempt(request: Request, context: LoaderFunctionArgs["context"]) {
  const token = readCookie(request, cookieNames.attempt);
  const attempt = token ? await getAttemptByToken(authDeps(request, context).db, token) : null;
  return attempt && attempt.status === "partial" && !attempt.is_expired ? attempt : null;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!(await partialAttempt(request, context))) throw redirect("/login");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const attempt = await partialAttempt(request, context);
  if (!attempt) return redirect("/login");
  const code = String((await request.formData()).get("code") ?? "").slice(0, 40);
  // Each answer carries a fresh key so the code field is emptied after a wrong code.
  if (!normaliseTotpCode(code) && !normaliseRecoveryCode(code)) return { error: ourAuthMessages.codeOrRecoveryFormat, key: crypto.randomUUID() };
  const reply = await verifyAttempt(authDeps(request, context), attempt.attempt_id, { totp: code });
  // Still partial means the code was wrong: stay here and say so.
  const next = reply.status === "partial" ? null : continueSignIn(request, reply, null);
  if (next) return next;
  return { error: reply.message || authMessages.errorVerifyingTotp, key: crypto.randomUUID() };
}

export default function TwoFactorCode() {
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <AuthCard title="Enter your code">
      <p>Open your authenticator app and enter the 6-digit code for this account. Without your app, enter one of your recovery codes instead.</p>
      <Form method="post" className="stack" key={result?.key}>
        <div className="field">
          <label htmlFor="code">6-digit code or recovery code</label>
          <input
            id="code"
            name="code"
            className="code-input"
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={20}
            required
            autoFocus
            aria-describedby={result?.error ? "code-error" : undefined}
          />
        </div>
        <div id="code-error">
          <FormMessage error={result?.error} />
        </div>
        <button type="submit" disabled={busy}>
          {busy ? "Checking…" : "Verify"}
        </button>
      </Form>
    </AuthCard>
  );
}
