import { describe, expect, it } from "vitest";
import { makeElement } from "../../core/forms/test-elements";
import { computeLiveForm, liveFromValues, type LiveFormInput } from "./use-live-form";

const toque = makeElement("checkbox", { id: "toque", ordinal: 1, price_1: 2000, price_2: 2500, is_taxable: true });
const colour = makeElement("option", {
  id: "colour",
  ordinal: 2,
  is_mandatory: true,
  condition: { element: "toque", operator: "notempty", value: "" },
  options_list: [{ id: "red", display: "Red" }],
});
const input: LiveFormInput = {
  elements: [toque, colour],
  tier: 2,
  gstRatePercent: 13,
  clubTakesCards: true,
  cartValues: {},
  discountUses: {},
  others: [{ id: "other", isRemoved: false, isComplete: true, isNew: false, values: { toque: { v: true, p: 2500 } } }],
  personId: "me",
  isNew: true,
  isAdmin: false,
  isKiosk: false,
};

describe("the registration form's live state", () => {
  it("shows the colour only with a toque, and prices what is typed at the tier in force with the cart's other people", () => {
    const without = computeLiveForm(input, {});
    expect(without.shown.has("colour")).toBe(false);
    expect(without.personTotal).toBe(100);
    const withToque = computeLiveForm(input, { toque: "on" });
    expect(withToque.shown.has("colour")).toBe(true);
    // 25.00 + 13% tax + the 1.00 fee for a new person; the other person (already paid) adds 25.00 + tax.
    expect(withToque.personTotal).toBe(2500 + 325 + 100);
    expect(withToque.price.total).toBe(2 * (2500 + 325) + 100);
  });

  it("starts from a saved person's answers", () => {
    expect(liveFromValues(input, { toque: { v: true, p: 2500 }, colour: { v: "red", p: 0 } }).shown.has("colour")).toBe(true);
  });
});

describe("the live price and a code's uses", () => {
  it("stops taking a code off once its quantity is used up, as the server does", () => {
    const codes = makeElement("discount", {
      id: "codes",
      ordinal: 3,
      config: { discounts_list: [{ code: "ONCE", type: "deduct_amount", amt: 500, elts_list: [], qty: 1 }] },
    });
    const withCode = { ...input, elements: [toque, colour, codes], others: [], cartValues: { codes: { v: "ONCE", p: 0 } } };
    expect(computeLiveForm(withCode, { toque: "on" }).price.discount).toBe(500);
    expect(computeLiveForm({ ...withCode, discountUses: { ONCE: 1 } }, { toque: "on" }).price.discount).toBe(0);
  });
});
