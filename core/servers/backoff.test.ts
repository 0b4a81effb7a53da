import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { backoffCeiling, backoffDelay, retryAfterMs, SYNC_BACKOFF } from "./backoff";

describe("a serverbox's backoff", () => {
  it("doubles its ceiling from the base up to the cap", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 40].map((n) => backoffCeiling(SYNC_BACKOFF, n))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it("draws a wait within the ceiling, never zero", () => {
    expect(backoffDelay(SYNC_BACKOFF, 3, 0.5)).toBe(4000);
    expect(backoffDelay(SYNC_BACKOFF, 3, 0)).toBe(100);
    expect(backoffDelay(SYNC_BACKOFF, 10, 0.999)).toBe(29970);
  });

  it("is always between the floor and the cap, and never above the attempt's ceiling", () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 2000 }), fc.double({ min: 0, max: 1, noNaN: true }), (attempt, random) => {
        const delay = backoffDelay(SYNC_BACKOFF, attempt, random);
        return delay >= 100 && delay <= SYNC_BACKOFF.capMs && delay <= Math.max(100, backoffCeiling(SYNC_BACKOFF, attempt));
      }),
      fcParams(),
    );
  });

  it("reads Retry-After in seconds or as a date", () => {
    expect(retryAfterMs("5", 0)).toBe(5000);
    expect(retryAfterMs(null, 0)).toBeNull();
    expect(retryAfterMs("soon", 0)).toBeNull();
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
  });
});
