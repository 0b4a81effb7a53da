/**
 * Price tiers (platform.md section 9): three prices, switching at raise_price_1_time and raise_price_2_time.
 * Times are epoch milliseconds; raise_price_3_time is stored but switches nothing.
 */
import type { Cents } from "../money/money";

export type PriceTier = 1 | 2 | 3;

export interface TierTimes {
  raise_price_1_time: number | null;
  raise_price_2_time: number | null;
}

export interface TierPrices {
  price_1: Cents | null;
  price_2: Cents | null;
  price_3: Cents | null;
}

/**
 * Tier 1 until raise_price_1_time, tier 2 from it (inclusive) until raise_price_2_time, tier 3 from that
 * on. A null time never switches. Each time is a threshold on its own, so a raise_price_2_time with no
 * (or a later) raise_price_1_time goes straight to tier 3, and the tier never goes down as time passes.
 */
export function tierAt(now: number, times: TierTimes): PriceTier {
  if (times.raise_price_2_time !== null && now >= times.raise_price_2_time) return 3;
  if (times.raise_price_1_time !== null && now >= times.raise_price_1_time) return 2;
  return 1;
}

/**
 * The price at `tier`. A null price falls back to the nearest lower tier's (an early price stays until a
 * raise is set); null when no price is set at or below the tier, which callers treat as unpriced.
 */
export function tierPrice(prices: TierPrices, tier: PriceTier): Cents | null {
  const byTier = [prices.price_1, prices.price_2, prices.price_3];
  for (let index = tier - 1; index >= 0; index--) {
    const price = byTier[index];
    if (price !== null && price !== undefined) return price;
  }
  return null;
}
