import { labelIn, type Lang } from "./bilingual";
import { allTexts, fail, firstText, ok, priceAt, type FieldTypeModule, type ParseResult, type RawInput } from "./field-type";
import { FORM_MESSAGES } from "./messages";
import type { FormElement, FormOption, Tier } from "./model";

/** The option-type base (section 3): single choice (select or radio) and multi-option. Values are option ids. */

/** The option with this id, else the one with this value; anything else throws "No such option" (section 5). */
export function optionOf(element: Pick<FormElement, "options_list">, idOrValue: string): FormOption {
  const found =
    element.options_list.find((option) => option.id === idOrValue) ??
    element.options_list.find((option) => option.value !== undefined && option.value === idOrValue);
  if (!found) throw new Error(FORM_MESSAGES.noSuchOption);
  return found;
}

/** optionOf for posted input: the error comes back as a message instead of a throw. */
export function parseOption(element: Pick<FormElement, "options_list">, idOrValue: string): ParseResult<FormOption> {
  try {
    return ok(optionOf(element, idOrValue));
  } catch {
    return fail(FORM_MESSAGES.noSuchOption);
  }
}

/** An option's label in a language: display_fr when set for French, else the (possibly tagged) display. */
export function optionLabel(option: FormOption, lang: Lang): string {
  if (lang === "fr" && option.display_fr) return option.display_fr;
  return labelIn(option.display, lang);
}

export interface OptionChooser {
  isAdmin: boolean;
  /** Age on the registration's age calculation date; unknown skips the age limits. */
  age?: number | null;
  gender?: "M" | "F" | "O" | null;
}

/**
 * Whether an option is offered to this person. Hidden options are for admins; age limits are
 * inclusive; with any gender flag set, only the flagged genders (an unknown gender is not refused).
 */
export function isOptionOffered(option: FormOption, chooser: OptionChooser): boolean {
  if (option.is_hidden && !chooser.isAdmin) return false;
  const { age, gender } = chooser;
  if (age != null && option.min_age != null && age < option.min_age) return false;
  if (age != null && option.max_age != null && age > option.max_age) return false;
  if (gender && (option.is_male || option.is_female || option.is_other)) {
    const flag = { M: option.is_male, F: option.is_female, O: option.is_other }[gender];
    if (!flag) return false;
  }
  return true;
}

export function offeredOptions(element: Pick<FormElement, "options_list">, chooser: OptionChooser): FormOption[] {
  return element.options_list.filter((option) => isOptionOffered(option, chooser));
}

/** Sold out once as many are taken as the limit allows; the caller counts what is taken. */
export function isSoldOut(option: FormOption, taken: number): boolean {
  return option.limit != null && taken >= option.limit;
}

/** Element price once a value is present, plus each chosen option's price. */
function optionsPrice(element: FormElement, ids: readonly string[], tier: Tier): number {
  if (ids.length === 0) return 0;
  const chosen = ids.map((id) => element.options_list.find((option) => option.id === id));
  return priceAt(element, tier) + chosen.reduce((sum, option) => sum + (option ? priceAt(option, tier) : 0), 0);
}

/**
 * The part of an option or multi-option value's price that comes from options marked as fees: it is
 * priced as a fee (never discounted by codes), the rest as an item.
 */
export function optionFeePart(element: FormElement, value: unknown, tier: Tier): number {
  if (element.type !== "option" && element.type !== "multioption") return 0;
  const ids = Array.isArray(value) ? (value as string[]) : typeof value === "string" ? [value] : [];
  return ids
    .map((id) => element.options_list.find((option) => option.id === id))
    .reduce((sum, option) => sum + (option?.is_fee ? priceAt(option, tier) : 0), 0);
}

function labelsOf(element: FormElement, ids: readonly string[], lang: Lang): string {
  return ids
    .map((id) => element.options_list.find((option) => option.id === id))
    .map((option) => (option ? optionLabel(option, lang) : ""))
    .filter((text) => text !== "")
    .join(", ");
}

/** Parses one posted option into its id; blank is no choice. */
export function parseSingleOption(element: FormElement, raw: RawInput): ParseResult<string> {
  const text = firstText(raw);
  if (text === "") return ok(null);
  const found = parseOption(element, text);
  return found.ok ? ok(found.value?.id ?? null) : found;
}

export const optionField: FieldTypeModule<string> = {
  type: "option",
  isInput: true,
  legacyCodes: [],
  parse: (element, raw) => parseSingleOption(element, raw),
  price: (element, value, tier) => (value === null ? 0 : optionsPrice(element, [value], tier)),
  display: (element, value, lang) => (value === null ? "" : labelsOf(element, [value], lang)),
  isEmpty: (value) => value === null || value === "",
};

/** Several options; each posted once (repeats are dropped), stored in the form's option order. */
export const multiOptionField: FieldTypeModule<string[]> = {
  type: "multioption",
  isInput: true,
  legacyCodes: [],
  parse(element, raw) {
    const chosen = new Set<string>();
    for (const text of allTexts(raw)) {
      const found = parseOption(element, text);
      if (!found.ok) return found;
      if (found.value) chosen.add(found.value.id);
    }
    const ids = element.options_list.map((option) => option.id).filter((id) => chosen.has(id));
    return ok(ids.length === 0 ? null : ids);
  },
  price: (element, value, tier) => optionsPrice(element, value ?? [], tier),
  display: (element, value, lang) => labelsOf(element, value ?? [], lang),
  isEmpty: (value) => value === null || value.length === 0,
};
