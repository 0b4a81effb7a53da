import { fail, firstText, ok, priceAt, type FieldTypeModule, type ParseResult } from "./field-type";
import { FORM_MESSAGES } from "./messages";
import type { StoredValue } from "./model";

/** Number fields: a quantity or measure, priced per unit. */

/** A decimal number as typed: no exponents, hex, thousands separators or words. */
export function readDecimal(text: string): number | null {
  return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : null;
}

export const numberField: FieldTypeModule<number> = {
  type: "number",
  isInput: true,
  legacyCodes: [],
  parse(element, raw) {
    const text = firstText(raw);
    if (text === "") return ok(null);
    const value = readDecimal(text);
    if (value === null || !Number.isFinite(value)) return fail(FORM_MESSAGES.inputNotNumber);
    const { min, max } = element.config;
    if ((min != null && value < min) || (max != null && value > max)) return fail(FORM_MESSAGES.numberRange(min, max));
    return ok(value);
  },
  // Per unit: 3 at $5 is $15. quantity_limit is a form-wide count checked by the cart, not here.
  price: (element, value, tier) => (value === null ? 0 : Math.max(0, Math.round(priceAt(element, tier) * value))),
  display: (_element, value) => (value === null ? "" : String(value)),
  isEmpty: (value) => value === null,
};

/**
 * A stored number field value from the data API or an import: { v, p } with v a finite number (or
 * a numeric string, which older rows hold) or null.
 */
export function parseStoredNumber(stored: unknown): ParseResult<StoredValue<number | null>> {
  if (typeof stored !== "object" || stored === null || !("v" in stored)) return fail(FORM_MESSAGES.valueNotNumber);
  const { v, p } = stored as { v: unknown; p?: unknown };
  const price = typeof p === "number" && Number.isInteger(p) && p >= 0 ? p : 0;
  if (v === null || v === "") return ok({ v: null, p: price });
  const value = typeof v === "number" ? v : typeof v === "string" ? readDecimal(v.trim()) : null;
  if (value === null || !Number.isFinite(value)) return fail(FORM_MESSAGES.valueNotNumber);
  return ok({ v: value, p: price });
}
