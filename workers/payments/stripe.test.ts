import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeGateway } from "./stripe";

const payload = JSON.stringify({ id: "evt_1", object: "event", type: "account.updated", account: "acct_1", data: { object: { id: "acct_1" } } });
const signer = new Stripe("sk_test_signer");
const signed = (secret: string) => signer.webhooks.generateTestHeaderStringAsync({ payload, secret });

describe("webhook signatures from the platform's endpoint and the Connect endpoint", () => {
  it("accepts an event signed with either secret, and nothing else", async () => {
    const gateway = stripeGateway({ STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_platform", STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_connect" })!;
    expect((await gateway.verifyWebhook(payload, await signed("whsec_platform"))).id).toBe("evt_1");
    expect((await gateway.verifyWebhook(payload, await signed("whsec_connect"))).account).toBe("acct_1");
    await expect(gateway.verifyWebhook(payload, await signed("whsec_other"))).rejects.toThrow();
  });

  it("with one secret set, verifies with that one only", async () => {
    const gateway = stripeGateway({ STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_platform" })!;
    expect((await gateway.verifyWebhook(payload, await signed("whsec_platform"))).id).toBe("evt_1");
    await expect(gateway.verifyWebhook(payload, await signed("whsec_connect"))).rejects.toThrow();
  });
});
