// Drives the Stripe fake through the real Stripe SDK, so the fake is held to the SDK's wire format and error classes.
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { createStripeFake, type StripeFakeOptions } from "./fake";

const SECRET = "whsec_test_secret";
const ACCOUNT = "acct_1";

interface Received {
  url: string;
  body: string;
  signature: string;
}

function setup(options: Partial<StripeFakeOptions> & { webhookStatus?: number } = {}) {
  const received: Received[] = [];
  const wire: Array<{ url: string; body: string; headers: Headers }> = [];
  const fake = createStripeFake({
    baseUrl: "http://127.0.0.1:12111",
    webhookSecret: SECRET,
    webhookUrl: "http://demo.localhost:8787/_payments/stripe/webhook",
    deliver: async (request) => {
      received.push({ url: request.url, body: await request.text(), signature: request.headers.get("Stripe-Signature") ?? "" });
      return new Response(options.webhookStatus === 500 ? "boom" : "ok", { status: options.webhookStatus ?? 200 });
    },
    ...options,
  });
  // Sees each request as the SDK put it on the wire, then hands it to the fake.
  const recordingFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    wire.push({ url: request.url, body: await request.clone().text(), headers: request.headers });
    return fake.fetch(request);
  };
  const stripe = new Stripe("sk_test_fake_key", {
    httpClient: Stripe.createFetchHttpClient(recordingFetch),
    host: "127.0.0.1",
    port: 12111,
    protocol: "http",
    maxNetworkRetries: 0,
  });
  return { fake, stripe, received, wire };
}

function sessionParams(overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}): Stripe.Checkout.SessionCreateParams {
  return {
    mode: "payment",
    line_items: [
      { quantity: 2, price_data: { currency: "cad", unit_amount: 1500, product_data: { name: "5K entry" } } },
      { quantity: 1, price_data: { currency: "cad", unit_amount: 800, product_data: { name: "Race T-shirt" } } },
    ],
    success_url: "http://demo.localhost:8787/checkout/done?session={CHECKOUT_SESSION_ID}",
    cancel_url: "http://demo.localhost:8787/cart",
    client_reference_id: "cart_1",
    customer_email: "runner@example.com",
    metadata: { cart_id: "cart_1" },
    payment_intent_data: { application_fee_amount: 190, metadata: { cart_id: "cart_1", club_id: "club_1" } },
    ...overrides,
  };
}

