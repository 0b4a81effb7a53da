/**
 * Which fields of a form hold a person's first and last names: the one home of that rule, used by cart
 * names, receipts, reports, racers made from registrations and the membership panel.
 */
import type { FormElement } from "./model";

/** Captions that name a person's first or last name, in English and French (any language part of a caption). */
export const NAME_CAPTIONS = {
  first: /first name|given name|prénom/i,
  last: /last name|family name|surname|nom de famille/i,
} as const;

export interface ChosenNameFields {
  firstNameFieldId?: string | null;
  lastNameFieldId?: string | null;
}

/**
 * The registration's chosen name fields, else a text field with the first_name / last_name logic key, else
 * the first text field captioned so.
 */
export function nameFieldsOf(elements: readonly FormElement[], chosen: ChosenNameFields): { first: string | undefined; last: string | undefined } {
  const text = elements.filter((e) => e.type === "text");
  const find = (key: "first_name" | "last_name", caption: RegExp) => text.find((e) => e.logic_key === key)?.id ?? text.find((e) => caption.test(e.caption))?.id;
  return {
    first: chosen.firstNameFieldId ?? find("first_name", NAME_CAPTIONS.first),
    last: chosen.lastNameFieldId ?? find("last_name", NAME_CAPTIONS.last),
  };
}
