import { describe, expect, it } from "vitest";
import type { CartPricingInput, DiscountRule, PricedItem, PricingIndividual } from "./model";
import { priceCart } from "./pricing";

function item(elementId: string, amount: number, overrides: Partial<PricedItem> = {}): PricedItem {
  return { elementId, amount, isTaxable: false, kind: "item", ...overrides };
}

function person(id: string, items: PricedItem[], overrides: Partial<PricingIndividual> = {}): PricingIndividual {
  return { id, isRemoved: false, isComplete: true, isNew: true, items, ...overrides };
}

function cart(overrides: Partial<CartPricingInput> = {}): CartPricingInput {
  return { isRemoved: false, cartItems: [], individuals: [], discounts: [], gstRatePercent: 0, chargesSystemFee: false, familyCap: null, ...overrides };
}

function code(overrides: Partial<DiscountRule> & Pick<DiscountRule, "type" | "amt">): DiscountRule {
  return { elementId: "disc", code: overrides.type.toUpperCase(), eltsList: [], perCart: true, remainingUses: null, ...overrides };
}

const membership = (amount: number) => item("member", amount, { kind: "membership" });

describe("priceCart: lines and counting", () => {
  it("adds item, membership and fee lines into the subtotal", () => {
    const priced = priceCart(
      cart({ cartItems: [item("parking", 500)], individuals: [person("a", [item("entry", 4000), membership(2500), item("late", 1000, { kind: "fee" })])] }),
    );
    expect(priced.subtotal).toBe(8000);
    expect(priced.total).toBe(8000);
    expect(priced.individualTotals).toEqual({ a: 7500 });
    expect(priced.lines.map((line) => [line.type, line.individualId, line.amount])).toEqual([
      ["item", null, 500],
      ["item", "a", 4000],
      ["membership", "a", 2500],
      ["fee", "a", 1000],
    ]);
  });

  it("prices a removed cart at zero, with no lines", () => {
    const priced = priceCart(
      cart({ isRemoved: true, cartItems: [item("parking", 500)], individuals: [person("a", [item("entry", 4000)])], chargesSystemFee: true }),
    );
    expect(priced).toEqual({ lines: [], subtotal: 0, discount: 0, tax: 0, donations: 0, systemFee: 0, total: 0, individualTotals: {}, appliedDiscounts: [] });
  });

  it("ignores incomplete and removed individuals", () => {
    const priced = priceCart(
      cart({
        individuals: [
          person("a", [item("entry", 4000)]),
          person("b", [item("entry", 4000)], { isComplete: false }),
          person("c", [item("entry", 4000)], { isRemoved: true }),
        ],
        chargesSystemFee: true,
      }),
    );
    expect(priced.total).toBe(4100);
    expect(priced.individualTotals).toEqual({ a: 4100 });
    expect(priced.lines.every((line) => line.individualId === "a")).toBe(true);
  });

  it("treats a negative or fractional amount from bad data as safe cents", () => {
    expect(priceCart(cart({ individuals: [person("a", [item("x", -500), item("y", 99.5)])] })).total).toBe(100);
  });
});

