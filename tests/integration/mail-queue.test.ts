import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { capturedMail, openDb } from "../../schema/d1";
import worker from "../../workers/index";

describe("outgoing mail queue", () => {
  it("captures valid messages in local development and drops malformed ones without retrying", async () => {
    const batch = createMessageBatch("startline-mail", [
      { id: "m1", timestamp: new Date(), attempts: 1, body: { to: "racer@example.com", subject: "Your sign-in link", text: "Click here" } },
      { id: "m2", timestamp: new Date(), attempts: 1, body: { to: "not an address", subject: "", text: "" } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(["m1", "m2"]);
    expect(result.retryMessages).toEqual([]);
    const mail = await openDb(env.DB).select().from(capturedMail);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ to: "racer@example.com", subject: "Your sign-in link", text: "Click here", from: env.MAIL_FROM });
  });

  it("waits before a failed delivery is tried again, twice as long each time", async () => {
    // D1 down for a moment: the local capture (and any delivery record) cannot be written.
    const unavailable = () => {
      throw new Error("D1_ERROR: database is unavailable");
    };
    const brokenDb = { prepare: unavailable, batch: unavailable, exec: unavailable, dump: unavailable, withSession: unavailable };
    const brokenEnv = { ...env, DB: brokenDb as unknown as D1Database };
    const deliver = async (attempts: number) => {
      const batch = createMessageBatch("startline-mail", [
        { id: "m1", timestamp: new Date(), attempts, body: { to: "racer@example.com", subject: "Your member card", text: "Card" } },
      ]);
      const retried = vi.spyOn(batch.messages[0]!, "retry");
      const ctx = createExecutionContext();
      await worker.queue(batch, brokenEnv, ctx);
      return { ...(await getQueueResult(batch, ctx)), retryOptions: retried.mock.calls.map(([options]) => options) };
    };
    const first = await deliver(1);
    expect(first.retryMessages).toEqual([{ msgId: "m1" }]);
    expect(first.explicitAcks).toEqual([]);
    expect(first.retryOptions).toEqual([{ delaySeconds: 1 }]);
    expect((await deliver(2)).retryOptions).toEqual([{ delaySeconds: 2 }]);
    expect((await deliver(4)).retryOptions).toEqual([{ delaySeconds: 8 }]);
    // Nothing was captured while D1 was down; with it back, the message is delivered and acknowledged.
    const db = openDb(env.DB);
    const cards = async () => (await db.select().from(capturedMail)).filter((mail) => mail.subject === "Your member card");
    expect(await cards()).toHaveLength(0);
    const batch = createMessageBatch("startline-mail", [
      { id: "m1", timestamp: new Date(), attempts: 5, body: { to: "racer@example.com", subject: "Your member card", text: "Card" } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["m1"]);
    expect(await cards()).toHaveLength(1);
  });
});
