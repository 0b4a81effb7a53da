/** How a cart is named in lists (platform.md section 9). */
import { capitalised, DEFAULT_PEOPLE_LABELS, type PeopleLabels } from "./people-labels";
import { nameFieldsOf } from "../forms/name-fields";
import type { FormElement, StoredValue } from "../forms/model";

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

/**
 * A person's name for the cart: the registration's first and last name fields, else the text fields keyed
 * first_name and last_name, else the first text fields captioned as names, else the form's label for one registrant and their place, "Person N" by default.
 */
export function personNameOf(
  elements: readonly FormElement[],
  nameFields: { firstNameFieldId: string | null; lastNameFieldId: string | null },
  values: Readonly<Record<string, StoredValue>>,
  index: number,
  labels: PeopleLabels = DEFAULT_PEOPLE_LABELS.en,
): string {
  const { first, last } = nameFieldsOf(elements, nameFields);
  const name = [first, last]
    .map((fieldId) => (fieldId ? values[fieldId]?.v : undefined))
    .filter((v): v is string => typeof v === "string" && v !== "")
    .join(" ");
  return name || `${capitalised(labels.singular)} ${index + 1}`;
}
