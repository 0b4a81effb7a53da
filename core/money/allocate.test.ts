import { describe, expect, it } from "vitest";
import { allocateCents } from "./allocate";

describe("allocateCents", () => {
  it("splits in proportion and always adds up", () => {
    expect(allocateCents(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateCents(1000, [3000, 1000])).toEqual([750, 250]);
    expect(allocateCents(5, [1, 2, 2])).toEqual([1, 2, 2]);
  });

  it("gives the leftover cents to the largest fractions", () => {
    // 10 × 1/6 = 1.67, 10 × 2/6 = 3.33, 10 × 3/6 = 5.
    expect(allocateCents(10, [1, 2, 3])).toEqual([2, 3, 5]);
  });

  it("gives nothing to a zero weight", () => {
    expect(allocateCents(7, [0, 5, 0])).toEqual([0, 7, 0]);
    expect(allocateCents(7, [-4, 5])).toEqual([0, 7]);
  });

  it("splits evenly when every weight is zero, and splits negatives as negatives", () => {
    expect(allocateCents(5, [0, 0])).toEqual([3, 2]);
    expect(allocateCents(-100, [1, 1, 1])).toEqual([-34, -33, -33]);
    expect(allocateCents(0, [1, 2])).toEqual([0, 0]);
    expect(allocateCents(10, [])).toEqual([]);
  });

  it("stays exact on large amounts", () => {
    const parts = allocateCents(9_000_000_000_001, [3_000_000_000_000, 3_000_000_000_000, 3_000_000_000_000]);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(9_000_000_000_001);
  });
});
