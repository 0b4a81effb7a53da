// A local fake of the Stripe API (Checkout Sessions, PaymentIntents, refunds, Connect onboarding, signed webhooks) built on Web APIs only,
// so the same module serves the Stripe SDK in Node tests, inside workerd, and behind tests/fakes/stripe/server.ts.
import Stripe from "stripe";
import { completePayment, declineIntent, TEST_CARDS } from "./card-payment";
import { html, renderCheckoutPage, renderClosedPage, renderNotFoundPage } from "./checkout-page";
import { createApi, json, type RequestLogEntry } from "./api";
import { readCheckoutSession, type SessionData } from "./checkout-params";
import { createConnect, ONBOARDING_PATH, type ConnectedAccount, type OnboardingResult } from "./connect";
import { invalidRequest, noSuch, type FakeStripeError } from "./errors";
import type { ApiContext, Handler, Route } from "./handler";
import { EXPANDABLE, formatDollars, newId, snapshot, type Charge, type CheckoutSession, type LineItem, type PaymentIntent, type Refund } from "./objects";
import { WebhookDispatcher, type Delivery, type EventSource, type RecordedEvent } from "./webhooks";

export type { Charge, CheckoutSession, LineItem, PaymentIntent, Refund, StripeEvent } from "./objects";
export type { AccountLink, ConnectedAccount, OnboardingResult } from "./connect";
export type { Delivery, RecordedEvent } from "./webhooks";
export type { RequestLogEntry } from "./api";

export interface StripeFakeOptions {
  /** Where the fake is reachable (e.g. http://127.0.0.1:12111); hosted Checkout URLs are built on it. */
  baseUrl: string;
  /** The endpoint secret (whsec_…) webhooks are signed with. */
  webhookSecret: string;
  /** Receives every webhook POST. */
  deliver: (request: Request) => Promise<Response>;
  /** The URL the webhook Requests are addressed to (deliver may route them anywhere). */
  webhookUrl?: string;
  /** Milliseconds since the epoch; drives `created`, `expires_at` and expiry. Signatures always use the real clock. */
  now?: () => number;
  /** The name on the hosted page for an account (null = the platform). */
  businessName?: (account: string | null) => string;
  /** The api_version events are rendered at; the SDK's pinned version by default. */
  apiVersion?: string;
}

export interface PayResult {
  status: number;
  /** The redirect target after a successful payment. */
  location: string | null;
  html: string;
}

export interface StripeFake {
  /** The HTTP API and hosted pages; also a `fetch` for `Stripe.createFetchHttpClient`, which calls it as fetch(url, init). */
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** Submits the hosted page with a card number, exactly as the browser form does. */
  pay: (sessionId: string, card: string) => Promise<PayResult>;
  /** Submits the hosted onboarding page of an account link (its url), as the "Complete onboarding" button does. */
  completeOnboarding: (linkUrl: string) => Promise<OnboardingResult>;
  /** Expires an open session as Stripe does when it times out (emits checkout.session.expired). */
  expire: (sessionId: string) => Promise<CheckoutSession>;
  /** Posts an event's identical payload again with a new signature; `signedAt` (unix seconds) back-dates it. */
  resend: (eventId: string, options?: { signedAt?: number }) => Promise<Delivery>;
  /** Holds events back until `deliverQueued` or `resume`. */
  pause: () => void;
  /** Stops holding events back and delivers the queue oldest first. */
  resume: () => Promise<Delivery[]>;
  deliverQueued: (order?: "reverse" | "fifo") => Promise<Delivery[]>;
  lineItems: (sessionId: string) => readonly LineItem[];
  readonly events: readonly RecordedEvent[];
  readonly queuedEvents: readonly RecordedEvent[];
  readonly sessions: ReadonlyMap<string, Readonly<CheckoutSession>>;
  readonly paymentIntents: ReadonlyMap<string, Readonly<PaymentIntent>>;
  readonly charges: ReadonlyMap<string, Readonly<Charge>>;
  readonly refunds: readonly Readonly<Refund>[];
  readonly accounts: ReadonlyMap<string, Readonly<ConnectedAccount>>;
  readonly requestLog: readonly RequestLogEntry[];
}

const REFUND_PARAMS = ["payment_intent", "charge", "amount", "metadata", "reason", "refund_application_fee", "reverse_transfer", "expand"];

