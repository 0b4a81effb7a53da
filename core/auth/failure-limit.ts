import { FAILURE_WINDOW_MS, MAX_FAILURES_PER_CLIENT, MAX_FAILURES_PER_KNOWN_DEVICE, MAX_FAILURES_PER_USER } from "./constants";

/** The fixed window of `windowMs` that `now` falls in. */
export function fixedWindowStart(now: number, windowMs: number): number {
  return now - (now % windowMs);
}

/** Whole seconds until the window `now` falls in ends (a Retry-After value, at least 1). */
export function secondsUntilWindowEnds(now: number, windowMs: number): number {
  return Math.max(1, Math.ceil((fixedWindowStart(now, windowMs) + windowMs - now) / 1000));
}

/**
 * A sliding window over two fixed ones (the usual sliding-window counter): tries are counted in the fixed
 * window `now` falls in, and the previous window's count weighs by how much of it the last `windowMs` still
 * covers. Unlike a fixed window, a limit cannot be doubled by trying just before and just after a boundary.
 */
export interface SlidingWindow {
  windowStart: number;
  previousStart: number;
  windowMs: number;
  /** How many milliseconds of the previous window the span (now − windowMs, now] still covers. */
  previousOverlapMs: number;
}

export function slidingWindow(now: number, windowMs: number): SlidingWindow {
  const windowStart = fixedWindowStart(now, windowMs);
  return { windowStart, previousStart: windowStart - windowMs, windowMs, previousOverlapMs: windowMs - (now - windowStart) };
}

/**
 * Whether one more try fits: current + ⌈previous × overlap / window⌉ < limit, in whole numbers (the SQL guard
 * in workers/auth/window-counter.ts is the same inequality). Rounding up means an earlier try stops counting
 * only once it has wholly slid out, so a burst at a boundary is still refused.
 */
export function allowsOneMore(current: number, previous: number, window: SlidingWindow, limit: number): boolean {
  return current * window.windowMs + previous * window.previousOverlapMs <= (limit - 1) * window.windowMs;
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
