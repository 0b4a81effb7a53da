/**
 * The queued-mail helper (decision 0069) on its own: a claim is taken once, a redelivered message takes back
 * its own claim, a failure goes back to queued until the last attempt, and the cron's catch-up queues a lost row
 * once an hour. Card mails, reminders and newsletters each keep their own tests of the whole flow.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emailNewsletters, newsletterDeliveries } from "../../schema/d1";
import { deliveryRows, LOST_AFTER_MS } from "../../workers/services/mail-rows";
import { db } from "./auth-fixtures";
import { createSiteWithRace, recordingEnv } from "./fixtures";

async function delivery(tag: string, now: number) {
  const { club, site } = await createSiteWithRace(db(), { hostname: `${tag}.localhost`, siteName: tag, raceName: `${tag} race` });
  const newsletterId = crypto.randomUUID();
  await db().insert(emailNewsletters).values({ id: newsletterId, clubId: club.id, siteId: site.id, subject: "News", fieldMtimes: {} });
  const id = crypto.randomUUID();
  await db()
    .insert(newsletterDeliveries)
    .values({ id, newsletterId, email: `${tag}@example.com`, updatedAt: now });
  return id;
}

const stateOf = async (id: string) => (await db().select().from(newsletterDeliveries).where(eq(newsletterDeliveries.id, id)))[0]!;

describe("queued mail rows", () => {
  it("send a row once: a second message skips it, a redelivery takes back its own claim", async () => {
    const now = Date.now();
    const id = await delivery("rows-once", now);
    let calls = 0;
    const deliver = async () => (calls++, "sent" as const);
    expect(await deliveryRows.send(db(), id, 1, false, now, deliver)).toBe("sent");
    expect(await deliveryRows.send(db(), id, 1, false, now, deliver)).toBe("skipped");
    expect(calls).toBe(1);
    expect((await stateOf(id)).state).toBe("sent");
    // A claim left "sending" by a consumer that died is taken back by the message's redelivery only.
    const stuck = await delivery("rows-stuck", now);
    expect(await deliveryRows.claim(db(), stuck, 1, now)).toBeDefined();
    expect(await deliveryRows.claim(db(), stuck, 1, now)).toBeUndefined();
    expect(await deliveryRows.send(db(), stuck, 2, false, now, deliver)).toBe("sent");
    expect((await stateOf(stuck)).attempts).toBe(2);
  });

  it("put a failed row back for the retry and fail it on the last attempt; a skipped row is left to its sender", async () => {
    const now = Date.now();
    const id = await delivery("rows-fail", now);
    const failing = async (): Promise<"sent"> => {
      throw new Error("mail server down");
    };
    expect(await deliveryRows.send(db(), id, 1, false, now, failing)).toBe("retry");
    expect((await stateOf(id)).state).toBe("queued");
    expect(await deliveryRows.send(db(), id, 2, true, now, failing)).toBe("failed");
    expect((await stateOf(id)).state).toBe("failed");
    const skipped = await delivery("rows-skip", now);
    expect(await deliveryRows.send(db(), skipped, 1, false, now, async () => "skipped")).toBe("skipped");
    expect((await stateOf(skipped)).state).toBe("sending");
  });

  it("queue a row whose message was lost again after an hour, then wait another hour for it", async () => {
    const now = Date.now();
    const lost = await delivery("rows-lost", now - LOST_AFTER_MS - 1);
    const recent = await delivery("rows-recent", now);
    const recording = recordingEnv();
    await deliveryRows.requeueLost(recording.env, db(), now);
    await deliveryRows.requeueLost(recording.env, db(), now + 60_000);
    const named = recording.sent.map((m) => (m.body as { newsletterDelivery: string }).newsletterDelivery);
    expect(named.filter((id) => id === lost)).toHaveLength(1);
    expect(named).not.toContain(recent);
    expect((await stateOf(lost)).updatedAt).toBe(now);
  });

  it("queue a hundred messages a call", async () => {
    const calls: number[] = [];
    const queue = { sendBatch: async (messages: unknown[]) => void calls.push(messages.length) };
    const ids = Array.from({ length: 250 }, () => crypto.randomUUID());
    await deliveryRows.queue({ ...env, MAIL_QUEUE: queue as unknown as Queue }, ids);
    expect(calls).toEqual([100, 100, 50]);
  });
});
