/**
 * Paid changes to a completed cart (issue 24): a transfer whose form charges a fee is paid by card through
 * the same Checkout path as a cart, and applied when the payment completes (the webhook or the return page,
 * whichever is first, once). The change is written only over the values it was made from; if the person was
 * changed in the meantime, the payment is refunded whole instead (as a cart whose place went is).
 */
import { desc, eq, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { PlaceClaim } from "../../core/registration/places";
import { SOLD_OUT } from "../../core/registration/messages";
import { cartChanges, carts, paymentAttempts, rawBatch, transactions, type Db, type PaidChange } from "../../schema/d1";
import type { StripeGateway } from "../payments/stripe";
import type { CartRow } from "./carts";
import { newAttempt, openCheckout, pendingPayment } from "./checkout";
import { HOLD_MS, isPlaceTaken, notAnOffersHold } from "./places";
import { placeMoves } from "./priced-changes";
import { PAYMENT_MESSAGES, type AttemptRow, type PaymentClub, type StartResult } from "./payments";

/** The attempt key of a change: one per change form shown, so a double click opens one page. */
function changeKey(requestId: string): string {
  return `change-${requestId}`;
}

/** A change's attempts: its first key, or a retry's after an expired page (`change-{id}-{n}`). */
export function changeAttemptKeyIs(column: SQL | AnyColumn, requestId: string): SQL {
  const key = changeKey(requestId);
  return sql`(${column} = ${key} OR substr(${column}, 1, ${key.length + 1}) = ${`${key}-`})`;
}

/** Every attempt of a change, the latest first. */
async function attemptsOfChange(db: Db, requestId: string): Promise<AttemptRow[]> {
  return db
    .select()
    .from(paymentAttempts)
    .where(changeAttemptKeyIs(paymentAttempts.idempotencyKey, requestId))
    .orderBy(desc(paymentAttempts.createdAt), desc(paymentAttempts.idempotencyKey));
}

/** The latest attempt a change form started, if any: a resend goes back to its page or finds it paid. */
export async function attemptOfChange(db: Db, requestId: string): Promise<AttemptRow | null> {
  return (await attemptsOfChange(db, requestId))[0] ?? null;
}

/** Opens Stripe's page for a change's fee. Nothing about the person changes until it is paid. */
export async function startChangePayment(
  db: Db,
  gateway: StripeGateway,
  club: PaymentClub,
  cart: CartRow,
  change: PaidChange,
  fee: number,
  description: string,
  urls: { success: string; cancel: string },
  now: number,
): Promise<StartResult> {
  const earlier = await attemptsOfChange(db, change.requestId);
  const existing = earlier[0];
  if (existing?.status === "paid") return { ok: false, error: PAYMENT_MESSAGES.alreadyPaid };
  if (existing?.checkoutUrl && existing.status !== "expired") return { ok: true, url: existing.checkoutUrl };
  // After an expired page, the retry's key is counted, not timed: a double click on the retry opens one page.
  const key = existing?.status === "expired" ? `${changeKey(change.requestId)}-${earlier.length}` : changeKey(change.requestId);
  const attempt = newAttempt(cart, club, key, fee, now, { change });
  // A limited choice is held while the page is open, exactly as a cart's places are (decision 0028).
  const holds = (change.places ?? []).filter((claim) => claim.cap !== null);
  if (holds.length > 0) {
    try {
      await rawBatch(db, holdStatements(cart, holds, now));
    } catch (error) {
      if (isPlaceTaken(error)) return { ok: false, error: SOLD_OUT };
      throw error;
    }
  }
  const opened = await openCheckout(db, gateway, cart, attempt, description, urls, now);
  if (!opened.ok && holds.length > 0) await rawBatch(db, [releaseHolds(cart, holds, now)]);
  return opened;
}

/**
 * completed: this call applied the change; already: another call did; stale: the person changed meanwhile, or
 * unplaced: a limited choice went to someone else after its hold lapsed; either way the money goes back.
 */
export type ChangeCompletion = "completed" | "already" | "stale" | "unplaced";

/**
 * Holds (or renews) the person's capped new places until the hold's end; their own unit never counts against them.
 * A longer hold already there (a waitlist offer's, decision 0066) is kept, not cut to the card page's.
 */
function holdStatements(cart: CartRow, claims: readonly PlaceClaim[], now: number): SQL[] {
  return claims.map(
    (claim) =>
      sql`INSERT INTO places (id, registration_id, pool, unit, cart_id, individual_id, state, expires_at, cap, created_at)
          VALUES (${crypto.randomUUID()}, ${cart.registrationId}, ${claim.pool}, ${claim.unit}, ${cart.id}, ${claim.individualId}, 'held', ${now + HOLD_MS}, ${claim.cap}, ${now})
          ON CONFLICT (registration_id, pool, unit, state) DO UPDATE SET expires_at = MAX(expires_at, excluded.expires_at)`,
  );
}

/** No page opened: the holds made for it go, but not a standing change offer's (it was there before the page). */
function releaseHolds(cart: CartRow, claims: readonly PlaceClaim[], now: number): SQL {
  return sql`DELETE FROM places WHERE registration_id = ${cart.registrationId} AND state = 'held'
             AND unit IN (SELECT value FROM json_each(${JSON.stringify(claims.map((c) => c.unit))}))
             AND pool IN (SELECT value FROM json_each(${JSON.stringify(claims.map((c) => c.pool))})) AND ${notAnOffersHold(now)}`;
}

/**
 * Marks a change's payment paid and applies the change, once. Every write after the attempt's is guarded by
 * the state it leads to: the person's values move only from what the change was made from, the fee is added to
 * the cart only while its audit row is not yet written, and the audit row only once the person holds the new
 * values, so the webhook and the return page completing at once apply it once.
 */
export async function completeChangePayment(
  db: Db,
  attempt: AttemptRow & { change: PaidChange },
  paymentIntentId: string | null,
  now: number,
  event: { id: string; type: string } | null,
): Promise<ChangeCompletion> {
  const { change } = attempt;
  const [cart] = await db.select().from(carts).where(eq(carts.id, attempt.cartId)).limit(1);
  if (!cart) return "already";
  // A card payment is booked completed; a club that takes cash or cheques is owed it (pending, like a cart's).
  const payment =
    paymentIntentId === null
      ? pendingPayment(cart, attempt.id, "manual", "cheque", attempt.amount, now)
      : { ...pendingPayment(cart, attempt.id, "stripe", "card", attempt.amount, now), completionTime: now, externalId: paymentIntentId };
  const [done] = await db.select({ id: cartChanges.id }).from(cartChanges).where(eq(cartChanges.id, change.requestId)).limit(1);
  if (done) return "already";
  const toJson = JSON.stringify(change.to);
  const holdsNewValues = sql`EXISTS (SELECT 1 FROM individuals WHERE id = ${change.individualId} AND "values" = ${toJson} AND is_removed = 0)`;
  const notYetApplied = sql`NOT EXISTS (SELECT 1 FROM cart_changes WHERE id = ${change.requestId})`;
  const line = JSON.stringify({ type: "transfer_fee", individualId: change.individualId, elementId: null, code: null, amount: attempt.amount });
  const detail = JSON.stringify({ from: change.fromName, to: change.toName, fields: change.fields, paid: attempt.id });
  // A transfer's fee is a line of its own; an edit's price is the cart's lines with what it added (person-changes.ts).
  const pricing =
    change.kind === "edit" && change.pricing
      ? sql`${JSON.stringify(change.pricing)}`
      : sql`CASE WHEN pricing IS NULL THEN NULL ELSE json_set(json_insert(pricing, '$.lines[#]', json(${line})), '$.total', json_extract(pricing, '$.total') + ${attempt.amount}) END`;
  const statements = [
    ...(event ? [sql`INSERT INTO payment_events (id, type, received_at) VALUES (${event.id}, ${event.type}, ${now})`] : []),
    sql`UPDATE individuals SET "values" = ${toJson}, price_total = COALESCE(price_total, 0) + ${change.personDelta ?? 0}
        WHERE id = ${change.individualId} AND "values" = ${JSON.stringify(change.from)} AND is_removed = 0 AND ${notYetApplied}`,
    // Paid only when the change took: a stale one stays open, for the refund to mark it failed.
    sql`UPDATE payment_attempts SET status = 'paid', payment_intent_id = ${paymentIntentId}, failure_message = NULL, updated_at = ${now}
        WHERE id = ${attempt.id} AND status != 'paid' AND ${holdsNewValues}`,
    sql`UPDATE carts SET total = COALESCE(total, 0) + ${attempt.amount}, updated_at = ${now}, pricing = ${pricing}
        WHERE id = ${cart.id} AND ${notYetApplied} AND ${holdsNewValues}`,
    // The new answers take their places (a capped one through the trigger) and the old ones' are freed.
    ...placeMoves(cart, change, now, sql`${notYetApplied} AND ${holdsNewValues}`),
    sql`INSERT INTO cart_changes (id, cart_id, registration_id, individual_id, kind, amount, actor, detail, created_at)
        SELECT ${change.requestId}, ${cart.id}, ${cart.registrationId}, ${change.individualId}, ${change.kind}, ${attempt.amount}, 'registrant', ${detail}, ${now}
        WHERE ${holdsNewValues} ON CONFLICT DO NOTHING`,
  ];
  let results;
  try {
    results = await rawBatch(db, statements);
  } catch (error) {
    // The hold lapsed and the last place went to someone else: nothing was written, and the money goes back.
    if (isPlaceTaken(error)) return "unplaced";
    throw error;
  }
  const audit = results.at(-1);
  const [applied] = await db.select({ id: cartChanges.id }).from(cartChanges).where(eq(cartChanges.id, change.requestId)).limit(1);
  // A stale change's payment is booked with its refund (refundUnplacedPayment); a taken one is booked here.
  if (!applied) return "stale";
  await db
    .insert(transactions)
    .values(payment)
    .onConflictDoUpdate({ target: transactions.id, set: { completionTime: payment.completionTime ?? null, externalId: paymentIntentId, isVoid: false } });
  return (audit?.meta.changes ?? 0) > 0 ? "completed" : "already";
}

/**
 * A change with a price on a form whose club takes no cards online: made now, with what it costs owed to the
 * club (pending cash or cheque, shown on the receipt as still to pay), keyed by the change form's request id.
 */
export async function makeOwedChange(db: Db, club: PaymentClub, cart: CartRow, change: PaidChange, amount: number, now: number): Promise<ChangeCompletion> {
  const attempt = { ...newAttempt(cart, club, changeKey(change.requestId), amount, now, { change }), provider: "manual" };
  await db.insert(paymentAttempts).values(attempt).onConflictDoNothing();
  const [stored] = await db.select().from(paymentAttempts).where(eq(paymentAttempts.idempotencyKey, attempt.idempotencyKey)).limit(1);
  if (!stored || !isChangeAttempt(stored)) return "already";
  const outcome = await completeChangePayment(db, stored, null, now, null);
  if (outcome === "stale" || outcome === "unplaced")
    await db.update(paymentAttempts).set({ status: "failed", failureMessage: "stale", updatedAt: now }).where(eq(paymentAttempts.id, stored.id));
  return outcome;
}

/** A change attempt (the type guard settle uses to tell a change's payment from a cart's). */
export function isChangeAttempt(attempt: AttemptRow): attempt is AttemptRow & { change: PaidChange } {
  return attempt.change !== null && attempt.change !== undefined;
}
