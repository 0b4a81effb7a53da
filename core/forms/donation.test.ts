import { describe, expect, it } from "vitest";
import { donationField, parseDollars } from "./donation";
import { EN, makeElement } from "./test-elements";

describe("donationField", () => {
  const donation = makeElement("donation", { price_1: 99999 });

  it("reads dollars into cents; empty is 0", () => {
    expect(donationField.parse(donation, "25", EN)).toEqual({ ok: true, value: 2500 });
    expect(donationField.parse(donation, "25.50", EN)).toEqual({ ok: true, value: 2550 });
    expect(donationField.parse(donation, "$1,000", EN)).toEqual({ ok: true, value: 100000 });
    expect(donationField.parse(donation, "", EN)).toEqual({ ok: true, value: 0 });
    expect(parseDollars("1.005")).toEqual({ ok: true, value: 101 });
    expect(parseDollars(".5")).toEqual({ ok: true, value: 50 });
  });

  it("refuses what is not a number", () => {
    for (const text of ["lots", "1e2", "1,00", ".", "25.50.1"])
      expect(donationField.parse(donation, text, EN), text).toEqual({ ok: false, error: "Input must be a number" });
    expect(donationField.parse(donation, "-5", EN)).toEqual({ ok: false, error: "The amount cannot be negative" });
    expect(donationField.parse(donation, "100000000", EN)).toEqual({ ok: false, error: "The amount is too large" });
  });

  it("holds the minimum for an amount given", () => {
    const minimum = makeElement("donation", { config: { min_fee: 1000 } });
    expect(donationField.parse(minimum, "5", EN)).toEqual({ ok: false, error: "The minimum amount is $10.00" });
    expect(donationField.parse(minimum, "10", EN)).toEqual({ ok: true, value: 1000 });
    expect(donationField.parse(minimum, "", EN)).toEqual({ ok: true, value: 0 });
  });

  it("prices the amount itself, not the element's price", () => {
    expect(donationField.price(donation, 2550, 1)).toBe(2550);
    expect(donationField.price(donation, 0, 3)).toBe(0);
    expect(donationField.display(donation, 2550, "en")).toBe("$25.50");
    expect(donationField.isEmpty(0)).toBe(true);
  });
});
