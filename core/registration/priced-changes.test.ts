import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newElement, type FormElement } from "../forms/model";
import { fcParams } from "../testing/fast-check";
import type { CancelPolicy } from "./cancel-policy";
import { pricingAfterChange } from "./person-changes";
import { placesOfPerson } from "./places";
import { changeRefund, placesMoved, PRICED_CHANGE_MESSAGES, withKeptFee } from "./priced-changes";
import { priceFormCart } from "./price-form";

const dist = newElement("dist", "option", {
  is_taxable: true,
  options_list: [
    { id: "5k", display: "5 km", price_1: 3000, limit: 50 },
    { id: "10k", display: "10 km", price_1: 4000 },
  ],
});
const price = (elements: FormElement[], values: Record<string, { v: unknown; p: number }>, gst = 13) =>
  priceFormCart({
    elements,
    tier: 1,
    gstRatePercent: gst,
    clubTakesCards: true,
    isRemoved: false,
    cartValues: {},
    individuals: [{ id: "p", isRemoved: false, isComplete: true, isNew: false, values }],
    discountUses: {},
  });
const policy = (refundPercent: number | null, fee: number, deadline: number | null = null): CancelPolicy => ({ refundPercent, fee, deadline, closeTime: null });
const NOW = Date.UTC(2027, 0, 10);

describe("changing a paid distance", () => {
  it("prices another distance by the difference of every line, the tax with it", () => {
    const before = price([dist], { dist: { v: "10k", p: 1 } });
    const up = pricingAfterChange({ ...price([dist], { dist: { v: "5k", p: 1 } }), gstRatePercent: 13 }, price([dist], { dist: { v: "5k", p: 1 } }), before);
    expect(up.amount).toBe(1130);
    const down = pricingAfterChange({ ...before, gstRatePercent: 13 }, before, price([dist], { dist: { v: "5k", p: 1 } }));
    expect(down.amount).toBe(-1130);
    expect(down.pricing.total).toBe(before.total - 1130);
    // The line charged for the distance now says what the new one costs, so the receipt reads "5 km $30.00".
    expect(down.pricing.lines.filter((l) => l.type === "item")).toEqual([{ type: "item", individualId: "p", elementId: "dist", code: null, amount: 3000 }]);
  });

  it("moves the person's places: the new option's taken (with its cap), the old one's freed", () => {
    const from = placesOfPerson([dist], "p", { dist: { v: "10k", p: 1 } });
    const to = placesOfPerson([dist], "p", { dist: { v: "5k", p: 1 } });
    expect(placesMoved(from, to)).toEqual({ taken: [{ pool: "opt:dist:5k", unit: "p", individualId: "p", cap: 50 }], released: ["opt:dist:10k"] });
    expect(placesMoved(from, from)).toEqual({ taken: [], released: [] });
  });
});

describe("the refund of a cheaper change under the form's policy", () => {
  it("gives back the policy's percent of the decrease less its fee, and keeps the rest", () => {
    expect(changeRefund(policy(100, 0), 1130, 10_000, NOW, "en")).toEqual({ ok: true, refund: 1130, kept: 0 });
    expect(changeRefund(policy(100, 500), 1130, 10_000, NOW, "en")).toEqual({ ok: true, refund: 630, kept: 500 });
    expect(changeRefund(policy(50, 0), 1130, 10_000, NOW, "en")).toEqual({ ok: true, refund: 565, kept: 565 });
    expect(changeRefund(policy(100, 2000), 1130, 10_000, NOW, "en")).toEqual({ ok: true, refund: 0, kept: 1130 });
    // Never more than is left of the payment.
    expect(changeRefund(policy(100, 0), 1130, 700, NOW, "en")).toEqual({ ok: true, refund: 700, kept: 430 });
  });

  it("is refused where the registrant could not cancel: no refunds online, or past the deadline", () => {
    expect(changeRefund(policy(null, 0), 1130, 10_000, NOW, "en")).toEqual({ ok: false, error: PRICED_CHANGE_MESSAGES.en.noRefunds });
    expect(changeRefund(policy(100, 0, NOW - 1), 1130, 10_000, NOW, "fr")).toEqual({ ok: false, error: PRICED_CHANGE_MESSAGES.fr.refundsClosed });
  });

  it("writes what the policy kept as the person's line, so the total is what was kept of the money", () => {
    const before = price([dist], { dist: { v: "10k", p: 1 } });
    const kept = withKeptFee({ ...before, gstRatePercent: 13 }, "p", 500);
    expect(kept.total).toBe(before.total + 500);
    expect(kept.lines.at(-1)).toEqual({ type: "change_fee", individualId: "p", elementId: null, code: null, amount: 500 });
    expect(withKeptFee({ ...before, gstRatePercent: 13 }, "p", 0).lines).toEqual(before.lines);
  });

  it("a change there and back refunds what it charged, less the policy's fee and percent (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50_000 }),
        fc.integer({ min: 0, max: 50_000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: 0, max: 20 }),
        (low, extra, percent, fee, gst) => {
          const d = {
            ...dist,
            options_list: [
              { id: "a", display: "A", price_1: low },
              { id: "b", display: "B", price_1: low + extra },
            ],
          };
          const onA = price([d], { dist: { v: "a", p: 1 } }, gst);
          const onB = price([d], { dist: { v: "b", p: 1 } }, gst);
          const charged = { ...onA, gstRatePercent: gst };
          const up = pricingAfterChange(charged, onA, onB);
          const paid = onA.total + up.amount;
          const down = pricingAfterChange(up.pricing, onB, onA);
          expect(down.amount + up.amount).toBe(0);
          const back = changeRefund(policy(percent, fee), -down.amount, paid, NOW, "en");
          if (!back.ok) throw new Error(back.error);
          // What the card paid less what came back is exactly what the policy kept, and the receipt says so.
          expect(back.refund + back.kept).toBe(up.amount);
          expect(back.refund).toBe(Math.max(0, Math.round((up.amount * percent) / 100) - fee));
          expect(withKeptFee(down.pricing, "p", back.kept).total).toBe(onA.total + back.kept);
        },
      ),
      fcParams(),
    );
  });
});