export function createStripeFake(options: StripeFakeOptions): StripeFake {
  const now = options.now ?? (() => Date.now());
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const apiVersion = options.apiVersion ?? Stripe.API_VERSION;
  const businessName = options.businessName ?? ((account: string | null) => (account ? `Test business ${account}` : "Test business"));
  const webhooks = new WebhookDispatcher({
    webhookSecret: options.webhookSecret,
    webhookUrl: options.webhookUrl ?? "http://127.0.0.1:8787/_payments/stripe/webhook",
    deliver: options.deliver,
    now,
  });

  const sessions = new Map<string, CheckoutSession>();
  const sessionData = new Map<string, SessionData>();
  const paymentIntents = new Map<string, PaymentIntent>();
  const charges = new Map<string, Charge>();
  const refunds: Refund[] = [];
  /** The account each object was made on (null = platform); reads from any other account are 404s. */
  const owner = new Map<string, string | null>();
  const requestLog: RequestLogEntry[] = [];

  const seconds = () => Math.floor(now() / 1000);
  const connect = createConnect({
    baseUrl,
    now,
    record: (type, object, account) => webhooks.record({ type, object, account, apiVersion, request: null }),
    dispatch: (events) => webhooks.dispatch(events),
  });

  function event(type: string, object: { id: string }, request: EventSource["request"]): RecordedEvent {
    return webhooks.record({ type, object, account: owner.get(object.id) ?? null, apiVersion, request });
  }

  function requestOf(context: ApiContext): EventSource["request"] {
    return { id: context.requestId, idempotencyKey: context.idempotencyKey };
  }

  /** An object by id if it lives on `account`; the same 404 whether it is missing or on another account, as in Stripe. */
  function scoped<T>(map: ReadonlyMap<string, T>, id: string, account: string | null, notFound: FakeStripeError): T {
    const found = map.get(id);
    if (found === undefined || owner.get(id) !== account) throw notFound;
    return found;
  }

  function lookup(id: string): { object: string; id: string } | undefined {
    return sessions.get(id) ?? paymentIntents.get(id) ?? charges.get(id) ?? refunds.find((refund) => refund.id === id);
  }

  function lineItemList(sessionId: string, limit = 10, startingAfter?: string) {
    const items = sessionData.get(sessionId)?.lineItems ?? [];
    const start = startingAfter ? items.findIndex((item) => item.id === startingAfter) + 1 : 0;
    const data = items.slice(start, start + limit);
    return { object: "list", data, has_more: start + limit < items.length, url: `/v1/checkout/sessions/${sessionId}/line_items` };
  }

  /** A copy of `object` with the `expand[]` paths (dotted, like `payment_intent.latest_charge`) replaced by the objects. */
  function expand(object: { object: string; id: string }, paths: readonly string[]): Record<string, unknown> {
    const result: Record<string, unknown> = snapshot({ ...object });
    const byHead = new Map<string, string[]>();
    for (const path of paths) {
      const [head = "", ...rest] = path.split(".");
      if (!(EXPANDABLE[object.object] ?? []).includes(head)) throw invalidRequest(`This property cannot be expanded (${head}).`, "expand");
      const nested = byHead.get(head) ?? [];
      if (rest.length > 0) nested.push(rest.join("."));
      byHead.set(head, nested);
    }
    for (const [head, nested] of byHead) {
      if (object.object === "checkout.session" && head === "line_items") {
        result.line_items = lineItemList(object.id);
        continue;
      }
      const id = result[head];
      if (typeof id !== "string") continue;
      const target = lookup(id);
      if (target) result[head] = expand(target, nested);
    }
    return result;
  }

  function paymentIntentFor(session: CheckoutSession): PaymentIntent {
    if (session.payment_intent) {
      const existing = paymentIntents.get(session.payment_intent);
      if (existing) return existing;
    }
    const data = sessionData.get(session.id)?.paymentIntent;
    const id = newId("pi_");
    const intent: PaymentIntent = {
      id,
      object: "payment_intent",
      amount: session.amount_total,
      amount_capturable: 0,
      amount_received: 0,
      application_fee_amount: data?.applicationFeeAmount ?? null,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: "automatic_async",
      client_secret: `${id}_secret_${newId("", 25)}`,
      confirmation_method: "automatic",
      created: seconds(),
      currency: session.currency,
      customer: null,
      description: data?.description ?? null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: { ...(data?.metadata ?? {}) },
      payment_method: null,
      payment_method_types: ["card"],
      receipt_email: data?.receiptEmail ?? null,
      status: "requires_payment_method",
    };
    paymentIntents.set(id, intent);
    owner.set(id, owner.get(session.id) ?? null);
    // Since API version 2022-08-01 the session gets its PaymentIntent at the first payment attempt, not at creation.
    session.payment_intent = id;
    return intent;
  }

  function newCharge(intent: PaymentIntent, card: string, declined: { code: string; message: string } | null): Charge {
    const charge: Charge = {
      id: newId("ch_"),
      object: "charge",
      amount: intent.amount,
      amount_captured: declined ? 0 : intent.amount,
      amount_refunded: 0,
      application_fee_amount: declined ? null : intent.application_fee_amount,
      captured: !declined,
      created: seconds(),
      currency: intent.currency,
      description: intent.description,
      failure_code: declined ? "card_declined" : null,
      failure_message: declined?.message ?? null,
      livemode: false,
      metadata: { ...intent.metadata },
      outcome: declined
        ? {
            network_status: "declined_by_network",
            reason: declined.code,
            seller_message: "The bank did not return any further details with this decline.",
            type: "issuer_declined",
          }
        : { network_status: "approved_by_network", reason: null, seller_message: "Payment complete.", type: "authorized" },
      paid: !declined,
      payment_intent: intent.id,
      payment_method: newId("pm_"),
      payment_method_details: { type: "card", card: { brand: "visa", last4: card.slice(-4) } },
      receipt_email: intent.receipt_email,
      refunded: false,
      status: declined ? "failed" : "succeeded",
    };
    charges.set(charge.id, charge);
    owner.set(charge.id, owner.get(intent.id) ?? null);
    return charge;
  }

  /** Closes an open session; a PaymentIntent left from a declined attempt is canceled with it, as Stripe does. */
  function expireSession(session: CheckoutSession, request: EventSource["request"]): RecordedEvent[] {
    session.status = "expired";
    session.url = null;
    const intent = session.payment_intent ? paymentIntents.get(session.payment_intent) : undefined;
    if (intent && intent.status === "requires_payment_method") {
      intent.status = "canceled";
      intent.canceled_at = seconds();
      intent.cancellation_reason = "abandoned";
    }
    return [event("checkout.session.expired", session, request)];
  }

  /** Sessions whose `expires_at` has passed (by `now`) expire on the next request, standing in for Stripe's background job. */
  async function expireDue(): Promise<void> {
    const due: RecordedEvent[] = [];
    for (const session of sessions.values()) {
      if (session.status === "open" && session.expires_at <= seconds()) due.push(...expireSession(session, null));
    }
    if (due.length > 0) await webhooks.dispatch(due);
  }

  // --- API handlers -------------------------------------------------------------------------------------------

  const createCheckoutSession: Handler = (context, params) => {
    const { session, data, expandPaths } = readCheckoutSession(params, { account: context.account, created: seconds(), baseUrl });
    sessions.set(session.id, session);
    owner.set(session.id, context.account);
    sessionData.set(session.id, data);
    return { body: expand(session, expandPaths), events: [] };
  };

  const retrieveCheckoutSession: Handler = (context, params, id) => {
    params.rejectUnknown(["expand"]);
    const session = scoped(sessions, id, context.account, noSuch("checkout.session", id, "session"));
    return { body: expand(session, params.stringList("expand")), events: [] };
  };

  const listLineItems: Handler = (context, params, id) => {
    params.rejectUnknown(["limit", "starting_after", "ending_before", "expand"]);
    scoped(sessions, id, context.account, noSuch("checkout.session", id, "session"));
    const limit = params.integer("limit", { min: 1, max: 100 }) ?? 10;
    return { body: lineItemList(id, limit, params.string("starting_after")), events: [] };
  };

  const expireCheckoutSession: Handler = (context, params, id) => {
    params.rejectUnknown(["expand"]);
    const session = scoped(sessions, id, context.account, noSuch("checkout.session", id, "session"));
    if (session.status !== "open") throw invalidRequest('Only Checkout Sessions with a status in ["open"] can be expired.');
    const events = expireSession(session, requestOf(context));
    return { body: expand(session, params.stringList("expand")), events };
  };

  const retrievePaymentIntent: Handler = (context, params, id) => {
    params.rejectUnknown(["expand", "client_secret"]);
    const intent = scoped(paymentIntents, id, context.account, noSuch("payment_intent", id, "intent"));
    return { body: expand(intent, params.stringList("expand")), events: [] };
  };

  const retrieveCharge: Handler = (context, params, id) => {
    params.rejectUnknown(["expand"]);
    const charge = scoped(charges, id, context.account, noSuch("charge", id, "id"));
    return { body: expand(charge, params.stringList("expand")), events: [] };
  };

  const retrieveRefund: Handler = (context, params, id) => {
    params.rejectUnknown(["expand"]);
    const refund = scoped(new Map(refunds.map((r) => [r.id, r])), id, context.account, noSuch("refund", id, "id"));
    return { body: expand(refund, params.stringList("expand")), events: [] };
  };

  const retrieveEvent: Handler = (context, params, id) => {
    params.rejectUnknown(["expand"]);
    const recorded = webhooks.events.find((candidate) => candidate.id === id && candidate.account === context.account);
    if (!recorded) throw noSuch("event", id, "id");
    return { body: recorded.event, events: [] };
  };

  const createRefund: Handler = (context, params) => {
    params.rejectUnknown(REFUND_PARAMS);
    const intentId = params.string("payment_intent");
    const chargeId = params.string("charge");
    if (intentId === undefined && chargeId === undefined) {
      throw invalidRequest("One of the following params should be provided for this request: payment_intent or charge.");
    }
    if (intentId !== undefined && chargeId !== undefined) throw invalidRequest("You cannot pass both payment_intent and charge.", "charge");
    let charge: Charge | undefined;
    if (intentId !== undefined) {
      const intent = scoped(paymentIntents, intentId, context.account, noSuch("payment_intent", intentId, "payment_intent"));
      charge = intent.status === "succeeded" && intent.latest_charge ? charges.get(intent.latest_charge) : undefined;
      if (!charge) {
        throw invalidRequest(
          `This PaymentIntent (${intentId}) does not have a successful charge to refund.`,
          "payment_intent",
          "payment_intent_unexpected_state",
        );
      }
    } else if (chargeId !== undefined) {
      charge = scoped(charges, chargeId, context.account, noSuch("charge", chargeId, "charge"));
      if (charge.status !== "succeeded")
        throw invalidRequest(`Charge ${chargeId} has not succeeded, so it cannot be refunded.`, "charge", "charge_not_refundable");
    }
    if (!charge) throw invalidRequest("No charge to refund.");
    const remaining = charge.amount - charge.amount_refunded;
    if (remaining <= 0) throw invalidRequest(`Charge ${charge.id} has already been refunded.`, undefined, "charge_already_refunded");
    const amount = params.integer("amount", { min: 1 }) ?? remaining;
    if (amount > remaining) {
      throw invalidRequest(`Refund amount (${formatDollars(amount)}) is greater than unrefunded amount on charge (${formatDollars(remaining)})`, "amount");
    }
    const metadata = params.metadata("metadata");
    const reason = params.oneOf("reason", ["duplicate", "fraudulent", "requested_by_customer"]) ?? null;
    params.boolean("refund_application_fee");
    params.boolean("reverse_transfer");
    const refund: Refund = {
      id: newId("re_"),
      object: "refund",
      amount,
      balance_transaction: null,
      charge: charge.id,
      created: seconds(),
      currency: charge.currency,
      metadata,
      payment_intent: charge.payment_intent,
      reason,
      status: "succeeded",
    };
    refunds.push(refund);
    owner.set(refund.id, context.account);
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    const request = requestOf(context);
    const events = [event("refund.created", refund, request), event("charge.refunded", charge, request)];
    return { body: expand(refund, params.stringList("expand")), events };
  };

  const routes: Route[] = [
    { method: "POST", pattern: /^\/v1\/checkout\/sessions$/, handler: createCheckoutSession },
    { method: "GET", pattern: /^\/v1\/checkout\/sessions\/([^/]+)$/, handler: retrieveCheckoutSession },
    { method: "GET", pattern: /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/, handler: listLineItems },
    { method: "POST", pattern: /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/, handler: expireCheckoutSession },
    { method: "GET", pattern: /^\/v1\/payment_intents\/([^/]+)$/, handler: retrievePaymentIntent },
    { method: "GET", pattern: /^\/v1\/charges\/([^/]+)$/, handler: retrieveCharge },
    { method: "POST", pattern: /^\/v1\/refunds$/, handler: createRefund },
    { method: "GET", pattern: /^\/v1\/refunds\/([^/]+)$/, handler: retrieveRefund },
    { method: "GET", pattern: /^\/v1\/events\/([^/]+)$/, handler: retrieveEvent },
    ...connect.routes,
  ];

  const api = createApi({ apiVersion, routes, requestLog, dispatch: (events) => webhooks.dispatch(events) });

  // --- the hosted Checkout page -------------------------------------------------------------------------------

  function closedPage(session: CheckoutSession, post: boolean): Response {
    const account = owner.get(session.id) ?? null;
    const status = session.status === "expired" ? 410 : post ? 409 : 200;
    return html(status, renderClosedPage(session, businessName(account)));
  }

  async function hostedPage(request: Request, sessionId: string): Promise<Response> {
    const session = sessions.get(sessionId);
    if (!session) return html(404, renderNotFoundPage());
    const account = owner.get(sessionId) ?? null;
    const lineItems = sessionData.get(sessionId)?.lineItems ?? [];
    const page = (status: number, error?: string) => html(status, renderCheckoutPage({ session, lineItems, businessName: businessName(account), error }));
    const method = request.method.toUpperCase();
    if (method === "GET" || method === "HEAD") return session.status === "open" ? page(200) : closedPage(session, false);
    if (method !== "POST") return new Response("Method Not Allowed", { status: 405, headers: { Allow: "GET, POST" } });
    const form = new URLSearchParams(await request.text());
    // Checked after the body is read, so of two quick submits only the first can pay.
    if (session.status !== "open") return closedPage(session, true);
    const card = (form.get("card") ?? "").replace(/[\s-]/g, "");
    const outcome = TEST_CARDS[card];
    if (outcome === undefined) return page(400, "Your card number is incorrect.");

    const intent = paymentIntentFor(session);
    if (outcome !== "success") {
      declineIntent(intent, newCharge(intent, card, { code: outcome.declineCode, message: outcome.message }), outcome);
      await webhooks.dispatch([event("payment_intent.payment_failed", intent, null)]);
      return page(402, outcome.message);
    }

    completePayment(intent, session, newCharge(intent, card, null));
    await webhooks.dispatch([event("payment_intent.succeeded", intent, null), event("checkout.session.completed", session, null)]);
    const location = session.success_url.replaceAll("{CHECKOUT_SESSION_ID}", session.id);
    return new Response(null, { status: 303, headers: { Location: location } });
  }

  // --- entry points -------------------------------------------------------------------------------------------

  async function fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    // The SDK's FetchHttpClient calls fetch(url, init); tests and the Node server pass a Request.
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const url = new URL(request.url);
    await expireDue();
    const page = /^\/c\/pay\/([^/]+)$/.exec(url.pathname);
    const onboarding = ONBOARDING_PATH.exec(url.pathname);
    if (page || onboarding) {
      const response = page
        ? await hostedPage(request, decodeURIComponent(page[1] ?? ""))
        : await connect.hostedOnboarding(request, decodeURIComponent(onboarding?.[1] ?? ""));
      requestLog.push({
        method: request.method,
        path: url.pathname,
        idempotencyKey: null,
        account: null,
        requestId: newId("req_", 14),
        status: response.status,
        replayed: false,
        params: {},
      });
      return response;
    }
    if (url.pathname.startsWith("/v1/")) return api(request, url);
    if (url.pathname === "/" && request.method === "GET") return new Response("Stripe fake\n", { headers: { "Content-Type": "text/plain" } });
    return json(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${request.method}: ${url.pathname}).` } });
  }

  async function pay(sessionId: string, card: string): Promise<PayResult> {
    const response = await fetch(`${baseUrl}/c/pay/${encodeURIComponent(sessionId)}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ card }).toString(),
      redirect: "manual",
    });
    return { status: response.status, location: response.headers.get("Location"), html: await response.text() };
  }

  async function completeOnboarding(linkUrl: string): Promise<OnboardingResult> {
    const response = await fetch(linkUrl, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "", redirect: "manual" });
    return { status: response.status, location: response.headers.get("Location") };
  }

  async function expire(sessionId: string): Promise<CheckoutSession> {
    await expireDue();
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`Stripe fake: no checkout session ${sessionId}`);
    if (session.status !== "open") throw new Error(`Stripe fake: checkout session ${sessionId} is ${session.status}, not open`);
    await webhooks.dispatch(expireSession(session, null));
    return snapshot(session);
  }

  return {
    fetch,
    pay,
    completeOnboarding,
    expire,
    resend: (eventId, resendOptions) => webhooks.resend(eventId, resendOptions),
    pause: () => webhooks.pause(),
    resume: () => webhooks.resume(),
    deliverQueued: (order) => webhooks.deliverQueued(order),
    lineItems: (sessionId) => sessionData.get(sessionId)?.lineItems ?? [],
    get events() {
      return webhooks.events;
    },
    get queuedEvents() {
      return webhooks.queued;
    },
    sessions,
    paymentIntents,
    charges,
    refunds,
    accounts: connect.accounts,
    requestLog,
  };
}
