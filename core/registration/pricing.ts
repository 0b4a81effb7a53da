/**
 * Cart pricing (platform.md sections 4 and 9). Money is integer cents throughout. A removed cart prices at
 * zero with no lines; otherwise only cart-level values and non-removed, complete individuals count, and
 * the price is built in this order:
 *
 *  1. Item lines: cart-level values first, then each counted individual's in order, as priced at the tier.
 *  2. Family cap: the 'membership' lines together are cut to the cap. The excess comes off the last
 *     individual's last membership line first and works backwards (cart-level lines last), so the first
 *     family members keep their full price on the receipt and the cap shows on the later ones.
 *  3. Discounts, on 'item' and 'membership' lines only (never donations, fees or the system fee), each on
 *     what is left after the steps before it: every deduct_percent code, then every deduct_amount code,
 *     in the order entered, then the one pay_amount code with the lowest amount (the others are ignored).
 *     A per-cart code is applied once over all its lines; a per-individual code once to each individual's
 *     own lines, first individuals first, while uses remain (cart-level lines only take per-cart codes).
 *     An application that would take nothing does not use the code up; each one that takes something is
 *     one use of the code's qty (so a per-individual code uses one per person it reduces). A percent is rounded line by
 *     line; a fixed amount or cap is spread over its lines in proportion to what is left of them, so
 *     tax and individual totals follow it.
 *  4. Tax: gst_rate percent of what is left of the taxable lines, rounded once for the cart.
 *  5. Donations: added as entered, untaxed and undiscounted.
 *  6. System fee: SYSTEM_FEE_CENTS ('z4fee') per new counted individual when the club charges it, untaxed.
 *
 * subtotal is the item, membership and fee lines after the cap; total = subtotal − discount + tax +
 * donations + systemFee, never negative.
 *
 * Taking an individual out never raises the total, with two exceptions that follow from this order: a
 * family cap met by a per-individual code (the cap's saving on a later individual is lost while the
 * removed one's code saving also goes), and a per-cart pay_amount spanning taxed and untaxed lines (its
 * cut moves onto the taxed ones). Percents rounded line by line can also shift a cent when the cap moves.
 */
import { allocateCents } from "../money/allocate";
import { type Cents, percentOf, roundCents } from "../money/money";
import {
  type AppliedDiscount,
  type CartPricing,
  type CartPricingInput,
  type DiscountRule,
  type ItemKind,
  type PriceLine,
  type PricedItem,
  type PricingIndividual,
  SYSTEM_FEE_CENTS,
} from "./model";

/** A subtotal line being priced: whose it is and what is left of it after the cap and discounts. */
interface Charge {
  owner: string | null;
  item: PricedItem;
  net: Cents;
}

/** The lines one application of a discount code works on: one individual's, or the whole cart's (owner null). */
interface Scope {
  owner: string | null;
  charges: Charge[];
}

const DISCOUNTABLE: ReadonlySet<ItemKind> = new Set<ItemKind>(["item", "membership"]);

