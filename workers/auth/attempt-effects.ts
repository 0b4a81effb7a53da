import { eq } from "drizzle-orm";
import { signInAttempts, type Db } from "../../schema/d1";
import type { NoticeDeps } from "./notices";
import { sendSecurityNotice } from "./notices";
import { markSessionVerified, revokeOtherSessions } from "./session-list";
import { setUserPassword } from "./users";

type Attempt = typeof signInAttempts.$inferSelect;

/**
 * What a fully verified attempt does besides signing in. A reset saves its new password only now, after
 * every factor the account has (so a wrong code changes nothing), and signs out all older sessions. A
 * re-authentication refreshes the asking session instead of making a new one.
 */
export async function applyVerifiedAttempt(
  deps: NoticeDeps,
  attempt: Attempt,
  user: { id: string; email: string; name: string },
): Promise<"sign-in" | "reauth-done" | "reauth-failed"> {
  if (attempt.method === "reset" && attempt.pendingPasswordHash) {
    await setUserPassword(deps.db, user.id, attempt.pendingPasswordHash, deps.now);
    await deps.db.update(signInAttempts).set({ pendingPasswordHash: null }).where(eq(signInAttempts.id, attempt.id));
    await revokeOtherSessions(deps.db, user.id, null);
    await sendSecurityNotice(deps, user, { kind: "password-reset" });
  }
  if (attempt.reauthSessionId) return (await markSessionVerified(deps.db, attempt.reauthSessionId, user.id, deps.now)) ? "reauth-done" : "reauth-failed";
  return "sign-in";
}

/** The age and verification a session-proved attempt passes on, so a role switch never refreshes them. */
export async function sessionOrigin(db: Db, sessionId: string) {
  const row = await db.query.sessions.findFirst({ where: (s, { eq: equal }) => equal(s.id, sessionId), columns: { createdAt: true, verifiedAt: true } });
  return row ?? undefined;
}
