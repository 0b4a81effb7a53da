import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as z from "zod";
import { authMessages, ourAuthMessages } from "../../../core/auth/messages";
import { newPasswordFormProblem } from "../../../core/auth/password-policy";
import { createAttempt, resetPassword, sendAttemptMail } from "../../../workers/auth/attempts";
import { authDeps, continueSignInAfterLink } from "../../auth.server";
import { AuthCard, FormMessage, SendLinkForm } from "../../components/auth-card";

export const meta: MetaFunction = () => [{ title: authMessages.resetTitle }];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return { email: url.searchParams.get("email") ?? "", token: url.searchParams.get("token") };
}

const formSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("send"), email: z.string().trim().min(1, "Enter your email address").max(320) }),
  z.object({
    intent: z.literal("reset"),
    email: z.string().max(320),
    token: z.string().min(1).max(200),
    password: z.string().max(1000),
    confirm: z.string().max(1000),
  }),
]);

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = formSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? authMessages.failedToResetPassword, notice: null, linkFailed: false };
  const deps = authDeps(request, context);
  if (parsed.data.intent === "send") {
    const attempt = await createAttempt(deps, { email: parsed.data.email, method: "reset" });
    if (!attempt.ok) return { error: attempt.message, notice: null, linkFailed: false };
    const sent = await sendAttemptMail(deps, attempt.attempt_id, attempt.email);
    // 429: a reset link is still valid, or the address or network was throttled; each says so.
    if (!sent.ok) return { error: sent.status === 429 ? sent.message : authMessages.failedToSendResetLink, notice: null, linkFailed: false };
    return { error: null, notice: ourAuthMessages.resetSent(attempt.email), linkFailed: false };
  }
  const problem = newPasswordFormProblem(parsed.data.password, parsed.data.confirm);
  if (problem) return { error: problem, notice: null, linkFailed: false };
  const reply = await resetPassword(deps, parsed.data.token, parsed.data.email, parsed.data.password);
  if ("ok" in reply) return { error: reply.message, notice: null, linkFailed: reply.message === authMessages.linkNotVerified };
  return (
    (await continueSignInAfterLink(request, context, reply)) ?? { error: reply.message || authMessages.failedToResetPassword, notice: null, linkFailed: false }
  );
}

export default function ResetPassword() {
  const { email, token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";

  if (token && !result?.linkFailed) {
    return (
      <AuthCard title={authMessages.resetTitle}>
        <Form method="post" className="stack">
          <input type="hidden" name="intent" value="reset" />
          <input type="hidden" name="token" value={token} />
          <input type="hidden" name="email" value={email} autoComplete="username" />
          <div className="field">
            <label htmlFor="password">New Password</label>
            <input id="password" name="password" type="password" autoComplete="new-password" minLength={8} required />
            <span className="hint">At least 8 characters, and not a common password.</span>
          </div>
          <div className="field">
            <label htmlFor="confirm">Confirm New Password</label>
            <input id="confirm" name="confirm" type="password" autoComplete="new-password" required />
          </div>
          <FormMessage error={result?.error} />
          <button type="submit" disabled={busy}>
            {busy ? "Saving…" : authMessages.resetButton}
          </button>
        </Form>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={authMessages.resetTitle}>
      <FormMessage error={result?.error} notice={result?.notice} />
      {result?.notice ? null : (
        <SendLinkForm
          action="/login/reset"
          email={email}
          busy={busy}
          label={result?.linkFailed ? authMessages.requestNewResetLink : authMessages.sendResetLink}
        />
      )}
      <p>
        <Link to="/login">Back to sign in</Link>
      </p>
    </AuthCard>
  );
}
