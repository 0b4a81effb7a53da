import { describe, expect, it } from "vitest";
import { mulberry32, SeededRandom } from "./seeded";

describe("seeded random", () => {
  it("repeats its sequence for a seed and differs between seeds", () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect(mulberry32(8)()).not.toBe(first[0]);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it("draws whole numbers within both bounds and shuffles without losing items", () => {
    const random = new SeededRandom(1);
    const draws = Array.from({ length: 500 }, () => random.int(2, 4));
    expect(new Set(draws)).toEqual(new Set([2, 3, 4]));
    expect(random.shuffle([1, 2, 3, 4, 5]).sort()).toEqual([1, 2, 3, 4, 5]);
  });
});
