import type { FieldType, FormElement } from "./model";

/** A form element for tests: every flag off, no prices, overridden as each test needs. */
export function makeElement(type: FieldType, overrides: Partial<FormElement> = {}): FormElement {
  return {
    id: overrides.id ?? `${type}-1`,
    type,
    caption: type,
    is_taxable: false,
    is_mandatory: false,
    is_admin_only: false,
    is_kiosk_mode: false,
    is_admin_mandatory: false,
    is_edit_forbidden: false,
    ordinal: 0,
    all_discount: false,
    is_fee: false,
    options_list: [],
    config: {},
    ...overrides,
  };
}

export const EN = { lang: "en" } as const;