describe("priceCart: tax", () => {
  it("takes gst_rate percent of the taxable lines", () => {
    const priced = priceCart(cart({ gstRatePercent: 13, individuals: [person("a", [item("jersey", 10_000, { isTaxable: true }), item("entry", 5000)])] }));
    expect(priced.tax).toBe(1300);
    expect(priced.total).toBe(16_300);
    expect(priced.lines.at(-1)).toEqual({ type: "tax", individualId: null, elementId: null, code: null, amount: 1300 });
  });

  it("rounds once, half away from zero: 5% of 19.99 is 1.00", () => {
    expect(priceCart(cart({ gstRatePercent: 5, individuals: [person("a", [item("x", 1999, { isTaxable: true })])] })).tax).toBe(100);
  });

  it("rounds the cart's tax once and shares it between individuals", () => {
    // 13% of 0.10 is 0.013 each (0.01 rounded each way) but 0.039 → 0.04 for the cart.
    const priced = priceCart(cart({ gstRatePercent: 13, individuals: ["a", "b", "c"].map((id) => person(id, [item("x", 10, { isTaxable: true })])) }));
    expect(priced.tax).toBe(4);
    expect(priced.individualTotals).toEqual({ a: 12, b: 11, c: 11 });
  });

  it("taxes what is left after discounts", () => {
    const priced = priceCart(
      cart({
        gstRatePercent: 13,
        discounts: [code({ type: "deduct_percent", amt: 50 })],
        individuals: [person("a", [item("jersey", 10_000, { isTaxable: true })])],
      }),
    );
    expect(priced.discount).toBe(5000);
    expect(priced.tax).toBe(650);
    expect(priced.total).toBe(5650);
  });

  it("never taxes donations or the system fee, and ignores a bad rate", () => {
    const individuals = [person("a", [item("gift", 2000, { kind: "donation", isTaxable: true })])];
    expect(priceCart(cart({ gstRatePercent: 13, chargesSystemFee: true, individuals })).tax).toBe(0);
    expect(priceCart(cart({ gstRatePercent: Number.NaN, individuals: [person("a", [item("x", 1000, { isTaxable: true })])] })).tax).toBe(0);
    expect(priceCart(cart({ gstRatePercent: -5, individuals: [person("a", [item("x", 1000, { isTaxable: true })])] })).tax).toBe(0);
  });
});

describe("priceCart: donations and the system fee", () => {
  it("adds donations after tax, outside the subtotal, untouched by discounts", () => {
    const priced = priceCart(
      cart({
        gstRatePercent: 13,
        discounts: [code({ type: "deduct_percent", amt: 100 }), code({ type: "deduct_amount", amt: 9999 })],
        individuals: [person("a", [item("gift", 2500, { kind: "donation" })])],
      }),
    );
    expect(priced).toMatchObject({ subtotal: 0, discount: 0, tax: 0, donations: 2500, total: 2500, appliedDiscounts: [] });
  });

  it("charges 1.00 per new individual only, untaxed, as z4fee lines", () => {
    const priced = priceCart(
      cart({
        chargesSystemFee: true,
        gstRatePercent: 13,
        individuals: [person("a", [item("x", 1000)]), person("b", [item("x", 1000)], { isNew: false }), person("c", [item("x", 1000)])],
      }),
    );
    expect(priced.systemFee).toBe(200);
    expect(priced.tax).toBe(0);
    expect(priced.total).toBe(3200);
    expect(priced.lines.filter((line) => line.type === "z4fee")).toEqual([
      { type: "z4fee", individualId: "a", elementId: null, code: null, amount: 100 },
      { type: "z4fee", individualId: "c", elementId: null, code: null, amount: 100 },
    ]);
    expect(priced.individualTotals).toEqual({ a: 1100, b: 1000, c: 1100 });
  });

  it("charges no system fee when the club does not", () => {
    expect(priceCart(cart({ individuals: [person("a", [item("x", 1000)])] })).systemFee).toBe(0);
  });
});

describe("priceCart: family cap", () => {
  it("cuts membership lines from the last individual backwards", () => {
    const priced = priceCart(
      cart({ familyCap: 10_000, individuals: [person("a", [membership(4000)]), person("b", [membership(4000)]), person("c", [membership(4000)])] }),
    );
    expect(priced.subtotal).toBe(10_000);
    expect(priced.individualTotals).toEqual({ a: 4000, b: 4000, c: 2000 });
    expect(priced.lines.filter((line) => line.type === "family_cap")).toEqual([
      { type: "family_cap", individualId: "c", elementId: "member", code: null, amount: -2000 },
    ]);
  });

  it("reaches back past an individual cut to zero", () => {
    const priced = priceCart(
      cart({ familyCap: 5000, individuals: [person("a", [membership(4000)]), person("b", [membership(4000)]), person("c", [membership(4000)])] }),
    );
    expect(priced.individualTotals).toEqual({ a: 4000, b: 1000, c: 0 });
    expect(priced.lines.filter((line) => line.type === "family_cap").map((line) => [line.individualId, line.amount])).toEqual([
      ["b", -3000],
      ["c", -4000],
    ]);
  });

  it("leaves other lines alone and does nothing under the cap", () => {
    const individuals = [person("a", [membership(4000), item("entry", 3000)]), person("b", [membership(4000), item("entry", 3000)])];
    expect(priceCart(cart({ familyCap: 5000, individuals })).subtotal).toBe(11_000);
    expect(priceCart(cart({ familyCap: 8000, individuals })).lines.some((line) => line.type === "family_cap")).toBe(false);
  });

  it("applies before discounts and tax", () => {
    const member = (amount: number) => item("member", amount, { kind: "membership", isTaxable: true });
    const priced = priceCart(
      cart({
        familyCap: 6000,
        gstRatePercent: 10,
        discounts: [code({ type: "deduct_percent", amt: 10 })],
        individuals: [person("a", [member(4000)]), person("b", [member(4000)])],
      }),
    );
    // 8000 capped to 6000, 10% off is 600, 10% tax on 5400 is 540.
    expect(priced).toMatchObject({ subtotal: 6000, discount: 600, tax: 540, total: 5940 });
  });
});

