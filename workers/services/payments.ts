/**
 * Paying for a cart: card payments through Stripe Checkout (one attempt per cart state, so a double click
 * cannot charge twice), cash and cheque through the manual provider, free carts, and completing a cart (cart,
 * people, transactions and fee written in one D1 batch). Refunds, voids and the ledger: payment-ledger.ts.
 */
import { uniqueConstraintOf } from "../../schema/d1/errors";
import { and, desc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { type Cents } from "../../core/money/money";
import { paymentAttemptKey, SYSTEM_PAYEE } from "../../core/payments/ledger";
import type { FormElement } from "../../core/forms/model";
import { SOLD_OUT } from "../../core/registration/messages";
import type { PlaceClaim } from "../../core/registration/places";
import type { ChargedPricing } from "../../core/registration/receipt-lines";
import type { FormCartPricing } from "../../core/registration/price-form";
import { codeUsesOf } from "../../core/registration/pricing";
import { carts, clubs, individuals, paymentAttempts, paymentEvents, transactions, type Db } from "../../schema/d1";
import { PaymentProviderError, type StripeGateway } from "../payments/stripe";
import type { CartRow } from "./carts";
import { CARD_START_FAILED, newAttempt, openCheckout, pendingPayment } from "./checkout";
import { holdStatements, HOLD_MS, isPlaceTaken, placeProblems, releaseCartHolds, takeStatements } from "./places";

export type TransactionRow = typeof transactions.$inferSelect;
export type AttemptRow = typeof paymentAttempts.$inferSelect;
export type Statement = Parameters<Db["batch"]>[0][number];

export const PAYMENT_MESSAGES = {
  alreadyPaid: "This cart is already paid.",
  empty: "Add someone to the cart before paying.",
  cardUnavailable: "Card payments are not available for this form.",
  cardStartFailed: CARD_START_FAILED,
  notPending: "Only a payment still waiting to be received can be recorded.",
  notFound: "That transaction does not exist.",
  beingPaid: "This cart is being paid right now. Reload the page in a moment to see your receipt.",
} as const;

export interface PaymentClub {
  id: string;
  isStripe: boolean;
  isMerchant: boolean;
  stripeAccountId: string | null;
  /** Stripe lets the connected account take charges (onboarding done, nothing past due; decision 0041). */
  stripeChargesEnabled: boolean;
}

export async function paymentClubOf(db: Db, clubId: string): Promise<PaymentClub> {
  const [club] = await db
    .select({
      id: clubs.id,
      isStripe: clubs.isStripe,
      isMerchant: clubs.isMerchant,
      stripeAccountId: clubs.stripeAccountId,
      stripeChargesEnabled: clubs.stripeChargesEnabled,
    })
    .from(clubs)
    .where(eq(clubs.id, clubId))
    .limit(1);
  return club ?? { id: clubId, isStripe: false, isMerchant: false, stripeAccountId: null, stripeChargesEnabled: false };
}

/**
 * Cards need Stripe keys and a club set up for them: the platform as merchant, or its own connected account
 * once Stripe has enabled charges on it (an account still onboarding would refuse the Checkout Session).
 */
export function takesCardsOnline(club: PaymentClub, gateway: StripeGateway | null): boolean {
  return gateway !== null && club.isStripe && (club.isMerchant || (club.stripeAccountId !== null && club.stripeChargesEnabled));
}

/** The account a club's charges are made on: its connected account, or the platform's (null) for merchant clubs. */
export interface CartToPay {
  cart: CartRow;
  price: FormCartPricing;
  description: string;
  /** The places the cart takes (core/registration/places.ts), and the form's elements that name them in a refusal. */
  places: PlaceClaim[];
  elements: FormElement[];
  /** The price lines and totals, recorded on the cart when it completes (the itemised receipt). */
  charged: ChargedPricing;
}

/** Why the cart's places do not fit any more, one line per option, field or code ('10 km: Sold out'). */
async function placesRefusal(db: Db, pay: CartToPay, now: number): Promise<string> {
  const problems = await placeProblems(db, pay.cart.registrationId, pay.cart.id, pay.places, pay.elements, now);
  return Object.values(problems).join(" ") || SOLD_OUT;
}

export type StartResult = { ok: true; url: string } | { ok: false; error: string };

/**
 * Starts (or resumes) the card payment of a cart. The attempt's key comes from the cart's last change and
 * its total: the same click twice finds the same attempt, and Stripe's idempotency on that key returns the
 * same Checkout Session even when two requests race past the lookup.
 */
export async function startCardPayment(
  db: Db,
  gateway: StripeGateway,
  club: PaymentClub,
  pay: CartToPay,
  urls: { success: string; cancel: string },
  now: number,
): Promise<StartResult> {
  const { cart, price } = pay;
  if (cart.isComplete) return { ok: false, error: PAYMENT_MESSAGES.alreadyPaid };
  if (price.total <= 0) return { ok: false, error: PAYMENT_MESSAGES.empty };
  const base = paymentAttemptKey(cart.id, cart.updatedAt, price.total);
  const earlier = await db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.cartId, cart.id), sql`substr(${paymentAttempts.idempotencyKey}, 1, ${base.length}) = ${base}`))
    .orderBy(desc(paymentAttempts.createdAt));
  const latest = earlier[0];
  if (latest?.status === "paid") return { ok: false, error: PAYMENT_MESSAGES.alreadyPaid };
  // An open or declined session can still be paid; an expired one needs a new key, or Stripe would replay it.
  if (latest && latest.status !== "expired" && latest.checkoutUrl) return { ok: true, url: latest.checkoutUrl };
  const key = latest?.status === "expired" ? `${base}-${earlier.length}` : base;
  // The cart or a price changed since an earlier try: close that try's page first, so the old total cannot be paid too;
  // one Stripe is completing right now is being paid at the amount it showed, and no second page opens (decision 0078).
  if ((await expireOpenAttempts(db, gateway, cart.id, key, now)) > 0) return { ok: false, error: PAYMENT_MESSAGES.beingPaid };
  // The places are held before the page opens: a registrant never pays for a place that is gone.
  try {
    await db.batch(holdStatements(db, cart.registrationId, cart.id, pay.places, now, now + HOLD_MS));
  } catch (error) {
    if (isPlaceTaken(error)) return { ok: false, error: await placesRefusal(db, pay, now) };
    throw error;
  }
  const attempt = newAttempt(cart, club, key, price.total, now, {
    systemFee: price.systemFee,
    individualTotals: price.individualTotals,
    discountUses: codeUsesOf(price),
    places: pay.places,
    pricing: pay.charged,
  });
  const opened = await openCheckout(db, gateway, cart, attempt, pay.description, urls, now);
  // No page opened: the places held for it go back at once rather than after the hold's 35 minutes (a waitlist offer's stays).
  if (!opened.ok) await db.batch(releaseCartHolds(db, cart.id, now));
  return opened;
}

