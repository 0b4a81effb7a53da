// The fake over real HTTP: the SDK's default Node client, the hosted page as a browser posts it, webhooks with a Host header.
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import { startStripeFakeServer, type StripeFakeServer } from "./server";

const SECRET = "whsec_server_test";

interface Hook {
  host: string | undefined;
  body: string;
  signature: string;
}

async function webhookReceiver(): Promise<{ url: string; hooks: Hook[]; close: () => Promise<void> }> {
  const hooks: Hook[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      hooks.push({ host: request.headers.host, body: Buffer.concat(chunks).toString("utf8"), signature: String(request.headers["stripe-signature"]) });
      response.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/_payments/stripe/webhook`, hooks, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("startStripeFakeServer", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("serves the SDK over HTTP, pays on the hosted page and posts signed webhooks with the given Host", async () => {
    const receiver = await webhookReceiver();
    cleanups.push(receiver.close);
    const server: StripeFakeServer = await startStripeFakeServer({ webhookUrl: receiver.url, webhookSecret: SECRET, webhookHost: "demo.localhost:8787" });
    cleanups.push(server.close);
    const base = new URL(server.url);
    // No httpClient: the SDK's own Node client, as a script pointed at STRIPE_API_BASE would use.
    const stripe = new Stripe("sk_test_server", { host: base.hostname, port: base.port, protocol: "http", maxNetworkRetries: 0 });

    const session = await stripe.checkout.sessions.create(
      {
        mode: "payment",
        line_items: [{ quantity: 1, price_data: { currency: "cad", unit_amount: 4250, product_data: { name: "Half marathon" } } }],
        success_url: "http://demo.localhost:8787/done?session={CHECKOUT_SESSION_ID}",
        cancel_url: "http://demo.localhost:8787/cart",
        metadata: { cart_id: "cart_9" },
      },
      { stripeAccount: "acct_9" },
    );
    expect(session.url).toBe(`${server.url}/c/pay/${session.id}`);

    const page = await fetch(session.url ?? "");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Pay $42.50");

    const paid = await fetch(session.url ?? "", { method: "POST", body: new URLSearchParams({ card: "4242 4242 4242 4242" }), redirect: "manual" });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("Location")).toBe(`http://demo.localhost:8787/done?session=${session.id}`);

    expect(receiver.hooks.map((hook) => hook.host)).toEqual(["demo.localhost:8787", "demo.localhost:8787"]);
    const events = await Promise.all(receiver.hooks.map((hook) => stripe.webhooks.constructEventAsync(hook.body, hook.signature, SECRET)));
    expect(events.map((event) => [event.type, event.account])).toEqual([
      ["payment_intent.succeeded", "acct_9"],
      ["checkout.session.completed", "acct_9"],
    ]);
    expect(server.fake.sessions.get(session.id)?.status).toBe("complete");
  });
});
