import { describe, expect, it } from "vitest";
import { numberField, parseStoredNumber } from "./number";
import { EN, makeElement } from "./test-elements";

describe("numberField", () => {
  const tickets = makeElement("number", { price_1: 1500, price_2: 2000 });

  it("needs a number", () => {
    expect(numberField.parse(tickets, "3", EN)).toEqual({ ok: true, value: 3 });
    expect(numberField.parse(tickets, " 2.5 ", EN)).toEqual({ ok: true, value: 2.5 });
    expect(numberField.parse(tickets, "", EN)).toEqual({ ok: true, value: null });
    for (const text of ["three", "1e3", "0x10", "1,5"])
      expect(numberField.parse(tickets, text, EN), text).toEqual({ ok: false, error: "Input must be a number" });
  });

  it("holds config min and max", () => {
    const bounded = makeElement("number", { config: { min: 1, max: 4 } });
    expect(numberField.parse(bounded, "5", EN)).toEqual({ ok: false, error: "The value must be between 1 and 4" });
    expect(numberField.parse(bounded, "4", EN).ok).toBe(true);
  });

  it("prices per unit at the tier, never below zero", () => {
    expect(numberField.price(tickets, 3, 1)).toBe(4500);
    expect(numberField.price(tickets, 3, 2)).toBe(6000);
    expect(numberField.price(tickets, 3, 3)).toBe(6000);
    expect(numberField.price(tickets, -2, 1)).toBe(0);
    expect(numberField.price(makeElement("number"), 3, 1)).toBe(0);
  });

  it("checks stored values with the data API's message", () => {
    expect(parseStoredNumber({ v: 4, p: 100 })).toEqual({ ok: true, value: { v: 4, p: 100 } });
    expect(parseStoredNumber({ v: "4", p: 0 })).toEqual({ ok: true, value: { v: 4, p: 0 } });
    expect(parseStoredNumber({ v: null, p: 0 })).toEqual({ ok: true, value: { v: null, p: 0 } });
    expect(parseStoredNumber({ v: "four", p: 0 })).toEqual({ ok: false, error: "The value must be a number" });
    expect(parseStoredNumber(4)).toEqual({ ok: false, error: "The value must be a number" });
  });
});
