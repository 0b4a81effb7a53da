import { describe, expect, it } from "vitest";
import { formatMoney, formatMoneyWithSymbol, parseMoney, percentOf, roundCents } from "./money";

describe("roundCents", () => {
  it("rounds halves away from zero", () => {
    expect(roundCents(0.5)).toBe(1);
    expect(roundCents(2.5)).toBe(3);
    expect(roundCents(-0.5)).toBe(-1);
    expect(roundCents(-2.5)).toBe(-3);
    expect(roundCents(1.4999)).toBe(1);
    expect(roundCents(-1.4999)).toBe(-1);
  });

  it("does not let float noise flip a half", () => {
    expect(roundCents(99.94999999999999)).toBe(100);
    expect(roundCents(0.1 * 3 * 100)).toBe(30);
  });

  it("never gives -0", () => {
    expect(Object.is(roundCents(-0.2), 0)).toBe(true);
  });
});

describe("percentOf", () => {
  it("takes a percent of cents, rounded to cents", () => {
    expect(percentOf(10_000, 13)).toBe(1300);
    expect(percentOf(1999, 5)).toBe(100); // 0.9995 → 1.00
    expect(percentOf(1000, 14.975)).toBe(150); // 149.75 → 150
    expect(percentOf(1001, 50)).toBe(501);
    expect(percentOf(-1001, 50)).toBe(-501);
    expect(percentOf(0, 13)).toBe(0);
  });

  it("refuses a non-finite amount or percent", () => {
    expect(() => percentOf(Number.NaN, 5)).toThrow(RangeError);
    expect(() => percentOf(100, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe("formatMoney", () => {
  it("shows two decimals without a symbol or separators", () => {
    expect(formatMoney(1250)).toBe("12.50");
    expect(formatMoney(-300)).toBe("-3.00");
    expect(formatMoney(123_400)).toBe("1234.00");
    expect(formatMoney(5)).toBe("0.05");
    expect(formatMoney(-5)).toBe("-0.05");
    expect(formatMoney(0)).toBe("0.00");
  });

  it("rounds a fractional cent first", () => {
    expect(formatMoney(99.5)).toBe("1.00");
  });

  it("refuses a non-finite amount", () => {
    expect(() => formatMoney(Number.NaN)).toThrow(RangeError);
  });
});

describe("formatMoneyWithSymbol", () => {
  it("puts the symbol after the sign", () => {
    expect(formatMoneyWithSymbol(1250)).toBe("$12.50");
    expect(formatMoneyWithSymbol(-300)).toBe("-$3.00");
    // Section 9: money shown with two decimals, small and negative amounts included.
    expect(formatMoneyWithSymbol(0)).toBe("$0.00");
    expect(formatMoneyWithSymbol(5)).toBe("$0.05");
    expect(formatMoneyWithSymbol(-1234)).toBe("-$12.34");
    expect(formatMoneyWithSymbol(1250, "USD")).toBe("$12.50");
    expect(formatMoneyWithSymbol(1250, "EUR")).toBe("€12.50");
  });

  it("writes an unknown currency as its code", () => {
    expect(formatMoneyWithSymbol(1250, "CHF")).toBe("CHF 12.50");
  });
});

describe("parseMoney", () => {
  it("reads whole units, one or two decimals and a dollar sign", () => {
    expect(parseMoney("25")).toBe(2500);
    expect(parseMoney("25.5")).toBe(2550);
    expect(parseMoney("25.50")).toBe(2550);
    expect(parseMoney("$25.50")).toBe(2550);
    expect(parseMoney(" $ 25.50 ")).toBe(2550);
    expect(parseMoney(".50")).toBe(50);
    expect(parseMoney("25.")).toBe(2500);
    expect(parseMoney("0")).toBe(0);
  });

  it("reads back what formatMoney writes, negatives included", () => {
    for (const cents of [0, 5, 1250, -300, 123_400]) expect(parseMoney(formatMoney(cents))).toBe(cents);
    expect(parseMoney("-$3.00")).toBe(-300);
  });

  it("refuses more than two decimals and anything that is not an amount", () => {
    for (const text of ["25.505", "", " ", "$", ".", "-", "abc", "1,234.00", "1e3", "25.5.0", "--5", "$-5", "12 34"]) {
      expect(parseMoney(text), text).toBeNull();
    }
  });

  it("refuses an amount too large to hold exactly", () => {
    expect(parseMoney("999999999999999999")).toBeNull();
  });
});
