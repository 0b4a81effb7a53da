import type { Lang } from "./bilingual";
import type { Cents, FieldType, FormElement, Tier } from "./model";

/** The contract every field type module meets, and the small helpers they share. */

export interface FieldContext {
  lang: Lang;
  /** The price tier in force; only values that record a price part (membership) read it. 1 when absent. */
  tier?: Tier;
}

export type ParseResult<V> = { ok: true; value: V | null } | { ok: false; error: string };

/** A posted value: a string, several strings for a multi-choice field, or nothing. */
export type RawInput = string | string[] | undefined;

export interface FieldTypeModule<V> {
  type: FieldType;
  /** False for display-only blocks (heading, text block, separator, banner). */
  isInput: boolean;
  /** The type's number in legacy form definitions. */
  legacyCodes: readonly number[];
  /** raw = what an HTML form posts: string, string[] (multi), or undefined. */
  parse(element: FormElement, raw: RawInput, ctx: FieldContext): ParseResult<V>;
  /** Never negative. */
  price(element: FormElement, value: V | null, tier: Tier): Cents;
  /** For cart review and reports. */
  display(element: FormElement, value: V | null, lang: Lang): string;
  isEmpty(value: V | null): boolean;
}

export const ok = <V>(value: V | null): ParseResult<V> => ({ ok: true, value });
export const fail = <V>(error: string): ParseResult<V> => ({ ok: false, error });

/** The first posted string, trimmed; a single-value field given several takes the first. */
export function firstText(raw: RawInput): string {
  const text = Array.isArray(raw) ? raw[0] : raw;
  return (text ?? "").trim();
}

/** Every posted string, trimmed, blanks dropped. */
export function allTexts(raw: RawInput): string[] {
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return list.map((text) => text.trim()).filter((text) => text !== "");
}

type Priced = { price_1?: Cents | null; price_2?: Cents | null; price_3?: Cents | null };

/**
 * The price of an element or option at a tier. A tier left null keeps the tier below's price (the
 * price did not rise); 0 is free. Negative prices count as 0.
 */
export function priceAt(item: Priced, tier: Tier): Cents {
  const prices = [item.price_1, item.price_2, item.price_3];
  for (let i = tier - 1; i >= 0; i--) {
    const price = prices[i];
    if (price != null) return Math.max(0, Math.round(price));
  }
  return 0;
}

/** Text inputs and checks that mean "yes": checkboxes post "on" by default. */
const YES_WORDS = new Set(["yes", "y", "true", "1", "on", "oui", "signed", "checked"]);
const NO_WORDS = new Set(["no", "n", "false", "0", "off", "non", "unsigned", "unchecked"]);

/** true, false, or null when blank; undefined when the text is neither yes nor no. */
export function readYesNo(text: string): boolean | null | undefined {
  const word = text.trim().toLowerCase();
  if (word === "") return null;
  if (YES_WORDS.has(word)) return true;
  if (NO_WORDS.has(word)) return false;
  return undefined;
}
