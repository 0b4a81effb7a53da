import { fail, ok, priceAt, type FieldTypeModule, type RawInput } from "./field-type";
import { FORM_MESSAGES } from "./messages";
import type { FormElement } from "./model";

/** Email: one or more addresses, and the registrant's opt-in to promotional email. */

export interface EmailValue {
  /** The addresses, lower-cased, de-duplicated, joined by ", ". */
  addresses: string;
  optin: boolean;
}

/** Posted as a second value under the field's name by an "opt out" checkbox, so opt-in stays the default. */
export const EMAIL_OPTOUT = "optout";

const SEPARATORS = /[,;|\s]+/;
const MAX_ADDRESSES = 20;
const MAX_ADDRESS_LENGTH = 254;

/** Section 5: every token split on comma, semicolon, bar or space must contain an at-sign. */
export function splitEmails(text: string): string[] | null {
  const tokens = text.split(SEPARATORS).filter((token) => token !== "");
  // "name@" and "@host" contain an at-sign but cannot deliver; each side must have something.
  const valid = tokens.every((token) => token.length <= MAX_ADDRESS_LENGTH && /^[^@]+@[^@]+$/.test(token));
  if (!valid || tokens.length > MAX_ADDRESSES) return null;
  return [...new Set(tokens.map((token) => token.toLowerCase()))];
}

/** Opt-in is on by default (section 3); a form that does not offer it records no consent. */
function optinOf(element: FormElement, raw: RawInput): boolean {
  if (element.config.is_disable_optin) return false;
  return !(Array.isArray(raw) && raw.slice(1).some((text) => text.trim().toLowerCase() === EMAIL_OPTOUT));
}

export const emailField: FieldTypeModule<EmailValue> = {
  type: "email",
  isInput: true,
  legacyCodes: [29],
  parse(element, raw) {
    const text = (Array.isArray(raw) ? raw[0] : raw) ?? "";
    if (text.trim() === "") return ok(null);
    const addresses = splitEmails(text);
    if (!addresses || addresses.length === 0) return fail(FORM_MESSAGES.invalidEmail);
    return ok({ addresses: addresses.join(", "), optin: optinOf(element, raw) });
  },
  price: (element, value, tier) => (value ? priceAt(element, tier) : 0),
  display: (_element, value) => value?.addresses ?? "",
  isEmpty: (value) => value === null || value.addresses === "",
};
