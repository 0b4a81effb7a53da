import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { authFailures, knownDevices, sessions, throttleCounts, webauthnChallenges } from "../../schema/d1";
import { throttleRules } from "../../workers/auth/throttle";
import worker from "../../workers/index";
import { createUserWithPassword, db } from "./auth-fixtures";

describe("hourly cleanup", () => {
  it("deletes expired sessions, challenges and old failure windows, and keeps live ones", async () => {
    const user = await createUserWithPassword("cleanup@example.com", null);
    const now = Date.now();
    const session = (id: string, expiresAt: number) => ({
      id,
      secretHash: "x",
      userId: user.id,
      host: "localhost",
      isClaimed: true,
      createdAt: now,
      expiresAt,
      lastUsedAt: now,
    });
    await db()
      .insert(sessions)
      .values([session("old", now - 1000), session("live", now + 60_000)]);
    await db()
      .insert(webauthnChallenges)
      .values({ id: "c1", challenge: "c", kind: "register", domain: "localhost", expiresAt: now - 1 });
    await db()
      .insert(authFailures)
      .values([
        { key: "user:x", windowStart: now - 60 * 60 * 1000, count: 3 },
        // The previous fifteen-minute window still weighs in the sliding window: kept.
        { key: "user:y", windowStart: now - 20 * 60 * 1000, count: 3 },
      ]);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(now), cron: "17 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await db().select().from(sessions)).map((s) => s.id)).toEqual(["live"]);
    expect(await db().select().from(webauthnChallenges)).toEqual([]);
    expect((await db().select().from(authFailures)).map((r) => r.key)).toEqual(["user:y"]);
  });

  it("deletes throttle windows older than the longest throttle window and devices not seen for a year", async () => {
    const user = await createUserWithPassword("cleanup-devices@example.com", null);
    const now = Date.now();
    const HOUR = 60 * 60 * 1000;
    await db()
      .insert(throttleCounts)
      .values([
        // Two of the longest windows of any rule (a day, the invitations') old: it weighs in no sliding window.
        { key: "signupsFromClient:old", windowStart: now - 2 * Math.max(...Object.values(throttleRules).map((r) => r.windowMs)) - HOUR, count: 3 },
        { key: "signupsFromClient:live", windowStart: now - HOUR / 2, count: 3 },
      ]);
    const device = (deviceHash: string, lastSeenAt: number) => ({ userId: user.id, deviceHash, label: "Chrome on Linux", firstSeenAt: lastSeenAt, lastSeenAt });
    await db()
      .insert(knownDevices)
      .values([device("stale", now - 400 * 24 * HOUR), device("recent", now - 24 * HOUR)]);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(now), cron: "17 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await db().select().from(throttleCounts)).map((r) => r.key)).toEqual(["signupsFromClient:live"]);
    expect((await db().select().from(knownDevices)).map((d) => d.deviceHash)).toEqual(["recent"]);
  });
});
