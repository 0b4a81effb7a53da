import { authMessages, ourAuthMessages } from "../../core/auth/messages";
import { createAttempt, sendAttemptMail, type AuthDeps, type Failure } from "./attempts";
import { takeThrottle } from "./throttle";
import { createUser, findUserByEmail } from "./users";

/**
 * Sign-up: an administrator account (email, name, optional phone) and its first sign-in link. An address
 * that already has an account just gets a new sign-in link, so sign-up never reveals who is registered.
 */
export async function signUp(deps: AuthDeps, input: { email: string; name: string; phone?: string | null }): Promise<{ ok: true; email: string } | Failure> {
  try {
    const allowed = await takeThrottle(deps.db, "signupsFromClient", deps.clientKey, deps.now);
    if (!allowed.ok) return { ok: false, status: 429, message: ourAuthMessages.tooManyRequests, retryAfterSeconds: allowed.retryAfterSeconds };
    const user = (await findUserByEmail(deps.db, input.email)) ?? (await createUser(deps.db, input, deps.now));
    const attempt = await createAttempt(deps, { userId: user.id, method: "link" });
    if (!attempt.ok) return attempt;
    const sent = await sendAttemptMail(deps, attempt.attempt_id, user.email);
    if (!sent.ok) return sent;
    return { ok: true, email: user.email };
  } catch (error) {
    console.error("Sign-up failed", error);
    return { ok: false, status: 500, message: authMessages.signupError };
  }
}
