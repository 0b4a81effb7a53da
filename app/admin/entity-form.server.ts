/**
 * The detail and edit form of a registry class, generated from its fields (issue 25): which control each
 * field gets, what it shows, and how a posted form becomes the entity service's values. A field's rules stay
 * in its zod schema and the class's write rule; this module only reads their shape.
 */
import type * as z from "zod";
import { formTextOf, parseFormText, type FormFieldShape } from "../../core/entity/form-values";
import type { FieldErrors } from "../../core/entity/field-errors";
import type { EntityClass, EntityField } from "../../schema/entities/registry";
import type { StoredEntity } from "../../workers/data-api/entity-store";
import { changeEntity, type Caller, type EntityContext } from "../../workers/services/entity-service";

export type AdminInput = "text" | "textarea" | "number" | "checkbox" | "select" | "datetime" | "json";

/** One field as the page shows it; plain data, so it crosses to the browser as it is. */
export interface AdminField {
  api: string;
  label: string;
  input: AdminInput;
  /** Choices of a select (an enum field), with "" first when the field may be empty. */
  options: string[];
  /** For a reference: the objects it may name, by uuid with their names (null when too many to list). */
  choices: { value: string; label: string }[] | null;
  /** The form lets the administrator set it (a create-only field only while creating). */
  editable: boolean;
  required: boolean;
  value: string;
  /** The uuid refers to another object, shown by its name where the page has it. */
  reference: string | null;
}

interface Def {
  type?: string;
  innerType?: z.ZodType;
  entries?: Record<string, string>;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { def: Def }).def;

function unwrapped(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 5; i++) {
    const def = defOf(current);
    if ((def.type === "nullable" || def.type === "optional" || def.type === "default") && def.innerType) current = def.innerType;
    else break;
  }
  return current;
}

export function isNullable(field: EntityField): boolean {
  return defOf(field.schema).type === "nullable";
}

function enumOptions(field: EntityField): string[] | null {
  const def = defOf(unwrapped(field.schema));
  return def.type === "enum" && def.entries ? Object.values(def.entries) : null;
}

const LONG_TEXT = /^(info|description|body|text|notes|formula|packing_instructions|caption|pattern)$/;

function inputOf(field: EntityField): { input: AdminInput; options: string[] } {
  const options = enumOptions(field);
  if (options) return { input: "select", options: isNullable(field) ? ["", ...options] : options };
  switch (field.type) {
    case "bool":
      return { input: "checkbox", options: [] };
    case "int":
    case "float":
      return { input: "number", options: [] };
    case "time":
      return { input: "datetime", options: [] };
    case "json":
      return { input: "json", options: [] };
    default: {
      const max = (unwrapped(field.schema) as unknown as { maxLength?: number | null }).maxLength ?? null;
      // Addresses and names stay one line; free text (a caption, a description) gets room.
      return { input: LONG_TEXT.test(field.api) || (max !== null && max > 2000) ? "textarea" : "text", options: [] };
    }
  }
}

