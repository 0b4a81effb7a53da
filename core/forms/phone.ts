import { labelIn } from "./bilingual";
import { fail, firstText, ok, priceAt, type FieldTypeModule } from "./field-type";
import { FORM_MESSAGES } from "./messages";

/** Phone numbers (sections 5 and 9): 7 or 10 digits, stored as the digits alone. */

export type PhoneType = "home" | "work" | "cell" | "fax";

const PHONE_TYPES_BY_CAPTION: Record<string, PhoneType> = { "work phone": "work", "cell phone": "cell", "fax number": "fax" };

/** The phone type a field's caption names (its English part, ignoring case); any other caption is home. */
export function phoneTypeOf(caption: string): PhoneType {
  return PHONE_TYPES_BY_CAPTION[labelIn(caption, "en").trim().replace(/\s+/g, " ").toLowerCase()] ?? "home";
}

/** 10 digits as 123-456-7890, 7 as 456-7890. */
export function formatPhone(digits: string): string {
  if (digits.length === 10) return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
  if (digits.length === 7) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  return digits;
}

// Separators people type around the digits; letters and other symbols are refused.
const PHONE_CHARACTERS = /^[\d\s().+-]+$/;

export const phoneField: FieldTypeModule<string> = {
  type: "phone",
  isInput: true,
  legacyCodes: [],
  parse(_element, raw) {
    const text = firstText(raw);
    if (text === "") return ok(null);
    const digits = text.replace(/\D/g, "");
    if (!PHONE_CHARACTERS.test(text) || (digits.length !== 7 && digits.length !== 10)) return fail(FORM_MESSAGES.invalidPhone);
    return ok(digits);
  },
  price: (element, value, tier) => (value ? priceAt(element, tier) : 0),
  display: (_element, value) => (value ? formatPhone(value) : ""),
  isEmpty: (value) => value === null || value === "",
};
