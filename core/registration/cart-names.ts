/** How a cart is named in lists (platform.md section 9). */

/** How many individuals' names a cart's display name shows before '+N more…'. */
export const CART_NAMES_SHOWN = 3;

/**
 * Up to three names joined by ", ", then " +N more…" for the rest: "Ann, Bo, Cy +2 more…". Blank names
 * (an individual not filled in yet) are left out and not counted.
 */
export function cartDisplayName(names: readonly string[]): string {
  const named = names.map((name) => name.trim()).filter((name) => name !== "");
  const shown = named.slice(0, CART_NAMES_SHOWN).join(", ");
  const more = named.length - CART_NAMES_SHOWN;
  return more > 0 ? `${shown} +${more} more…` : shown;
}

export interface CartNumberSource {
  legacy_id: number | string | null;
  cart_number: number | string | null;
  id: string;
}

/** legacy_id, else cart_number, else the first segment of the id (a uuid's first 8 hex digits). */
export function cartNumberOf(cart: CartNumberSource): string {
  for (const value of [cart.legacy_id, cart.cart_number]) {
    if (value !== null && value !== undefined && String(value).trim() !== "") return String(value).trim();
  }
  return cart.id.split("-")[0] ?? cart.id;
}
