import { describe, expect, it } from "vitest";
import { FIELD_TYPES } from "./model";
import { FIELD_TYPE_MODULES, fieldTypeFromLegacyCode, fieldTypeOf } from "./registry";
import { EN, makeElement } from "./test-elements";

describe("registry", () => {
  it("has a module for every type, under its own name", () => {
    for (const type of FIELD_TYPES) expect(fieldTypeOf(type).type).toBe(type);
  });

  it("maps the spec's legacy codes", () => {
    const codes: Record<number, string> = { 24: "country", 13: "date", 30: "dob", 29: "email", 31: "gender", 15: "donation", 9: "yesno", 42: "membership" };
    for (const [code, type] of Object.entries(codes)) expect(fieldTypeFromLegacyCode(Number(code))?.type).toBe(type);
    for (const code of [0, 1, 8, 14, 99]) expect(fieldTypeFromLegacyCode(code)).toBeUndefined();
  });

  it("treats display blocks as non-inputs that parse to null and cost nothing", () => {
    for (const type of ["heading", "textblock", "separator", "banner"] as const) {
      const module = fieldTypeOf(type);
      const element = makeElement(type, { price_1: 1000 });
      expect(module.isInput).toBe(false);
      expect(module.parse(element, "anything", EN)).toEqual({ ok: true, value: null });
      expect(module.price(element, null, 1)).toBe(0);
    }
  });

  it("never prices an empty value", () => {
    for (const type of FIELD_TYPES) {
      const element = makeElement(type, { price_1: 1000, price_2: 2000, price_3: 3000 });
      expect(FIELD_TYPE_MODULES[type].price(element, null, 3), type).toBe(0);
    }
  });
});
