import { describe, expect, it } from "vitest";
import { discountField, matchDiscounts, normaliseCodes } from "./discount";
import type { DiscountEntry } from "./model";
import { EN, makeElement } from "./test-elements";

const early: DiscountEntry = { code: "Early", type: "deduct_percent", amt: 10, elts_list: ["fee"] };
const family: DiscountEntry = { code: "FAMILY", type: "pay_amount", amt: 15000, elts_list: ["fee"], qty: 20 };
const discount = makeElement("discount", { price_1: 500, config: { discounts_list: [early, family] } });

describe("discount codes", () => {
  it("normalise: split on whitespace, upper-cased, once each", () => {
    expect(normaliseCodes("  early\tFamily early ")).toEqual(["EARLY", "FAMILY"]);
  });

  it("match ignoring case and report unknown codes", () => {
    expect(matchDiscounts(discount, "early bogus")).toEqual({ matched: [early], unknown: ["BOGUS"] });
    expect(matchDiscounts(discount, "family EARLY")).toEqual({ matched: [family, early], unknown: [] });
  });

  it("parse into the normalised codes, refusing unknown ones", () => {
    expect(discountField.parse(discount, "early  family", EN)).toEqual({ ok: true, value: "EARLY FAMILY" });
    expect(discountField.parse(discount, "early nope", EN)).toEqual({ ok: false, error: "Unknown discount code: NOPE" });
    expect(discountField.parse(discount, " ", EN)).toEqual({ ok: true, value: null });
    expect(discountField.parse(discount, Array.from({ length: 11 }, (_, i) => `C${i}`).join(" "), EN)).toEqual({ ok: false, error: "Too many discount codes" });
  });

  it("cost nothing themselves", () => {
    expect(discountField.price(discount, "EARLY", 1)).toBe(0);
  });
});
