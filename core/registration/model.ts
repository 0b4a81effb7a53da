/**
 * The cart as the pricing engine reads it (platform.md sections 3, 4 and 9), in the engine's own terms.
 * Money is integer cents; every amount here is already priced at the registration's current tier.
 */
import type { Cents } from "../money/money";

export const ITEM_KINDS = ["item", "donation", "membership", "fee"] as const;
/** item: priced field or option; donation: money field; membership: membership panel fees; fee: an is_fee field. */
export type ItemKind = (typeof ITEM_KINDS)[number];

/** One priced value of a field, at cart level or on an individual. */
export interface PricedItem {
  elementId: string;
  /** Already priced at the current tier; >= 0. */
  amount: Cents;
  isTaxable: boolean;
  kind: ItemKind;
}

export interface PricingIndividual {
  id: string;
  isRemoved: boolean;
  isComplete: boolean;
  /** Not yet paid for: the system fee is charged once per new individual. */
  isNew: boolean;
  items: PricedItem[];
}

export const DISCOUNT_TYPES = ["deduct_percent", "deduct_amount", "pay_amount"] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** One entry of a discount field's discounts_list, for a code the registrant entered and that matched. */
export interface DiscountRule {
  /** The discount field the entry belongs to. */
  elementId: string;
  code: string;
  type: DiscountType;
  /** A percent for deduct_percent; cents for deduct_amount and pay_amount. */
  amt: number;
  /** Element ids it applies to; empty means every 'item' and 'membership' line. */
  eltsList: string[];
  /** true: applied once to the cart; false: once per individual. */
  perCart: boolean;
  /** Uses across the registration not yet taken; null is unlimited. */
  remainingUses: number | null;
}

export interface CartPricingInput {
  isRemoved: boolean;
  /** Values of cart-level fields. */
  cartItems: PricedItem[];
  individuals: PricingIndividual[];
  /** Only the codes the registrant entered that matched, in the order entered. */
  discounts: DiscountRule[];
  /** The registration's gst_rate, a percent. */
  gstRatePercent: number;
  /** The club takes card payments and the form has no membership field. */
  chargesSystemFee: boolean;
  /** From the membership element: the cart's 'membership' lines together never exceed it; null is no cap. */
  familyCap: Cents | null;
}

/** System fee per new individual (section 9: 1 unit, transaction type z4fee). */
export const SYSTEM_FEE_CENTS: Cents = 100;

/**
 * transfer_fee: added to a completed cart's lines when a transfer's fee is paid (issue 24); change_fee: what the
 * refund policy kept when a change lowered a paid price (decision 0061).
 */
export type PriceLineType = ItemKind | "family_cap" | "discount" | "tax" | "z4fee" | "transfer_fee" | "change_fee";

export interface PriceLine {
  type: PriceLineType;
  /** The individual the line belongs to; null for cart-level lines, per-cart discounts and tax. */
  individualId: string | null;
  /** The field priced, the membership field cut by the family cap, or the discount field; null for tax and z4fee. */
  elementId: string | null;
  /** The code, on discount lines; null on every other line. */
  code: string | null;
  /** Charges are positive; the family cap and discounts are negative. */
  amount: Cents;
}

export interface AppliedDiscount {
  code: string;
  /** What the code took off the cart, positive. */
  amount: Cents;
  /** Applications that took something: 1 for a per-cart code, one per individual for a per-individual code. What the code's qty counts. */
  uses: number;
}

export interface CartPricing {
  lines: PriceLine[];
  /** item, membership and fee lines after the family cap; donations are not in it. */
  subtotal: Cents;
  /** The sum of every discount, positive. */
  discount: Cents;
  tax: Cents;
  donations: Cents;
  systemFee: Cents;
  /** subtotal − discount + tax + donations + systemFee, never negative. */
  total: Cents;
  /** What each counted individual's own lines come to, with their share of the tax and of per-cart discounts. */
  individualTotals: Record<string, Cents>;
  /** Codes that took something off, in the order applied; a code that took nothing is not listed. */
  appliedDiscounts: AppliedDiscount[];
}
