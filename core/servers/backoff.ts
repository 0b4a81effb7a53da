/**
 * How long a serverbox waits before trying the platform again after a network error or a 5xx (decision
 * 0060): exponential with full jitter (a random delay up to base × 2^attempt, capped), so boxes that lost the
 * same connection do not all come back in the same second.
 */

export interface BackoffPolicy {
  /** The first retry waits up to this long (milliseconds). */
  baseMs: number;
  /** No wait is longer than this. */
  capMs: number;
}

/** A box retries within a second at first and waits at most half a minute while the venue is offline. */
export const SYNC_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 30_000 };

/** The ceiling of the wait before retry `attempt` (0 is the first retry). */
export function backoffCeiling(policy: BackoffPolicy, attempt: number): number {
  // 2^attempt overflows nothing below 2^1023; the cap applies long before.
  const exponent = Math.min(Math.max(0, Math.floor(attempt)), 30);
  return Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
}

/** The wait before retry `attempt`: `random` (in [0, 1)) times the ceiling, never 0 so a loop cannot spin. */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: number): number {
  const ceiling = backoffCeiling(policy, attempt);
  return Math.max(Math.min(policy.baseMs, 100), Math.floor(Math.min(Math.max(random, 0), 1) * ceiling));
}

/** A Retry-After header's wait in milliseconds (seconds or an HTTP date), or null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null || header.trim() === "") return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : null;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
