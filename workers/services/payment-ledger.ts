/**
 * The ledger of a club's payments: transactions read and shown, money received by hand, refunds (through the
 * provider that took the payment, or recorded when the provider refunded on its own) and voids, each checked
 * against core/payments/ledger.ts before anything is written.
 */
import { and, asc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { formatMoney, type Cents } from "../../core/money/money";
import { LEDGER_MESSAGES, refundableOf, refundProblem, voidProblem, type LedgerTransaction, type TransactionType } from "../../core/payments/ledger";
import { paymentAttempts, transactions, type Db } from "../../schema/d1";
import { PaymentProviderError, type StripeGateway } from "../payments/stripe";
import { PAYMENT_MESSAGES, type Statement, type TransactionRow } from "./payments";
import { releaseUnlessPaying } from "./places";

export async function transactionById(db: Db, clubIds: readonly string[] | "any", id: string): Promise<TransactionRow | null> {
  const where =
    clubIds === "any" ? eq(transactions.id, id) : and(eq(transactions.id, id), inArray(transactions.clubId, clubIds.length > 0 ? [...clubIds] : [""]));
  const [row] = await db.select().from(transactions).where(where).limit(1);
  return row ?? null;
}

export async function transactionsOfCart(db: Db, cartId: string): Promise<TransactionRow[]> {
  return db.select().from(transactions).where(eq(transactions.cartId, cartId)).orderBy(asc(transactions.createdAt), asc(transactions.id));
}

export function ledgerOf(row: TransactionRow): LedgerTransaction {
  return {
    id: row.id,
    type: row.type as TransactionType,
    amount: row.amount,
    completionTime: row.completionTime,
    isVoid: row.isVoid,
    parentTransaction: row.parentTransaction,
  };
}

/** A finance user received the cash or cheque of a pending manual payment. */
export async function recordReceived(
  db: Db,
  payment: TransactionRow,
  method: "cash" | "cheque",
  note: string,
  userId: string,
  now: number,
): Promise<{ ok: true; created: boolean } | { ok: false; error: string }> {
  if (payment.type !== "payment" || payment.provider !== "manual" || payment.completionTime !== null || payment.isVoid)
    return { ok: false, error: PAYMENT_MESSAGES.notPending };
  const written = await db
    .update(transactions)
    .set({ completionTime: now, method, note: note.slice(0, 500), createdBy: userId })
    .where(and(eq(transactions.id, payment.id), isNull(transactions.completionTime)));
  // Two finance users recording it at once: one update lands, and only that one mails the registrant.
  return { ok: true, created: (written.meta.changes ?? 0) > 0 };
}

export type RefundResult = { ok: true; refundId: string } | { ok: false; error: string };

/**
 * Refunds part or all of a completed payment. `requestId` comes from the page that asked (one per form
 * shown), so a double click or a retried post refunds once: it is the refund's id for cash and cheques and
 * Stripe's idempotency key for cards.
 */
export async function refundPayment(
  db: Db,
  gateway: StripeGateway | null,
  payment: TransactionRow,
  amount: Cents,
  requestId: string,
  note: string,
  userId: string,
  now: number,
): Promise<RefundResult> {
  const existing = await transactionById(db, [payment.clubId], `refund-${requestId}`);
  if (existing) return { ok: true, refundId: existing.id };
  const family = await db.select().from(transactions).where(eq(transactions.parentTransaction, payment.id));
  const problem = refundProblem(ledgerOf(payment), [ledgerOf(payment), ...family.map(ledgerOf)], amount, formatMoney);
  if (problem) return { ok: false, error: problem };
  let externalId: string | null = null;
  if (payment.provider === "stripe") {
    if (!gateway || !payment.externalId) return { ok: false, error: PAYMENT_MESSAGES.cardUnavailable };
    const [attempt] = payment.attemptId ? await db.select().from(paymentAttempts).where(eq(paymentAttempts.id, payment.attemptId)).limit(1) : [];
    try {
      const refund = await gateway.refund({
        paymentIntentId: payment.externalId,
        amount,
        idempotencyKey: `refund-${requestId}`,
        stripeAccount: attempt?.stripeAccount ?? null,
        metadata: { transaction_id: payment.id, request_id: requestId },
      });
      externalId = refund.id;
    } catch (error) {
      if (error instanceof PaymentProviderError) return { ok: false, error: error.message };
      throw error;
    }
  }
  const refundId = `refund-${requestId}`;
  const insert = db
    .insert(transactions)
    .values({ ...refundRow(payment, refundId, amount, externalId, now), note: note.slice(0, 500), createdBy: userId })
    // A webhook may have written this Stripe refund first (by its external id): then nothing more to do.
    .onConflictDoNothing();
  if (payment.provider === "stripe") {
    // Stripe has returned the money (and refuses more than the charge): the record must stand.
    await insert;
    return { ok: true, refundId };
  }
  // Cash and cheque: two finance users refunding at once must not return more than was paid. The batch is one
  // transaction, so the second insert sees the first, and is taken back when together they pass the amount.
  const refunded = sql`(SELECT COALESCE(SUM(amount), 0) FROM transactions WHERE parent_transaction = ${payment.id} AND type = 'refund' AND is_void = 0 AND completion_time IS NOT NULL)`;
  const [, takenBack] = await db.batch([insert, db.delete(transactions).where(and(eq(transactions.id, refundId), sql`${refunded} > ${payment.amount}`))]);
  if ((takenBack.meta?.changes ?? 0) > 0) {
    const family = await db.select().from(transactions).where(eq(transactions.parentTransaction, payment.id));
    return { ok: false, error: LEDGER_MESSAGES.refundTooLarge(formatMoney(refundableOf(ledgerOf(payment), [ledgerOf(payment), ...family.map(ledgerOf)]))) };
  }
  return { ok: true, refundId };
}

/** A completed refund of `payment`: the money goes back the way it came. */
function refundRow(payment: TransactionRow, id: string, amount: Cents, externalId: string | null, now: number): typeof transactions.$inferInsert {
  return {
    id,
    createdAt: now,
    type: "refund",
    amount,
    payer: payment.payee,
    payee: payment.payer,
    completionTime: now,
    parentTransaction: payment.id,
    cartId: payment.cartId,
    registrationId: payment.registrationId,
    clubId: payment.clubId,
    siteId: payment.siteId,
    provider: payment.provider,
    method: payment.method,
    externalId,
  };
}

/**
 * The refund a webhook reports, written once whichever of the webhook and the refund call comes first.
 * Returns the cart to tell when this call wrote it (a refund made on Stripe's side), else null.
 */
export async function recordProviderRefund(
  db: Db,
  refund: { id: string; amount: number; paymentIntentId: string; requestId: string | null },
  now: number,
): Promise<{ cartId: string | null; refundId: string } | null> {
  const [payment] = await db
    .select()
    .from(transactions)
    .where(and(eq(transactions.provider, "stripe"), eq(transactions.externalId, refund.paymentIntentId), eq(transactions.type, "payment")))
    .limit(1);
  if (!payment) return null;
  // Known by our request id when we asked for it, else by Stripe's id; and by Stripe's id in either case (the unique external id).
  const refundId = refund.requestId ? `refund-${refund.requestId}` : `refund-${refund.id}`;
  const written = await db
    .insert(transactions)
    .values(refundRow(payment, refundId, refund.amount, refund.id, now))
    .onConflictDoNothing();
  return (written.meta.changes ?? 0) > 0 ? { cartId: payment.cartId, refundId } : null;
}

/** Voids a transaction (core/payments voidProblem says which); a pending card payment also has its Checkout Session expired. */
export async function voidTransaction(
  db: Db,
  gateway: StripeGateway | null,
  row: TransactionRow,
  userId: string,
  now: number,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const family = row.type === "payment" ? await db.select().from(transactions).where(eq(transactions.parentTransaction, row.id)) : [];
  const problem = voidProblem({ ...ledgerOf(row), provider: row.provider }, [ledgerOf(row), ...family.map(ledgerOf)]);
  if (problem) return { ok: false, error: problem };
  const statements: Statement[] = [db.update(transactions).set({ isVoid: true, createdBy: userId }).where(eq(transactions.id, row.id))];
  if (row.provider === "stripe" && row.attemptId) {
    const [attempt] = await db.select().from(paymentAttempts).where(eq(paymentAttempts.id, row.attemptId)).limit(1);
    if (attempt?.status === "paid") return { ok: false, error: PAYMENT_MESSAGES.alreadyPaid };
    if (attempt?.checkoutSessionId && gateway) {
      try {
        await gateway.expireCheckout(attempt.checkoutSessionId, attempt.stripeAccount);
      } catch (error) {
        // Already expired or completed at Stripe: the webhook tells which; a completed one is refused above next time.
        if (!(error instanceof PaymentProviderError)) throw error;
      }
    }
    if (attempt)
      statements.push(
        db
          .update(paymentAttempts)
          .set({ status: "expired", updatedAt: now })
          .where(and(eq(paymentAttempts.id, attempt.id), ne(paymentAttempts.status, "paid"))),
        // The voided page's places are free again, unless the cart is being paid on another page.
        ...releaseUnlessPaying(db, attempt.cartId, attempt.id, now),
      );
  }
  await db.batch(statements as [Statement, ...Statement[]]);
  return { ok: true };
}

/**
 * Claims the telling of a refund: true for the one caller that should mail the registrant about it. A refund
 * may be written by a double-submitted form and by Stripe's webhooks at once; only one of them tells.
 */
export async function claimRefundNotice(db: Db, refundId: string, now: number): Promise<boolean> {
  const claimed = await db
    .update(transactions)
    .set({ notifiedAt: now })
    .where(and(eq(transactions.id, refundId), eq(transactions.type, "refund"), isNull(transactions.notifiedAt)));
  return (claimed.meta.changes ?? 0) > 0;
}
