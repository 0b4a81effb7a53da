import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
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

describe("a paid person's answers after the organiser changes a price (decision 0078)", () => {
  /** The form at some prices: the 10 km and the 5 km at every tier, the shirt, and the fee part of the 10 km. */
  const formAt = (tenK: number, fiveK: number, shirtPrice: number, tenKFee: boolean): FormElement[] => [
    {
      ...distance,
      options_list: [
        { id: "5k", display: "5 km", price_2: fiveK },
        { id: "10k", display: "10 km", price_2: tenK, is_fee: tenKFee },
      ],
    },
    { ...shirt, price_1: shirtPrice, price_2: shirtPrice },
    donation,
    codes,
  ];
  const person = (values: FormCartInput["individuals"][number]["values"]) => ({ id: "a", isRemoved: false, isComplete: true, isNew: true, values });
  const paidFrom = (charged: ReturnType<typeof priceFormCart>, values: FormCartInput["individuals"][number]["values"]) => ({
    values,
    lines: charged.lines.filter((l) => l.individualId === "a"),
  });

  it("keeps the 10 km at the $45.00 paid when it now lists at $55.00, and prices a new answer at today's list", () => {
    const values = { distance: { v: "10k", p: 4500 }, shirt: { v: true, p: 2000 } };
    const charged = priceFormCart(cart({ individuals: [person(values)] }));
    const now = formAt(5500, 3500, 2000, false);
    const kept = priceFormCart(cart({ elements: now, individuals: [{ ...person(values), isNew: false, paid: paidFrom(charged, values) }] }));
    expect(kept.lines.find((l) => l.elementId === "distance")!.amount).toBe(4500);
    expect(kept.total).toBe(charged.total - charged.systemFee);
    const moved = { ...values, distance: { v: "5k", p: 3500 } };
    const changed = priceFormCart(cart({ elements: now, individuals: [{ ...person(moved), isNew: false, paid: paidFrom(charged, values) }] }));
    expect(changed.lines.find((l) => l.elementId === "distance")!.amount).toBe(3500);
    // Without what was paid, the same cart reads at today's list.
    expect(priceFormCart(cart({ elements: now, individuals: [{ ...person(values), isNew: false }] })).lines[0]!.amount).toBe(5500);
  });

  it("prices every kept answer at what was charged and every changed one at today's list, whatever the prices did", () => {
    const price = fc.integer({ min: 0, max: 20_000 });
    const answers = fc.record({ distance: fc.constantFrom("5k", "10k"), shirt: fc.boolean(), gift: fc.integer({ min: 0, max: 5000 }) });
    fc.assert(
      fc.property(
        fc.tuple(price, price, price, fc.boolean()),
        fc.tuple(price, price, price, fc.boolean()),
        answers,
        answers,
        fc.constantFrom("", "save10", "once", "save10 once"),
        (then, now, paidAnswers, newAnswers, codeText) => {
          const valuesOf = (a: typeof paidAnswers) => ({ distance: { v: a.distance, p: 0 }, shirt: { v: a.shirt, p: 0 }, gift: { v: a.gift, p: a.gift } });
          const base = { cartValues: { codes: { v: codeText, p: 0 } } };
          const paidValues = valuesOf(paidAnswers);
          const charged = priceFormCart(cart({ ...base, elements: formAt(...then), individuals: [person(paidValues)] }));
          const paid = paidFrom(charged, paidValues);
          const later = (values: FormCartInput["individuals"][number]["values"]) =>
            priceFormCart(cart({ ...base, elements: formAt(...now), individuals: [{ ...person(values), isNew: false, paid }] }));
          // Nothing changed: the same lines and totals as charged, less the processing fee paid once.
          const kept = later(paidValues);
          const noFee = (lines: typeof charged.lines) => lines.filter((l) => l.type !== "z4fee");
          expect(noFee(kept.lines)).toEqual(noFee(charged.lines));
          expect(kept.total).toBe(charged.total - charged.systemFee);
          // Some answers changed: each kept one's lines as charged, each changed one's as today's list prices it.
          const newValues = valuesOf(newAnswers);
          const changed = later(newValues);
          const today = priceFormCart(cart({ ...base, elements: formAt(...now), individuals: [{ ...person(newValues), isNew: false }] }));
          const itemLines = (p: typeof charged, id: string) => p.lines.filter((l) => l.elementId === id && l.type !== "discount");
          for (const id of ["distance", "shirt", "gift"] as const) {
            const same = JSON.stringify(paidValues[id].v) === JSON.stringify(newValues[id].v);
            expect(itemLines(changed, id)).toEqual(itemLines(same ? charged : today, id));
          }
        },
      ),
      fcParams(),
    );
  });
});
