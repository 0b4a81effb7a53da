import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
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
});