describe("priceCart: discounts", () => {
  const twoPeople = () => [person("a", [item("entry", 4000), item("jersey", 3000)]), person("b", [item("entry", 4000)])];

  it("deduct_percent takes a percent off the lines it applies to", () => {
    const priced = priceCart(cart({ individuals: twoPeople(), discounts: [code({ type: "deduct_percent", amt: 25, eltsList: ["entry"] })] }));
    expect(priced).toMatchObject({ subtotal: 11_000, discount: 2000, total: 9000, appliedDiscounts: [{ code: "DEDUCT_PERCENT", amount: 2000, uses: 1 }] });
    expect(priced.individualTotals).toEqual({ a: 6000, b: 3000 });
  });

  it("deduct_amount takes cents off, never below zero", () => {
    expect(priceCart(cart({ individuals: twoPeople(), discounts: [code({ type: "deduct_amount", amt: 1500 })] })).total).toBe(9500);
    const priced = priceCart(cart({ individuals: twoPeople(), discounts: [code({ type: "deduct_amount", amt: 5000, eltsList: ["jersey"] })] }));
    expect(priced).toMatchObject({ discount: 3000, total: 8000 });
  });

  it("pay_amount caps the lines it applies to", () => {
    const priced = priceCart(cart({ individuals: twoPeople(), discounts: [code({ type: "pay_amount", amt: 5000, eltsList: ["entry"] })] }));
    expect(priced).toMatchObject({ discount: 3000, total: 8000 });
    expect(priced.individualTotals).toEqual({ a: 5500, b: 2500 });
  });

  it("pay_amount does nothing under its amount", () => {
    const priced = priceCart(cart({ individuals: twoPeople(), discounts: [code({ type: "pay_amount", amt: 20_000 })] }));
    expect(priced).toMatchObject({ discount: 0, total: 11_000, appliedDiscounts: [] });
  });

  it("uses only the lowest pay_amount when several are entered", () => {
    const priced = priceCart(
      cart({
        individuals: [person("a", [item("entry", 10_000)])],
        discounts: [code({ code: "FIFTY", type: "pay_amount", amt: 5000 }), code({ code: "FORTY", type: "pay_amount", amt: 4000 })],
      }),
    );
    expect(priced).toMatchObject({ subtotal: 10_000, discount: 6000, total: 4000, appliedDiscounts: [{ code: "FORTY", amount: 6000, uses: 1 }] });
  });

  it("ignores a pay_amount that applies to nothing when choosing the lowest", () => {
    const priced = priceCart(
      cart({
        individuals: [person("a", [item("entry", 10_000)])],
        discounts: [code({ code: "JERSEY", type: "pay_amount", amt: 1000, eltsList: ["jersey"] }), code({ code: "ENTRY", type: "pay_amount", amt: 6000 })],
      }),
    );
    expect(priced.appliedDiscounts).toEqual([{ code: "ENTRY", amount: 4000, uses: 1 }]);
  });

  it("applies percent, then amount, then the pay_amount cap, each on what is left", () => {
    const priced = priceCart(
      cart({
        individuals: [person("a", [item("entry", 10_000)])],
        discounts: [code({ type: "pay_amount", amt: 7000 }), code({ type: "deduct_amount", amt: 1000 }), code({ type: "deduct_percent", amt: 10 })],
      }),
    );
    // 10000 − 10% = 9000, − 1000 = 8000, capped at 7000.
    expect(priced.appliedDiscounts).toEqual([
      { code: "DEDUCT_PERCENT", amount: 1000, uses: 1 },
      { code: "DEDUCT_AMOUNT", amount: 1000, uses: 1 },
      { code: "PAY_AMOUNT", amount: 1000, uses: 1 },
    ]);
    expect(priced.total).toBe(7000);
  });

  it("rounds a percent line by line", () => {
    const priced = priceCart(
      cart({ individuals: [person("a", [item("x", 10), item("y", 10), item("z", 10)])], discounts: [code({ type: "deduct_percent", amt: 5 })] }),
    );
    expect(priced.discount).toBe(3);
  });

  it("compounds two percent codes in the order entered", () => {
    const priced = priceCart(
      cart({
        individuals: [person("a", [item("entry", 10_000)])],
        discounts: [code({ code: "A", type: "deduct_percent", amt: 10 }), code({ code: "B", type: "deduct_percent", amt: 10 })],
      }),
    );
    expect(priced.total).toBe(8100);
  });

  it("never discounts donations, fees or the system fee, even when listed", () => {
    const priced = priceCart(
      cart({
        chargesSystemFee: true,
        individuals: [person("a", [item("late", 1000, { kind: "fee" }), item("gift", 2000, { kind: "donation" })])],
        discounts: [code({ type: "deduct_percent", amt: 100, eltsList: ["late", "gift"] })],
      }),
    );
    expect(priced).toMatchObject({ discount: 0, total: 3100 });
  });

  it("applies a per-individual code to each individual's own lines", () => {
    const priced = priceCart(cart({ individuals: twoPeople(), discounts: [code({ type: "deduct_amount", amt: 1000, perCart: false })] }));
    expect(priced.discount).toBe(2000);
    expect(priced.individualTotals).toEqual({ a: 6000, b: 3000 });
    expect(priced.lines.filter((line) => line.type === "discount").map((line) => [line.individualId, line.amount])).toEqual([
      ["a", -1000],
      ["b", -1000],
    ]);
  });

  it("uses a per-individual code at most remainingUses times, first individuals first", () => {
    const individuals = ["a", "b", "c"].map((id) => person(id, [item("entry", 4000)]));
    const priced = priceCart(cart({ individuals, discounts: [code({ type: "deduct_percent", amt: 50, perCart: false, remainingUses: 2 })] }));
    expect(priced.individualTotals).toEqual({ a: 2000, b: 2000, c: 4000 });
    // Each person the code reduced is one use of its qty.
    expect(priced.appliedDiscounts).toEqual([{ code: "DEDUCT_PERCENT", amount: 4000, uses: 2 }]);
    expect(priceCart(cart({ individuals, discounts: [code({ type: "deduct_percent", amt: 50, perCart: false, remainingUses: 0 })] })).discount).toBe(0);
  });

  it("does not spend a use on an individual the code takes nothing from", () => {
    const individuals = [person("a", [item("entry", 4000)]), person("b", [item("jersey", 3000)])];
    const priced = priceCart(
      cart({ individuals, discounts: [code({ type: "deduct_amount", amt: 500, perCart: false, remainingUses: 1, eltsList: ["jersey"] })] }),
    );
    expect(priced.individualTotals).toEqual({ a: 4000, b: 2500 });
  });

  it("needs a use left for a per-cart code", () => {
    expect(priceCart(cart({ individuals: twoPeople(), discounts: [code({ type: "deduct_amount", amt: 1000, remainingUses: 0 })] })).discount).toBe(0);
    expect(priceCart(cart({ individuals: twoPeople(), discounts: [code({ type: "deduct_amount", amt: 1000, remainingUses: 1 })] })).discount).toBe(1000);
  });

  it("spreads a per-cart code over individuals in proportion", () => {
    const priced = priceCart(cart({ individuals: twoPeople(), discounts: [code({ type: "deduct_amount", amt: 1100 })] }));
    expect(priced.individualTotals).toEqual({ a: 6300, b: 3600 });
    expect(priced.lines.filter((line) => line.type === "discount")).toEqual([
      { type: "discount", individualId: null, elementId: "disc", code: "DEDUCT_AMOUNT", amount: -1100 },
    ]);
  });

  it("gives cart-level lines only to per-cart codes", () => {
    const cartItems = [item("parking", 1000)];
    expect(priceCart(cart({ cartItems, discounts: [code({ type: "deduct_percent", amt: 50, perCart: false })] })).discount).toBe(0);
    expect(priceCart(cart({ cartItems, discounts: [code({ type: "deduct_percent", amt: 50 })] })).discount).toBe(500);
  });

  it("ignores a malformed amount rather than make everything free", () => {
    const priced = priceCart(
      cart({ individuals: twoPeople(), discounts: [code({ type: "pay_amount", amt: Number.NaN }), code({ type: "deduct_percent", amt: Number.NaN })] }),
    );
    expect(priced.total).toBe(11_000);
  });

  it("caps a percent at 100", () => {
    expect(priceCart(cart({ individuals: twoPeople(), discounts: [code({ type: "deduct_percent", amt: 150 })] })).total).toBe(0);
  });
});

