import { describe, expect, it } from "vitest";
import { type PriceTier, tierAt, tierPrice } from "./tiers";
import { mulberry32 } from "../random/seeded";

const RAISE_1 = Date.UTC(2026, 4, 1);
const RAISE_2 = Date.UTC(2026, 5, 1);
const both = { raise_price_1_time: RAISE_1, raise_price_2_time: RAISE_2 };

describe("tierAt", () => {
  it("is tier 1 before the first raise, 2 from it, 3 from the second", () => {
    expect(tierAt(RAISE_1 - 1, both)).toBe(1);
    expect(tierAt(RAISE_1, both)).toBe(2);
    expect(tierAt(RAISE_2 - 1, both)).toBe(2);
    expect(tierAt(RAISE_2, both)).toBe(3);
    expect(tierAt(RAISE_2 + 86_400_000, both)).toBe(3);
  });

  it("never switches at a null time", () => {
    expect(tierAt(RAISE_2, { raise_price_1_time: null, raise_price_2_time: null })).toBe(1);
    expect(tierAt(RAISE_2, { raise_price_1_time: RAISE_1, raise_price_2_time: null })).toBe(2);
  });

  it("goes straight to tier 3 with only a second raise", () => {
    const onlySecond = { raise_price_1_time: null, raise_price_2_time: RAISE_2 };
    expect(tierAt(RAISE_2 - 1, onlySecond)).toBe(1);
    expect(tierAt(RAISE_2, onlySecond)).toBe(3);
  });

  it("never goes down as time passes (random times, random raises)", () => {
    const next = mulberry32(2026);
    const around = () => RAISE_1 + Math.floor((next() - 0.5) * 200 * 86_400_000);
    for (let run = 0; run < 300; run++) {
      const times = { raise_price_1_time: next() < 0.25 ? null : around(), raise_price_2_time: next() < 0.25 ? null : around() };
      const nows = Array.from({ length: 20 }, around).sort((a, b) => a - b);
      const tiers = nows.map((now) => tierAt(now, times));
      for (let index = 1; index < tiers.length; index++) expect(tiers[index], `run ${run}`).toBeGreaterThanOrEqual(tiers[index - 1] as PriceTier);
    }
  });
});

describe("tierPrice", () => {
  it("takes the tier's price", () => {
    const prices = { price_1: 4000, price_2: 5000, price_3: 6000 };
    expect([1, 2, 3].map((tier) => tierPrice(prices, tier as PriceTier))).toEqual([4000, 5000, 6000]);
  });

  it("falls back to the nearest lower tier's price", () => {
    expect(tierPrice({ price_1: 4000, price_2: null, price_3: null }, 3)).toBe(4000);
    expect(tierPrice({ price_1: 4000, price_2: 5000, price_3: null }, 3)).toBe(5000);
    expect(tierPrice({ price_1: 4000, price_2: null, price_3: 6000 }, 2)).toBe(4000);
  });

  it("keeps a price of zero, and gives null with no price at or below the tier", () => {
    expect(tierPrice({ price_1: 4000, price_2: 0, price_3: null }, 3)).toBe(0);
    expect(tierPrice({ price_1: null, price_2: 5000, price_3: null }, 1)).toBeNull();
    expect(tierPrice({ price_1: null, price_2: null, price_3: null }, 3)).toBeNull();
  });
});
