/**
 * Server code shared by the paying pages of the public flow (/register/:id/pay, /done, /receipt): which
 * ways to pay this cart has, and what a receipt shows.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { cartBalance } from "../core/payments/ledger";
import { cartNumberOf } from "../core/registration/cart-names";
import type { Db } from "../schema/d1";
import { originOf } from "../workers/auth/hosts";
import { stripeGateway, type StripeGateway } from "../workers/payments/stripe";
import type { CartRow, IndividualRow } from "../workers/services/carts";
import { ledgerOf, paymentClubOf, takesCardsOnline, transactionsOfCart, type PaymentClub } from "../workers/services/payments";
import type { RegistrationRow } from "../workers/services/registration-forms";
import { answersOf, personName, type PublicForm } from "./registration-public.server";
import type { FormElement } from "../core/forms/model";

export interface PaymentChoices {
  club: PaymentClub;
  gateway: StripeGateway | null;
  /** Stripe Checkout is set up for this club. */
  card: boolean;
  /** Register now and pay the club by cash or cheque: when cards are not taken online, or at the club's desk. */
  manual: boolean;
}

export async function paymentChoicesOf(context: AppLoadContext, form: Pick<PublicForm, "db" | "registration" | "isKiosk">): Promise<PaymentChoices> {
  const club = await paymentClubOf(form.db, form.registration.clubId);
  const gateway = stripeGateway(context.env);
  const card = takesCardsOnline(club, gateway);
  return { club, gateway, card, manual: !card || form.isKiosk };
}

/** Where Stripe sends the registrant back: this form, on the host they registered on. */
export function checkoutUrls(context: AppLoadContext, registrationId: string, query: string): { success: string; cancel: string } {
  const base = `${originOf(context.env, context.tenant.hostname)}/register/${registrationId}`;
  const joiner = query ? "&" : "?";
  // Stripe fills in {CHECKOUT_SESSION_ID}; the braces must reach it unescaped.
  return { success: `${base}/done${query}${joiner}session_id={CHECKOUT_SESSION_ID}`, cancel: `${base}/pay${query}${joiner}cancelled=1` };
}

export interface ReceiptView {
  number: string;
  email: string | null;
  completedAt: number | null;
  people: { id: string; name: string; total: number; answers: { caption: string; text: string }[] }[];
  total: number;
  paid: number;
  pending: number;
  refunded: number;
  transactions: { id: string; type: string; amount: number; method: string | null; completed: boolean; isVoid: boolean; at: number }[];
}

/** What a receipt shows: the people, what they came to when paid, and the cart's transactions. */
export async function receiptOf(db: Db, elements: readonly FormElement[], registration: Pick<RegistrationRow, "firstNameFieldId" | "lastNameFieldId">, cart: CartRow, people: readonly IndividualRow[]): Promise<ReceiptView> {
  const ledger = await transactionsOfCart(db, cart.id);
  const balance = cartBalance(cart.total ?? 0, ledger.map(ledgerOf));
  return {
    number: cartNumberOf({ legacy_id: cart.legacyId, cart_number: cart.cartNumber, id: cart.id }),
    email: cart.email,
    completedAt: cart.completedAt,
    people: people.map((p, i) => ({ id: p.id, name: personName(elements, registration, p.values, i), total: p.priceTotal ?? 0, answers: answersOf(elements, p.values, "en") })),
    total: cart.total ?? 0,
    paid: balance.paid,
    pending: balance.pending,
    refunded: balance.refunded,
    transactions: ledger
      .filter((t) => t.type === "payment" || t.type === "refund")
      .map((t) => ({ id: t.id, type: t.type, amount: t.amount, method: t.method, completed: t.completionTime !== null, isVoid: t.isVoid, at: t.completionTime ?? t.createdAt })),
  };
}
