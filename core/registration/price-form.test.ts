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
      {
        id: "a",
        isRemoved: false,
        isComplete: true,
        isNew: true,
        values: { distance: { v: "10k", p: 0 }, shirt: { v: true, p: 0 }, gift: { v: 1000, p: 1000 } },
      },
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

describe("options marked as fees", () => {
  it("price as a fee line that a percentage code does not reduce, the rest of the option as an item", () => {
    const race = makeElement("option", {
      id: "race",
      ordinal: 1,
      price_1: 1000,
      options_list: [
        { id: "elite", display: "Elite", price_1: 3000 },
        { id: "licence", display: "Day licence", price_1: 1500, is_fee: true },
      ],
    });
    const extras = makeElement("multioption", {
      id: "extras",
      ordinal: 2,
      options_list: [
        { id: "chip", display: "Chip rental", price_1: 500, is_fee: true },
        { id: "meal", display: "Meal", price_1: 1200 },
      ],
    });
    const half = makeElement("discount", {
      id: "codes",
      ordinal: 3,
      config: { discounts_list: [{ code: "HALF", type: "deduct_percent", amt: 50, elts_list: [] }] },
    });
    const priced = priceFormCart({
      elements: [race, extras, half],
      tier: 1,
      gstRatePercent: 0,
      clubTakesCards: false,
      isRemoved: false,
      cartValues: { codes: { v: "HALF", p: 0 } },
      individuals: [
        { id: "a", isRemoved: false, isComplete: true, isNew: true, values: { race: { v: "licence", p: 0 }, extras: { v: ["chip", "meal"], p: 0 } } },
      ],
      discountUses: {},
    });
    const lines = priced.lines.filter((l) => l.type === "item" || l.type === "fee").map((l) => [l.elementId, l.type, l.amount]);
    // race: 10.00 field price as an item, 15.00 licence as a fee; extras: 12.00 meal as an item, 5.00 chip as a fee.
    expect(lines).toEqual([
      ["race", "item", 1000],
      ["race", "fee", 1500],
      ["extras", "item", 1200],
      ["extras", "fee", 500],
    ]);
    // Half off the items only: (10.00 + 12.00) / 2 = 11.00.
    expect(priced.discount).toBe(1100);
    expect(priced.total).toBe(1000 + 1500 + 1200 + 500 - 1100);
  });
});