async function createSession(stripe: Stripe, idempotencyKey = "cart_1:attempt_1") {
  return stripe.checkout.sessions.create(sessionParams(), { stripeAccount: ACCOUNT, idempotencyKey });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

describe("Stripe fake: Checkout Sessions through the SDK", () => {
  it("creates a session on the connected account in Stripe's wire format and shape", async () => {
    const { fake, stripe, wire } = setup();
    const session = await createSession(stripe);

    const sent = wire[0];
    expect(sent?.url).toBe("http://127.0.0.1:12111/v1/checkout/sessions");
    expect(sent?.headers.get("Stripe-Account")).toBe(ACCOUNT);
    expect(sent?.headers.get("Idempotency-Key")).toBe("cart_1:attempt_1");
    expect(sent?.headers.get("Content-Type")).toBe("application/x-www-form-urlencoded");
    expect(sent?.body).toContain("line_items[0][price_data][unit_amount]=1500");
    expect(sent?.body).toContain("metadata[cart_id]=cart_1");
    expect(sent?.body).toContain("payment_intent_data[application_fee_amount]=190");
    expect(fake.requestLog[0]?.params).toMatchObject({
      line_items: { "1": { price_data: { product_data: { name: "Race T-shirt" } } } },
      metadata: { cart_id: "cart_1" },
    });

    expect(session.id).toMatch(/^cs_test_/);
    expect(session).toMatchObject({
      object: "checkout.session",
      amount_subtotal: 3800,
      amount_total: 3800,
      currency: "cad",
      client_reference_id: "cart_1",
      customer_email: "runner@example.com",
      metadata: { cart_id: "cart_1" },
      mode: "payment",
      payment_intent: null,
      payment_status: "unpaid",
      status: "open",
      cancel_url: "http://demo.localhost:8787/cart",
      livemode: false,
    });
    expect(session.url).toBe(`http://127.0.0.1:12111/c/pay/${session.id}`);
    expect(session.expires_at - session.created).toBe(24 * 3600);
    expect(session.lastResponse.requestId).toMatch(/^req_/);

    const items = await stripe.checkout.sessions.listLineItems(session.id, {}, { stripeAccount: ACCOUNT });
    expect(items.data.map((item) => [item.description, item.quantity, item.amount_total])).toEqual([
      ["5K entry", 2, 3000],
      ["Race T-shirt", 1, 800],
    ]);
  });

  it("replays a repeated idempotency key, and refuses it with different parameters", async () => {
    const { fake, stripe } = setup();
    const first = await createSession(stripe);
    const again = await createSession(stripe);
    expect(again.id).toBe(first.id);
    expect(fake.sessions.size).toBe(1);
    expect(fake.requestLog.map((entry) => entry.replayed)).toEqual([false, true]);
    expect(fake.requestLog[1]).toMatchObject({ idempotencyKey: "cart_1:attempt_1", account: ACCOUNT, status: 200 });

    const error = await rejection(
      stripe.checkout.sessions.create(sessionParams({ client_reference_id: "cart_2" }), { stripeAccount: ACCOUNT, idempotencyKey: "cart_1:attempt_1" }),
    );
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect((error as Stripe.errors.StripeError).message).toMatch(
      /^Keys for idempotent requests can only be used with the same parameters they were first used with\./,
    );
    expect(fake.sessions.size).toBe(1);

    // The same key on another account is another request.
    const elsewhere = await stripe.checkout.sessions.create(sessionParams(), { stripeAccount: "acct_2", idempotencyKey: "cart_1:attempt_1" });
    expect(elsewhere.id).not.toBe(first.id);
  });

  it("keeps a session on its account: 404 from another account and from the platform", async () => {
    const { stripe } = setup();
    const session = await createSession(stripe);
    for (const options of [{ stripeAccount: "acct_2" }, {}]) {
      const error = await rejection(stripe.checkout.sessions.retrieve(session.id, {}, options));
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({ statusCode: 404, code: "resource_missing", param: "session", message: `No such checkout.session: '${session.id}'` });
    }
    const found = await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: ACCOUNT });
    expect(found.amount_total).toBe(3800);
  });

  it("validates parameters like Stripe and keeps no idempotent result for a 400 on them", async () => {
    const { stripe } = setup();
    const noItems = await rejection(stripe.checkout.sessions.create(sessionParams({ line_items: undefined }), { stripeAccount: ACCOUNT, idempotencyKey: "k" }));
    expect(noItems).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(noItems).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError", code: "parameter_missing", param: "line_items" });

    const noSuccessUrl = await rejection(stripe.checkout.sessions.create(sessionParams({ success_url: undefined }), { stripeAccount: ACCOUNT }));
    expect(noSuccessUrl).toMatchObject({ statusCode: 400, code: "parameter_missing", param: "success_url", message: "Missing required param: success_url." });

    const unknown = await rejection(stripe.rawRequest("POST", "/v1/checkout/sessions", { ...sessionParams(), colour: "red" }, { stripeAccount: ACCOUNT }));
    expect(unknown).toMatchObject({ code: "parameter_unknown", param: "colour", message: "Received unknown parameter: colour" });

    const fee = await rejection(stripe.checkout.sessions.create(sessionParams()));
    expect(fee).toMatchObject({ statusCode: 400, param: "payment_intent_data[application_fee_amount]" });

    // The corrected request may reuse the key that failed validation.
    const session = await stripe.checkout.sessions.create(sessionParams(), { stripeAccount: ACCOUNT, idempotencyKey: "k" });
    expect(session.status).toBe("open");
  });

  it("answers 401 without a test secret key", async () => {
    const { fake } = setup();
    const response = await fake.fetch(new Request("http://127.0.0.1:12111/v1/checkout/sessions/cs_test_x"));
    expect(response.status).toBe(401);
    expect(response.headers.get("Request-Id")).toMatch(/^req_/);
    const body = (await response.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.message).toMatch(/^You did not provide an API key\./);

    const live = new Stripe("sk_live_nope", {
      httpClient: Stripe.createFetchHttpClient(fake.fetch),
      host: "127.0.0.1",
      port: 12111,
      protocol: "http",
      maxNetworkRetries: 0,
    });
    const error = await rejection(live.checkout.sessions.retrieve("cs_test_x"));
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(error).toMatchObject({ statusCode: 401 });
  });
});

