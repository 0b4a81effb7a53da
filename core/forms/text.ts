import { firstText, fail, ok, priceAt, type FieldTypeModule, type RawInput, type ParseResult } from "./field-type";
import { FORM_MESSAGES } from "./messages";
import type { FieldType } from "./model";

/** Text and city: free text, trimmed (section 5). */

/** The longest text kept; a posted form cannot store more than this in one field. */
export const TEXT_MAX_LENGTH = 5000;

/** "----" is the placeholder of an unfilled select, so it means blank, as blank text does. */
const EMPTY_PLACEHOLDER = "----";

export function parseText(raw: RawInput): ParseResult<string> {
  const text = firstText(raw);
  if (text === "" || text === EMPTY_PLACEHOLDER) return ok(null);
  if (text.length > TEXT_MAX_LENGTH) return fail(FORM_MESSAGES.textTooLong);
  return ok(text);
}

function textModule(type: FieldType): FieldTypeModule<string> {
  return {
    type,
    isInput: true,
    legacyCodes: [],
    parse: (_element, raw) => parseText(raw),
    price: (element, value, tier) => (value ? priceAt(element, tier) : 0),
    display: (_element, value) => value ?? "",
    isEmpty: (value) => value === null || value === "",
  };
}

export const textField = textModule("text");
export const cityField = textModule("city");
