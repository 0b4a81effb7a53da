import { describe, expect, it } from "vitest";
import { compileFormula, type FormulaValues } from "./formula";

const at = (formula: string, values: Partial<FormulaValues> = {}) => {
  const compiled = compileFormula(formula);
  if (!compiled.ok) throw new Error(compiled.message);
  return compiled.evaluate({ place: 1, finishers: 10, time: null, winner: null, ...values });
};

describe("points formulas", () => {
  it("computes with place, finishers and times, with the usual precedence", () => {
    expect(at("max(0, 51 - place)", { place: 3 })).toBe(48);
    expect(at("max(0, 51 - place)", { place: 60 })).toBe(0);
    expect(at("(finishers - place + 1) * 2", { place: 4 })).toBe(14);
    expect(at("100 * winner / time", { time: 125, winner: 100 })).toBe(80);
    expect(at("2 ^ 3 ^ 2 - -1")).toBe(513);
    expect(at("round(100 / place)", { place: 3 })).toBe(33);
  });

  it("gives nothing for a missing time, a division by zero or a negative", () => {
    expect(at("100 * winner / time")).toBe(0);
    expect(at("1 / (place - 1)")).toBe(0);
    expect(at("10 - place", { place: 20 })).toBe(0);
  });

  it("refuses what it cannot read, saying why", () => {
    expect(compileFormula("place +")).toEqual({ ok: false, message: "The formula cannot be read: it ends too early" });
    expect(compileFormula("rank * 2")).toEqual({
      ok: false,
      message: "The formula cannot be read: unknown name 'rank' (use place, finishers, time or winner)",
    });
    expect(compileFormula("floor(1, 2)")).toEqual({ ok: false, message: "The formula cannot be read: floor takes one value" });
    expect(compileFormula("place; alert(1)")).toEqual({ ok: false, message: "The formula cannot be read: ';' is not part of a formula" });
    expect(compileFormula("(place")).toEqual({ ok: false, message: "The formula cannot be read: it ends too early" });
    expect(compileFormula("place 2")).toEqual({ ok: false, message: "The formula cannot be read: '2' is out of place" });
    expect(compileFormula(" ")).toEqual({ ok: false, message: "The formula cannot be read: it is empty" });
  });
});