/**
 * Closes the cart's open Checkout pages before the registrant changes the cart, so a page left open in
 * another tab cannot be paid at the old total. False when one could not be closed because it is being
 * paid right now: the change must wait for that payment.
 */
export async function closeCheckoutsBeforeChange(db: Db, gateway: StripeGateway | null, cartId: string, now: number): Promise<boolean> {
  if (!gateway) return true;
  if ((await expireOpenAttempts(db, gateway, cartId, "", now)) > 0) return false;
  // The cart is about to change: what it held for the closed pages is free again until it pays (not a waitlist offer's place).
  await db.batch(releaseCartHolds(db, cartId, now));
  return true;
}

/** An attempt whose page closed: expired unless it was paid (a late expiry never undoes a payment), its pending payment void. */
export function expiryStatements(db: Db, attemptId: string, now: number) {
  return [
    db
      .update(paymentAttempts)
      .set({ status: "expired", updatedAt: now })
      .where(and(eq(paymentAttempts.id, attemptId), ne(paymentAttempts.status, "paid"))),
    db
      .update(transactions)
      .set({ isVoid: true })
      .where(and(eq(transactions.attemptId, attemptId), eq(transactions.type, "payment"), isNull(transactions.completionTime))),
  ] as const;
}

/**
 * Expires the cart's unpaid attempts made for another cart state (not `keepKey`, which a double click may
 * be creating right now), closing their Checkout Sessions and voiding their pending payments. Returns how
 * many could not be closed because Stripe has them completing.
 */
async function expireOpenAttempts(db: Db, gateway: StripeGateway, cartId: string, keepKey: string, now: number): Promise<number> {
  const open = await db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.cartId, cartId), inArray(paymentAttempts.status, ["open", "failed"]), ne(paymentAttempts.idempotencyKey, keepKey)));
  let unclosed = 0;
  for (const attempt of open) {
    if (attempt.checkoutSessionId) {
      try {
        await gateway.expireCheckout(attempt.checkoutSessionId, attempt.stripeAccount);
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error;
        // Already completed at Stripe: its webhook records the payment; leave this attempt to it. Expired there already: closed.
        if (!(await expiredAtStripe(gateway, attempt))) {
          unclosed++;
          continue;
        }
      }
    }
    await db.batch(expiryStatements(db, attempt.id, now));
  }
  return unclosed;
}

/** Whether Stripe has closed an attempt's page unpaid (its expiry webhook may not have arrived yet). */
async function expiredAtStripe(gateway: StripeGateway, attempt: AttemptRow): Promise<boolean> {
  const session = await gateway.retrieveCheckout(attempt.checkoutSessionId!, attempt.stripeAccount).catch(() => null);
  return session?.status === "expired";
}

