/**
 * What follows a paid Checkout Session, wherever it is learnt of first (the webhook or the return page): the
 * cart completes once and its receipt is sent once; or, when its places went to other carts while it was
 * being paid, the money goes back and the registrant is told which place is gone.
 */
import { SOLD_OUT } from "../../core/registration/messages";
import { CHANGE_MESSAGES } from "../../core/registration/person-changes";
import type { Db } from "../../schema/d1";
import { completeCardAttempt, refundUnplacedPayment, type AttemptRow, type CardCompletion } from "../services/payments";
import { placeProblems } from "../services/places";
import { sendReceiptOfCart } from "../services/receipts";
import { listElements } from "../services/registration-forms";
import { afterCartCompleted } from "../jobs";
import type { StripeGateway } from "./stripe";
import { completeChangePayment, isChangeAttempt } from "../services/change-payments";
import { afterPersonChanged } from "../services/person-changes";
import type { PaidChange } from "../../schema/d1";

/** The same for a paid change (a transfer's fee, items added after checkout): applied once and mailed once, or refunded whole when it went stale. */
async function settlePaidChange(
  context: SettleContext,
  gateway: StripeGateway,
  attempt: AttemptRow & { change: PaidChange },
  paymentIntentId: string,
  event: { id: string; type: string } | null,
): Promise<CardCompletion> {
  const { db, now } = context;
  const outcome = await completeChangePayment(db, attempt, paymentIntentId, now, event);
  if (outcome === "completed") {
    afterPersonChanged(context.env, db, context.waitUntil, attempt.registrationId, attempt.cartId, attempt.change);
    return "completed";
  }
  if (outcome === "stale" || outcome === "unplaced") {
    // A limited choice whose hold lapsed and went to someone else, or a person changed meanwhile: the money goes back whole.
    const reason = outcome === "stale" ? CHANGE_MESSAGES.en.stale : `${SOLD_OUT}.`;
    await refundUnplacedPayment(db, gateway, attempt, paymentIntentId, `${reason} Your payment has been refunded in full.`, now);
    return "unplaced";
  }
  return "already";
}

export interface SettleContext {
  env: Env;
  db: Db;
  now: number;
  waitUntil(promise: Promise<unknown>): void;
}

export async function settlePaidSession(
  context: SettleContext,
  gateway: StripeGateway,
  attempt: AttemptRow,
  paymentIntentId: string,
  event: { id: string; type: string } | null = null,
): Promise<CardCompletion> {
  const { db, now } = context;
  if (isChangeAttempt(attempt)) return settlePaidChange(context, gateway, attempt, paymentIntentId, event);
  const outcome = await completeCardAttempt(db, attempt, paymentIntentId, now, event?.id ?? null, event?.type ?? "");
  if (outcome === "completed") {
    context.waitUntil(sendReceiptOfCart(context.env, db, attempt.cartId, "paid").catch((error: unknown) => console.error("Receipt failed", error)));
    afterCartCompleted(context.env, db, context.waitUntil, attempt.registrationId, attempt.cartId);
  } else if (outcome === "unplaced") {
    const elements = await listElements(db, attempt.registrationId);
    const problems = await placeProblems(db, attempt.registrationId, attempt.cartId, attempt.places ?? [], elements, now);
    const reason = `${Object.values(problems).join(" ") || SOLD_OUT}. Your payment has been refunded in full.`;
    await refundUnplacedPayment(db, gateway, attempt, paymentIntentId, reason, now);
  }
  return outcome;
}
