/**
 * Fields of a settings form (the race setup page and its mode fieldsets), each named once: its value is what a
 * refused save sent back, else what is stored, and its error is found by the same name.
 */
import { SelectField, TextField, type FieldErrors } from "./form-kit";

/** A settings form's values: what a refused save sent back, else what is stored; and its errors by field name. */
export interface SettingValues {
  v: (name: string, stored: string | number | null | undefined) => string;
  errors: FieldErrors;
}

type Stored = string | number | null | undefined;

/** A SelectField of a settings form, named once: its value and its error are looked up by that name. */
export function SettingSelect({
  form,
  name,
  stored,
  ...rest
}: { form: SettingValues; stored: Stored } & Omit<Parameters<typeof SelectField>[0], "defaultValue" | "error">) {
  return <SelectField name={name} defaultValue={form.v(name, stored)} error={form.errors[name]} {...rest} />;
}

/** A TextField of a settings form, named once: its value and its error are looked up by that name. */
export function SettingText({
  form,
  name,
  stored,
  ...rest
}: { form: SettingValues; stored: Stored } & Omit<Parameters<typeof TextField>[0], "defaultValue" | "error">) {
  return <TextField name={name} defaultValue={form.v(name, stored)} error={form.errors[name]} {...rest} />;
}