describe("Stripe fake: the hosted page and payment", () => {
  it("shows the items, total and a labelled card field", async () => {
    const { fake, stripe } = setup({ businessName: (account) => (account === ACCOUNT ? "Demo Running Club" : "Platform") });
    const session = await createSession(stripe);
    const response = await fake.fetch(new Request(session.url ?? ""));
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain("<title>Pay Demo Running Club</title>");
    expect(page).toContain("5K entry × 2");
    expect(page).toContain("$30.00");
    expect(page).toContain('<label for="card">Card number</label>');
    expect(page).toContain('<input id="card" name="card"');
    expect(page).toContain('<button type="submit">Pay $38.00</button>');
    expect(page).toContain('<a href="http://demo.localhost:8787/cart">Cancel</a>');
  });

  it("pays with 4242, then delivers payment_intent.succeeded and checkout.session.completed, each signed", async () => {
    const { fake, stripe, received } = setup();
    const session = await createSession(stripe);
    const result = await fake.pay(session.id, "4242 4242 4242 4242");
    expect(result.status).toBe(303);
    expect(result.location).toBe(`http://demo.localhost:8787/checkout/done?session=${session.id}`);

    expect(received.map((delivery) => delivery.url)).toEqual([
      "http://demo.localhost:8787/_payments/stripe/webhook",
      "http://demo.localhost:8787/_payments/stripe/webhook",
    ]);
    const events = await Promise.all(received.map((delivery) => stripe.webhooks.constructEventAsync(delivery.body, delivery.signature, SECRET)));
    expect(events.map((event) => event.type)).toEqual(["payment_intent.succeeded", "checkout.session.completed"]);
    expect(events.every((event) => event.account === ACCOUNT && event.livemode === false && event.request?.id === null)).toBe(true);
    expect(fake.events.map((event) => event.id)).toEqual(events.map((event) => event.id));
    expect(fake.events.every((event) => event.deliveries.length === 1 && event.deliveries[0]?.status === 200)).toBe(true);

    const [succeeded, completed] = events;
    if (succeeded?.type !== "payment_intent.succeeded" || completed?.type !== "checkout.session.completed") throw new Error("unexpected events");
    const intent = succeeded.data.object;
    expect(intent).toMatchObject({
      status: "succeeded",
      amount: 3800,
      amount_received: 3800,
      currency: "cad",
      application_fee_amount: 190,
      metadata: { cart_id: "cart_1", club_id: "club_1" },
    });
    expect(intent.latest_charge).toMatch(/^ch_/);
    expect(completed.data.object).toMatchObject({ id: session.id, status: "complete", payment_status: "paid", payment_intent: intent.id, url: null });

    const retrieved = await stripe.checkout.sessions.retrieve(session.id, { expand: ["payment_intent.latest_charge"] }, { stripeAccount: ACCOUNT });
    const expanded = retrieved.payment_intent as Stripe.PaymentIntent;
    expect(expanded.id).toBe(intent.id);
    expect((expanded.latest_charge as Stripe.Charge).amount_captured).toBe(3800);
    const fetched = await stripe.paymentIntents.retrieve(intent.id, {}, { stripeAccount: ACCOUNT });
    expect(fetched.status).toBe("succeeded");

    const again = await fake.fetch(new Request(session.url ?? ""));
    expect(await again.text()).toContain("Payment complete");
  });

  it("declines 4000…0002 with a 402 page, then lets a good card pay the same session", async () => {
    const { fake, stripe } = setup();
    const session = await createSession(stripe);
    const declined = await fake.pay(session.id, "4000000000000002");
    expect(declined.status).toBe(402);
    expect(declined.location).toBeNull();
    expect(declined.html).toContain('<p role="alert">Your card was declined.</p>');
    expect(fake.events.map((event) => event.type)).toEqual(["payment_intent.payment_failed"]);

    const open = await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: ACCOUNT });
    expect(open.status).toBe("open");
    const intentId = open.payment_intent as string;
    const failed = await stripe.paymentIntents.retrieve(intentId, {}, { stripeAccount: ACCOUNT });
    expect(failed.status).toBe("requires_payment_method");
    expect(failed.last_payment_error).toMatchObject({
      type: "card_error",
      code: "card_declined",
      decline_code: "generic_decline",
      message: "Your card was declined.",
    });

    const mistyped = await fake.pay(session.id, "1234 5678");
    expect(mistyped.status).toBe(400);
    expect(mistyped.html).toContain("Your card number is incorrect.");
    expect(fake.events).toHaveLength(1);

    const paid = await fake.pay(session.id, "4242424242424242");
    expect(paid.status).toBe(303);
    expect(fake.events.map((event) => event.type)).toEqual(["payment_intent.payment_failed", "payment_intent.succeeded", "checkout.session.completed"]);
    const succeeded = await stripe.paymentIntents.retrieve(intentId, {}, { stripeAccount: ACCOUNT });
    expect(succeeded).toMatchObject({ status: "succeeded", last_payment_error: null, amount_received: 3800 });
  });

  it("charges once when the Pay button is submitted twice at once", async () => {
    const { fake, stripe } = setup();
    const session = await createSession(stripe);
    const results = await Promise.all([fake.pay(session.id, "4242424242424242"), fake.pay(session.id, "4242424242424242")]);
    expect(results.map((result) => result.status).sort()).toEqual([303, 409]);
    expect(fake.paymentIntents.size).toBe(1);
    expect([...fake.charges.values()].map((charge) => charge.status)).toEqual(["succeeded"]);
    expect(fake.events.map((event) => event.type)).toEqual(["payment_intent.succeeded", "checkout.session.completed"]);
  });

  it("expires an open session once, and the page then says so", async () => {
    const { fake, stripe } = setup();
    const session = await createSession(stripe);
    const expired = await stripe.checkout.sessions.expire(session.id, {}, { stripeAccount: ACCOUNT, idempotencyKey: "expire_1" });
    expect(expired).toMatchObject({ id: session.id, status: "expired", url: null, payment_status: "unpaid" });
    expect(fake.events.map((event) => event.type)).toEqual(["checkout.session.expired"]);
    expect(fake.events[0]?.event.request).toEqual({ id: expired.lastResponse.requestId, idempotency_key: "expire_1" });

    const twice = await rejection(stripe.checkout.sessions.expire(session.id, {}, { stripeAccount: ACCOUNT }));
    expect(twice).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((twice as Stripe.errors.StripeError).message).toBe('Only Checkout Sessions with a status in ["open"] can be expired.');

    const page = await fake.fetch(new Request(`http://127.0.0.1:12111/c/pay/${session.id}`));
    expect(page.status).toBe(410);
    expect(await page.text()).toContain("This checkout session has expired");
    expect((await fake.pay(session.id, "4242424242424242")).status).toBe(410);
    expect(fake.paymentIntents.size).toBe(0);
  });

  it("expires a session by the clock once its expires_at has passed", async () => {
    let clock = Date.UTC(2026, 10, 21, 12, 0, 0);
    const { fake, stripe } = setup({ now: () => clock });
    const session = await stripe.checkout.sessions.create(sessionParams({ expires_at: clock / 1000 + 3600 }), { stripeAccount: ACCOUNT });
    expect(session.created).toBe(clock / 1000);
    clock += 3600 * 1000;
    const later = await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: ACCOUNT });
    expect(later.status).toBe("expired");
    expect(fake.events.map((event) => [event.type, event.event.created])).toEqual([["checkout.session.expired", clock / 1000]]);
  });
});

