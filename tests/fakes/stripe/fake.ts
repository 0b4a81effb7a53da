// A local fake of the Stripe API (Checkout Sessions, PaymentIntents, refunds, Connect onboarding, signed webhooks) built on Web APIs only,
// so the same module serves the Stripe SDK in Node tests, inside workerd, and behind tests/fakes/stripe/server.ts.
import Stripe from "stripe";
import { renderCheckoutPage, renderClosedPage, renderNotFoundPage } from "./checkout-page";
import { createConnect, ONBOARDING_PATH, type ConnectedAccount, type OnboardingResult } from "./connect";
import { FakeStripeError, invalidRequest, noSuch } from "./errors";
import { canonicalForm, decodeForm, formToObject, type FormObject } from "./form-decode";
import { formatDollars, newId, snapshot, type Charge, type CheckoutSession, type LineItem, type Metadata, type PaymentIntent, type Refund } from "./objects";
import type { ApiContext, Handler, Route } from "./handler";
import { Params } from "./params";
import { WebhookDispatcher, type Delivery, type EventSource, type RecordedEvent } from "./webhooks";

export type { Charge, CheckoutSession, LineItem, PaymentIntent, Refund, StripeEvent } from "./objects";
export type { AccountLink, ConnectedAccount, OnboardingResult } from "./connect";
export type { Delivery, RecordedEvent } from "./webhooks";

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

