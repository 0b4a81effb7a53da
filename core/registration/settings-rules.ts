/**
 * A registration form's cross-field rules: the order of its times and which fields may name a person. The
 * settings page and the data API both check a form's settings here, so they refuse the same things with the
 * same words.
 */
import type { FormElement } from "../forms/model";

export const SETTINGS_MESSAGES = {
  closeAfterOpen: "The closing time must be after the opening time",
  rise2AfterRise1: "The second price rise must be after the first",
  rise1First: "Set the first price rise before the second",
  nameFieldOfForm: "Choose a text field of this form",
} as const;

/** The form's times, epoch milliseconds, null when not set. */
export interface FormTimes {
  open_time: number | null;
  close_time: number | null;
  raise_price_1_time: number | null;
  raise_price_2_time: number | null;
}

/** Errors by field: closing after opening, and the second price rise only after a first one. */
export function timeOrderErrors(times: FormTimes): Record<string, string> {
  const { open_time: open, close_time: close, raise_price_1_time: rise1, raise_price_2_time: rise2 } = times;
  const errors: Record<string, string> = {};
  if (open !== null && close !== null && close <= open) errors.close_time = SETTINGS_MESSAGES.closeAfterOpen;
  if (rise2 !== null && rise1 === null) errors.raise_price_1_time = SETTINGS_MESSAGES.rise1First;
  if (rise1 !== null && rise2 !== null && rise2 <= rise1) errors.raise_price_2_time = SETTINGS_MESSAGES.rise2AfterRise1;
  return errors;
}

/** Name fields must be text fields of this form: a deleted or other form's field would name nobody. */
export function nameFieldErrors(
  chosen: { first_name_field_id: string | null; last_name_field_id: string | null },
  elements: readonly FormElement[],
): Record<string, string> {
  const textIds = new Set(elements.filter((e) => e.type === "text").map((e) => e.id));
  const errors: Record<string, string> = {};
  if (chosen.first_name_field_id !== null && !textIds.has(chosen.first_name_field_id)) errors.first_name_field_id = SETTINGS_MESSAGES.nameFieldOfForm;
  if (chosen.last_name_field_id !== null && !textIds.has(chosen.last_name_field_id)) errors.last_name_field_id = SETTINGS_MESSAGES.nameFieldOfForm;
  return errors;
}
