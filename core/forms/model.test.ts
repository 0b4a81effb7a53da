import { describe, expect, it } from "vitest";
import { formElementSchema } from "./element-schema";
import { operatorFromLegacy } from "./model";
import { makeElement } from "./test-elements";

describe("operatorFromLegacy", () => {
  it("maps the multi-option codes 1 to 6", () => {
    expect([1, 2, 3, 4, 5, 6].map((code) => operatorFromLegacy(code))).toEqual(["eq", "ne", "lt", "gt", "contains", "startswith"]);
    expect(operatorFromLegacy("3")).toBe("lt");
  });

  it("knows no other code", () => {
    for (const code of [0, 7, -1, 1.5, NaN]) expect(operatorFromLegacy(code), String(code)).toBeUndefined();
    expect(operatorFromLegacy("eq")).toBeUndefined();
    expect(operatorFromLegacy("")).toBeUndefined();
  });
});

describe("formElementSchema", () => {
  const valid = makeElement("option", {
    caption: "T-shirt",
    price_1: 1500,
    options_list: [
      { id: "s", display: "Small", price_1: 0 },
      { id: "m", display: "Medium", member_class: "racing" },
    ],
    condition: { element: "other", operator: "eq", value: "yes" },
  });

  it("accepts what the form builder posts", () => {
    expect(formElementSchema.parse(valid)).toEqual(valid);
    const discount = makeElement("discount", { config: { discounts_list: [{ code: "EARLY", type: "deduct_percent", amt: 10, elts_list: ["a"] }] } });
    expect(formElementSchema.safeParse(discount).success).toBe(true);
  });

  it("refuses unknown keys, at every level", () => {
    expect(formElementSchema.safeParse({ ...valid, extra: 1 }).success).toBe(false);
    expect(formElementSchema.safeParse({ ...valid, config: { colour: "red" } }).success).toBe(false);
    expect(formElementSchema.safeParse({ ...valid, options_list: [{ id: "s", display: "S", colour: "red" }] }).success).toBe(false);
  });

  it("holds the limits", () => {
    const fails = (overrides: object) => formElementSchema.safeParse({ ...valid, ...overrides }).success === false;
    expect(fails({ caption: "x".repeat(2001) })).toBe(true);
    expect(fails({ caption: "x".repeat(2000) })).toBe(false);
    expect(fails({ price_1: -1 })).toBe(true);
    expect(fails({ price_1: 10.5 })).toBe(true);
    expect(fails({ price_2: 10_000_001 })).toBe(true);
    expect(fails({ price_3: 10_000_000 })).toBe(false);
    expect(fails({ type: "signature" })).toBe(true);
    expect(fails({ options_list: Array.from({ length: 501 }, (_, i) => ({ id: `o${i}`, display: "x" })) })).toBe(true);
    const entry = (code: string) => ({ code, type: "deduct_amount", amt: 500, elts_list: [] });
    expect(fails({ config: { discounts_list: Array.from({ length: 201 }, (_, i) => entry(`C${i}`)) } })).toBe(true);
    expect(fails({ config: { discounts_list: [entry("x".repeat(65))] } })).toBe(true);
    expect(fails({ config: { discounts_list: [entry("TWO WORDS")] } })).toBe(true);
    expect(fails({ condition: { element: "x", operator: "like", value: "" } })).toBe(true);
  });

  it("needs unique option ids and codes, and no self-condition", () => {
    const fails = (overrides: object) => formElementSchema.safeParse({ ...valid, ...overrides }).success === false;
    expect(
      fails({
        options_list: [
          { id: "a", display: "A" },
          { id: "a", display: "B" },
        ],
      }),
    ).toBe(true);
    const entry = (code: string) => ({ code, type: "pay_amount", amt: 500, elts_list: [] });
    expect(fails({ config: { discounts_list: [entry("Early"), entry("EARLY")] } })).toBe(true);
    expect(fails({ condition: { element: valid.id, operator: "empty", value: "" } })).toBe(true);
    expect(fails({ config: { min: 5, max: 1 } })).toBe(true);
  });
});