/** What completing a cart writes: the total, each person's share and the discount code uses, as priced. */
interface Completion {
  total: Cents;
  individualTotals: Record<string, number>;
  /** Null from an attempt begun before uses were recorded: the cart then counts one use per code it entered. */
  discountUses: Record<string, number> | null;
  /** The places the cart takes; a capped one that is full rolls the whole completion back. */
  places: readonly PlaceClaim[];
  /** What was charged, line by line; null from an attempt begun before it was recorded. */
  pricing: ChargedPricing | null;
}

/** The statements that complete a cart: its total, time and code uses, and each person's share and paid time. */
function completionStatements(
  db: Db,
  cart: Pick<CartRow, "id" | "registrationId">,
  { total, individualTotals, discountUses, places, pricing }: Completion,
  now: number,
): Statement[] {
  const statements: Statement[] = [
    db
      .update(carts)
      .set({ isComplete: true, total, discountUses, pricing, completedAt: now, updatedAt: now })
      .where(and(eq(carts.id, cart.id), eq(carts.isComplete, false))),
  ];
  for (const [individualId, share] of Object.entries(individualTotals)) {
    statements.push(
      db
        .update(individuals)
        .set({ isComplete: true, paidAt: now, priceTotal: share })
        .where(and(eq(individuals.id, individualId), eq(individuals.cartId, cart.id))),
    );
  }
  statements.push(...takeStatements(db, cart.registrationId, cart.id, places, now));
  return statements;
}

function feeRow(
  attempt: Pick<AttemptRow, "id" | "clubId" | "cartId" | "registrationId" | "systemFee">,
  siteId: string | null,
  now: number,
): typeof transactions.$inferInsert {
  return {
    id: `fee-${attempt.id}`,
    createdAt: now,
    type: "z4fee",
    amount: attempt.systemFee,
    payer: attempt.clubId,
    payee: SYSTEM_PAYEE,
    completionTime: now,
    cartId: attempt.cartId,
    registrationId: attempt.registrationId,
    clubId: attempt.clubId,
    siteId,
    provider: "system",
  };
}

/** completed: this call completed the cart (send the receipt); already: another call did; unplaced: the places were gone, so the money goes back. */
export type CardCompletion = "completed" | "already" | "unplaced";

/**
 * Marks a card attempt paid and completes its cart, once. Called by the webhook and by the return page
 * (whichever comes first); the attempt's status guard makes the second call change nothing ("already").
 * When a place the cart held has gone to another cart (its hold lapsed), nothing is completed: the caller
 * refunds the payment (refundUnplacedPayment).
 */
export async function completeCardAttempt(
  db: Db,
  attempt: AttemptRow,
  paymentIntentId: string,
  now: number,
  eventId: string | null = null,
  eventType = "",
): Promise<CardCompletion> {
  const [cart] = await db.select().from(carts).where(eq(carts.id, attempt.cartId)).limit(1);
  if (!cart) return "already";
  const statements: Statement[] = [];
  if (eventId) statements.push(db.insert(paymentEvents).values({ id: eventId, type: eventType, receivedAt: now }));
  statements.push(
    db
      .update(paymentAttempts)
      .set({ status: "paid", paymentIntentId, failureMessage: null, updatedAt: now })
      .where(and(eq(paymentAttempts.id, attempt.id), ne(paymentAttempts.status, "paid"))),
    db
      .insert(transactions)
      .values({ ...pendingPayment(cart, attempt.id, "stripe", "card", attempt.amount, now), completionTime: now, externalId: paymentIntentId })
      .onConflictDoUpdate({ target: transactions.id, set: { completionTime: now, externalId: paymentIntentId, isVoid: false } }),
    ...completionStatements(
      db,
      cart,
      {
        total: attempt.amount,
        individualTotals: attempt.individualTotals,
        discountUses: attempt.discountUses,
        places: attempt.places ?? [],
        pricing: attempt.pricing,
      },
      now,
    ),
  );
  if (attempt.systemFee > 0)
    statements.push(
      db
        .insert(transactions)
        .values(feeRow(attempt, cart.siteId, now))
        .onConflictDoNothing(),
    );
  let results;
  try {
    results = await db.batch(statements as [Statement, ...Statement[]]);
  } catch (error) {
    if (isPlaceTaken(error)) return "unplaced";
    throw error;
  }
  // Only the caller whose update turned the attempt paid goes on to send the receipt.
  const attemptUpdate = results[eventId ? 1 : 0] as unknown as D1Result;
  return (attemptUpdate.meta?.changes ?? 0) > 0 ? "completed" : "already";
}

