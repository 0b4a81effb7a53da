import { fail, firstText, ok, type FieldTypeModule } from "./field-type";
import { FORM_MESSAGES } from "./messages";
import { FORM_LIMITS, type DiscountEntry, type FormElement } from "./model";

/**
 * Discount codes: the registrant types one or more codes separated by spaces (section 5). The value
 * is the codes, normalised; the cart's pricing applies the discounts, so the field itself costs 0.
 */

/** A registrant enters at most this many codes at once. */
export const MAX_CODES = 10;

/** Split on whitespace, upper-cased (codes match ignoring case), each once, in typed order. */
export function normaliseCodes(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/\s+/)
        .filter((code) => code !== "")
        .map((code) => code.toUpperCase()),
    ),
  ];
}

/** The element's discounts the typed codes name, and the codes that name none. */
export function matchDiscounts(element: Pick<FormElement, "config">, codesText: string): { matched: DiscountEntry[]; unknown: string[] } {
  const byCode = new Map((element.config.discounts_list ?? []).map((entry) => [entry.code.toUpperCase(), entry]));
  const matched: DiscountEntry[] = [];
  const unknown: string[] = [];
  for (const code of normaliseCodes(codesText)) {
    const entry = byCode.get(code);
    if (entry) matched.push(entry);
    else unknown.push(code);
  }
  return { matched, unknown };
}

export const discountField: FieldTypeModule<string> = {
  type: "discount",
  isInput: true,
  legacyCodes: [],
  parse(element, raw) {
    const codes = normaliseCodes(firstText(raw));
    if (codes.length === 0) return ok(null);
    if (codes.length > MAX_CODES) return fail(FORM_MESSAGES.tooManyCodes);
    // A mistyped code is refused here so the registrant can fix it; use limits (qty) are the cart's.
    const { unknown } = matchDiscounts(element, codes.join(" "));
    if (unknown.length > 0) return fail(FORM_MESSAGES.unknownDiscount(unknown.map((code) => code.slice(0, FORM_LIMITS.code))));
    return ok(codes.join(" "));
  },
  price: () => 0,
  display: (_element, value) => value ?? "",
  isEmpty: (value) => value === null || value === "",
};