/** The full price of a cart: lines, the totals, and each counted individual's share. */
export function priceCart(input: CartPricingInput): CartPricing {
  if (input.isRemoved) return emptyPricing();
  const counted = input.individuals.filter(isCounted);
  const owned = [
    ...input.cartItems.map((item) => ({ owner: null, item })),
    ...counted.flatMap((individual) => individual.items.map((item) => ({ owner: individual.id, item }))),
  ];
  const charges: Charge[] = owned.filter(({ item }) => item.kind !== "donation").map(({ owner, item }) => ({ owner, item, net: toCents(item.amount) }));
  const itemLines = charges.map(
    ({ owner, item, net }): PriceLine => ({ type: item.kind, individualId: owner, elementId: item.elementId, code: null, amount: net }),
  );
  const gross = sum(charges.map((charge) => charge.net));

  const capLines = applyFamilyCap(charges, input.familyCap);
  const subtotal = gross + sum(capLines.map((line) => line.amount));
  const discounts = applyDiscounts(charges, counted, input.discounts);
  const discount = sum(discounts.lines.map((line) => -line.amount));

  const taxed = charges.filter((charge) => charge.item.isTaxable);
  const rate = Number.isFinite(input.gstRatePercent) && input.gstRatePercent > 0 ? input.gstRatePercent : 0;
  const tax = percentOf(sum(taxed.map((charge) => charge.net)), rate);
  const taxShares = allocateCents(
    tax,
    taxed.map((charge) => charge.net),
  );
  const taxLines: PriceLine[] = tax > 0 ? [{ type: "tax", individualId: null, elementId: null, code: null, amount: tax }] : [];

  const donationLines = owned
    .filter(({ item }) => item.kind === "donation")
    .map(({ owner, item }): PriceLine => ({ type: "donation", individualId: owner, elementId: item.elementId, code: null, amount: toCents(item.amount) }));
  const donations = sum(donationLines.map((line) => line.amount));

  const feeLines: PriceLine[] = input.chargesSystemFee
    ? counted
        .filter((individual) => individual.isNew)
        .map((individual) => ({ type: "z4fee", individualId: individual.id, elementId: null, code: null, amount: SYSTEM_FEE_CENTS }))
    : [];
  const systemFee = sum(feeLines.map((line) => line.amount));

  const individualTotals: Record<string, Cents> = Object.fromEntries(counted.map((individual) => [individual.id, 0]));
  const addTo = (owner: string | null, amount: Cents) => {
    if (owner !== null) individualTotals[owner] = (individualTotals[owner] ?? 0) + amount;
  };
  for (const charge of charges) addTo(charge.owner, charge.net);
  taxed.forEach((charge, index) => addTo(charge.owner, taxShares[index] ?? 0));
  for (const line of [...donationLines, ...feeLines]) addTo(line.individualId, line.amount);

  return {
    lines: [...itemLines, ...capLines, ...discounts.lines, ...taxLines, ...donationLines, ...feeLines],
    subtotal,
    discount,
    tax,
    donations,
    systemFee,
    total: Math.max(0, subtotal - discount + tax + donations + systemFee),
    individualTotals,
    appliedDiscounts: discounts.applied,
  };
}

/** Section 4: only non-removed, complete individuals count. */
export function isCounted(individual: PricingIndividual): boolean {
  return !individual.isRemoved && individual.isComplete;
}

function emptyPricing(): CartPricing {
  return { lines: [], subtotal: 0, discount: 0, tax: 0, donations: 0, systemFee: 0, total: 0, individualTotals: {}, appliedDiscounts: [] };
}

/** Cuts membership lines, last first, until they fit the cap; returns the cuts in cart order. */
function applyFamilyCap(charges: Charge[], cap: Cents | null): PriceLine[] {
  if (cap === null || !Number.isFinite(cap)) return [];
  const memberships = charges.filter((charge) => charge.item.kind === "membership");
  let excess = sum(memberships.map((charge) => charge.net)) - toCents(cap);
  const cuts: PriceLine[] = [];
  for (let index = memberships.length - 1; index >= 0 && excess > 0; index--) {
    const charge = memberships[index] as Charge;
    const cut = Math.min(charge.net, excess);
    if (cut === 0) continue;
    charge.net -= cut;
    excess -= cut;
    cuts.push({ type: "family_cap", individualId: charge.owner, elementId: charge.item.elementId, code: null, amount: -cut });
  }
  return cuts.reverse();
}

