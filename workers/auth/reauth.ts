import { REAUTH_WINDOW_MS } from "../../core/auth/constants";
import { ourAuthMessages } from "../../core/auth/messages";

/** What a sensitive change needs to know of the session asking for it. */
export interface SessionProof {
  id: string;
  userId: string;
  verifiedAt: number | null;
}

/** Refused because the session's last full sign-in is too old; the page sends the user to `reauthHref`. */
export type ReauthRequired = { ok: false; status: 403; message: string; reauth: true };

export function isFresh(session: { verifiedAt: number | null }, now: number): boolean {
  return session.verifiedAt !== null && now - session.verifiedAt <= REAUTH_WINDOW_MS;
}

/** Null when the session may make a sensitive change now ("sudo mode"); otherwise the refusal to return. */
export function requireFresh(session: { verifiedAt: number | null }, now: number): ReauthRequired | null {
  return isFresh(session, now) ? null : { ok: false, status: 403, message: ourAuthMessages.reauthRequired, reauth: true };
}

/** The sign-in page in re-authentication mode, coming back to `goto` (a path on this host). */
export function reauthHref(goto: string): string {
  return `/login?reauth=1&goto=${encodeURIComponent(goto)}`;
}

export function sessionProof(session: { id: string; user: { id: string }; verifiedAt: number | null }): SessionProof {
  return { id: session.id, userId: session.user.id, verifiedAt: session.verifiedAt };
}
