/**
 * The Stripe adapter: the few calls the platform makes (a Checkout Session on the club's connected
 * account, expiring it, refunds) and webhook verification. Everything else in the platform speaks to this
 * interface, so the local fake (tests/fakes/stripe) and the real API are interchangeable.
 */
import Stripe from "stripe";
import { connectCalls, type ConnectGateway } from "./stripe-connect";

/** Charges are in Canadian dollars: the clubs on the platform are Canadian (decision 0012). */
export const CURRENCY = "cad";

export interface CheckoutRequest {
  attemptId: string;
  cartId: string;
  idempotencyKey: string;
  /** The club's connected account (acct_…); null charges on the platform account (merchant clubs). */
  stripeAccount: string | null;
  amount: number;
  /** The system fee taken as the application fee on a connected account's charge. */
  applicationFee: number;
  description: string;
  email: string | null;
  successUrl: string;
  cancelUrl: string;
  /** When the page closes (ms since the epoch): the places held for it last a little longer. */
  expiresAt: number;
}

export interface CheckoutSession {
  id: string;
  url: string;
  status: "open" | "complete" | "expired";
  paymentStatus: string;
  paymentIntentId: string | null;
  amountTotal: number | null;
}

export interface RefundRequest {
  paymentIntentId: string;
  amount: number;
  idempotencyKey: string;
  stripeAccount: string | null;
  metadata: Record<string, string>;
}

export interface StripeGateway extends ConnectGateway {
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  retrieveCheckout(sessionId: string, stripeAccount: string | null): Promise<CheckoutSession>;
  expireCheckout(sessionId: string, stripeAccount: string | null): Promise<void>;
  refund(request: RefundRequest): Promise<{ id: string; amount: number; status: string }>;
  /**
   * The event, if the signature is Stripe's (or the fake's, made with the same secret) under the platform
   * endpoint's secret or the Connect endpoint's (STRIPE_CONNECT_WEBHOOK_SECRET, when set); throws otherwise.
   */
  verifyWebhook(payload: string, signature: string): Promise<Stripe.Event>;
}

/** A Stripe error a registrant or a finance user can be shown (a declined card, an over-refund). */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = "PaymentProviderError";
  }
}

// Integration tests route the SDK to the in-process fake; nothing else sets this. It is kept on the isolate's
// global, not in this module, because the test runner may load this module twice (test file and Worker).
const TRANSPORT = Symbol.for("startline.stripeTransport");
type TransportHolder = { [TRANSPORT]?: typeof fetch | null };

/** Sends every Stripe call to `fetchFn` (the in-process fake of tests/fakes/stripe); null restores the network. */
export function routeStripeTo(fetchFn: typeof fetch | null): void {
  (globalThis as TransportHolder)[TRANSPORT] = fetchFn;
}

function sessionOf(session: Stripe.Checkout.Session): CheckoutSession {
  const intent = session.payment_intent;
  return {
    id: session.id,
    url: session.url ?? "",
    status: (session.status ?? "open") as CheckoutSession["status"],
    paymentStatus: session.payment_status,
    paymentIntentId: typeof intent === "string" ? intent : (intent?.id ?? null),
    amountTotal: session.amount_total ?? null,
  };
}

function accountOption(stripeAccount: string | null): { stripeAccount?: string } {
  return stripeAccount ? { stripeAccount } : {};
}

/** Stripe's errors carry a message meant for people (card declined, amount too large); keep it, drop the class. */
async function translated<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) throw new PaymentProviderError(error.message, error.code ?? null);
    throw error;
  }
}

/** The gateway for this environment, or null when no Stripe key is set (the manual provider only). */
export function stripeGateway(
  env: Pick<Env, "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET" | "STRIPE_CONNECT_WEBHOOK_SECRET" | "STRIPE_API_BASE">,
): StripeGateway | null {
  if (!env.STRIPE_SECRET_KEY) return null;
  const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : null;
  const stripe = new Stripe(env.STRIPE_SECRET_KEY, {
    httpClient: Stripe.createFetchHttpClient((globalThis as TransportHolder)[TRANSPORT] ?? undefined),
    // A retried network error must reuse the idempotency key, which the SDK does; two retries are enough.
    maxNetworkRetries: 2,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === "https:" ? 443 : 80),
          protocol: base.protocol === "https:" ? ("https" as const) : ("http" as const),
        }
      : {}),
  });
  // Stripe signs events on connected accounts with the Connect endpoint's own secret; either one verifies.
  const webhookSecrets = [env.STRIPE_WEBHOOK_SECRET, env.STRIPE_CONNECT_WEBHOOK_SECRET].filter((secret): secret is string => Boolean(secret));
  return {
    ...connectCalls(stripe, translated),
    createCheckout: (request) =>
      translated(async () =>
        sessionOf(
          await stripe.checkout.sessions.create(
            {
              mode: "payment",
              line_items: [{ quantity: 1, price_data: { currency: CURRENCY, unit_amount: request.amount, product_data: { name: request.description } } }],
              client_reference_id: request.cartId,
              ...(request.email ? { customer_email: request.email } : {}),
              success_url: request.successUrl,
              cancel_url: request.cancelUrl,
              expires_at: Math.floor(request.expiresAt / 1000),
              metadata: { cart_id: request.cartId, attempt_id: request.attemptId },
              payment_intent_data: {
                metadata: { cart_id: request.cartId, attempt_id: request.attemptId },
                ...(request.stripeAccount && request.applicationFee > 0 ? { application_fee_amount: request.applicationFee } : {}),
              },
            },
            { idempotencyKey: request.idempotencyKey, ...accountOption(request.stripeAccount) },
          ),
        ),
      ),
    retrieveCheckout: (sessionId, stripeAccount) =>
      translated(async () => sessionOf(await stripe.checkout.sessions.retrieve(sessionId, {}, accountOption(stripeAccount)))),
    expireCheckout: (sessionId, stripeAccount) =>
      translated(async () => {
        await stripe.checkout.sessions.expire(sessionId, {}, accountOption(stripeAccount));
      }),
    refund: (request) =>
      translated(async () => {
        const refund = await stripe.refunds.create(
          { payment_intent: request.paymentIntentId, amount: request.amount, metadata: request.metadata },
          { idempotencyKey: request.idempotencyKey, ...accountOption(request.stripeAccount) },
        );
        return { id: refund.id, amount: refund.amount, status: refund.status ?? "pending" };
      }),
    verifyWebhook: async (payload, signature) => {
      let failure: unknown = new Error("No webhook secret is set");
      for (const secret of webhookSecrets) {
        try {
          return await stripe.webhooks.constructEventAsync(payload, signature, secret);
        } catch (error) {
          failure = error;
        }
      }
      throw failure;
    },
  };
}
