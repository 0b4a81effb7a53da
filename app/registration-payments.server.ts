/**
 * Server code of the public flow's pay page (/register/:id/pay): which ways to pay this cart has, and
 * where Stripe sends the registrant back.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { cartNumberOf } from "../core/registration/cart-names";
import { placesOfCart } from "../core/registration/places";
import type { FormCartPricing } from "../core/registration/price-form";
import { codeUsesOf } from "../core/registration/pricing";
import { chargedPricingOf } from "../core/registration/receipt-lines";
import { originOf } from "../workers/auth/hosts";
import { stripeGateway, type StripeGateway } from "../workers/payments/stripe";
import { closeCheckoutsBeforeChange, paymentClubOf, takesCardsOnline, type CartToPay, type PaymentClub } from "../workers/services/payments";
import type { PublicForm } from "./registration-public.server";

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

/**
 * Closes the cart's open card payment pages before the registrant changes it (a page left open in another
 * tab must not be paid at the old total). False when one is being paid right now.
 */
export async function readyForChange(context: AppLoadContext, form: Pick<PublicForm, "db" | "cart">): Promise<boolean> {
  return form.cart ? closeCheckoutsBeforeChange(form.db, stripeGateway(context.env), form.cart.id, context.now) : true;
}

/** Where Stripe sends the registrant back: this form, on the host they registered on. */
export function checkoutUrls(context: AppLoadContext, registrationId: string, query: string): { success: string; cancel: string } {
  const base = `${originOf(context.env, context.tenant.hostname)}/register/${registrationId}`;
  const joiner = query ? "&" : "?";
  // Stripe fills in {CHECKOUT_SESSION_ID}; the braces must reach it unescaped.
  return { success: `${base}/done${query}${joiner}session_id={CHECKOUT_SESSION_ID}`, cancel: `${base}/pay${query}${joiner}cancelled=1` };
}

/** The cart as it is paid for: its price, what the charge is called, and the places its people and codes take. */
export function cartToPay(
  form: Pick<PublicForm, "registration" | "elements" | "people"> & { cart: NonNullable<PublicForm["cart"]> },
  price: FormCartPricing,
): CartToPay {
  const { cart } = form;
  const counted = form.people.filter((p) => p.isComplete && !p.isRemoved);
  return {
    cart,
    price,
    description: `${form.registration.name}: Cart No. ${cartNumberOf({ legacy_id: cart.legacyId, cart_number: cart.cartNumber, id: cart.id })}`,
    places: placesOfCart(form.elements, cart.id, counted, codeUsesOf(price)),
    elements: form.elements,
    charged: chargedPricingOf(price, form.registration.gstRate),
  };
}