export interface RequestLogEntry {
  method: string;
  path: string;
  idempotencyKey: string | null;
  account: string | null;
  requestId: string;
  status: number;
  /** Answered from the idempotency store, without doing anything. */
  replayed: boolean;
  /** The decoded body (POST) or query (GET). */
  params: FormObject;
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

/** What a test card does on the hosted page. */
const TEST_CARDS: Record<string, { declineCode: string; message: string } | "success"> = {
  "4242424242424242": "success",
  "4000000000000002": { declineCode: "generic_decline", message: "Your card was declined." },
  "4000000000009995": { declineCode: "insufficient_funds", message: "Your card has insufficient funds." },
};

const CHECKOUT_SESSION_PARAMS = [
  "mode",
  "line_items",
  "success_url",
  "cancel_url",
  "client_reference_id",
  "customer_email",
  "metadata",
  "payment_intent_data",
  "expires_at",
  "expand",
  "locale",
  "payment_method_types",
  "submit_type",
  "billing_address_collection",
  "customer_creation",
  "ui_mode",
];
const PAYMENT_INTENT_DATA_PARAMS = ["application_fee_amount", "metadata", "description", "receipt_email", "statement_descriptor_suffix"];
const REFUND_PARAMS = ["payment_intent", "charge", "amount", "metadata", "reason", "refund_application_fee", "reverse_transfer", "expand"];
const MIN_CHARGE = 50;
const MAX_AMOUNT = 99_999_999;

/** Which fields `expand[]` may turn from an id into the object, per object type. */
const EXPANDABLE: Record<string, readonly string[]> = {
  "checkout.session": ["payment_intent", "line_items"],
  payment_intent: ["latest_charge"],
  charge: ["payment_intent"],
  refund: ["charge", "payment_intent"],
};

interface SessionData {
  lineItems: LineItem[];
  paymentIntent: { applicationFeeAmount: number | null; metadata: Metadata; description: string | null; receiptEmail: string | null };
}

interface StoredResponse {
  method: string;
  path: string;
  canonical: string;
  status: number;
  body: string;
  requestId: string;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  // Stripe pretty-prints its JSON responses.
  return new Response(JSON.stringify(body, null, 2), { status, headers: { "Content-Type": "application/json", ...headers } });
}

function html(status: number, body: string): Response {
  return new Response(body, { status, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function redact(key: string): string {
  return key.length <= 12 ? key : `${key.slice(0, 8)}${"*".repeat(key.length - 12)}${key.slice(-4)}`;
}

/** The secret key from `Bearer sk_…` or curl's `-u sk_…:` (Basic), as Stripe accepts both. */
function apiKeyOf(request: Request): string | null {
  const header = request.headers.get("Authorization") ?? "";
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (bearer?.[1]) return bearer[1];
  const basic = /^Basic\s+(\S+)$/i.exec(header);
  if (basic?.[1]) {
    try {
      return atob(basic[1]).split(":")[0] || null;
    } catch {
      return null;
    }
  }
  return null;
}

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
  const idempotency = new Map<string, StoredResponse>();
  const inFlight = new Set<string>();
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
    params.rejectUnknown(CHECKOUT_SESSION_PARAMS);
    const mode = params.oneOf("mode", ["payment", "setup", "subscription"], { required: true });
    if (mode !== "payment") throw invalidRequest("The Stripe fake supports only mode=payment.", "mode");
    const uiMode = params.oneOf("ui_mode", ["hosted", "embedded", "custom"]);
    if (uiMode !== undefined && uiMode !== "hosted") throw invalidRequest("The Stripe fake supports only ui_mode=hosted.", "ui_mode");
    const lineItemParams = params.list("line_items", { required: true });
    const successUrl = params.url("success_url", { required: true });
    const cancelUrl = params.url("cancel_url") ?? null;
    const clientReferenceId = params.string("client_reference_id", { max: 200 }) ?? null;
    const customerEmail = params.string("customer_email", { max: 800 }) ?? null;
    if (customerEmail !== null && !/^[^@\s]+@[^@\s]+$/.test(customerEmail)) {
      throw invalidRequest(`Invalid email address: ${customerEmail}`, "customer_email", "email_invalid");
    }
    const metadata = params.metadata("metadata");
    const expandPaths = params.stringList("expand");
    const locale = params.string("locale") ?? null;
    const paymentMethodTypes = params.stringList("payment_method_types");
    params.string("submit_type");
    params.string("billing_address_collection");
    params.string("customer_creation");

    const created = seconds();
    const lineItems: LineItem[] = lineItemParams.map((item) => {
      item.rejectUnknown(["price", "price_data", "quantity"]);
      const priceId = item.string("price");
      if (priceId !== undefined)
        throw new FakeStripeError(400, {
          type: "invalid_request_error",
          code: "resource_missing",
          message: `No such price: '${priceId}'`,
          param: item.name("price"),
        });
      const priceData = item.child("price_data", { required: true });
      priceData.rejectUnknown(["currency", "unit_amount", "product_data", "product"]);
      const productId = priceData.string("product");
      if (productId !== undefined)
        throw new FakeStripeError(400, {
          type: "invalid_request_error",
          code: "resource_missing",
          message: `No such product: '${productId}'`,
          param: priceData.name("product"),
        });
      const currency = priceData.currency("currency");
      const unitAmount = priceData.integer("unit_amount", { required: true, min: 0, max: MAX_AMOUNT });
      const productData = priceData.child("product_data", { required: true });
      productData.rejectUnknown(["name", "description", "metadata", "images"]);
      const name = productData.string("name", { required: true, max: 5000 });
      productData.string("description");
      productData.metadata("metadata");
      productData.stringList("images");
      const quantity = item.integer("quantity", { required: true, min: 1, max: 999_999 });
      const amount = unitAmount * quantity;
      return {
        id: newId("li_"),
        object: "item",
        amount_discount: 0,
        amount_subtotal: amount,
        amount_tax: 0,
        amount_total: amount,
        currency,
        description: name,
        price: {
          id: newId("price_"),
          object: "price",
          // Prices made from price_data are single-use, so Stripe marks them inactive.
          active: false,
          created,
          currency,
          livemode: false,
          metadata: {},
          product: newId("prod_", 14),
          type: "one_time",
          unit_amount: unitAmount,
          unit_amount_decimal: String(unitAmount),
        },
        quantity,
      };
    });
    const currency = lineItems[0]?.currency ?? "usd";
    const otherCurrency = lineItems.findIndex((item) => item.currency !== currency);
    if (otherCurrency >= 0) throw invalidRequest("All line items must use the same currency.", `line_items[${otherCurrency}][price_data][currency]`);
    const amountTotal = lineItems.reduce((sum, item) => sum + item.amount_total, 0);
    if (amountTotal < MIN_CHARGE) {
      throw invalidRequest(`The Checkout Session's total amount due must add up to at least ${formatDollars(MIN_CHARGE)} ${currency}`, "line_items");
    }
    if (amountTotal > MAX_AMOUNT)
      throw invalidRequest(`The Checkout Session's total amount due must be no more than ${formatDollars(MAX_AMOUNT)} ${currency}`, "line_items");

    const intentData = params.child("payment_intent_data");
    intentData?.rejectUnknown(PAYMENT_INTENT_DATA_PARAMS);
    const applicationFeeAmount = intentData?.integer("application_fee_amount", { min: 0 }) ?? null;
    if (applicationFeeAmount !== null && context.account === null) {
      throw invalidRequest(
        "Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).",
        "payment_intent_data[application_fee_amount]",
      );
    }
    if (applicationFeeAmount !== null && applicationFeeAmount > amountTotal) {
      throw invalidRequest(
        "The application fee amount must be less than or equal to the amount of the payment.",
        "payment_intent_data[application_fee_amount]",
      );
    }
    const intentMetadata = intentData?.metadata("metadata") ?? {};
    const description = intentData?.string("description") ?? null;
    const receiptEmail = intentData?.string("receipt_email") ?? null;
    intentData?.string("statement_descriptor_suffix", { max: 22 });

    const expiresAt = params.integer("expires_at") ?? created + 24 * 3600;
    if (expiresAt < created + 30 * 60)
      throw invalidRequest("The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.", "expires_at");
    if (expiresAt > created + 24 * 3600)
      throw invalidRequest("The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.", "expires_at");

    const id = newId("cs_test_", 58);
    const session: CheckoutSession = {
      id,
      object: "checkout.session",
      amount_subtotal: amountTotal,
      amount_total: amountTotal,
      cancel_url: cancelUrl,
      client_reference_id: clientReferenceId,
      created,
      currency,
      customer: null,
      customer_details: null,
      customer_email: customerEmail,
      expires_at: expiresAt,
      livemode: false,
      locale,
      metadata,
      mode: "payment",
      payment_intent: null,
      payment_method_types: paymentMethodTypes.length > 0 ? paymentMethodTypes : ["card"],
      payment_status: "unpaid",
      status: "open",
      success_url: successUrl,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: "hosted",
      url: `${baseUrl}/c/pay/${id}`,
    };
    sessions.set(id, session);
    owner.set(id, context.account);
    sessionData.set(id, { lineItems, paymentIntent: { applicationFeeAmount, metadata: intentMetadata, description, receiptEmail } });
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

  // --- the HTTP API -------------------------------------------------------------------------------------------

  async function api(request: Request, url: URL): Promise<Response> {
    const requestId = newId("req_", 14);
    const method = request.method.toUpperCase();
    const account = request.headers.get("Stripe-Account");
    const idempotencyKey = method === "POST" ? request.headers.get("Idempotency-Key") : null;
    const baseHeaders: Record<string, string> = { "Request-Id": requestId, "Stripe-Version": request.headers.get("Stripe-Version") ?? apiVersion };
    if (account) baseHeaders["Stripe-Account"] = account;
    if (idempotencyKey) baseHeaders["Idempotency-Key"] = idempotencyKey;
    const body = method === "GET" || method === "HEAD" ? "" : await request.text();
    const search = method === "GET" || method === "HEAD" ? url.searchParams : new URLSearchParams(body);
    const entry: RequestLogEntry = { method, path: url.pathname, idempotencyKey, account, requestId, status: 0, replayed: false, params: {} };
    requestLog.push(entry);

    const answer = (status: number, payload: unknown, extra: Record<string, string> = {}): Response => {
      entry.status = status;
      return json(status, payload, { ...baseHeaders, ...extra });
    };

    const key = apiKeyOf(request);
    if (key === null) {
      return answer(
        401,
        new FakeStripeError(401, {
          type: "invalid_request_error",
          message:
            "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
        }).toJSON(),
        { "WWW-Authenticate": 'Basic realm="Stripe"' },
      );
    }
    if (!/^(sk|rk)_test_\w+$/.test(key)) {
      return answer(
        401,
        new FakeStripeError(401, { type: "invalid_request_error", code: "api_key_expired", message: `Invalid API Key provided: ${redact(key)}` }).toJSON(),
        {
          "WWW-Authenticate": 'Basic realm="Stripe"',
        },
      );
    }
    if (account !== null && !/^acct_\w+$/.test(account)) {
      const message = `The provided key '${redact(key)}' does not have access to account '${account}' (or that account does not exist). Application access may have been revoked.`;
      return answer(403, new FakeStripeError(403, { type: "invalid_request_error", code: "account_invalid", message }).toJSON());
    }

    let route: { handler: Handler; id: string } | undefined;
    for (const candidate of routes) {
      const match = candidate.method === method ? candidate.pattern.exec(url.pathname) : null;
      if (match) route = { handler: candidate.handler, id: decodeURIComponent(match[1] ?? "") };
    }
    if (!route) {
      const message = `Unrecognized request URL (${method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`;
      return answer(404, new FakeStripeError(404, { type: "invalid_request_error", message }).toJSON());
    }

    // Idempotency is per account: the same key on another account is a different request.
    const storeKey = idempotencyKey ? `${account ?? ""}\n${idempotencyKey}` : null;
    const canonical = canonicalForm(search);
    if (storeKey && idempotencyKey) {
      if (idempotencyKey.length > 255) return answer(400, invalidRequest("Idempotency-Key must be at most 255 characters long.", "Idempotency-Key").toJSON());
      const stored = idempotency.get(storeKey);
      if (stored) {
        entry.replayed = true;
        entry.params = safeParams(search);
        if (stored.method !== method || stored.path !== url.pathname) {
          const message = `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${stored.method} ${stored.path}' vs '${method} ${url.pathname}'). Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`;
          return answer(400, new FakeStripeError(400, { type: "idempotency_error", message }).toJSON());
        }
        if (stored.canonical !== canonical) {
          const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`;
          return answer(400, new FakeStripeError(400, { type: "idempotency_error", message }).toJSON());
        }
        entry.status = stored.status;
        return new Response(stored.body, {
          status: stored.status,
          headers: { "Content-Type": "application/json", ...baseHeaders, "Idempotent-Replayed": "true", "Original-Request": stored.requestId },
        });
      }
      if (inFlight.has(storeKey)) {
        const message = `There is currently another in-progress request using this Stripe API Idempotency Key (that probably means you submitted twice, and the other request is still going through): ${idempotencyKey}. Please try again later.`;
        return answer(409, new FakeStripeError(409, { type: "invalid_request_error", code: "idempotency_key_in_use", message }).toJSON());
      }
      inFlight.add(storeKey);
    }

    let status = 200;
    let payload: unknown;
    let events: RecordedEvent[] = [];
    let store = true;
    try {
      const params = Params.root(decodeForm(search));
      entry.params = safeParams(search);
      const result = await route.handler({ requestId, account, idempotencyKey }, params, route.id);
      status = result.status ?? 200;
      payload = result.body;
      events = result.events;
    } catch (error) {
      if (error instanceof FakeStripeError) {
        status = error.status;
        payload = error.toJSON();
        store = !error.isValidation;
      } else {
        console.error("Stripe fake: handler failed", error);
        status = 500;
        payload = new FakeStripeError(500, {
          type: "api_error",
          message: `Stripe fake failed: ${error instanceof Error ? error.message : String(error)}`,
        }).toJSON();
      }
    }
    const response = answer(status, payload, status >= 500 ? { "Stripe-Should-Retry": "false" } : {});
    if (storeKey) {
      // Store before leaving in-flight, with no await between: a retry must find one or the other.
      const stored = store ? await response.clone().text() : null;
      if (stored !== null) idempotency.set(storeKey, { method, path: url.pathname, canonical, status, body: stored, requestId });
      inFlight.delete(storeKey);
    }
    // Webhooks for the request go out before it answers, so a test sees their effects once the SDK call returns (pause() to change that).
    await webhooks.dispatch(events);
    return response;
  }

  function safeParams(search: URLSearchParams): FormObject {
    try {
      return formToObject(decodeForm(search));
    } catch {
      return {};
    }
  }

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
      const charge = newCharge(intent, card, { code: outcome.declineCode, message: outcome.message });
      intent.status = "requires_payment_method";
      intent.latest_charge = charge.id;
      intent.payment_method = null;
      intent.last_payment_error = {
        type: "card_error",
        code: "card_declined",
        decline_code: outcome.declineCode,
        message: outcome.message,
        charge: charge.id,
        doc_url: "https://stripe.com/docs/error-codes/card-declined",
      };
      await webhooks.dispatch([event("payment_intent.payment_failed", intent, null)]);
      return page(402, outcome.message);
    }

    const charge = newCharge(intent, card, null);
    intent.status = "succeeded";
    intent.amount_received = intent.amount;
    intent.latest_charge = charge.id;
    intent.payment_method = charge.payment_method;
    intent.last_payment_error = null;
    session.status = "complete";
    session.payment_status = "paid";
    session.url = null;
    session.customer_details = { email: session.customer_email, name: null };
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
