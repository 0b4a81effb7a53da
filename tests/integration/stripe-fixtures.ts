import { afterAll, beforeEach } from "vitest";
import { routeStripeTo } from "../../workers/payments/stripe";
import { createStripeFake, type StripeFake } from "../fakes/stripe/fake";
import { worker } from "./auth-fixtures";

/**
 * A fresh Stripe fake for each test of the file, with the Worker's Stripe calls routed to it; Stripe's webhooks
 * go to the platform's main host, answered by the worker in this isolate. Returns the current test's fake.
 */
export function withStripeFake(): () => StripeFake {
  let fake: StripeFake | null = null;
  beforeEach(() => {
    fake = createStripeFake({
      baseUrl: "http://127.0.0.1:12111",
      webhookSecret: "whsec_integration",
      webhookUrl: "http://localhost:8787/_payments/stripe/webhook",
      deliver: async (request) => worker.fetch(new Request(request.url, { method: "POST", headers: request.headers, body: await request.text() })),
    });
    routeStripeTo(fake.fetch);
  });
  afterAll(() => routeStripeTo(null));
  return () => {
    if (!fake) throw new Error("The Stripe fake starts in beforeEach");
    return fake;
  };
}
