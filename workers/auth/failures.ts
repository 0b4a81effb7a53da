import { FAILURE_WINDOW_MS } from "../../core/auth/constants";
import { failureWindowStart, guessCounters, type GuessedSecret } from "../../core/auth/failure-limit";
import { authFailures, type Db } from "../../schema/d1";
import { hashToken } from "./crypto";
import { knownDeviceHash } from "./devices";
import { giveBackToWindow, takeFromWindow } from "./window-counter";

/** A client is its connecting IP as Cloudflare reports it, hashed: we count, we do not keep addresses. */
export function clientKeyOf(request: Request): string {
  return `client:${hashToken(request.headers.get("CF-Connecting-IP") ?? "local").slice(0, 32)}`;
}

/** The counters one guess holds until it is known to be right. */
export interface GuessReservation {
  windowStart: number;
  keys: string[];
}

/**
 * Reserves one try at a guessable secret under each counter that applies (core/auth/failure-limit.ts), in
 * D1, before the secret is checked. Null means a limit is reached and the secret must not be checked. A
 * counter taken before a later one refused stays taken: the client did make that try.
 */
export async function reserveGuess(
  deps: { db: Db; now: number; clientKey: string; deviceId?: string | null },
  userId: string,
  secret: GuessedSecret,
): Promise<GuessReservation | null> {
  const { db, now, clientKey } = deps;
  const windowStart = failureWindowStart(now);
  const counters = guessCounters({ secret, userId, clientKey, knownDeviceHash: await knownDeviceHash(db, userId, deps.deviceId ?? null) });
  const keys: string[] = [];
  for (const { key, limit } of counters) {
    if ((await takeFromWindow(db, authFailures, key, now, FAILURE_WINDOW_MS, limit)) === null) {
      console.warn("Guess limit reached", { key });
      return null;
    }
    keys.push(key);
  }
  return { windowStart, keys };
}

/** A right secret gives its reservation back, so only failures (and guesses in flight) fill a window. */
export async function releaseGuess(db: Db, reservation: GuessReservation): Promise<void> {
  for (const key of reservation.keys) await giveBackToWindow(db, authFailures, key, reservation.windowStart);
}
