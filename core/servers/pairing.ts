/**
 * Pairing a serverbox (a local timing server) with a club, in the manner of the OAuth device authorisation
 * grant (RFC 8628): the box asks for a request, a person types its short user code and approves it, the box
 * polls until it gets its token. The pure rules: the code's alphabet and format, the request's state at a
 * time, how fast a box may poll, and the words people and boxes see. Decision 0055.
 */

/** RFC 8628 section 6.1's consonants: no vowels (no words), no 0/O or 1/I to mix up; 20^8 ≈ 2.6 × 10^10 codes. */
export const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
export const USER_CODE_LENGTH = 8;
/** How long a box's request waits for a person. */
export const PAIRING_VALID_MS = 10 * 60 * 1000;
/** The polling interval a request starts with, and what each `slow_down` adds to it (RFC 8628 section 3.5). */
export const POLL_INTERVAL_S = 5;
export const SLOW_DOWN_STEP_S = 5;
/** A box that keeps polling too fast is not slowed past this. */
export const MAX_POLL_INTERVAL_S = 60;

/** A user code as shown: two groups of four, `BCDF-GHJK`. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * A code as typed, made canonical: upper case, without spaces or dashes. Null when it cannot be a code
 * (other letters, another length), so a typo is told apart from a code nobody is waiting with.
 */
export function normaliseUserCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== USER_CODE_LENGTH) return null;
  for (const char of code) if (!USER_CODE_ALPHABET.includes(char)) return null;
  return code;
}

/** A new code from `random` bytes (one per character; rejection sampling keeps every letter equally likely). */
export function userCodeFrom(random: (count: number) => Uint8Array): string {
  const limit = 256 - (256 % USER_CODE_ALPHABET.length);
  let code = "";
  while (code.length < USER_CODE_LENGTH) {
    for (const byte of random(USER_CODE_LENGTH)) {
      if (byte < limit && code.length < USER_CODE_LENGTH) code += USER_CODE_ALPHABET[byte % USER_CODE_ALPHABET.length];
    }
  }
  return code;
}

/** The times a request carries (epoch milliseconds; null while not yet). */
export interface PairingTimes {
  created: number;
  expires: number;
  completed: number | null;
  cancelled: number | null;
  /** When the box received its token; a request hands its token out once. */
  delivered: number | null;
}

export type PairingState = "pending" | "expired" | "cancelled" | "approved" | "delivered";

/** Where a request stands at `now`: cancelled and approved are final; a pending one expires with its code. */
export function pairingStateOf(request: PairingTimes, now: number): PairingState {
  if (request.cancelled !== null) return "cancelled";
  if (request.delivered !== null) return "delivered";
  if (request.completed !== null) return "approved";
  return now >= request.expires ? "expired" : "pending";
}

/** Whether a poll at `now` comes soon enough after the last one to be `slow_down` (RFC 8628 section 3.5). */
export function pollsTooFast(lastPoll: number | null, intervalS: number, now: number): boolean {
  return lastPoll !== null && now - lastPoll < intervalS * 1000;
}

/** The interval after one `slow_down`. */
export function slowedInterval(intervalS: number): number {
  return Math.min(MAX_POLL_INTERVAL_S, intervalS + SLOW_DOWN_STEP_S);
}

/**
 * The polling rule's one home (issue 29): a pending request's poll at `now` is `slow_down` when it comes
 * sooner than the interval after the last one, and then the interval grows. The service writes this outcome
 * with a compare-and-set on the values it read, so no SQL restates the rule.
 */
export function pollOutcome(lastPoll: number | null, intervalS: number, now: number): { slowDown: boolean; interval: number } {
  const slowDown = pollsTooFast(lastPoll, intervalS, now);
  return { slowDown, interval: slowDown ? slowedInterval(intervalS) : intervalS };
}

/** What the pairing page says about a code that cannot be approved (ours: the spec is silent; decision 0055). */
export const PAIRING_MESSAGES = {
  malformed: `A code is ${USER_CODE_LENGTH} letters, as the serverbox shows it (for example BCDF-GHJK)`,
  unknown: "No serverbox is waiting with this code. Check the code on the serverbox's screen",
  expired: "This code has expired. Start pairing again on the serverbox to get a new code",
  cancelled: "This pairing was cancelled. Start pairing again on the serverbox to get a new code",
  used: "This code was already used: the serverbox is paired. Start pairing again on the serverbox to pair it anew",
  tooManyGuesses: "Too many wrong codes. Wait a while, then try again",
} as const;

/** The message for a request that is not pending, or null when it may be approved. */
export function pairingRefusal(state: PairingState): string | null {
  switch (state) {
    case "pending":
      return null;
    case "expired":
      return PAIRING_MESSAGES.expired;
    case "cancelled":
      return PAIRING_MESSAGES.cancelled;
    case "approved":
    case "delivered":
      return PAIRING_MESSAGES.used;
  }
}

/** A serverbox's status in words, for the club's list. */
export function serverStatusText(server: { isActive: boolean; lastSeenTime: number | null }): string {
  if (!server.isActive) return "Revoked";
  return server.lastSeenTime === null ? "Paired, not seen yet" : "Active";
}

/** Web keypads a box reports in one heartbeat (decision 0084): a venue's phones, not a crowd. The box sends its newest this many. */
export const MAX_REPORTED_WEBCLIENTS = 50;
