/**
 * What a priced change after checkout does once it is quoted (person-changes.ts), for the receipt's change form
 * and a waitlist offer's Accept alike (decision 0066): paid by card first, owed to a club that takes no cards,
 * made now (refunded under the policy), or written already; then mailed and passed on to the race once.
 */
import { data, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { labelIn, type Lang } from "../core/forms/bilingual";
import type { FormElement } from "../core/forms/model";
import { SOLD_OUT } from "../core/registration/messages";
import { CHANGE_MESSAGES } from "../core/registration/person-changes";
import { RECEIPT_WORDS } from "../core/registration/receipt-lines";
import type { Db } from "../schema/d1";
import { stripeGateway } from "../workers/payments/stripe";
import type { CartRow } from "../workers/services/carts";
import { makeOwedChange, startChangePayment } from "../workers/services/change-payments";
import { claimRefundNotice } from "../workers/services/payment-ledger";
import { paymentClubOf, takesCardsOnline } from "../workers/services/payments";
import { afterPersonChanged, type PersonChangeResult } from "../workers/services/person-changes";
import { applyChangeNow } from "../workers/services/priced-changes";
import type { RegistrationRow } from "../workers/services/registration-forms";
import { checkoutUrls } from "./registration-payments.server";

type Quoted = Exclude<PersonChangeResult, { ok: false }>;

/**
 * Settles a quoted change: a redirect to `done` when it is made (or already was), to Stripe's page when it is to
 * be paid (back to `back` when abandoned), or the refusal in words. `made` runs once, when this call made it.
 */
export async function settleChange(
  context: AppLoadContext,
  db: Db,
  registration: RegistrationRow,
  elements: readonly FormElement[],
  cart: CartRow,
  quoted: Quoted,
  lang: Lang,
  urls: { done: string; back: string },
  made: () => Promise<void> = async () => {},
) {
  const waitUntil = (p: Promise<unknown>) => context.ctx.waitUntil(p);
  const refused = (error: string, status: number) => data({ error, fieldErrors: {} as Record<string, string> }, { status });
  if (quoted.ok === "pay") {
    const gateway = stripeGateway(context.env);
    const club = await paymentClubOf(db, registration.clubId);
    if (!gateway || !takesCardsOnline(club, gateway)) {
      // A club that takes cash or cheques: the change is made now, and what it costs is owed to the club.
      const owed = await makeOwedChange(db, club, cart, quoted.change, quoted.fee, context.now);
      if (owed === "stale") return refused(CHANGE_MESSAGES[lang].stale, 409);
      if (owed === "unplaced") return refused(SOLD_OUT, 409);
      if (owed === "completed") {
        afterPersonChanged(context.env, db, waitUntil, registration.id, cart.id, quoted.change);
        await made();
      }
      return redirect(urls.done);
    }
    // A card-taking club: Stripe's page first; the change is made when the payment completes.
    const checkout = checkoutUrls(context, registration.id, lang === "fr" ? "?lang=fr" : "");
    const what = quoted.change.kind === "transfer" ? RECEIPT_WORDS[lang].transferFee : RECEIPT_WORDS[lang].subjects.changed;
    const description = `${what}${RECEIPT_WORDS[lang].colon}${labelIn(registration.name, lang)}`;
    const started = await startChangePayment(
      db,
      gateway,
      club,
      cart,
      quoted.change,
      quoted.fee,
      description,
      { success: checkout.success, cancel: urls.back },
      context.now,
    );
    if (!started.ok) return refused(started.error, 409);
    return redirect(started.url);
  }
  if (quoted.ok === "now") {
    // Cheaper, or another choice at the same price: made now, the difference refunded under the policy, one mail.
    const now = await applyChangeNow(db, stripeGateway(context.env), elements, cart, quoted.change, quoted, lang, context.now);
    if (!now.ok) return refused(now.error, now.status);
    if (now.refundId) await claimRefundNotice(db, now.refundId, context.now);
    if (now.created) {
      afterPersonChanged(context.env, db, waitUntil, registration.id, cart.id, quoted.change);
      await made();
    }
    return redirect(urls.done);
  }
  if (quoted.created && quoted.written) {
    afterPersonChanged(context.env, db, waitUntil, registration.id, cart.id, quoted.written);
    await made();
  }
  return redirect(urls.done);
}
