import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData, useNavigate } from "@remix-run/react";
import { browserSupportsWebAuthn } from "../../components/webauthn.client";
import { useEffect, useState } from "react";
import { PASSKEY_SKIP_COOKIE_MAX_AGE_S } from "../../../core/auth/constants";
import { authMessages } from "../../../core/auth/messages";
import { getAttemptByToken } from "../../../workers/auth/attempts";
import { cookieNames, readCookie, serializeCookie } from "../../../workers/auth/cookies";
import { authDeps, readHandoff } from "../../auth.server";
import { AuthCard, FormMessage } from "../../components/auth-card";
import { registerPasskey, registrationProblem } from "../../components/passkey-register";

export const meta: MetaFunction = () => [{ title: authMessages.createPasskey }];

/** The passkey offer after a verified sign-in: create one now, or skip it for 7 days. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = readCookie(request, cookieNames.attempt);
  const attempt = token ? await getAttemptByToken(authDeps(request, context).db, token) : null;
  if (!attempt || !readHandoff(request) || attempt.status !== "verified") throw redirect("/login");
  return { userId: attempt.user_id };
}

export async function action() {
  return redirect("/login/complete", { headers: { "Set-Cookie": serializeCookie(cookieNames.passkeySkip, "1", PASSKEY_SKIP_COOKIE_MAX_AGE_S) } });
}

export default function PasskeyOffer() {
  const { userId } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    // Browsers without passkeys skip the offer altogether.
    if (!browserSupportsWebAuthn()) navigate("/login/complete", { replace: true });
  }, [navigate]);

  async function create() {
    setBusy(true);
    setError(null);
    try {
      await registerPasskey(userId);
      navigate("/login/complete");
    } catch (problem) {
      setError(registrationProblem(problem));
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Sign in faster next time">
      <p>A passkey lets you sign in with your fingerprint, face or device PIN instead of a password.</p>
      <FormMessage error={error} />
      <div className="stack">
        <button type="button" onClick={create} disabled={busy} aria-busy={busy}>
          {busy ? "Creating…" : authMessages.createPasskey}
        </button>
        <Form method="post">
          <button type="submit" className="button secondary">
            {authMessages.skipForNow}
          </button>
        </Form>
      </div>
    </AuthCard>
  );
}
