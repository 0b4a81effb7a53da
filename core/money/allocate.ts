import type { Cents } from "./money";

/**
 * `total` cents split into whole-cent parts in proportion to `weights`, by largest remainder: every part
 * gets its floor, then the cents left over go to the largest fractions (the earlier part on a tie), so
 * the parts always add up to `total`. Negative weights count as zero; all-zero weights split evenly.
 * Used to spread a cart-wide discount or tax over the lines and individuals it came from.
 */
export function allocateCents(total: Cents, weights: readonly number[]): Cents[] {
  if (weights.length === 0) return [];
  if (total < 0) return allocateCents(-total, weights).map((part) => -part + 0);
  let scaled = weights.map((weight) => BigInt(Math.max(0, Math.round(weight))));
  if (scaled.every((weight) => weight === 0n)) scaled = scaled.map(() => 1n);
  const sum = scaled.reduce((a, b) => a + b, 0n);
  // BigInt so cents × weight cannot lose precision on large carts.
  const whole = BigInt(Math.round(total));
  const parts = scaled.map((weight) => (whole * weight) / sum);
  const remainders = scaled.map((weight, index) => ({ index, remainder: (whole * weight) % sum }));
  let left = Number(whole - parts.reduce((a, b) => a + b, 0n));
  remainders.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of remainders) {
    if (left <= 0) break;
    parts[index] = (parts[index] as bigint) + 1n;
    left--;
  }
  return parts.map(Number);
}
