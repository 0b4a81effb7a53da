/**
 * Prices a cart of a registration form: each counted individual's stored values repriced at the tier in
 * force by their field type (core/forms), except a paid person's answers kept since, at what was charged for them,
 * the discount codes entered on the cart matched against the form's discount fields, then the cart pricing
 * engine (pricing.ts). Pure, so the browser shows the same total the server charges.
 */
import { matchDiscounts } from "../forms/discount";
import type { FormElement, StoredValue, Tier } from "../forms/model";
import { optionFeePart } from "../forms/options";
import { FIELD_TYPE_MODULES } from "../forms/registry";
import { ITEM_KINDS, type CartPricing, type DiscountRule, type ItemKind, type PriceLine, type PricedItem } from "./model";
import { priceCart } from "./pricing";

export interface FormCartIndividual {
  id: string;
  isRemoved: boolean;
  isComplete: boolean;
  /** Not yet paid for. */
  isNew: boolean;
  values: Readonly<Record<string, StoredValue | undefined>>;
  /** A paid person: the answers paid for and their lines as charged; an answer unchanged since keeps that price (decision 0078). */
  paid?: PaidAnswers;
}

export interface PaidAnswers {
  values: Readonly<Record<string, StoredValue | undefined>>;
  /** The person's lines of the cart's charged pricing (only the item, membership, fee and donation lines are read). */
  lines: readonly PriceLine[];
}

export interface FormCartInput {
  elements: readonly FormElement[];
  tier: Tier;
  gstRatePercent: number;
  /** The club takes card payments (the system fee applies unless the form sells memberships). */
  clubTakesCards: boolean;
  isRemoved: boolean;
  /** Cart-level values: the discount fields' codes. */
  cartValues: Readonly<Record<string, StoredValue | undefined>>;
  individuals: readonly FormCartIndividual[];
  /** Uses already taken by other complete carts, by upper-case code. */
  discountUses: Readonly<Record<string, number>>;
}

export interface FormCartPricing extends CartPricing {
  /** Codes entered that no discount field knows. */
  unknownCodes: string[];
}

/** Discount fields are answered once per cart, at review, not per person. */
export function isCartLevel(element: Pick<FormElement, "type">): boolean {
  return element.type === "discount";
}

function kindOf(element: FormElement): ItemKind {
  if (element.type === "donation") return "donation";
  if (element.type === "membership") return "membership";
  return element.is_fee ? "fee" : "item";
}

const PRICED_KINDS: ReadonlySet<string> = new Set(ITEM_KINDS);

/** The lines an answer was charged at, when it is the answer paid for; null when it is new (priced at today's list). */
function paidLinesOf(element: FormElement, stored: StoredValue, paid: PaidAnswers | undefined): PricedItem[] | null {
  const before = paid?.values[element.id];
  if (!paid || !before || JSON.stringify(before.v) !== JSON.stringify(stored.v)) return null;
  return paid.lines
    .filter((line) => line.elementId === element.id && PRICED_KINDS.has(line.type))
    .map((line) => ({ elementId: element.id, amount: line.amount, isTaxable: element.is_taxable, kind: line.type as ItemKind }));
}

/**
 * The priced values of one person (or the cart), in form order; free values make no line. An answer a paid person
 * still has is priced at what was charged for it, never at the list price the organiser may have changed since.
 */
export function itemsOf(elements: readonly FormElement[], values: FormCartIndividual["values"], tier: Tier, paid?: PaidAnswers): PricedItem[] {
  const items: PricedItem[] = [];
  for (const element of elements) {
    const stored = values[element.id];
    if (!stored || isCartLevel(element)) continue;
    const charged = paidLinesOf(element, stored, paid);
    if (charged) {
      items.push(...charged);
      continue;
    }
    const amount = FIELD_TYPE_MODULES[element.type].price(element, stored.v as never, tier);
    // Options marked as fees make a fee line of their own, so codes never take them off.
    const fee = Math.min(amount, optionFeePart(element, stored.v, tier));
    if (amount - fee > 0) items.push({ elementId: element.id, amount: amount - fee, isTaxable: element.is_taxable, kind: kindOf(element) });
    if (fee > 0) items.push({ elementId: element.id, amount: fee, isTaxable: element.is_taxable, kind: "fee" });
  }
  return items;
}

/** The discount rules the cart's codes switch on, with the uses each has left. */
export function discountRulesOf(input: Pick<FormCartInput, "elements" | "cartValues" | "discountUses">): { rules: DiscountRule[]; unknownCodes: string[] } {
  const rules: DiscountRule[] = [];
  const unknownCodes: string[] = [];
  for (const element of input.elements) {
    if (element.type !== "discount") continue;
    const codes = input.cartValues[element.id]?.v;
    if (typeof codes !== "string" || codes.trim() === "") continue;
    const { matched, unknown } = matchDiscounts(element, codes);
    unknownCodes.push(...unknown);
    for (const entry of matched) {
      const code = entry.code.toUpperCase();
      const used = input.discountUses[code] ?? 0;
      rules.push({
        elementId: element.id,
        code,
        type: entry.type,
        amt: entry.amt,
        eltsList: entry.elts_list,
        perCart: element.all_discount,
        remainingUses: entry.qty == null ? null : Math.max(0, entry.qty - used),
      });
    }
  }
  return { rules, unknownCodes: [...new Set(unknownCodes)] };
}

export function priceFormCart(input: FormCartInput): FormCartPricing {
  const sorted = [...input.elements].sort((a, b) => a.ordinal - b.ordinal);
  const membership = sorted.find((e) => e.type === "membership");
  const { rules, unknownCodes } = discountRulesOf(input);
  const pricing = priceCart({
    isRemoved: input.isRemoved,
    cartItems: [],
    individuals: input.individuals.map((person) => ({
      id: person.id,
      isRemoved: person.isRemoved,
      isComplete: person.isComplete,
      isNew: person.isNew,
      items: itemsOf(sorted, person.values, input.tier, person.paid),
    })),
    discounts: rules,
    gstRatePercent: input.gstRatePercent,
    // Section 9: the system fee is charged when the club takes cards and the form has no membership field.
    chargesSystemFee: input.clubTakesCards && membership === undefined,
    familyCap: membership?.config.family_cap ?? null,
  });
  return { ...pricing, unknownCodes };
}
