// Card checkouts under load (issue 24): 50 registrants at once on the Riverside demo form, each adding a
// person, giving an email, pressing "Pay", paying on the Stripe fake's hosted page (which sends the signed
// webhook to the Worker), and following the return page to the receipt. Every request has a deadline and is
// retried on 503s, resets and timeouts; each step is safe to resend (one-time form keys, one attempt per cart
// state, completion once). Prints completed checkouts per second and the p95 from "Pay" to the receipt.
import { percentile } from "./http";
import { nowMs, requestWithRetry, type Reply, type Target } from "./live-http";
import { report } from "./report";

const REGISTRANTS = 50;
const CHECKOUTS_EACH = 3;
const FORM = "/register/c8d9e0f1-6b3c-4d5e-9f50-7b8c9d0e2f01";
const HOST = "trail.localhost";
const FIELD = (n: number) => `c8d9e0f1-6b3c-4d5e-9f50-7b8c9d0e2f${10 + n}`;
const COOKIE = "sl_cart_c8d9e0f16b3c4d5e9f507b8c9d0e2f01";
const TIMEOUT_MS = 30_000;

const form = (fields: Record<string, string>) => ({
  method: "POST",
  body: new URLSearchParams(fields).toString(),
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  timeoutMs: TIMEOUT_MS,
});

function expectStatus(reply: Reply, status: number, what: string): Reply {
  if (reply.status !== status) throw new Error(`${what}: ${reply.status} ${reply.body.slice(0, 300)}`);
  return reply;
}

function header(reply: Reply, name: string): string {
  const value = reply.headers[name];
  return (Array.isArray(value) ? value.join("\n") : value) ?? "";
}

/** One registrant's checkout, start to receipt; returns the ms from pressing "Pay" to the receipt page. */
async function checkout(worker: Target, fakePort: number, n: number): Promise<number> {
  const submission = `bench${n}x${Math.random().toString(36).slice(2)}`.padEnd(24, "0");
  const added = expectStatus(
    await requestWithRetry(
      worker,
      FORM,
      form({ intent: "save-person", submission, [FIELD(1)]: "Bench", [FIELD(2)]: `Runner${n}`, [FIELD(3)]: `runner${n}@example.com`, [FIELD(4)]: "12k" }),
    ),
    302,
    "add person",
  );
  const cookie = new RegExp(`${COOKIE}=[^;]+`).exec(header(added, "set-cookie"))?.[0];
  if (!cookie) throw new Error("add person: no cart cookie");
  const withCookie = (fields: Record<string, string>) => ({ ...form(fields), headers: { ...form(fields).headers, Cookie: cookie } });
  expectStatus(await requestWithRetry(worker, `${FORM}/cart`, withCookie({ intent: "continue", email: `runner${n}@example.com` })), 302, "continue");

  const pressed = nowMs();
  const pay = expectStatus(await requestWithRetry(worker, `${FORM}/pay`, withCookie({ intent: "card" })), 302, "pay");
  const hosted = new URL(header(pay, "location"));
  const fake: Target = { port: fakePort, host: "127.0.0.1" };
  const paid = await requestWithRetry(fake, hosted.pathname, form({ card: "4242 4242 4242 4242" }));
  if (paid.status !== 303) throw new Error(`hosted page: ${paid.status} ${paid.body.slice(0, 300)}`);
  const back = new URL(header(paid, "location"));
  // The return page: straight to the receipt once the webhook (or the page itself) completed the cart.
  for (let tries = 0; ; tries++) {
    const done = await requestWithRetry(worker, `${back.pathname}${back.search}`, { headers: { Cookie: cookie }, timeoutMs: TIMEOUT_MS });
    if (done.status === 302 && header(done, "location").endsWith("/receipt")) break;
    if (tries > 50) throw new Error(`return page never reached the receipt: ${done.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const receipt = expectStatus(await requestWithRetry(worker, `${FORM}/receipt`, { headers: { Cookie: cookie }, timeoutMs: TIMEOUT_MS }), 200, "receipt");
  if (!receipt.body.includes("Registration complete")) throw new Error("receipt page without 'Registration complete'");
  return nowMs() - pressed;
}

export async function runCheckouts(port: number): Promise<void> {
  const worker: Target = { port, host: HOST };
  const fakePort = Number(process.env.STRIPE_FAKE_PORT ?? port + 3400);
  // One warm-up checkout, so the figures are of a running Worker, not of its first build.
  await checkout(worker, fakePort, 0);
  const started = nowMs();
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: REGISTRANTS }, async (_, r) => {
      for (let k = 0; k < CHECKOUTS_EACH; k++) times.push(await checkout(worker, fakePort, 1 + r * CHECKOUTS_EACH + k));
    }),
  );
  const seconds = (nowMs() - started) / 1000;
  times.sort((a, b) => a - b);
  const conditions = { registrants: REGISTRANTS, checkouts: times.length, via: "wrangler dev + the Stripe fake over HTTP, signed webhooks" };
  report("registration_card_checkouts_per_second", times.length / seconds, "checkouts/s", conditions);
  report("registration_pay_to_receipt_p95", percentile(times, 95), "ms", conditions);
  report("registration_pay_to_receipt_p50", percentile(times, 50), "ms", conditions);
}
