import { describe, expect, it } from "vitest";
import { FORM_MESSAGES } from "./messages";
import type { FormOption } from "./model";
import { isOptionOffered, isSoldOut, multiOptionField, offeredOptions, optionField, optionLabel, optionOf } from "./options";
import { EN, makeElement } from "./test-elements";

const options: FormOption[] = [
  { id: "s", display: "Small", value: "S", price_1: 0 },
  { id: "m", display: "[en]Medium[fr]Moyen", value: "M", price_1: 500, price_2: 700, price_3: 900 },
  { id: "l", display: "Large", display_fr: "Grand", price_1: 1000, price_2: null, price_3: 1500 },
];
const shirt = makeElement("option", { options_list: options, price_1: 2000, price_2: 2500, price_3: 3000 });

describe("optionOf", () => {
  it("finds by id, then by value", () => {
    expect(optionOf(shirt, "m").display).toContain("Medium");
    expect(optionOf(shirt, "S").id).toBe("s");
  });

  it("throws No such option", () => {
    expect(() => optionOf(shirt, "xl")).toThrow(new Error("No such option"));
  });
});

describe("optionField", () => {
  it("stores the option id and refuses unknown values", () => {
    expect(optionField.parse(shirt, "M", EN)).toEqual({ ok: true, value: "m" });
    expect(optionField.parse(shirt, "xl", EN)).toEqual({ ok: false, error: FORM_MESSAGES.noSuchOption });
    expect(optionField.parse(shirt, "", EN)).toEqual({ ok: true, value: null });
    expect(optionField.parse(shirt, undefined, EN)).toEqual({ ok: true, value: null });
  });

  it("prices the element plus the option at each tier", () => {
    expect(optionField.price(shirt, "m", 1)).toBe(2500);
    expect(optionField.price(shirt, "m", 2)).toBe(3200);
    expect(optionField.price(shirt, "m", 3)).toBe(3900);
    expect(optionField.price(shirt, null, 3)).toBe(0);
  });

  it("keeps the tier below when a tier's price is null", () => {
    expect(optionField.price(shirt, "l", 2)).toBe(2500 + 1000);
    expect(optionField.price(makeElement("option", { options_list: options, price_1: 100 }), "s", 3)).toBe(100);
  });

  it("never prices below zero", () => {
    expect(optionField.price(makeElement("option", { price_1: -500, options_list: [{ id: "a", display: "A", price_1: -1 }] }), "a", 1)).toBe(0);
  });

  it("displays the option label in the language", () => {
    expect(optionField.display(shirt, "m", "fr")).toBe("Moyen");
    expect(optionField.display(shirt, "l", "fr")).toBe("Grand");
    expect(optionField.display(shirt, "l", "en")).toBe("Large");
    expect(optionLabel(options[0] as FormOption, "fr")).toBe("Small");
  });
});

describe("multiOptionField", () => {
  const extras = makeElement("multioption", { options_list: options });

  it("takes several options, once each, in form order", () => {
    expect(multiOptionField.parse(extras, ["l", "s", "l"], EN)).toEqual({ ok: true, value: ["s", "l"] });
    expect(multiOptionField.parse(extras, ["s", "nope"], EN)).toEqual({ ok: false, error: "No such option" });
    expect(multiOptionField.parse(extras, [], EN)).toEqual({ ok: true, value: null });
    expect(multiOptionField.isEmpty(null)).toBe(true);
  });

  it("sums the chosen options", () => {
    expect(multiOptionField.price(extras, ["m", "l"], 1)).toBe(1500);
    expect(multiOptionField.price(extras, ["m", "l"], 3)).toBe(2400);
    expect(multiOptionField.display(extras, ["s", "m"], "en")).toBe("Small, Medium");
  });
});

describe("offered options", () => {
  const kids: FormOption = { id: "k", display: "U12", min_age: 8, max_age: 11, is_female: true, is_other: true };

  it("checks age, gender flags and hidden", () => {
    expect(isOptionOffered(kids, { isAdmin: false, age: 8, gender: "F" })).toBe(true);
    expect(isOptionOffered(kids, { isAdmin: false, age: 12, gender: "F" })).toBe(false);
    expect(isOptionOffered(kids, { isAdmin: false, age: 7, gender: "F" })).toBe(false);
    expect(isOptionOffered(kids, { isAdmin: false, age: 10, gender: "M" })).toBe(false);
    expect(isOptionOffered(kids, { isAdmin: false, age: 10, gender: "O" })).toBe(true);
    expect(isOptionOffered({ id: "h", display: "Staff", is_hidden: true }, { isAdmin: false })).toBe(false);
    expect(isOptionOffered({ id: "h", display: "Staff", is_hidden: true }, { isAdmin: true })).toBe(true);
    expect(offeredOptions(makeElement("option", { options_list: [kids, ...options] }), { isAdmin: false, age: 30 }).map((o) => o.id)).toEqual(["s", "m", "l"]);
  });

  it("is sold out at the limit", () => {
    expect(isSoldOut({ id: "a", display: "A", limit: 2 }, 1)).toBe(false);
    expect(isSoldOut({ id: "a", display: "A", limit: 2 }, 2)).toBe(true);
    expect(isSoldOut({ id: "a", display: "A", limit: null }, 999)).toBe(false);
  });
});
