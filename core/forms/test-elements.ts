import { newElement, type FieldType, type FormElement } from "./model";

/** A form element for tests: every flag off, no prices, overridden as each test needs. */
export function makeElement(type: FieldType, overrides: Partial<FormElement> = {}): FormElement {
  return newElement(overrides.id ?? `${type}-1`, type, { caption: type, config: {}, ...overrides });
}

export const EN = { lang: "en" } as const;
