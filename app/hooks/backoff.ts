/**
 * Reconnect delays with full jitter: a uniformly random wait up to the capped exponential, so a venue's
 * spectators, all dropped by the same blip, come back spread over the window instead of in one instant.
 */

/** The first retry waits up to this; each failed attempt doubles the window. */
export const BACKOFF_BASE_MS = 500;
/** The window stops growing here: a page that has been offline a while still retries every few seconds. */
export const BACKOFF_CAP_MS = 15_000;

/** A number in [0, 1), as Math.random gives; tests pass their own. */
export type RandomSource = () => number;

/** The wait before reconnect attempt `attempt` (0 for the first): random(0, min(cap, base · 2^attempt)). */
export function backoffDelay(attempt: number, random: RandomSource, base = BACKOFF_BASE_MS, cap = BACKOFF_CAP_MS): number {
  // 2 ** 1100 is Infinity, which min() caps; a negative or fractional attempt counts as the first.
  const window = Math.min(cap, base * 2 ** Math.max(0, Math.floor(attempt)));
  return Math.floor(clampUnit(random()) * window);
}

/** A short random wait up to `maxMs`, for reconnects that should be prompt but still not simultaneous. */
export function jitterDelay(maxMs: number, random: RandomSource): number {
  return Math.floor(clampUnit(random()) * maxMs);
}

// A random source outside [0, 1) (a broken stub) must not make a negative or over-cap wait.
function clampUnit(value: number): number {
  return Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0;
}
