import { describe, expect, it } from "vitest";
import { checkQuantity, remainingOf } from "./limits";
import { onlyLeftMessage, SOLD_OUT } from "./messages";

describe("remainingOf", () => {
  it("is the limit less what is taken, never below zero", () => {
    expect(remainingOf(10, 3)).toBe(7);
    expect(remainingOf(10, 12)).toBe(0);
    expect(remainingOf(0, 0)).toBe(0);
  });

  it("is null without a limit", () => {
    expect(remainingOf(null, 500)).toBeNull();
  });
});

describe("checkQuantity", () => {
  it("allows what fits", () => {
    expect(checkQuantity(10, 9)).toBeNull();
    expect(checkQuantity(10, 7, 3)).toBeNull();
    expect(checkQuantity(null, 10_000, 50)).toBeNull();
  });

  it("says Sold out when none are left", () => {
    expect(checkQuantity(10, 10)).toBe("Sold out");
    expect(checkQuantity(0, 0)).toBe(SOLD_OUT);
  });

  it("says how many are left when fewer than wanted are", () => {
    expect(checkQuantity(10, 8, 3)).toBe("Only 2 left");
    expect(checkQuantity(10, 9, 2)).toBe(onlyLeftMessage(1));
  });

  it("has nothing to say about taking none", () => {
    expect(checkQuantity(10, 10, 0)).toBeNull();
  });
});
