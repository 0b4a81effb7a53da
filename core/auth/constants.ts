/** Sign-in constants of platform.md section 9, and ours where the spec is silent (docs/decisions/0004). */
export const LINK_VALID_MS = 10 * 60 * 1000;
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** One step of clock drift either way. */
export const TOTP_DRIFT_STEPS = 1;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSKEY_SKIP_COOKIE_MAX_AGE_S = 7 * 24 * 60 * 60;
export const INVALID_PATH_REDIRECT_MS = 3_000;

// Ours: a sliding 30-day session, renewed when less than half remains, and never older than 90 days.
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 90 * 24 * 60 * 60 * 1000;
/** A sensitive change (passkeys, recovery codes, e-mail) needs a full sign-in this recent ("sudo mode"). */
export const REAUTH_WINDOW_MS = 5 * 60 * 1000;
/** Where a re-authentication returns when it names no page. */
export const REAUTH_DEFAULT_GOTO = "/manage/security";
export const RECOVERY_CODE_COUNT = 10;
/** How long the confirmation link sent to a new e-mail address is valid. */
export const EMAIL_CHANGE_VALID_MS = 60 * 60 * 1000;
export const SESSION_RENEW_BELOW_MS = SESSION_TTL_MS / 2;
/** A session handed to another host must be claimed there quickly. */
export const SESSION_HANDOFF_MS = 2 * 60 * 1000;
export const ATTEMPT_TTL_MS = 30 * 60 * 1000;
/** How long a browser remembers its last attempt, for "Welcome Back". */
export const ATTEMPT_COOKIE_MAX_AGE_S = 30 * 24 * 60 * 60;
export const WEBAUTHN_CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Failed verifications allowed in one window, per user and per client. */
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_USER = 10;
export const MAX_FAILURES_PER_CLIENT = 50;
/** Guesses from a browser the user has signed in from before, counted apart from strangers' (issue 28). */
export const MAX_FAILURES_PER_KNOWN_DEVICE = 10;
/** The `sl_device` cookie and the known-device row live a year from the last sign-in. */
export const DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;
export const KNOWN_DEVICE_FORGET_MS = DEVICE_COOKIE_MAX_AGE_S * 1000;

// Ours (issue 28): request throttles in fixed windows, counted in D1 (`throttle_counts`), set well above
// what a club ever does by hand, including many people behind one venue's network address.
export const MAIL_WINDOW_MS = 10 * 60 * 1000;
/** Sign-in, reset and sign-up mails one address receives, whichever clients ask. */
export const MAX_MAILS_PER_ADDRESS = 5;
export const MAX_MAILS_PER_CLIENT = 30;
export const ATTEMPT_WINDOW_MS = 10 * 60 * 1000;
export const MAX_ATTEMPTS_PER_CLIENT = 120;
export const SIGNUP_WINDOW_MS = 60 * 60 * 1000;
export const MAX_SIGNUPS_PER_CLIENT = 20;
/** Role invitations one person sends in a day: far above a club taking on its volunteers, far below a spammer. */
export const INVITATION_WINDOW_MS = 24 * 60 * 60 * 1000;
export const MAX_INVITATIONS_PER_USER = 50;
// The data API's rate (600 calls a minute per token, 1,200 per client) is in wrangler.toml [[ratelimits]].
