/**
 * Entity fields as an HTML form carries them: the text an input shows for a stored value, and the typed value
 * a posted text stands for. The administration's generated forms use both, and then hand the typed values to
 * the same entity service as the data API, so only the typing of text lives here, never a rule.
 */
import type { FieldErrors } from "./field-errors";
import type { FilterFieldType } from "./filters";

export interface FormFieldShape {
  readonly api: string;
  readonly type: FilterFieldType;
  /** The column takes null: an empty input means null rather than an empty text. */
  readonly nullable: boolean;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A datetime-local value in UTC ("2027-01-15T09:30"), the administration's one time zone. */
export function utcInputText(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** What an input shows for a stored value. */
export function formTextOf(type: FilterFieldType, value: unknown): string {
  if (value === null || value === undefined) return "";
  switch (type) {
    case "time":
      return typeof value === "number" ? utcInputText(value) : "";
    case "json":
      return JSON.stringify(value, null, 2);
    case "bool":
      return value === true ? "on" : "";
    default:
      return String(value);
  }
}

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

function typed(shape: FormFieldShape, text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (shape.type === "bool") return { ok: true, value: text === "on" || text === "true" };
  const trimmed = text.trim();
  if (trimmed === "" && shape.nullable) return { ok: true, value: null };
  switch (shape.type) {
    case "string":
      return { ok: true, value: text };
    case "int": {
      if (!/^-?\d{1,16}$/.test(trimmed)) return { ok: false, message: "Enter a whole number" };
      return { ok: true, value: Number(trimmed) };
    }
    case "float": {
      const n = Number(trimmed);
      if (trimmed === "" || !Number.isFinite(n)) return { ok: false, message: "Enter a number" };
      return { ok: true, value: n };
    }
    case "time": {
      const m = DATETIME.exec(trimmed);
      if (!m) return { ok: false, message: "Enter a date and time" };
      const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
      const ms = Date.UTC(y, mo - 1, d, h, mi, Number.isNaN(s) ? 0 : s);
      // Date.UTC rolls 31 February into March; a date that does not exist is refused instead.
      if (Number.isNaN(ms) || utcInputText(ms) !== `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}`) return { ok: false, message: "Enter a date and time" };
      return { ok: true, value: ms };
    }
    case "json": {
      try {
        return { ok: true, value: JSON.parse(trimmed) as unknown };
      } catch {
        return { ok: false, message: "Enter valid JSON" };
      }
    }
  }
}

/**
 * The typed values of the fields a form showed (`shapes`), from its posted text. A checkbox that was not
 * ticked sends nothing, so a bool field the form showed reads as false when it is absent.
 */
export function parseFormText(
  shapes: readonly FormFieldShape[],
  posted: Readonly<Record<string, string>>,
): { ok: true; values: Record<string, unknown> } | { ok: false; errors: FieldErrors } {
  const values: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  for (const shape of shapes) {
    const text = posted[shape.api];
    if (text === undefined && shape.type !== "bool") continue;
    const result = typed(shape, text ?? "");
    if (result.ok) values[shape.api] = result.value;
    else errors[shape.api] = result.message;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, values };
}
