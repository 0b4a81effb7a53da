import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newElement } from "../forms/model";
import { fcParams } from "../testing/fast-check";
import { answerIn, differenceLines, offerSwaps, type OfferDifference } from "./change-offer-quote";
import { formatMoneyIn } from "./receipt-lines";

const distance = newElement("d", "option", {
  caption: "Distance",
  ordinal: 2,
  options_list: [
    { id: "12k", display: "12 km" },
    { id: "3k", display: "Kids' 3 km", display_fr: "3 km (enfants)" },
  ],
});
const toque = newElement("t", "checkbox", { caption: "[en]Toque[fr]Tuque", ordinal: 1 });

describe("what a change offer's page says before Accept", () => {
  it("names each answer the offer changes, now and offered, in form order and the registrant's language", () => {
    const now = { d: { v: "12k", p: 4000 }, t: { v: true, p: 0 } };
    const wanted = { d: { v: "3k", p: 1500 }, t: null };
    expect(offerSwaps([distance, toque], now, wanted, "en")).toEqual([
      { field: "Toque", now: "Yes", offered: "—" },
      { field: "Distance", now: "12 km", offered: "Kids' 3 km" },
    ]);
    expect(offerSwaps([distance, toque], now, wanted, "fr")).toEqual([
      { field: "Tuque", now: "Oui", offered: "—" },
      { field: "Distance", now: "12 km", offered: "3 km (enfants)" },
    ]);
    expect(answerIn(distance, { v: "gone", p: 0 }, "en")).toBe("gone");
  });

  it("says the difference the French way in French", () => {
    const fr = (d: OfferDifference) => differenceLines(d, "fr").map((line) => line.replaceAll("\u00a0", " "));
    expect(fr({ kind: "pay", amount: 1250, byCard: true })).toEqual(["Différence à payer : 12,50 $, par carte à la page suivante."]);
    expect(fr({ kind: "refund", amount: 2000, kept: 500 })).toEqual([
      "Différence remboursée : 20,00 $.",
      "La politique de remboursement retient 5,00 $ du prix plus bas.",
    ]);
    expect(differenceLines({ kind: "none", kept: 0 }, "en")).toEqual(["No change in price."]);
    expect(differenceLines({ kind: "pay", amount: 1250, byCard: false }, "en")).toEqual(["Price difference to pay: $12.50, owed to the organiser."]);
    expect(differenceLines({ kind: "none", kept: 2500 }, "en")).toEqual(["Nothing is refunded: the refund policy keeps $25.00 of the lower price."]);
  });

  it("always names the amount that moves, formatted for the language, and never says 'no change' when money moves", () => {
    const difference: fc.Arbitrary<OfferDifference> = fc.oneof(
      fc.record({ kind: fc.constant("pay" as const), amount: fc.integer({ min: 1, max: 10_000_000 }), byCard: fc.boolean() }),
      fc.record({ kind: fc.constant("refund" as const), amount: fc.integer({ min: 1, max: 10_000_000 }), kept: fc.nat(10_000_000) }),
      fc.record({ kind: fc.constant("none" as const), kept: fc.nat(10_000_000) }),
    );
    fc.assert(
      fc.property(difference, fc.constantFrom("en" as const, "fr" as const), (d, lang) => {
        const text = differenceLines(d, lang).join(" ");
        if (d.kind !== "none") expect(text).toContain(formatMoneyIn(d.amount, lang));
        if (d.kind !== "pay" && d.kept > 0) expect(text).toContain(formatMoneyIn(d.kept, lang));
        const same = lang === "fr" ? "Aucun changement de prix." : "No change in price.";
        expect(text === same).toBe(d.kind === "none" && d.kept === 0);
      }),
      fcParams(),
    );
  });
});
