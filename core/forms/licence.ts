import { fail, firstText, ok, priceAt, type FieldTypeModule } from "./field-type";
import { FORM_MESSAGES } from "./messages";
import type { FormElement, LicenceKind } from "./model";

/** Licence: a racing licence number from one body (config.licence_kind: ccc, fis, uci or ussa). */

const LICENCE_MAX_LENGTH = 64;

const LICENCE_BODIES: Record<LicenceKind, string> = { ccc: "CCC", fis: "FIS", uci: "UCI", ussa: "USSA" };

export function licenceKindOf(element: Pick<FormElement, "config">): LicenceKind | null {
  return element.config.licence_kind ?? null;
}

/** The issuing body's short name for labels and report headers, e.g. "UCI". */
export function licenceBodyOf(element: Pick<FormElement, "config">): string {
  const kind = licenceKindOf(element);
  return kind ? LICENCE_BODIES[kind] : "";
}

export const licenceField: FieldTypeModule<string> = {
  type: "licence",
  isInput: true,
  legacyCodes: [],
  parse(_element, raw) {
    const text = firstText(raw);
    if (text === "" || text === "----") return ok(null);
    return text.length > LICENCE_MAX_LENGTH ? fail(FORM_MESSAGES.textTooLong) : ok(text);
  },
  price: (element, value, tier) => (value ? priceAt(element, tier) : 0),
  display: (_element, value) => value ?? "",
  isEmpty: (value) => value === null || value === "",
};
