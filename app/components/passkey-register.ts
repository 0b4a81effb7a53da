import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from "./webauthn.client";
import { authMessages } from "../../core/auth/messages";

/**
 * Registers a passkey for `userId` with the browser's authenticator. Resolves when the server has stored
 * it; rejects with one of the spec's passkey messages.
 */
export async function registerPasskey(userId: string): Promise<void> {
  const begin = await fetch("/_auth/passkey/register/begin", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ user_id: userId }),
  });
  if (begin.status === 403) {
    // The sign-in is too old for this change: confirm it is you first, then come back.
    const { reauth } = (await begin.json()) as { reauth?: string };
    if (reauth) window.location.assign(reauth);
    return new Promise<void>(() => {});
  }
  if (!begin.ok) throw new Error(authMessages.passkeysNotSupportedDevice);
  let credential;
  try {
    credential = await startRegistration({ optionsJSON: (await begin.json()) as PublicKeyCredentialCreationOptionsJSON });
  } catch {
    throw new Error(authMessages.passkeyCancelled);
  }
  const complete = await fetch("/_auth/passkey/register/complete", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ user_id: userId, credential }),
  });
  const body = (await complete.json()) as { verified?: boolean; error?: string };
  if (!body.verified) throw new Error(body.error === authMessages.passkeyAlreadyRegistered ? body.error : authMessages.passkeyCancelled);
}

/** The message to show for a failed registration. */
export function registrationProblem(problem: unknown): string {
  const known = [authMessages.passkeysNotSupportedDevice, authMessages.passkeyAlreadyRegistered, authMessages.passkeyCancelled] as string[];
  return problem instanceof Error && known.includes(problem.message) ? problem.message : authMessages.passkeyCancelled;
}
