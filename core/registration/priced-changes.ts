/**
 * What a change after checkout costs or gives back (decision 0061): the places it moves (a limited choice is
 * held and taken like a cart's, the old choice's place freed), and for a change that lowers the price, the
 * refund under the form's cancellation policy (its deadline, percent and fee) with what the policy keeps
 * written on the receipt as a line of its own, so the cart's total still equals what was kept of the money.
 */
import type { Cents } from "../money/money";
import type { CancelPolicy } from "./cancel-policy";
import { cancelQuote, CANCEL_MESSAGES } from "./cancel-policy";
import type { PlaceClaim } from "./places";
import type { ChargedPricing } from "./receipt-lines";

/** The places a person's new answers take that the old ones did not, and the pools the old ones leave. */
export function placesMoved(before: readonly PlaceClaim[], after: readonly PlaceClaim[]): { taken: PlaceClaim[]; released: string[] } {
  const had = new Set(before.map((c) => c.pool));
  const has = new Set(after.map((c) => c.pool));
  return { taken: after.filter((c) => !had.has(c.pool)), released: [...had].filter((pool) => !has.has(pool)) };
}

// not in the spec: our wording
export const PRICED_CHANGE_MESSAGES = {
  en: {
    noRefunds: "This change lowers the price, and this registration gives no refunds online. Please contact the organiser.",
    refundsClosed: "This change lowers the price, and refunds for this registration are closed. Please contact the organiser.",
  },
  fr: {
    noRefunds: "Cette modification baisse le prix, et cette inscription ne donne pas de remboursement en ligne. Veuillez communiquer avec l'organisateur.",
    refundsClosed: "Cette modification baisse le prix, et les remboursements de cette inscription sont clos. Veuillez communiquer avec l'organisateur.",
  },
} as const;

export type ChangeRefund = { ok: true; refund: Cents; kept: Cents } | { ok: false; error: string };

/**
 * A change that lowers the price by `decrease` gives back what cancelling that much would: the policy's percent
 * of it less the fee, never below zero nor above what is left of the payment. What is not given back is kept.
 */
export function changeRefund(policy: CancelPolicy, decrease: Cents, refundable: Cents, now: number, lang: "en" | "fr"): ChangeRefund {
  const quote = cancelQuote(policy, Math.max(0, decrease), refundable, now);
  if (!quote.ok)
    return {
      ok: false,
      error: quote.error === CANCEL_MESSAGES.notAllowed ? PRICED_CHANGE_MESSAGES[lang].noRefunds : PRICED_CHANGE_MESSAGES[lang].refundsClosed,
    };
  return { ok: true, refund: quote.refund, kept: Math.max(0, decrease) - quote.refund };
}

/** The charged pricing after a lowered change, with what the policy kept as the person's change-fee line. */
export function withKeptFee(pricing: ChargedPricing, individualId: string, kept: Cents): ChargedPricing {
  if (kept <= 0) return pricing;
  const line = { type: "change_fee" as const, individualId, elementId: null, code: null, amount: kept };
  return { ...pricing, lines: [...pricing.lines, line], total: pricing.total + kept };
}
