import { describe, expect, it } from "vitest";
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS, backoffDelay, jitterDelay } from "./backoff";

const always = (value: number) => () => value;

describe("reconnect back-off with full jitter", () => {
  it("waits up to base · 2^attempt, scaled by the random draw", () => {
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, always(0.999999)))).toEqual([499, 999, 1999, 3999]);
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, always(0.5)))).toEqual([250, 500, 1000, 2000]);
    expect(backoffDelay(4, always(0))).toBe(0);
  });

  it("stops growing at the cap, however many attempts failed", () => {
    expect(backoffDelay(5, always(1))).toBe(BACKOFF_CAP_MS);
    expect(backoffDelay(60, always(1))).toBe(BACKOFF_CAP_MS);
    expect(backoffDelay(5000, always(0.5))).toBe(BACKOFF_CAP_MS / 2);
  });

  it("spreads a crowd over the whole window instead of one instant", () => {
    let seed = 42;
    // A small deterministic generator (LCG) standing in for Math.random.
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const delays = Array.from({ length: 1000 }, () => backoffDelay(3, random));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...delays)).toBeLessThan(BACKOFF_BASE_MS * 8);
    // Every tenth of the 4 s window gets some of the thousand.
    const buckets = new Set(delays.map((d) => Math.floor(d / 400)));
    expect(buckets.size).toBe(10);
  });

  it("keeps a broken random source within the window", () => {
    expect(backoffDelay(2, always(-3))).toBe(0);
    expect(backoffDelay(2, always(7))).toBe(2000);
    expect(backoffDelay(2, always(Number.NaN))).toBe(0);
    expect(backoffDelay(-1, always(0.5))).toBe(250);
  });

  it("gives prompt reconnects a short jitter of their own", () => {
    expect(jitterDelay(1000, always(0.25))).toBe(250);
    expect(jitterDelay(1000, always(0))).toBe(0);
  });
});
