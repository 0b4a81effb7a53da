import { FAILURE_WINDOW_MS, MAX_FAILURES_PER_CLIENT, MAX_FAILURES_PER_USER } from "./constants";

/** The fixed window a failure at `now` is counted in. */
export function failureWindowStart(now: number): number {
  return now - (now % FAILURE_WINDOW_MS);
}

/** Whether counted failures have reached the limit, so the next try is refused before it is checked. */
export function isOverFailureLimit(failures: { user: number; client: number }): boolean {
  return failures.user >= MAX_FAILURES_PER_USER || failures.client >= MAX_FAILURES_PER_CLIENT;
}
