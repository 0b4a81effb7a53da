import { describe, expect, it } from "vitest";
import { makeElement } from "../forms/test-elements";
import type { FormElement } from "../forms/model";
import { priceFormCart, type FormCartInput } from "./price-form";

const distance = makeElement("option", {
  id: "distance",
  ordinal: 1,
  options_list: [
    { id: "5k", display: "5 km", price_1: 3000, price_2: 3500, price_3: 4000 },
    { id: "10k", display: "10 km", price_1: 4000, price_2: 4500, price_3: 5000 },
  ],
});
const shirt = makeElement("checkbox", { id: "shirt", ordinal: 2, price_1: 2000, is_taxable: true });
const donation = makeElement("donation", { id: "gift", ordinal: 3 });
const codes = makeElement("discount", {
  id: "codes",
  ordinal: 4,
  config: {
    discounts_list: [
      { code: "Save10", type: "deduct_percent", amt: 10, elts_list: ["distance"] },
      { code: "ONCE", type: "deduct_amount", amt: 500, elts_list: [], qty: 3 },
    ],
  },
});
const elements: FormElement[] = [distance, shirt, donation, codes];

function cart(overrides: Partial<FormCartInput> = {}): FormCartInput {
  return {
    elements,
    tier: 2,
    gstRatePercent: 13,
    clubTakesCards: true,
    isRemoved: false,
    cartValues: { codes: { v: "save10", p: 0 } },
    individuals: [
      { id: "a", isRemoved: false, isComplete: true, isNew: true, values: { distance: { v: "10k", p: 0 }, shirt: { v: true, p: 0 }, gift: { v: 1000, p: 1000 } } },
      { id: "b", isRemoved: false, isComplete: true, isNew: true, values: { distance: { v: "5k", p: 0 }, shirt: { v: false, p: 0 } } },
    ],
    discountUses: {},
    ...overrides,
  };
}

describe("pricing a registration form's cart", () => {
  it("reprices at the tier in force, applies the cart's codes, taxes taxable fields and adds the system fee", () => {
    const priced = priceFormCart(cart());
    // 45.00 + 20.00 + 35.00; 10% off both distances; 13% of the shirt; 10.00 donated; 1.00 for each new person.
    expect(priced).toMatchObject({ subtotal: 10000, discount: 800, tax: 260, donations: 1000, systemFee: 200, total: 10660, unknownCodes: [] });
    expect(priceFormCart(cart({ tier: 1 })).subtotal).toBe(4000 + 2000 + 3000);
  });

  it("charges no system fee when the form sells memberships or the club takes no cards", () => {
    expect(priceFormCart(cart({ clubTakesCards: false })).systemFee).toBe(0);
    const membership = makeElement("membership", { id: "member", ordinal: 5, options_list: [{ id: "racing", display: "Racing", member_class: "racing" }] });
    expect(priceFormCart(cart({ elements: [...elements, membership] })).systemFee).toBe(0);
  });

  it("counts a code's earlier uses against its quantity and reports codes nobody knows", () => {
    const fresh = priceFormCart(cart({ cartValues: { codes: { v: "once nope", p: 0 } } }));
    expect(fresh.discount).toBe(1000);
    expect(fresh.unknownCodes).toEqual(["NOPE"]);
    const oneLeft = priceFormCart(cart({ cartValues: { codes: { v: "ONCE", p: 0 } }, discountUses: { ONCE: 2 } }));
    expect(oneLeft.discount).toBe(500);
    expect(priceFormCart(cart({ cartValues: { codes: { v: "ONCE", p: 0 } }, discountUses: { ONCE: 3 } })).discount).toBe(0);
  });

  it("prices a removed cart at zero and leaves out removed or incomplete people", () => {
    expect(priceFormCart(cart({ isRemoved: true })).total).toBe(0);
    const [a, b] = cart().individuals;
    const onlyA = priceFormCart(cart({ individuals: [a!, { ...b!, isRemoved: true }] }));
    const draftB = priceFormCart(cart({ individuals: [a!, { ...b!, isComplete: false }] }));
    expect(onlyA.total).toBe(draftB.total);
    expect(onlyA.systemFee).toBe(100);
  });
});
