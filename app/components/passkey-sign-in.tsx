import { browserSupportsWebAuthn, startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from "./webauthn.client";
import { useState } from "react";
import { authMessages } from "../../core/auth/messages";
import { useHydrated } from "../hooks/use-hydrated";
import { postToLogin } from "./post-to-login";

interface VerifyReply {
  status: string;
  message?: string;
  token?: string | null;
  host?: string | null;
  goto?: string | null;
  reauth?: boolean;
}

/**
 * Sign in with a passkey: begin on the server, ask the authenticator, complete, then hand over the session.
 * With `reauth` the signed-in session is re-authenticated instead, and the browser returns to goto.
 */
export function PasskeySignIn({ userId, goto, reauth = false }: { userId: string | null; goto: string | null; reauth?: boolean }) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [unrecognised, setUnrecognised] = useState(false);

  async function signIn() {
    setError(null);
    if (!browserSupportsWebAuthn()) return setError(authMessages.passkeysNotSupportedBrowser);
    setBusy(true);
    try {
      const begin = await fetch("/_auth/passkey/authenticate/begin", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ user_id: userId, client: "web" }),
      });
      const options = await begin.json();
      if (!begin.ok) return setError((options as { error?: string }).error ?? authMessages.passkeyFailed);
      const credential = await startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON });
      const complete = await fetch("/_auth/passkey/authenticate/complete", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ credential, goto, reauth }),
      });
      const [reply] = (await complete.json()) as VerifyReply[];
      if (reply?.status === "verified" && reply.reauth) return window.location.assign(reply.goto ?? "/manage/security");
      if (reply?.status === "verified" && reply.token && reply.host) return postToLogin(reply.host, reply.token, reply.goto ?? null);
      // A passkey without user verification is one factor: a two-factor account continues at the code step.
      if (reply?.status === "partial") return window.location.assign("/login/totp");
      if (reply?.message === authMessages.invalidCredential) return setUnrecognised(true);
      setError(reply?.message ?? authMessages.passkeyFailed);
    } catch {
      setError(authMessages.passkeyFailed);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="stack">
      <button type="button" className="button secondary" onClick={signIn} disabled={!hydrated || busy} aria-busy={busy}>
        {busy ? "Waiting for your passkey…" : "Sign in with a passkey"}
      </button>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {unrecognised ? (
        <div role="alertdialog" aria-labelledby="passkey-unknown" className="auth-card">
          <p id="passkey-unknown" className="form-error">
            {authMessages.passkeyNotRecognized}
          </p>
          <button type="button" onClick={() => setUnrecognised(false)}>
            OK
          </button>
        </div>
      ) : null}
    </div>
  );
}
