/**
 * priceCart on random carts: the totals always reconcile with the lines, nothing is ever negative, and
 * taking an individual out of a cart never makes it cost more. That last one holds exactly without a
 * family cap, when a per-cart pay_amount cannot shift its cut between taxed and untaxed lines; the two
 * cases where it does not hold by design are examples in pricing.test.ts ("removing an individual").
 */
import { describe, expect, it } from "vitest";
import type { CartPricing, CartPricingInput, DiscountRule, ItemKind, PricedItem, PricingIndividual } from "./model";
import { priceCart } from "./pricing";
import { SeededRandom } from "../random/seeded";

class Random extends SeededRandom {
  subset<T>(items: readonly T[]): T[] {
    return items.filter(() => this.chance(0.4));
  }
  /** Cents, mostly round amounts and sometimes odd ones, so rounding is exercised. */
  cents(high: number): number {
    return this.chance(0.7) ? this.int(0, high / 500) * 500 : this.int(0, high);
  }
}

interface Element {
  id: string;
  kind: ItemKind;
  isTaxable: boolean;
}

/** A form's priced fields; taxability is a property of the field (is_taxable), shared by all its lines. */
function randomElements(random: Random): Element[] {
  const taxable = () => random.chance(0.5);
  return [
    { id: "entry", kind: "item", isTaxable: taxable() },
    { id: "jersey", kind: "item", isTaxable: taxable() },
    { id: "camp", kind: "item", isTaxable: taxable() },
    { id: "member", kind: "membership", isTaxable: taxable() },
    { id: "late", kind: "fee", isTaxable: taxable() },
    { id: "gift", kind: "donation", isTaxable: taxable() },
  ];
}

function randomItems(random: Random, elements: Element[], count: number): PricedItem[] {
  return Array.from({ length: count }, () => {
    const element = random.pick(elements);
    return { elementId: element.id, kind: element.kind, isTaxable: element.isTaxable, amount: random.cents(20_000) };
  });
}

function randomDiscount(random: Random, elements: Element[], index: number): DiscountRule {
  const type = random.pick(["deduct_percent", "deduct_amount", "pay_amount"] as const);
  return {
    elementId: "disc",
    code: `CODE${index}`,
    type,
    amt: type === "deduct_percent" ? random.pick([5, 10, 12.5, 33, 50, 100, random.int(0, 100)]) : random.cents(30_000),
    eltsList: random.chance(0.4) ? [] : random.subset(elements.map((element) => element.id)),
    perCart: random.chance(0.5),
    remainingUses: random.chance(0.4) ? null : random.int(0, 3),
  };
}

function randomCart(seed: number): CartPricingInput {
  const random = new Random(seed);
  const elements = randomElements(random);
  const individuals: PricingIndividual[] = Array.from({ length: random.int(0, 5) }, (_, index) => ({
    id: `i${index}`,
    isRemoved: random.chance(0.15),
    isComplete: random.chance(0.85),
    isNew: random.chance(0.7),
    items: randomItems(random, elements, random.int(0, 4)),
  }));
  return {
    isRemoved: random.chance(0.05),
    cartItems: random.chance(0.3) ? randomItems(random, elements, random.int(1, 2)) : [],
    individuals,
    discounts: Array.from({ length: random.int(0, 4) }, (_, index) => randomDiscount(random, elements, index)),
    gstRatePercent: random.pick([0, 5, 13, 14.975]),
    chargesSystemFee: random.chance(0.5),
    familyCap: random.chance(0.5) ? null : random.cents(30_000),
  };
}

const SEEDS = Array.from({ length: 500 }, (_, index) => index + 1);
const sumOf = (values: number[]) => values.reduce((a, b) => a + b, 0);

