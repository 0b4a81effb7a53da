import { fail, firstText, ok, priceAt, type FieldTypeModule } from "./field-type";
import { FORM_MESSAGES } from "./messages";

/** Gender: stored as M, F or O (section 3). */

export type Gender = "M" | "F" | "O";

const WORDS: Record<Gender, { en: string; fr: string }> = {
  F: { en: "Female", fr: "Femme" },
  M: { en: "Male", fr: "Homme" },
  O: { en: "Other", fr: "Autre" },
};

const BY_WORD = new Map<string, Gender>(
  (Object.keys(WORDS) as Gender[]).flatMap((code) => [
    [code.toLowerCase(), code],
    [WORDS[code].en.toLowerCase(), code],
    [WORDS[code].fr.toLowerCase(), code],
  ]),
);

/** M, F or O from the letter or the word in either language; null when it is none of them. */
export function readGender(text: string): Gender | null {
  return BY_WORD.get(text.trim().toLowerCase()) ?? null;
}

/**
 * Our reading of is_show_unspecified ("shows the full words Female/Male/Other"): with it the value
 * displays as the word in the reader's language, without it as the stored letter, which is what
 * reports and imports expect in a gender column.
 */
export const genderField: FieldTypeModule<Gender> = {
  type: "gender",
  isInput: true,
  legacyCodes: [31],
  parse(_element, raw) {
    const text = firstText(raw);
    if (text === "") return ok(null);
    const gender = readGender(text);
    return gender ? ok(gender) : fail(FORM_MESSAGES.noSuchOption);
  },
  price: (element, value, tier) => (value ? priceAt(element, tier) : 0),
  display(element, value, lang) {
    if (!value) return "";
    return element.config.is_show_unspecified ? WORDS[value][lang] : value;
  },
  isEmpty: (value) => value === null,
};