describe("Stripe fake: refunds", () => {
  async function paidIntent() {
    const context = setup();
    const session = await createSession(context.stripe);
    await context.fake.pay(session.id, "4242424242424242");
    const intentId = context.fake.sessions.get(session.id)?.payment_intent ?? "";
    return { ...context, intentId };
  }

  it("refunds part, refuses more than is left, then refunds the rest", async () => {
    const { fake, stripe, intentId, received } = await paidIntent();
    received.length = 0;

    const partial = await stripe.refunds.create({ payment_intent: intentId, amount: 1000, metadata: { reason: "transfer" } }, { stripeAccount: ACCOUNT });
    expect(partial).toMatchObject({
      object: "refund",
      amount: 1000,
      currency: "cad",
      payment_intent: intentId,
      status: "succeeded",
      metadata: { reason: "transfer" },
    });
    expect(partial.id).toMatch(/^re_/);
    const partialEvents = await Promise.all(received.map((delivery) => stripe.webhooks.constructEventAsync(delivery.body, delivery.signature, SECRET)));
    expect(partialEvents.map((event) => event.type)).toEqual(["refund.created", "charge.refunded"]);
    expect(partialEvents[1]?.data.object).toMatchObject({ amount: 3800, amount_refunded: 1000, refunded: false });
    expect(partialEvents[0]?.request).toEqual({ id: partial.lastResponse.requestId, idempotency_key: partial.lastResponse.idempotencyKey });

    const tooMuch = await rejection(stripe.refunds.create({ payment_intent: intentId, amount: 3000 }, { stripeAccount: ACCOUNT }));
    expect(tooMuch).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(tooMuch).toMatchObject({ statusCode: 400, param: "amount", message: "Refund amount ($30.00) is greater than unrefunded amount on charge ($28.00)" });

    const rest = await stripe.refunds.create({ payment_intent: intentId }, { stripeAccount: ACCOUNT });
    expect(rest.amount).toBe(2800);
    const charge = fake.charges.get(rest.charge as string);
    expect(charge).toMatchObject({ amount_refunded: 3800, refunded: true });
    expect(fake.refunds.map((refund) => refund.amount)).toEqual([1000, 2800]);

    const again = await rejection(stripe.refunds.create({ payment_intent: intentId, amount: 1 }, { stripeAccount: ACCOUNT }));
    expect(again).toMatchObject({ code: "charge_already_refunded" });
    const elsewhere = await rejection(stripe.refunds.create({ payment_intent: intentId }));
    expect(elsewhere).toMatchObject({ statusCode: 404, code: "resource_missing" });
  });

  it("refuses to refund an intent that was never paid", async () => {
    const { fake, stripe } = setup();
    const session = await createSession(stripe);
    await fake.pay(session.id, "4000000000000002");
    const intentId = fake.sessions.get(session.id)?.payment_intent ?? "";
    const error = await rejection(stripe.refunds.create({ payment_intent: intentId }, { stripeAccount: ACCOUNT }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 400, param: "payment_intent" });
    expect(fake.refunds).toHaveLength(0);
  });
});

