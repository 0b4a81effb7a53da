import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RETRY_DELAY_CAP_SECONDS, retryDelaySeconds } from "./queue-retry";

describe("a failed queue message's wait before its next try", () => {
  it("doubles from one second and stops at a minute", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 11].map(retryDelaySeconds)).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
  });

  it("spreads the jobs queue's ten retries over minutes, not the first second", () => {
    const total = Array.from({ length: 10 }, (_, i) => retryDelaySeconds(i + 1)).reduce((a, b) => a + b, 0);
    expect(total).toBe(1 + 2 + 4 + 8 + 16 + 32 + 60 * 4);
  });

  it("is a whole number of seconds from one to the cap for any attempt count, even nonsense", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.double()), (attempts) => {
        const delay = retryDelaySeconds(attempts);
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(1);
        expect(delay).toBeLessThanOrEqual(RETRY_DELAY_CAP_SECONDS);
      }),
    );
  });
});
