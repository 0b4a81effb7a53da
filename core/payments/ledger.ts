/**
 * The transaction ledger (platform.md sections 3, 4 and 9): transaction types, when a transaction counts,
 * refund status, what may still be refunded, what a cart has paid, and what a club is owed for a batch.
 * Amounts are positive integer cents; the type says which way the money goes.
 */
import type { Cents } from "../money/money";

export const TRANSACTION_TYPES = ["payment", "refund", "z4fee", "remittance", "division"] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const PAYMENT_PROVIDERS = ["stripe", "manual", "system"] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

export const PAYMENT_METHODS = ["card", "cash", "cheque"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** System fees are paid to this fixed payee (section 9), never to a club. */
export const SYSTEM_PAYEE = "system";

export type RefundStatus = "none" | "partial" | "refunded";

export interface LedgerTransaction {
  id: string;
  type: TransactionType;
  amount: Cents;
  completionTime: number | null;
  isVoid: boolean;
  parentTransaction: string | null;
}

/** Completed once completion_time is set (section 4); a void transaction never counts. */
export function counts(transaction: Pick<LedgerTransaction, "completionTime" | "isVoid">): boolean {
  return transaction.completionTime !== null && !transaction.isVoid;
}

/** Completed, not void refunds of one payment, summed. */
export function refundedOf(payment: Pick<LedgerTransaction, "id">, all: readonly LedgerTransaction[]): Cents {
  return all.filter((t) => t.type === "refund" && t.parentTransaction === payment.id && counts(t)).reduce((sum, t) => sum + t.amount, 0);
}

/** none, partial, or refunded when the refunded sum equals the amount (section 4). */
export function refundStatus(payment: Pick<LedgerTransaction, "id" | "amount">, all: readonly LedgerTransaction[]): RefundStatus {
  const refunded = refundedOf(payment, all);
  if (refunded <= 0) return "none";
  return refunded >= payment.amount ? "refunded" : "partial";
}

/** What can still be given back on a payment: nothing unless the payment itself counts. */
export function refundableOf(payment: LedgerTransaction, all: readonly LedgerTransaction[]): Cents {
  if (payment.type !== "payment" || !counts(payment)) return 0;
  return Math.max(0, payment.amount - refundedOf(payment, all));
}

export const LEDGER_MESSAGES = {
  notRefundable: "Only a completed payment can be refunded.",
  refundPositive: "Enter a refund amount above 0.00.",
  refundTooLarge: (left: string) => `The refund cannot be more than the ${left} left on this payment.`,
  voidCompletedCard: "A completed card payment cannot be voided; refund it instead.",
  alreadyVoid: "This transaction is already void.",
  voidHasRefunds: "Void its refunds first: this payment has refunds.",
} as const;

/** Why this refund cannot be made, or null: the amount must be positive and within what is left. */
export function refundProblem(payment: LedgerTransaction, all: readonly LedgerTransaction[], amount: Cents, format: (cents: Cents) => string): string | null {
  if (payment.type !== "payment" || !counts(payment)) return LEDGER_MESSAGES.notRefundable;
  if (!Number.isSafeInteger(amount) || amount <= 0) return LEDGER_MESSAGES.refundPositive;
  const left = refundableOf(payment, all);
  return amount > left ? LEDGER_MESSAGES.refundTooLarge(format(left)) : null;
}

/**
 * Whether a transaction may be voided. A pending payment (not completed) may, as may a manual payment
 * recorded by mistake; a completed card payment has moved real money, so it is refunded instead.
 */
export function voidProblem(transaction: LedgerTransaction & { provider: string }, all: readonly LedgerTransaction[]): string | null {
  if (transaction.isVoid) return LEDGER_MESSAGES.alreadyVoid;
  if (transaction.type === "payment" && transaction.provider === "stripe" && transaction.completionTime !== null) return LEDGER_MESSAGES.voidCompletedCard;
  if (transaction.type === "payment" && refundedOf(transaction, all) > 0) return LEDGER_MESSAGES.voidHasRefunds;
  return null;
}

export interface CartBalance {
  /** Completed payments less completed refunds. */
  paid: Cents;
  /** Payments recorded but not yet received (a cheque in the post). */
  pending: Cents;
  refunded: Cents;
  /** What is still owed on the cart's total; never negative. */
  due: Cents;
}

/** A cart's money from its transactions and the total it was completed at. */
export function cartBalance(total: Cents, all: readonly LedgerTransaction[]): CartBalance {
  const payments = all.filter((t) => t.type === "payment" && !t.isVoid);
  const received = payments.filter(counts).reduce((sum, t) => sum + t.amount, 0);
  const pending = payments.filter((t) => t.completionTime === null).reduce((sum, t) => sum + t.amount, 0);
  const refunded = all.filter((t) => t.type === "refund" && counts(t)).reduce((sum, t) => sum + t.amount, 0);
  return { paid: received - refunded, pending, refunded, due: Math.max(0, total - received - pending) };
}

export interface BatchTransaction extends LedgerTransaction {
  clubId: string;
  provider: string;
}

export interface ClubBatchLine {
  clubId: string;
  /** Card payments the platform collected for the club in the batch window. */
  payments: Cents;
  refunds: Cents;
  fees: Cents;
  division: Cents;
  /** payments − refunds − fees − division; negative when refunds exceed takings (carried, not remitted). */
  owed: Cents;
  transactionIds: string[];
}

/**
 * What each club is owed for one remittance batch: completed, not void card transactions completed in
 * [from, to) and not already in a batch. Cash and cheques are already in the club's hands, so they are left out.
 */
export function remittanceBatch(all: readonly (BatchTransaction & { batchToTime?: number | null })[], from: number, to: number): ClubBatchLine[] {
  const byClub = new Map<string, ClubBatchLine>();
  for (const t of all) {
    if (!counts(t) || t.provider === "manual" || t.type === "remittance") continue;
    if (t.completionTime! < from || t.completionTime! >= to || (t.batchToTime ?? null) !== null) continue;
    const line = byClub.get(t.clubId) ?? { clubId: t.clubId, payments: 0, refunds: 0, fees: 0, division: 0, owed: 0, transactionIds: [] };
    if (t.type === "payment") line.payments += t.amount;
    else if (t.type === "refund") line.refunds += t.amount;
    else if (t.type === "z4fee") line.fees += t.amount;
    else line.division += t.amount;
    line.transactionIds.push(t.id);
    byClub.set(t.clubId, line);
  }
  return [...byClub.values()]
    .map((line) => ({ ...line, owed: line.payments - line.refunds - line.fees - line.division }))
    .sort((a, b) => a.clubId.localeCompare(b.clubId));
}

/**
 * The idempotency key of one try at paying a cart: the same cart, unchanged, for the same amount gives
 * the same key, so a double click or a retried request cannot start a second charge. A changed cart
 * (someone added, a code applied) gives a new key. Stripe allows keys up to 255 characters.
 */
export function paymentAttemptKey(cartId: string, cartUpdatedAt: number, amount: Cents): string {
  return `cart-${cartId}-${cartUpdatedAt}-${amount}`;
}