function expectConsistent(priced: CartPricing, input: CartPricingInput, seed: number): void {
  const amounts = [priced.subtotal, priced.discount, priced.tax, priced.donations, priced.systemFee, priced.total, ...Object.values(priced.individualTotals)];
  for (const amount of amounts) expect(Number.isSafeInteger(amount) && amount >= 0, `seed ${seed}: ${amount}`).toBe(true);
  expect(priced.total, `seed ${seed}`).toBe(priced.subtotal - priced.discount + priced.tax + priced.donations + priced.systemFee);
  expect(sumOf(priced.lines.map((line) => line.amount)), `seed ${seed}`).toBe(priced.total);
  expect(priced.discount, `seed ${seed}`).toBeLessThanOrEqual(priced.subtotal);
  expect(sumOf(priced.appliedDiscounts.map((applied) => applied.amount)), `seed ${seed}`).toBe(priced.discount);
  // A code's uses are its discount lines, and never more than it had left.
  for (const applied of priced.appliedDiscounts) {
    expect(applied.uses, `seed ${seed}`).toBe(priced.lines.filter((line) => line.type === "discount" && line.code === applied.code).length);
    const left = input.discounts.find((rule) => rule.code === applied.code)?.remainingUses;
    if (left !== null && left !== undefined) expect(applied.uses, `seed ${seed}`).toBeLessThanOrEqual(left);
  }
  const individualsTotal = sumOf(Object.values(priced.individualTotals));
  if (input.cartItems.length === 0) expect(individualsTotal, `seed ${seed}`).toBe(priced.total);
  else expect(individualsTotal, `seed ${seed}`).toBeLessThanOrEqual(priced.total);
}

describe("priceCart on random carts", () => {
  it("reconciles: lines, totals and shares agree, and nothing is negative", () => {
    for (const seed of SEEDS) {
      const input = randomCart(seed);
      expectConsistent(priceCart(input), input, seed);
    }
  });

  it("prices a removed cart at zero", () => {
    for (const seed of SEEDS.slice(0, 100)) {
      expect(priceCart({ ...randomCart(seed), isRemoved: true }).total).toBe(0);
    }
  });

  it("never costs more after an individual is removed, without a family cap and with taxability alike", () => {
    for (const seed of SEEDS) {
      const input = withTaxability({ ...randomCart(seed), familyCap: null }, seed % 2 === 0);
      expectRemovalNeverRaises(input, seed, 0);
    }
  });

  it("never costs more after an individual is removed, with mixed taxability and no per-cart pay_amount", () => {
    for (const seed of SEEDS) {
      const input = randomCart(seed);
      const discounts = input.discounts.filter((rule) => !(rule.type === "pay_amount" && rule.perCart));
      expectRemovalNeverRaises({ ...input, familyCap: null, discounts }, seed, 0);
    }
  });

  it("costs at most a cent of rounding more per percent code after a removal, with a family cap and per-cart codes", () => {
    for (const seed of SEEDS) {
      const input = randomCart(seed);
      const discounts = input.discounts.map((rule) => ({ ...rule, perCart: true }));
      // Percents round line by line, and the cap's cut moves between lines when one leaves.
      const slack = discounts.filter((rule) => rule.type === "deduct_percent").length;
      expectRemovalNeverRaises({ ...withTaxability(input, seed % 2 === 0), familyCap: input.familyCap ?? 10_000, discounts }, seed, slack);
    }
  });
});

/** Every line taxed (or every line untaxed). */
function withTaxability(input: CartPricingInput, isTaxable: boolean): CartPricingInput {
  const retax = (items: PricedItem[]) => items.map((item) => ({ ...item, isTaxable }));
  return {
    ...input,
    cartItems: retax(input.cartItems),
    individuals: input.individuals.map((individual) => ({ ...individual, items: retax(individual.items) })),
  };
}

function expectRemovalNeverRaises(input: CartPricingInput, seed: number, slack: number): void {
  const before = priceCart(input).total;
  input.individuals.forEach((individual, index) => {
    const individuals = input.individuals.map((other, otherIndex) => (otherIndex === index ? { ...other, isRemoved: true } : other));
    expect(priceCart({ ...input, individuals }).total, `seed ${seed}, removing ${individual.id}`).toBeLessThanOrEqual(before + slack);
  });
}
