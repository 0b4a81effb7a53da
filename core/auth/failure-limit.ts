import { FAILURE_WINDOW_MS, MAX_FAILURES_PER_CLIENT, MAX_FAILURES_PER_KNOWN_DEVICE, MAX_FAILURES_PER_USER } from "./constants";

/** The fixed window of `windowMs` that `now` falls in. */
export function fixedWindowStart(now: number, windowMs: number): number {
  return now - (now % windowMs);
}

/** Whole seconds until the window `now` falls in ends (a Retry-After value, at least 1). */
export function secondsUntilWindowEnds(now: number, windowMs: number): number {
  return Math.max(1, Math.ceil((fixedWindowStart(now, windowMs) + windowMs - now) / 1000));
}

/** The fixed window a failure at `now` is counted in. */
export function failureWindowStart(now: number): number {
  return fixedWindowStart(now, FAILURE_WINDOW_MS);
}

/** The guessable secrets: a password, or a second-factor code (TOTP or recovery code). Links and passkeys are not guessable. */
export type GuessedSecret = "password" | "code";

export interface GuessCounter {
  key: string;
  limit: number;
}

/**
 * The counters one guess is reserved against, in order. A browser the user has signed in from before has its
 * own counter, so strangers filling the account's counter never lock the owner out of their own browser;
 * anyone else counts against their client and the account. Passwords and codes have separate account
 * counters, so password guessing cannot block the code step of an owner who signed in by link.
 */
export function guessCounters(guess: { secret: GuessedSecret; userId: string; clientKey: string; knownDeviceHash: string | null }): GuessCounter[] {
  const kind = guess.secret === "password" ? "" : "-code";
  if (guess.knownDeviceHash) return [{ key: `device${kind}:${guess.userId}:${guess.knownDeviceHash}`, limit: MAX_FAILURES_PER_KNOWN_DEVICE }];
  return [
    { key: guess.clientKey, limit: MAX_FAILURES_PER_CLIENT },
    { key: `user${kind}:${guess.userId}`, limit: MAX_FAILURES_PER_USER },
  ];
}