describe("Stripe fake: webhook delivery controls", () => {
  it("resends an event as a replay: the same id and payload, a fresh signature", async () => {
    const { fake, stripe, received } = setup();
    const session = await createSession(stripe);
    await fake.pay(session.id, "4242424242424242");
    const completed = fake.events[1];
    if (!completed) throw new Error("no event");

    const delivery = await fake.resend(completed.id);
    expect(delivery).toMatchObject({ status: 200, replay: true });
    const replayed = received[2];
    expect(replayed?.body).toBe(received[1]?.body);
    const event = await stripe.webhooks.constructEventAsync(replayed?.body ?? "", replayed?.signature ?? "", SECRET);
    expect(event.id).toBe(completed.id);
    expect(completed.deliveries.map((attempt) => attempt.replay)).toEqual([false, true]);

    // A back-dated signature is how an old replay looks; the SDK's tolerance rejects it.
    await fake.resend(completed.id, { signedAt: Math.floor(Date.now() / 1000) - 3600 });
    const stale = received[3];
    await expect(stripe.webhooks.constructEventAsync(stale?.body ?? "", stale?.signature ?? "", SECRET)).rejects.toThrow(
      /Timestamp outside the tolerance zone/,
    );
  });

  it("holds events while paused and can deliver them in reverse", async () => {
    const { fake, stripe, received } = setup();
    const session = await createSession(stripe);
    fake.pause();
    const result = await fake.pay(session.id, "4242424242424242");
    expect(result.status).toBe(303);
    expect(received).toHaveLength(0);
    expect(fake.queuedEvents.map((event) => event.type)).toEqual(["payment_intent.succeeded", "checkout.session.completed"]);

    const deliveries = await fake.deliverQueued("reverse");
    expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200]);
    const types = received.map((delivery) => (JSON.parse(delivery.body) as { type: string }).type);
    expect(types).toEqual(["checkout.session.completed", "payment_intent.succeeded"]);
    expect(fake.queuedEvents).toHaveLength(0);

    // Still paused: the refund's events wait for resume().
    await stripe.refunds.create({ payment_intent: fake.sessions.get(session.id)?.payment_intent ?? "" }, { stripeAccount: ACCOUNT });
    expect(received).toHaveLength(2);
    await fake.resume();
    expect(received.slice(2).map((delivery) => (JSON.parse(delivery.body) as { type: string }).type)).toEqual(["refund.created", "charge.refunded"]);
  });

  it("records a failed delivery with the receiver's status", async () => {
    const { fake, stripe } = setup({ webhookStatus: 500 });
    const session = await createSession(stripe);
    await fake.pay(session.id, "4242424242424242");
    expect(fake.events.map((event) => event.deliveries.map((delivery) => [delivery.status, delivery.body]))).toEqual([[[500, "boom"]], [[500, "boom"]]]);
  });
});