describe("priceCart: total", () => {
  it("is subtotal − discount + tax + donations + system fee, and the lines add up to it", () => {
    const priced = priceCart(
      cart({
        gstRatePercent: 13,
        chargesSystemFee: true,
        cartItems: [item("parking", 500, { isTaxable: true })],
        individuals: [
          person("a", [item("entry", 4000, { isTaxable: true }), item("gift", 1000, { kind: "donation" })]),
          person("b", [item("entry", 4000, { isTaxable: true })], { isNew: false }),
        ],
        discounts: [code({ type: "deduct_amount", amt: 1000 })],
      }),
    );
    // 8500 − 1000 = 7500 taxable; 13% = 975.
    expect(priced).toMatchObject({ subtotal: 8500, discount: 1000, tax: 975, donations: 1000, systemFee: 100, total: 9575 });
    expect(priced.lines.reduce((total, line) => total + line.amount, 0)).toBe(9575);
  });
});

describe("priceCart: removing an individual", () => {
  it("lowers the total in the ordinary case", () => {
    const individuals = [person("a", [item("entry", 4000)]), person("b", [item("entry", 4000)])];
    expect(priceCart(cart({ individuals })).total).toBe(8000);
    expect(priceCart(cart({ individuals: [individuals[0] as PricingIndividual] })).total).toBe(4000);
  });

  it("can raise it when a family cap meets a per-individual code (the cap comes first, by design)", () => {
    const discounts = [code({ type: "deduct_amount", amt: 10_000, perCart: false })];
    const first = person("a", [membership(10_000)]);
    const second = person("b", [membership(10_000), item("entry", 10_000)]);
    // Together: b's membership is capped away and each code use wipes what is left; alone, b's membership is back.
    expect(priceCart(cart({ familyCap: 10_000, discounts, individuals: [first, second] })).total).toBe(0);
    expect(priceCart(cart({ familyCap: 10_000, discounts, individuals: [second] })).total).toBe(10_000);
  });

  it("can raise it when a per-cart pay_amount moves its cut from untaxed to taxed lines", () => {
    const discounts = [code({ type: "pay_amount", amt: 10_000 })];
    const untaxed = person("a", [item("entry", 10_000)]);
    const taxed = person("b", [item("jersey", 10_000, { isTaxable: true })]);
    // Together: half of the 100.00 is on the jersey, 6.50 tax; alone, all of it is, 13.00 tax.
    expect(priceCart(cart({ gstRatePercent: 13, discounts, individuals: [untaxed, taxed] })).total).toBe(10_650);
    expect(priceCart(cart({ gstRatePercent: 13, discounts, individuals: [taxed] })).total).toBe(11_300);
  });
});
