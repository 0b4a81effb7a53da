import { fail, firstText, ok, priceAt, type FieldTypeModule, type ParseResult, type RawInput } from "./field-type";
import { FORM_MESSAGES } from "./messages";
import type { FieldType, FormElement } from "./model";

/** Date and date of birth: YYYY-MM-DD of a real calendar day (section 5), stored as typed. */

function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(2000, month - 1, day));
  // Date.UTC maps years 0-99 to 1900-1999, so set the year on its own.
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function parseDate(raw: RawInput): ParseResult<string> {
  const text = firstText(raw);
  if (text === "") return ok(null);
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match || !isRealDate(Number(match[1]), Number(match[2]), Number(match[3]))) return fail(FORM_MESSAGES.invalidDate);
  return ok(text);
}

function dateModule(type: FieldType, legacyCode: number): FieldTypeModule<string> {
  return {
    type,
    isInput: true,
    legacyCodes: [legacyCode],
    parse: (_element, raw) => parseDate(raw),
    price: (element, value, tier) => (value ? priceAt(element, tier) : 0),
    display: (_element, value) => value ?? "",
    isEmpty: (value) => value === null || value === "",
  };
}

export const dateField = dateModule("date", 13);
export const dobField = dateModule("dob", 30);

/** A date of birth is private data (section 3): reports and exports hide it from those without access. */
export function isPrivate(element: Pick<FormElement, "type">): boolean {
  return element.type === "dob";
}
