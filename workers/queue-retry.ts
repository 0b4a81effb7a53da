/**
 * When a queued message that failed is tried again. Cloudflare Queues retry at once unless told otherwise, so a
 * moment's trouble (D1 busy, a race's room restarting) would spend every retry within a second and the work
 * would be lost to the dead-letter queue. Doubling from one second spreads startline-jobs' ten retries over
 * about five minutes and startline-mail's five over half a minute.
 */
export const RETRY_DELAY_CAP_SECONDS = 60;

/** The wait before the next try of a message delivered `attempts` times (the first delivery is attempt 1). */
export function retryDelaySeconds(attempts: number): number {
  const tries = Number.isFinite(attempts) ? Math.max(1, Math.floor(attempts)) : 1;
  return Math.min(RETRY_DELAY_CAP_SECONDS, 2 ** Math.min(tries - 1, 30));
}

/** Asks the queue for this message again after the backoff. */
export function retryLater(message: Message<unknown>): void {
  message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
}
