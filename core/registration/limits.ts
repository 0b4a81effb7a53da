/**
 * Quantity limits: a field's quantity_limit or an option's limit, against what other complete, non-removed
 * carts have already taken. A null limit is unlimited; a limit of 0 means none are available.
 */
import { onlyLeftMessage, SOLD_OUT } from "./messages";

/** How many are left (never below zero); null when there is no limit. */
export function remainingOf(limit: number | null, taken: number): number | null {
  if (limit === null) return null;
  return Math.max(0, Math.floor(limit) - Math.max(0, taken));
}

/**
 * Why `wanted` more cannot be taken, or null when they can: 'Sold out' when none are left, 'Only N left'
 * when fewer than wanted are.
 */
export function checkQuantity(limit: number | null, taken: number, wanted = 1): string | null {
  const remaining = remainingOf(limit, taken);
  if (remaining === null || wanted <= 0) return null;
  if (remaining === 0) return SOLD_OUT;
  return wanted > remaining ? onlyLeftMessage(remaining) : null;
}