function applyDiscounts(charges: Charge[], counted: PricingIndividual[], rules: DiscountRule[]): { lines: PriceLine[]; applied: AppliedDiscount[] } {
  const lines: PriceLine[] = [];
  const applied: AppliedDiscount[] = [];
  const apply = (rule: DiscountRule) => {
    let uses = usesOf(rule);
    let taken = 0;
    let applications = 0;
    for (const scope of scopesOf(rule, charges, counted)) {
      if (uses <= 0) break;
      const parts = reductionsOf(
        rule,
        scope.charges.map((charge) => charge.net),
      );
      const reduction = sum(parts);
      if (reduction <= 0) continue;
      parts.forEach((part, index) => {
        (scope.charges[index] as Charge).net -= part;
      });
      uses--;
      applications++;
      taken += reduction;
      lines.push({ type: "discount", individualId: scope.owner, elementId: rule.elementId, code: rule.code, amount: -reduction });
    }
    if (taken > 0) applied.push({ code: rule.code, amount: taken, uses: applications });
  };
  rules.filter((rule) => rule.type === "deduct_percent").forEach(apply);
  rules.filter((rule) => rule.type === "deduct_amount").forEach(apply);
  const payAmount = lowestPayAmount(rules, charges, counted);
  if (payAmount !== null) apply(payAmount);
  return { lines, applied };
}

/** Section 9: when several pay_amount codes apply, the lowest amount caps the subtotal (the first entered on a tie). */
function lowestPayAmount(rules: DiscountRule[], charges: Charge[], counted: PricingIndividual[]): DiscountRule | null {
  let lowest: DiscountRule | null = null;
  for (const rule of rules) {
    if (rule.type !== "pay_amount" || !Number.isFinite(rule.amt) || usesOf(rule) <= 0) continue;
    if (scopesOf(rule, charges, counted).length === 0) continue;
    if (lowest === null || rule.amt < lowest.amt) lowest = rule;
  }
  return lowest;
}

/** The non-empty sets of lines `rule` would be applied to, in the order it is applied. */
function scopesOf(rule: DiscountRule, charges: Charge[], counted: PricingIndividual[]): Scope[] {
  const matching = charges.filter((charge) => appliesTo(rule, charge));
  const scopes: Scope[] = rule.perCart
    ? [{ owner: null, charges: matching }]
    : counted.map((individual) => ({ owner: individual.id, charges: matching.filter((charge) => charge.owner === individual.id) }));
  return scopes.filter((scope) => scope.charges.length > 0);
}

function appliesTo(rule: DiscountRule, charge: Charge): boolean {
  return DISCOUNTABLE.has(charge.item.kind) && (rule.eltsList.length === 0 || rule.eltsList.includes(charge.item.elementId));
}

/**
 * What `rule` takes off each of the lines left at `nets`, never more than a line has. A percent is taken
 * line by line, so a line's price never depends on what else is in the cart; a fixed amount or a cap
 * is spread over the lines in proportion to what is left of them.
 */
function reductionsOf(rule: DiscountRule, nets: Cents[]): Cents[] {
  // A malformed amount must not make everything free (a NaN pay_amount would cap at zero).
  if (!Number.isFinite(rule.amt)) return nets.map(() => 0);
  const base = sum(nets);
  switch (rule.type) {
    case "deduct_percent":
      return nets.map((net) => percentOf(net, Math.min(100, Math.max(0, rule.amt))));
    case "deduct_amount":
      return allocateCents(Math.min(base, toCents(rule.amt)), nets);
    case "pay_amount":
      return allocateCents(Math.max(0, base - toCents(rule.amt)), nets);
  }
}

function usesOf(rule: DiscountRule): number {
  if (rule.remainingUses === null) return Number.POSITIVE_INFINITY;
  return Number.isNaN(rule.remainingUses) ? 0 : Math.max(0, Math.floor(rule.remainingUses));
}

/** Whole, non-negative cents; a negative, fractional or non-numeric amount from bad data is made safe here. */
function toCents(amount: number): Cents {
  return Number.isFinite(amount) ? Math.max(0, roundCents(amount)) : 0;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** The uses each code took in this pricing, keyed by code: what completing the cart records against the codes' qty. */
export function codeUsesOf(pricing: Pick<CartPricing, "appliedDiscounts">): Record<string, number> {
  return Object.fromEntries(pricing.appliedDiscounts.map((applied) => [applied.code, applied.uses]));
}
