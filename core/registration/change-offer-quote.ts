/**
 * What a change offer's page says before Accept (decision 0072): each answer the offer changes, as the person holds
 * it now and as offered, and the difference in price in the registrant's language and the locale's money format.
 * The figures come from the priced-change path (workers/services/person-changes.ts priceChange); only words here.
 */
import { labelIn, type Lang } from "../forms/bilingual";
import type { FormElement, StoredValue } from "../forms/model";
import { optionLabel } from "../forms/options";
import type { Cents } from "../money/money";
import type { WantedAnswers } from "./change-waitlist";
import { formatMoneyIn } from "./receipt-lines";

/** The difference accepting makes: paid (by card, or owed to a club without cards), refunded under the policy, or none. */
export type OfferDifference = { kind: "pay"; amount: Cents; byCard: boolean } | { kind: "refund"; amount: Cents; kept: Cents } | { kind: "none"; kept: Cents };

export interface OfferSwap {
  field: string;
  now: string;
  offered: string;
}

// not in the spec: our wording
export const OFFER_QUOTE_WORDS = {
  en: {
    heading: "What accepting changes",
    now: "Now",
    offered: "Offered",
    none: "—",
    yes: "Yes",
    no: "No",
    pay: (amount: string) => `Price difference to pay: ${amount}, by card on the next page.`,
    owed: (amount: string) => `Price difference to pay: ${amount}, owed to the organiser.`,
    refund: (amount: string) => `Price difference refunded: ${amount}.`,
    same: "No change in price.",
    kept: (amount: string) => `The refund policy keeps ${amount} of the lower price.`,
    noRefund: (amount: string) => `Nothing is refunded: the refund policy keeps ${amount} of the lower price.`,
  },
  fr: {
    heading: "Ce que l'acceptation change",
    now: "Actuellement",
    offered: "Offert",
    none: "—",
    yes: "Oui",
    no: "Non",
    pay: (amount: string) => `Différence à payer : ${amount}, par carte à la page suivante.`,
    owed: (amount: string) => `Différence à payer : ${amount}, à régler auprès de l'organisateur.`,
    refund: (amount: string) => `Différence remboursée : ${amount}.`,
    same: "Aucun changement de prix.",
    kept: (amount: string) => `La politique de remboursement retient ${amount} du prix plus bas.`,
    noRefund: (amount: string) => `Rien n'est remboursé : la politique de remboursement retient ${amount} du prix plus bas.`,
  },
} satisfies Record<Lang, unknown>;

/** An answer as a registrant reads it: a choice by its label in their language, a yes/no, or the text typed. */
export function answerIn(element: FormElement, value: StoredValue | null | undefined, lang: Lang): string {
  const words = OFFER_QUOTE_WORDS[lang];
  const v = value?.v;
  if (v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0)) return words.none;
  if (element.type === "option" || element.type === "multioption") {
    const ids = (Array.isArray(v) ? v : [v]).map(String);
    return ids
      .map((id) => {
        const option = element.options_list.find((o) => o.id === id);
        return option ? optionLabel(option, lang) : id;
      })
      .join(", ");
  }
  if (typeof v === "boolean") return v ? words.yes : words.no;
  return String(v);
}

/** Each answer the offer changes, in form order: the field's caption, what the person holds now, what is offered. */
export function offerSwaps(
  elements: readonly FormElement[],
  current: Readonly<Record<string, StoredValue>>,
  wanted: Readonly<WantedAnswers>,
  lang: Lang,
): OfferSwap[] {
  return [...elements]
    .sort((a, b) => a.ordinal - b.ordinal)
    .filter((element) => element.id in wanted)
    .map((element) => ({
      field: labelIn(element.caption, lang),
      now: answerIn(element, current[element.id], lang),
      offered: answerIn(element, wanted[element.id], lang),
    }));
}

/** The difference in words: one sentence, and a second when the policy keeps part of a lower price. */
export function differenceLines(difference: OfferDifference, lang: Lang): string[] {
  const words = OFFER_QUOTE_WORDS[lang];
  const money = (cents: Cents) => formatMoneyIn(cents, lang);
  if (difference.kind === "pay") return [difference.byCard ? words.pay(money(difference.amount)) : words.owed(money(difference.amount))];
  if (difference.kind === "refund") return [words.refund(money(difference.amount)), ...(difference.kept > 0 ? [words.kept(money(difference.kept))] : [])];
  return [difference.kept > 0 ? words.noRefund(money(difference.kept)) : words.same];
}
