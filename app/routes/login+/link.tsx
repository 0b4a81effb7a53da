import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import * as z from "zod";
import { authMessages, ourAuthMessages } from "../../../core/auth/messages";
import { createAttempt, sendAttemptMail, verifyLink } from "../../../workers/auth/attempts";
import { authDeps, continueSignInAfterLink } from "../../auth.server";
import { AuthCard, FormMessage, SendLinkForm } from "../../components/auth-card";

export const meta: MetaFunction = () => [{ title: "Sign in with a link" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return { email: url.searchParams.get("email") ?? "", token: url.searchParams.get("token"), goto: url.searchParams.get("goto") };
}

const formSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("send"), email: z.string().trim().min(1, "Enter your email address").max(320) }),
  z.object({ intent: z.literal("verify"), email: z.string().max(320), token: z.string().min(1).max(200) }),
]);

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = formSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? authMessages.invalidOrExpiredLink, notice: null, expired: false };
  const deps = authDeps(request, context);
  const goto = new URL(request.url).searchParams.get("goto");
  if (parsed.data.intent === "send") {
    const attempt = await createAttempt(deps, { email: parsed.data.email, method: "link", goto });
    if (!attempt.ok) return { error: attempt.message, notice: null, expired: false };
    const sent = await sendAttemptMail(deps, attempt.attempt_id, attempt.email);
    if (!sent.ok) return { error: sent.status === 429 ? sent.message : authMessages.errorSendingLink, notice: null, expired: false };
    return { error: null, notice: ourAuthMessages.linkSent(attempt.email), expired: false };
  }
  const reply = await verifyLink(deps, parsed.data.token, parsed.data.email);
  const next = await continueSignInAfterLink(request, context, reply);
  if (next) return next;
  return { error: reply.message || authMessages.invalidOrExpiredLink, notice: null, expired: true };
}

/**
 * With a token the link is verified by a post the page makes itself: mail scanners that fetch every link
 * never use it up. Without a token the page asks for an email and sends a link.
 */
export default function LinkSignIn() {
  const { email, token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const verifyForm = useRef<HTMLFormElement>(null);
  const showVerify = Boolean(token) && !result;
  useEffect(() => {
    if (showVerify) verifyForm.current?.requestSubmit();
  }, [showVerify]);

  if (showVerify && token) {
    return (
      <AuthCard title="Signing you in…">
        <Form method="post" ref={verifyForm} className="stack">
          <input type="hidden" name="intent" value="verify" />
          <input type="hidden" name="email" value={email} />
          <input type="hidden" name="token" value={token} />
          <p>Checking your sign-in link for {email}.</p>
          <button type="submit" disabled={busy}>
            {busy ? "Checking…" : "Continue signing in"}
          </button>
        </Form>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Sign in with a link">
      <FormMessage error={result?.error} notice={result?.notice} />
      {result?.notice ? null : <SendLinkForm email={email} busy={busy} label={result?.expired ? authMessages.sendNewLink : authMessages.sendSignInLink} />}
    </AuthCard>
  );
}
