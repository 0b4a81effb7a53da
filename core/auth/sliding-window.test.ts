import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { allowsOneMore, slidingWindow } from "./failure-limit";

const W = 15 * 60 * 1000;

describe("the sliding window of guess and throttle limits", () => {
  it("refuses the try after the limit even when the tries straddle a window boundary", () => {
    const boundary = 40 * W;
    // Three tries just before the boundary and two just after, with a limit of five: the sixth is refused.
    const justAfter = slidingWindow(boundary + 1_000, W);
    expect(allowsOneMore(2, 3, justAfter, 5)).toBe(false);
    expect(allowsOneMore(1, 3, justAfter, 5)).toBe(true);
    // Once a whole earlier try has slid out (a third of the window for three of them), one more fits.
    expect(allowsOneMore(2, 3, slidingWindow(boundary + W / 3, W), 5)).toBe(true);
    // At the very end of the next window, the earlier one weighs almost nothing, but a part of a try is a try.
    expect(allowsOneMore(3, 50, slidingWindow(boundary + W - 1 + W, W), 5)).toBe(true);
    expect(allowsOneMore(4, 50, slidingWindow(boundary + W - 1 + W, W), 5)).toBe(false);
  });

  it("is the estimate current + ⌈previous × overlap / window⌉ below the limit, and never lets more than the limit into one fixed window", () => {
    fc.assert(
      fc.property(fc.nat(20), fc.nat(20), fc.nat(W - 1), fc.integer({ min: 1, max: 20 }), (current, previous, into, limit) => {
        const window = slidingWindow(7 * W + into, W);
        const estimate = current + Math.ceil((previous * window.previousOverlapMs) / W);
        expect(allowsOneMore(current, previous, window, limit)).toBe(estimate < limit);
        if (current >= limit) expect(allowsOneMore(current, previous, window, limit)).toBe(false);
      }),
      fcParams(),
    );
  });
});