/**
 * A card payment whose places went to others while it was being paid (possible only once its hold lapsed):
 * the payment is recorded and refunded whole through Stripe, the attempt says why, and the cart stays open.
 * Keyed by the attempt, so the webhook and the return page refund once between them.
 */
export async function refundUnplacedPayment(
  db: Db,
  gateway: StripeGateway,
  attempt: AttemptRow,
  paymentIntentId: string,
  reason: string,
  now: number,
): Promise<void> {
  const [cart] = await db.select().from(carts).where(eq(carts.id, attempt.cartId)).limit(1);
  if (!cart) return;
  const refund = await gateway.refund({
    paymentIntentId,
    amount: attempt.amount,
    idempotencyKey: `unplaced-${attempt.id}`,
    stripeAccount: attempt.stripeAccount,
    metadata: { request_id: `unplaced-${attempt.id}` },
  });
  const payment = { ...pendingPayment(cart, attempt.id, "stripe", "card", attempt.amount, now), completionTime: now, externalId: paymentIntentId };
  await db.batch([
    db
      .update(paymentAttempts)
      .set({ status: "failed", paymentIntentId, failureMessage: reason, updatedAt: now })
      .where(and(eq(paymentAttempts.id, attempt.id), ne(paymentAttempts.status, "paid"))),
    db
      .insert(transactions)
      .values(payment)
      .onConflictDoUpdate({ target: transactions.id, set: { completionTime: now, externalId: paymentIntentId, isVoid: false } }),
    db
      .insert(transactions)
      .values({
        ...payment,
        id: `refund-unplaced-${attempt.id}`,
        type: "refund",
        payer: cart.clubId,
        payee: cart.email ?? "",
        parentTransaction: payment.id,
        attemptId: null,
        externalId: refund.id,
        note: reason,
      })
      .onConflictDoNothing(),
    ...releaseCartHolds(db, cart.id, now),
  ]);
}

/** The registrant chose to pay the club by cash or cheque: the cart is registered and the payment waits to be received. */
export async function completeWithManualPayment(
  db: Db,
  pay: CartToPay,
  now: number,
): Promise<{ ok: true; transactionId: string | null } | { ok: false; error: string }> {
  const { cart, price } = pay;
  if (cart.isComplete) return { ok: false, error: PAYMENT_MESSAGES.alreadyPaid };
  const attemptId = crypto.randomUUID();
  const statements: Statement[] = [
    ...completionStatements(
      db,
      cart,
      { total: price.total, individualTotals: price.individualTotals, discountUses: codeUsesOf(price), places: pay.places, pricing: pay.charged },
      now,
    ),
  ];
  if (price.total > 0) {
    statements.push(
      db.insert(paymentAttempts).values({
        id: attemptId,
        cartId: cart.id,
        registrationId: cart.registrationId,
        clubId: cart.clubId,
        provider: "manual",
        amount: price.total,
        systemFee: 0,
        idempotencyKey: `manual-${paymentAttemptKey(cart.id, cart.updatedAt, price.total)}`,
        status: "paid",
        individualTotals: price.individualTotals,
        discountUses: codeUsesOf(price),
        createdAt: now,
        updatedAt: now,
      }),
      db.insert(transactions).values(pendingPayment(cart, attemptId, "manual", "cheque", price.total, now)),
    );
    // A card-taking club's form charges the system fee whichever way this cart pays; the club owes it now.
    if (price.systemFee > 0)
      statements.push(
        db
          .insert(transactions)
          .values(
            feeRow({ id: attemptId, clubId: cart.clubId, cartId: cart.id, registrationId: cart.registrationId, systemFee: price.systemFee }, cart.siteId, now),
          ),
      );
  }
  try {
    await db.batch(statements as [Statement, ...Statement[]]);
  } catch (error) {
    // A place went to another cart first: nothing was written, and the registrant is told which.
    if (isPlaceTaken(error)) return { ok: false, error: await placesRefusal(db, pay, now) };
    // The unique attempt key: this very cart state was already sent (a double click).
    if (uniqueConstraintOf(error) !== null) return { ok: false, error: PAYMENT_MESSAGES.alreadyPaid };
    throw error;
  }
  return { ok: true, transactionId: price.total > 0 ? `pay-${attemptId}` : null };
}

export async function attemptOfSession(db: Db, sessionId: string): Promise<AttemptRow | null> {
  const [attempt] = await db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutSessionId, sessionId)).limit(1);
  return attempt ?? null;
}

export async function latestAttemptOfCart(db: Db, cartId: string): Promise<AttemptRow | null> {
  const [attempt] = await db.select().from(paymentAttempts).where(eq(paymentAttempts.cartId, cartId)).orderBy(desc(paymentAttempts.createdAt)).limit(1);
  return attempt ?? null;
}
