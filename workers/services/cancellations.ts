/**
 * A registrant cancels a person after checkout (issue 24), from the receipt link, under the form's policy
 * (core/registration/cancel-policy.ts). The cancellation is claimed first, in one batch that marks the person
 * removed only if they were not already (so two tabs cannot both refund) and records it in the audit trail
 * under the page's request id (so a resend finds it); then the refund goes back through the payment's own
 * provider (refundPayment, keyed by the same id). A refund the provider refuses takes the claim back.
 * A removed person frees their places at once (the places trigger counts only people not removed).
 */
import { and, desc, eq } from "drizzle-orm";
import { cancelQuote, CANCEL_MESSAGES, type CancelPolicy, type CancelQuote } from "../../core/registration/cancel-policy";
import { refundableOf, type LedgerTransaction } from "../../core/payments/ledger";
import { cartChanges, individuals, registrations, type Db } from "../../schema/d1";
import type { StripeGateway } from "../payments/stripe";
import type { CartRow, IndividualRow } from "./carts";
import { ledgerOf, refundPayment, transactionsOfCart } from "./payment-ledger";
import type { TransactionRow } from "./payments";
import type { RegistrationRow } from "./registration-forms";

export type CartChangeRow = typeof cartChanges.$inferSelect;

export function cancelPolicyOf(registration: Pick<RegistrationRow, "cancelRefundPercent" | "cancelFee" | "cancelDeadline" | "closeTime">): CancelPolicy {
  return {
    refundPercent: registration.cancelRefundPercent,
    fee: registration.cancelFee,
    deadline: registration.cancelDeadline,
    closeTime: registration.closeTime,
  };
}

/** The cart's payment a cancellation refunds: its latest completed, kept payment, and what is left of it. */
export function refundablePayment(ledger: readonly TransactionRow[]): { payment: TransactionRow | null; refundable: number } {
  const all: LedgerTransaction[] = ledger.map(ledgerOf);
  const payments = ledger.filter((t) => t.type === "payment" && t.completionTime !== null && !t.isVoid);
  const payment = payments.at(-1) ?? null;
  return { payment, refundable: payment ? refundableOf(ledgerOf(payment), all) : 0 };
}

/** What cancelling each person of a complete cart would give back now, or why it cannot be done. */
export async function cancelQuotes(
  db: Db,
  registration: RegistrationRow,
  cart: CartRow,
  people: readonly IndividualRow[],
  now: number,
): Promise<Record<string, CancelQuote>> {
  const { refundable } = refundablePayment(await transactionsOfCart(db, cart.id));
  const policy = cancelPolicyOf(registration);
  return Object.fromEntries(
    people.map((p) => [
      p.id,
      cart.isComplete && p.isComplete && !p.isRemoved ? cancelQuote(policy, p.priceTotal ?? 0, refundable, now) : { ok: false, error: CANCEL_MESSAGES.notPaid },
    ]),
  );
}

/** refundId: the refund transaction (null when nothing was given back); created: this call cancelled (not a resend). */
export type CancelResult = { ok: true; refund: number; refundId: string | null; created: boolean } | { ok: false; error: string };

export async function cancelPerson(
  db: Db,
  gateway: StripeGateway | null,
  registration: RegistrationRow,
  cart: CartRow,
  individualId: string,
  requestId: string,
  now: number,
): Promise<CancelResult> {
  const replayed = await replayOf(db, cart, requestId);
  if (replayed) return replayed;
  const [person] = await db
    .select()
    .from(individuals)
    .where(and(eq(individuals.id, individualId), eq(individuals.cartId, cart.id)))
    .limit(1);
  if (!person || !cart.isComplete || !person.isComplete) return { ok: false, error: CANCEL_MESSAGES.notPaid };
  // Cancelled already: by this very request sent twice at once (then it is the same answer), or by another.
  if (person.isRemoved) return (await replayOf(db, cart, requestId)) ?? { ok: false, error: CANCEL_MESSAGES.alreadyCancelled };
  const { payment, refundable } = refundablePayment(await transactionsOfCart(db, cart.id));
  const quote = cancelQuote(cancelPolicyOf(registration), person.priceTotal ?? 0, refundable, now);
  if (!quote.ok) return quote;

  const [claimed] = await db.batch([
    db
      .update(individuals)
      .set({ isRemoved: true })
      .where(and(eq(individuals.id, person.id), eq(individuals.isRemoved, false))),
    db
      .insert(cartChanges)
      .values({
        id: requestId,
        cartId: cart.id,
        registrationId: cart.registrationId,
        individualId: person.id,
        kind: "cancel",
        amount: quote.refund,
        actor: "registrant",
        createdAt: now,
      })
      .onConflictDoNothing(),
  ]);
  if ((claimed.meta.changes ?? 0) === 0) return (await replayOf(db, cart, requestId)) ?? { ok: false, error: CANCEL_MESSAGES.alreadyCancelled };
  if (quote.refund > 0 && payment) {
    const refunded = await refundPayment(db, gateway, payment, quote.refund, requestId, "Cancelled by the registrant", "registrant", now);
    if (!refunded.ok) {
      // The money could not go back: the person stays registered, and the registrant may try again.
      await db.batch([
        db.update(individuals).set({ isRemoved: false }).where(eq(individuals.id, person.id)),
        db.delete(cartChanges).where(eq(cartChanges.id, requestId)),
      ]);
      return { ok: false, error: refunded.error };
    }
    return { ok: true, refund: quote.refund, refundId: refunded.refundId, created: true };
  }
  return { ok: true, refund: quote.refund, refundId: null, created: true };
}

/** The answer a cancellation already recorded under this request id gave, for a resend of it. */
async function replayOf(db: Db, cart: CartRow, requestId: string): Promise<CancelResult | null> {
  const [done] = await db.select().from(cartChanges).where(eq(cartChanges.id, requestId)).limit(1);
  if (!done) return null;
  if (done.cartId !== cart.id) return { ok: false, error: CANCEL_MESSAGES.notPaid };
  return { ok: true, refund: done.amount, refundId: done.amount > 0 ? `refund-${requestId}` : null, created: false };
}

/** The changes made to a form's registrations after checkout, newest first: the organiser's audit trail. */
export async function cartChangesOf(db: Db, registrationId: string, limit = 200): Promise<CartChangeRow[]> {
  return db.select().from(cartChanges).where(eq(cartChanges.registrationId, registrationId)).orderBy(desc(cartChanges.createdAt)).limit(limit);
}

/** The organiser's cancellation policy for a form (a null percent: registrants cannot cancel themselves). */
export async function setCancelPolicy(
  db: Db,
  registrationId: string,
  policy: { refundPercent: number | null; fee: number; deadline: number | null },
): Promise<void> {
  await db
    .update(registrations)
    .set({ cancelRefundPercent: policy.refundPercent, cancelFee: Math.max(0, policy.fee), cancelDeadline: policy.deadline })
    .where(eq(registrations.id, registrationId));
}
