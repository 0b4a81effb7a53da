// The local Stripe fake beside a local Worker (npm start, browser tests, benchmarks): started on the Worker's
// port + 3400 (or STRIPE_FAKE_PORT), sending signed webhooks to the Worker's main host, and the `--var`s that
// point the Worker at it. The webhook secret is not a secret: both ends are on loopback only.
import { startStripeFakeServer } from "../tests/fakes/stripe/server";

export async function startLocalStripe(workerPort: string, webhookSecret: string) {
  const fake = await startStripeFakeServer({
    port: Number(process.env.STRIPE_FAKE_PORT ?? Number(workerPort) + 3400),
    // The Worker resolves its tenant from the Host header; webhooks belong to the main host (localhost).
    webhookUrl: `http://127.0.0.1:${workerPort}/_payments/stripe/webhook`,
    webhookHost: `localhost:${workerPort}`,
    webhookSecret,
  });
  const vars = ["STRIPE_SECRET_KEY:sk_test_local", `STRIPE_WEBHOOK_SECRET:${webhookSecret}`, `STRIPE_API_BASE:${fake.url}`];
  // Closing drops the fake's open connections, so the process can end as soon as wrangler does; once is enough.
  let closing: Promise<void> | null = null;
  const close = () => (closing ??= fake.close().catch((error: unknown) => console.error("stripe-fake: close failed", error)));
  return { url: fake.url, vars, close };
}
