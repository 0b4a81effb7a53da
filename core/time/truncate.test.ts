import { describe, expect, it } from "vitest";
import { TimingError } from "../timing/errors";
import { truncateMicros } from "./truncate";

describe("truncateMicros", () => {
  it("drops digits beyond the precision without rounding up", () => {
    expect(truncateMicros(12_345_678, 1)).toBe(12_300_000);
    expect(truncateMicros(12_399_999, 2)).toBe(12_390_000);
    expect(truncateMicros(12_999_999, 0)).toBe(12_000_000);
    expect(truncateMicros(12_345_678, 6)).toBe(12_345_678);
  });

  it("truncates negative times toward zero", () => {
    expect(truncateMicros(-1_250_000, 1)).toBe(-1_200_000);
  });

  it("refuses a precision above 6 with the spec's error", () => {
    expect(() => truncateMicros(1, 7)).toThrow(TimingError);
    expect(() => truncateMicros(1, 7)).toThrow("Precision above 6 is unsupported in truncation");
  });
});
