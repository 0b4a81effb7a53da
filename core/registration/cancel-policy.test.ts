import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CANCEL_MESSAGES, cancelQuote, type CancelPolicy } from "./cancel-policy";
import { fcParams } from "../testing/fast-check";

const NOW = Date.UTC(2027, 0, 10);
const policy = (changes: Partial<CancelPolicy> = {}): CancelPolicy => ({ refundPercent: 80, fee: 500, deadline: NOW + 1, closeTime: null, ...changes });

describe("cancelling under the form's policy", () => {
  it("refunds the percent of the person's share less the fee, until the deadline", () => {
    // 80% of 45.00 is 36.00, less 5.00.
    expect(cancelQuote(policy(), 4500, 4500, NOW)).toEqual({ ok: true, refund: 3100 });
    expect(cancelQuote(policy({ deadline: NOW - 1 }), 4500, 4500, NOW)).toEqual({ ok: false, error: CANCEL_MESSAGES.closed });
    expect(cancelQuote(policy({ deadline: null, closeTime: NOW - 1 }), 4500, 4500, NOW)).toEqual({ ok: false, error: CANCEL_MESSAGES.closed });
    expect(cancelQuote(policy({ refundPercent: null }), 4500, 4500, NOW)).toEqual({ ok: false, error: CANCEL_MESSAGES.notAllowed });
    // Nothing received yet (a cheque to come): cancelled, nothing to give back.
    expect(cancelQuote(policy(), 4500, 0, NOW)).toEqual({ ok: true, refund: 0 });
  });

  it("never refunds below zero, more than the share, or more than is left to refund", () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: -10, max: 150 }), { nil: null }),
        fc.integer({ min: -1000, max: 100_000 }),
        fc.integer({ min: -1000, max: 1_000_000 }),
        fc.integer({ min: -1000, max: 1_000_000 }),
        (refundPercent, fee, share, refundable) => {
          const quote = cancelQuote(policy({ refundPercent, fee }), share, refundable, NOW);
          if (!quote.ok) {
            expect(refundPercent).toBeNull();
            return;
          }
          expect(quote.refund).toBeGreaterThanOrEqual(0);
          expect(quote.refund).toBeLessThanOrEqual(Math.max(0, share));
          expect(quote.refund).toBeLessThanOrEqual(Math.max(0, refundable));
        },
      ),
      fcParams(),
    );
  });
});
