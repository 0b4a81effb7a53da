import {
  ATTEMPT_WINDOW_MS,
  INVITATION_WINDOW_MS,
  MAIL_WINDOW_MS,
  MAX_INVITATIONS_PER_USER,
  MAX_ATTEMPTS_PER_CLIENT,
  MAX_MAILS_PER_ADDRESS,
  MAX_MAILS_PER_CLIENT,
  MAX_SIGNUPS_PER_CLIENT,
  SIGNUP_WINDOW_MS,
} from "../../core/auth/constants";
import { secondsUntilWindowEnds } from "../../core/auth/failure-limit";
import { throttleCounts, type Db } from "../../schema/d1";
import { hashToken } from "./crypto";
import { normaliseEmail } from "./users";
import { takeFromWindow } from "./window-counter";

/** Each throttled action: its fixed window and how many it allows per subject in one window (issue 28). */
export const throttleRules = {
  /** Subject: the hashed, normalised address; whichever clients ask. */
  mailsToAddress: { windowMs: MAIL_WINDOW_MS, limit: MAX_MAILS_PER_ADDRESS },
  mailsFromClient: { windowMs: MAIL_WINDOW_MS, limit: MAX_MAILS_PER_CLIENT },
  attemptsFromClient: { windowMs: ATTEMPT_WINDOW_MS, limit: MAX_ATTEMPTS_PER_CLIENT },
  signupsFromClient: { windowMs: SIGNUP_WINDOW_MS, limit: MAX_SIGNUPS_PER_CLIENT },
  /** Subject: the inviting user's id (issue 25: invitations are mail sent in our name). */
  invitationsFromUser: { windowMs: INVITATION_WINDOW_MS, limit: MAX_INVITATIONS_PER_USER },
} as const;

export type ThrottleRule = keyof typeof throttleRules;
export type Throttled = { ok: true } | { ok: false; retryAfterSeconds: number };

/** The counter row's key: the rule and a subject that is already a hash (never an address or a token). */
export const throttleKey = (rule: ThrottleRule, subject: string) => `${rule}:${subject}`;

export const addressSubject = (email: string) => `mail:${hashToken(normaliseEmail(email)).slice(0, 32)}`;

/** Counts one request of `rule` for `subject` in D1 with one conditional write; refused past the limit. */
export async function takeThrottle(db: Db, rule: ThrottleRule, subject: string, now: number): Promise<Throttled> {
  const { windowMs, limit } = throttleRules[rule];
  if ((await takeFromWindow(db, throttleCounts, throttleKey(rule, subject), now, windowMs, limit)) !== null) return { ok: true };
  console.warn(`Throttled: ${rule}`, { subject });
  return { ok: false, retryAfterSeconds: secondsUntilWindowEnds(now, windowMs) };
}

/**
 * Mail a visitor without an account makes us send (a waitlist confirmation, a finish-later link): counted per
 * network and per address, so a script cannot use a public form to mail strangers.
 */
export async function takeVisitorMail(db: Db, clientKey: string, email: string, now: number): Promise<Throttled> {
  const fromClient = await takeThrottle(db, "mailsFromClient", clientKey, now);
  if (!fromClient.ok) return fromClient;
  return takeThrottle(db, "mailsToAddress", addressSubject(email), now);
}