/** "start_date" → "Start date"; the API name stays visible in the hint so data-API users recognise it. */
export function labelOf(api: string): string {
  const words = api.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The value a new row gets when the field is not sent (a flag that starts on), so a create form starts there. */
function columnDefault(field: EntityField): unknown {
  const value = (field.column as unknown as { default?: unknown }).default;
  return typeof value === "object" && value !== null && !Array.isArray(value) ? undefined : value;
}

/** The form's fields for a stored row (edit) or a new one (create), in the registry's order. */
export function formFieldsOf(entity: EntityClass, row: Readonly<Record<string, unknown>> | null, referenceOf: (api: string) => string | null): AdminField[] {
  const creating = row === null;
  return entity.fields
    .filter((f) => f.api !== "uuid" && (!creating || f.writable || f.createOnly))
    .map((f) => ({
      api: f.api,
      label: labelOf(f.api),
      ...inputOf(f),
      editable: !entity.readOnly && (f.writable || (creating && f.createOnly)),
      required: f.required,
      value: formTextOf(f.type, row ? row[f.api] : columnDefault(f)),
      reference: referenceOf(f.api),
      choices: null,
    }));
}

function shapesOf(entity: EntityClass, creating: boolean): FormFieldShape[] {
  return entity.fields
    .filter((f) => f.api !== "uuid" && (f.writable || (creating && f.createOnly)))
    .map((f) => ({ api: f.api, type: f.type, nullable: isNullable(f) }));
}

/** A create's values: every editable field the form sent, typed; empty optional fields are left out. */
export function createValuesOf(
  entity: EntityClass,
  posted: Readonly<Record<string, string>>,
): { ok: true; values: Record<string, unknown> } | { ok: false; errors: FieldErrors } {
  // An optional field left empty is not sent at all, so the column's own default applies.
  const given = Object.fromEntries(
    Object.entries(posted).filter(([api, text]) => text.trim() !== "" || entity.fields.some((f) => f.api === api && f.required)),
  );
  const parsed = parseFormText(shapesOf(entity, true), given);
  if (!parsed.ok) return parsed;
  const values = Object.fromEntries(Object.entries(parsed.values).filter(([, value]) => value !== null));
  return { ok: true, values };
}

/**
 * An edit's values: only the fields the administrator changed from what the page showed (`original`, the
 * row as read). Another tab's change to a field this one left alone is then kept, and a field both changed
 * is refused as stale by the service rather than overwritten.
 */
export function changedValuesOf(
  entity: EntityClass,
  posted: Readonly<Record<string, string>>,
  original: Readonly<Record<string, unknown>>,
): { ok: true; values: Record<string, unknown> } | { ok: false; errors: FieldErrors } {
  const parsed = parseFormText(shapesOf(entity, false), posted);
  if (!parsed.ok) return parsed;
  const values: Record<string, unknown> = {};
  for (const [api, value] of Object.entries(parsed.values)) {
    const before = original[api] ?? null;
    if (JSON.stringify(before) !== JSON.stringify(value)) values[api] = value;
  }
  return { ok: true, values };
}

/** The service's refusal as errors by field: a field the form shows keeps its own, the rest go above the form. */
export function errorsOfRefusal(body: { message: string; fields?: Record<string, string> | readonly string[] }, formFields: readonly string[]): FieldErrors {
  const errors: FieldErrors = {};
  const quoted = /^Invalid value for '([a-z0-9_]+)': (.*)$/.exec(body.message) ?? /^Missing field '([a-z0-9_]+)'/.exec(body.message);
  if (quoted && formFields.includes(quoted[1]!)) errors[quoted[1]!] = quoted[2] ?? "Enter a value";
  if (body.fields && !Array.isArray(body.fields)) {
    for (const [field, message] of Object.entries(body.fields as Record<string, string>)) {
      const top = field.split(".")[0]!;
      if (formFields.includes(top)) errors[top] ??= message;
      else errors.form ??= message;
    }
  }
  if (Array.isArray(body.fields))
    for (const field of body.fields as readonly string[]) if (formFields.includes(field)) errors[field] ??= "Someone changed this since you opened the page";
  if (Object.keys(errors).length === 0) errors.form = body.message;
  else if (Array.isArray(body.fields)) errors.form = `${body.message}. Save again to replace their change with yours, or reload the page to see it.`;
  return errors;
}

/** What the page showed when it was opened: the row and its field times, sent back with the form. */
function readBack(values: Readonly<Record<string, string>>): { original: Record<string, unknown>; mtimes: Record<string, number> } | null {
  try {
    const original = JSON.parse(values.original ?? "") as unknown;
    const mtimes = JSON.parse(values.mtimes ?? "") as unknown;
    if (typeof original !== "object" || original === null || typeof mtimes !== "object" || mtimes === null) return null;
    const times = Object.entries(mtimes).filter(
      (entry): entry is [string, number] => typeof entry[1] === "number" && Number.isSafeInteger(entry[1]) && entry[1] >= 0,
    );
    return { original: original as Record<string, unknown>, mtimes: Object.fromEntries(times) };
  } catch {
    return null;
  }
}

/** The hidden inputs an edit form carries so its save can tell what the administrator changed. */
export function readBackInputs(stored: StoredEntity): Record<string, string> {
  return { original: JSON.stringify(stored.row), mtimes: JSON.stringify(stored.mtimes) };
}

export type FormSave = { ok: true; changed: boolean } | { ok: false; errors: FieldErrors; status: 400 | 403 | 404 | 409 };

/**
 * Saves a generated edit form through the entity service: only the fields changed since the page was opened,
 * each against the time the page read it, so a field someone changed since is refused as stale, never
 * overwritten. The pages' errors by field come from the service's refusal.
 */
export async function saveEntityForm(
  context: EntityContext,
  caller: Caller,
  entity: EntityClass,
  stored: StoredEntity,
  posted: Readonly<Record<string, string>>,
): Promise<FormSave> {
  const read = readBack(posted);
  if (!read) return { ok: false, errors: { form: "The form was incomplete. Reload the page and try again." }, status: 400 };
  const values = changedValuesOf(entity, posted, read.original);
  if (!values.ok) return { ok: false, errors: values.errors, status: 400 };
  if (Object.keys(values.values).length === 0) return { ok: true, changed: false };
  const base = Object.fromEntries(Object.keys(values.values).map((api) => [api, read.mtimes[api] ?? 0]));
  const changed = await changeEntity(context, caller, entity, stored, values.values, base);
  if (changed.ok) return { ok: true, changed: true };
  const status = changed.refusal.status === 405 ? 400 : changed.refusal.status;
  return {
    ok: false,
    errors: errorsOfRefusal(
      changed.refusal.body,
      entity.fields.map((f) => f.api),
    ),
    status,
  };
}
