import { describe, expect, it } from "vitest";
import { newElement } from "../forms/model";
import { cartLines, chargedPricingOf, formatDateIn, formatMoneyIn, personLines } from "./receipt-lines";
import type { CartPricing } from "./model";

const NBSP = "\u00a0";
const distance = newElement("dist", "option", {
  caption: "[en]Distance[fr]Parcours",
  options_list: [{ id: "10k", display: "10 km", display_fr: "10 km (fr)" }],
});
const toque = newElement("toque", "checkbox", { caption: "[en]Toque[fr]Tuque" });
const pricing: CartPricing = {
  lines: [
    { type: "item", individualId: "p1", elementId: "dist", code: null, amount: 4500 },
    { type: "discount", individualId: "p1", elementId: "codes", code: "HALF", amount: -2250 },
    { type: "item", individualId: "p1", elementId: "toque", code: null, amount: 2000 },
    { type: "tax", individualId: null, elementId: null, code: null, amount: 260 },
    { type: "z4fee", individualId: "p1", elementId: null, code: null, amount: 100 },
  ],
  subtotal: 6500,
  discount: 2250,
  tax: 260,
  donations: 0,
  systemFee: 100,
  total: 4610,
  individualTotals: { p1: 4610 },
  appliedDiscounts: [{ code: "HALF", amount: 2250, uses: 1 }],
};
const person = { id: "p1", values: { dist: { v: "10k", p: 4500 }, toque: { v: true, p: 2000 } } };

describe("itemised receipt lines", () => {
  it("names each line of a person in English, and the cart's tax", () => {
    const charged = chargedPricingOf(pricing, 13);
    expect(personLines(charged, [distance, toque], person, "en")).toEqual([
      { label: "Distance: 10 km", amount: 4500 },
      { label: "Discount (HALF)", amount: -2250 },
      { label: "Toque", amount: 2000 },
      { label: "Processing fee", amount: 100 },
    ]);
    // The fee is the person's own line; the cart lists its own lines and the tax, so nothing is shown twice.
    expect(cartLines(charged, [distance, toque], {}, "en")).toEqual([{ label: "Tax (13%)", amount: 260 }]);
  });

  it("in French: captions, choices and words in French", () => {
    const charged = chargedPricingOf(pricing, 14.975);
    expect(personLines(charged, [distance, toque], person, "fr").map((l) => l.label)).toEqual([
      "Parcours : 10 km (fr)",
      "Rabais (HALF)",
      "Tuque",
      "Frais de traitement",
    ]);
    expect(cartLines(charged, [], {}, "fr")[0]!.label).toBe("Taxe (14,975 %)");
  });

  it("names the club's GST/HST number on the tax line, with each language's colon", () => {
    const charged = chargedPricingOf(pricing, 13);
    expect(cartLines(charged, [], {}, "en", "123456789 RT0001")[0]!.label).toBe("Tax (13%), GST/HST no.: 123456789 RT0001");
    expect(cartLines(charged, [], {}, "fr", "123456789 RT0001")[0]!.label).toBe("Taxe (13 %), No de TPS/TVH : 123456789 RT0001");
    // A Quebec club's QST number is a second line, naming it with no amount (decision 0061).
    expect(cartLines(charged, [], {}, "en", "123456789 RT0001", "1234567890 TQ0001")[1]).toEqual({ label: "QST no.: 1234567890 TQ0001", amount: null });
    expect(cartLines(charged, [], {}, "fr", null, "1234567890 TQ0001")[1]).toEqual({ label: "No de TVQ : 1234567890 TQ0001", amount: null });
  });

  it("writes money and dates the way each language does", () => {
    expect(formatMoneyIn(4620, "en")).toBe("$46.20");
    expect(formatMoneyIn(-2250, "en")).toBe("-$22.50");
    expect(formatMoneyIn(123456, "en")).toBe("$1,234.56");
    expect(formatMoneyIn(4620, "fr")).toBe(`46,20${NBSP}$`);
    // The thousands space is narrow or not depending on the ICU version; a space it is.
    expect(formatMoneyIn(123456, "fr")).toMatch(/^1[\u00a0\u202f]234,56\u00a0\$$/);
    const day = Date.UTC(2027, 0, 15, 17);
    expect(formatDateIn(day, "en")).toBe("January 15, 2027");
    expect(formatDateIn(day, "fr")).toBe("15 janvier 2027");
  });
});
