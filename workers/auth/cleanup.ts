import { lt } from "drizzle-orm";
import { FAILURE_WINDOW_MS, KNOWN_DEVICE_FORGET_MS } from "../../core/auth/constants";
import { authFailures, emailChanges, knownDevices, sessions, signInAttempts, throttleCounts, webauthnChallenges, type Db } from "../../schema/d1";
import { throttleRules } from "./throttle";

/** A remembered attempt still greets a returning user ("Welcome Back") for this long after it expires. */
const ATTEMPT_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The longest throttle window. Counters slide over two fixed windows (core/auth/failure-limit.ts), so a row
 * refuses nothing once it started two windows ago; one window's row still weighs in the next.
 */
const LONGEST_THROTTLE_WINDOW_MS = Math.max(...Object.values(throttleRules).map((rule) => rule.windowMs));

/** Deletes what has expired: sessions, challenges, e-mail change links, old counter windows, forgotten devices, long-dead attempts. Hourly cron. */
export async function deleteExpiredAuthRows(db: Db, now: number): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
  await db.delete(authFailures).where(lt(authFailures.windowStart, now - 2 * FAILURE_WINDOW_MS));
  await db.delete(throttleCounts).where(lt(throttleCounts.windowStart, now - 2 * LONGEST_THROTTLE_WINDOW_MS));
  await db.delete(knownDevices).where(lt(knownDevices.lastSeenAt, now - KNOWN_DEVICE_FORGET_MS));
  await db.delete(signInAttempts).where(lt(signInAttempts.expiresAt, now - ATTEMPT_KEPT_MS));
  await db.delete(emailChanges).where(lt(emailChanges.expiresAt, now));
}
