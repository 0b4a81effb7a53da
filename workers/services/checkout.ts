/**
 * Opening Stripe's Checkout page for a payment attempt, shared by a cart's payment (payments.ts) and a paid
 * change to a completed cart (change-payments.ts): the attempt stored once under its key, the page, and the
 * payment on the books as pending from then.
 */
import { eq } from "drizzle-orm";
import type { Cents } from "../../core/money/money";
import { paymentAttempts, transactions, type Db } from "../../schema/d1";
import { PaymentProviderError, type StripeGateway } from "../payments/stripe";
import type { CartRow } from "./carts";
import type { PaymentMethod } from "../../core/payments/ledger";
import type { AttemptRow, PaymentClub, StartResult } from "./payments";
import { CHECKOUT_OPEN_MS } from "./places";

export const CARD_START_FAILED = "The card payment could not be started. Please try again in a moment.";

/** The account a club's charges are made on: its connected account, or the platform's (null) for merchant clubs. */
export function accountOf(club: PaymentClub): string | null {
  return club.isMerchant ? null : club.stripeAccountId;
}

export function pendingPayment(
  cart: CartRow,
  attemptId: string,
  provider: "stripe" | "manual",
  method: PaymentMethod,
  amount: Cents,
  now: number,
): typeof transactions.$inferInsert {
  return {
    // One pending payment per attempt: the id is derived from it, so a second insert is a no-op.
    id: `pay-${attemptId}`,
    createdAt: now,
    type: "payment",
    amount,
    payer: cart.email ?? "",
    payee: cart.clubId,
    cartId: cart.id,
    registrationId: cart.registrationId,
    clubId: cart.clubId,
    siteId: cart.siteId,
    provider,
    method,
    attemptId,
  };
}

/** A new open card attempt for a cart: what it charges, on which account, under which key. */
export function newAttempt(
  cart: CartRow,
  club: PaymentClub,
  key: string,
  amount: Cents,
  now: number,
  rest: Partial<Pick<AttemptRow, "systemFee" | "individualTotals" | "discountUses" | "places" | "pricing" | "change">>,
): AttemptRow {
  return {
    id: crypto.randomUUID(),
    cartId: cart.id,
    registrationId: cart.registrationId,
    clubId: cart.clubId,
    provider: "stripe",
    amount,
    systemFee: rest.systemFee ?? 0,
    idempotencyKey: key,
    status: "open",
    checkoutSessionId: null,
    paymentIntentId: null,
    checkoutUrl: null,
    failureMessage: null,
    stripeAccount: accountOf(club),
    individualTotals: rest.individualTotals ?? {},
    discountUses: rest.discountUses ?? null,
    places: rest.places ?? [],
    pricing: rest.pricing ?? null,
    change: rest.change ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Stores the attempt (or finds the one a racing request stored under the same key) and opens Stripe's page for
 * it; the payment is on the books as pending from then. Stripe's idempotency on the key makes a second
 * request get the same page.
 */
export async function openCheckout(
  db: Db,
  gateway: StripeGateway,
  cart: CartRow,
  attempt: AttemptRow,
  description: string,
  urls: { success: string; cancel: string },
  now: number,
): Promise<StartResult> {
  await db.insert(paymentAttempts).values(attempt).onConflictDoNothing();
  const [stored] = await db.select().from(paymentAttempts).where(eq(paymentAttempts.idempotencyKey, attempt.idempotencyKey)).limit(1);
  const mine = stored ?? attempt;
  let session;
  try {
    session = await gateway.createCheckout({
      attemptId: mine.id,
      cartId: cart.id,
      idempotencyKey: mine.idempotencyKey,
      stripeAccount: mine.stripeAccount,
      amount: mine.amount,
      applicationFee: mine.systemFee,
      description,
      email: cart.email,
      successUrl: urls.success,
      cancelUrl: urls.cancel,
      // From the attempt's own start: a double click sends Stripe the same key with the same parameters, so one page opens.
      expiresAt: mine.createdAt + CHECKOUT_OPEN_MS,
    });
  } catch (error) {
    if (error instanceof PaymentProviderError) return { ok: false, error: CARD_START_FAILED };
    throw error;
  }
  await db.batch([
    db.update(paymentAttempts).set({ checkoutSessionId: session.id, checkoutUrl: session.url, updatedAt: now }).where(eq(paymentAttempts.id, mine.id)),
    // The payment is on the books as pending from now, so finance can see (and void) a payment in progress.
    db
      .insert(transactions)
      .values(pendingPayment(cart, mine.id, "stripe", "card", mine.amount, now))
      .onConflictDoNothing(),
  ]);
  return { ok: true, url: session.url };
}
