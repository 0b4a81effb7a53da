// What a test card does to a PaymentIntent and its Checkout Session on the fake's hosted page, as Stripe records it.
import type { Charge, CheckoutSession, PaymentIntent } from "./objects";

export type CardOutcome = { declineCode: string; message: string } | "success";

/** Stripe's documented test cards that the hosted page takes. */
export const TEST_CARDS: Record<string, CardOutcome> = {
  "4242424242424242": "success",
  "4000000000000002": { declineCode: "generic_decline", message: "Your card was declined." },
  "4000000000009995": { declineCode: "insufficient_funds", message: "Your card has insufficient funds." },
};

/** A declined card: the intent waits for another payment method and carries Stripe's card_error. */
export function declineIntent(intent: PaymentIntent, charge: Charge, outcome: Exclude<CardOutcome, "success">): void {
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
}

/** A paid card: the intent succeeded and the session is complete and paid, its page closed. */
export function completePayment(intent: PaymentIntent, session: CheckoutSession, charge: Charge): void {
  intent.status = "succeeded";
  intent.amount_received = intent.amount;
  intent.latest_charge = charge.id;
  intent.payment_method = charge.payment_method;
  intent.last_payment_error = null;
  session.status = "complete";
  session.payment_status = "paid";
  session.url = null;
  session.customer_details = { email: session.customer_email, name: null };
}
