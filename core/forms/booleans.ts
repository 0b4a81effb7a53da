import { labelIn, type Lang } from "./bilingual";
import { fail, firstText, ok, priceAt, readYesNo, type FieldTypeModule } from "./field-type";
import { FORM_MESSAGES } from "./messages";
import type { FormElement } from "./model";

/** Checkbox, yes/no and waiver: answers of one bit. */

/** A checkbox posts nothing when unchecked, so blank is false; its price applies when checked. */
export const checkboxField: FieldTypeModule<boolean> = {
  type: "checkbox",
  isInput: true,
  legacyCodes: [],
  parse(_element, raw) {
    const answer = readYesNo(firstText(raw));
    return answer === undefined ? fail(FORM_MESSAGES.noSuchOption) : ok(answer ?? false);
  },
  price: (element, value, tier) => (value === true ? priceAt(element, tier) : 0),
  display: (_element, value, lang) => (value === true ? (lang === "fr" ? "Oui" : "Yes") : ""),
  // A mandatory checkbox ("I agree") must be checked.
  isEmpty: (value) => value !== true,
};

export type YesNo = "yes" | "no";

/** Yes/No stores "yes" or "no"; "no" is an answer, so a mandatory yes/no accepts it. */
export const yesNoField: FieldTypeModule<YesNo> = {
  type: "yesno",
  isInput: true,
  legacyCodes: [9],
  parse(_element, raw) {
    const answer = readYesNo(firstText(raw));
    if (answer === undefined) return fail(FORM_MESSAGES.noSuchOption);
    return ok(answer === null ? null : answer ? "yes" : "no");
  },
  price: (element, value, tier) => (value === "yes" ? priceAt(element, tier) : 0),
  display(_element, value, lang) {
    if (value === null) return "";
    if (lang === "fr") return value === "yes" ? "Oui" : "Non";
    return value === "yes" ? "Yes" : "No";
  },
  isEmpty: (value) => value === null,
};

/**
 * A waiver is signed (true) or not (false); a mandatory waiver must be signed. Its text sits in
 * config.waiver_text and is shown, not parsed.
 */
export const waiverField: FieldTypeModule<boolean> = {
  type: "waiver",
  isInput: true,
  legacyCodes: [],
  parse(_element, raw) {
    const answer = readYesNo(firstText(raw));
    return answer === undefined ? fail(FORM_MESSAGES.noSuchOption) : ok(answer ?? false);
  },
  price: (element, value, tier) => (value === true ? priceAt(element, tier) : 0),
  display(_element, value, lang) {
    if (lang === "fr") return value === true ? "Signé" : "Non signé";
    return value === true ? "Signed" : "Not signed";
  },
  isEmpty: (value) => value !== true,
};

/** The waiver text in the registrant's language. */
export function waiverTextOf(element: Pick<FormElement, "config">, lang: Lang): string {
  return labelIn(element.config.waiver_text ?? "", lang);
}
