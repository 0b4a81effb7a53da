/**
 * The list filter syntax (docs/api/list-format.md): `filters` is one CSV record whose cells are each
 * `field` `operator` `value`, all of which must hold. Values are typed by the field, so `limit=1 OR 1=1`
 * is just a string that matches nothing; the store turns conditions into parameterised SQL.
 */
import { CsvSyntaxError, parseCsv } from "./csv";

export const filterOperators = ["!=", "<=", ">=", "=", "<", ">", "~", "^", "@"] as const;
export type FilterOperator = (typeof filterOperators)[number];

export type FilterFieldType = "string" | "int" | "float" | "bool" | "time" | "json";
export type FilterValue = string | number | boolean;

export interface FilterCondition {
  readonly field: string;
  readonly op: FilterOperator;
  /** null for `field=` (is null) and `field!=` (is not null); a list for `@`. */
  readonly value: FilterValue | FilterValue[] | null;
}

export const MAX_FILTER_CONDITIONS = 20;
export const MAX_FILTER_VALUE_LENGTH = 500;

export class FilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FilterError";
  }
}

// Two-character operators are listed first so `<=` is never read as `<` followed by `=value`.
const cellPattern = /^([a-z_][a-z0-9_]*)(!=|<=|>=|=|<|>|~|\^|@)([\s\S]*)$/;

function typed(field: string, type: FilterFieldType, raw: string): FilterValue {
  switch (type) {
    case "string":
      return raw;
    case "int":
    case "time":
      if (!/^-?\d{1,16}$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new FilterError(`Filter value for ${field} must be a whole number`);
      return Number(raw);
    case "float": {
      const value = Number(raw);
      if (!/^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(raw) || !Number.isFinite(value)) throw new FilterError(`Filter value for ${field} must be a number`);
      return value;
    }
    case "bool":
      if (raw === "true" || raw === "1") return true;
      if (raw === "false" || raw === "0") return false;
      throw new FilterError(`Filter value for ${field} must be true or false`);
    case "json":
      throw new FilterError(`Field ${field} cannot be filtered`);
  }
}

/**
 * Parses `filters` against the fields a class exposes (name -> type). Unknown fields, malformed CSV,
 * operators that do not suit the type, and values of the wrong type are FilterErrors.
 */
export function parseFilters(text: string, fields: ReadonlyMap<string, FilterFieldType>): FilterCondition[] {
  if (text.trim() === "") return [];
  let records;
  try {
    records = parseCsv(text);
  } catch (error) {
    throw new FilterError(`Malformed filters: ${error instanceof CsvSyntaxError ? error.message : "not CSV"}`);
  }
  if (records.length !== 1) throw new FilterError("Malformed filters: write every condition on one line");
  const cells = records[0] ?? [];
  if (cells.length > MAX_FILTER_CONDITIONS) throw new FilterError(`At most ${MAX_FILTER_CONDITIONS} filter conditions are allowed`);
  return cells.map((cell) => {
    const match = cellPattern.exec(cell.text);
    if (!match) throw new FilterError(`Malformed filter '${cell.text}': write field, operator, value`);
    const [, field = "", op = "=", raw = ""] = match;
    const type = fields.get(field);
    if (!type) throw new FilterError(`Unknown filter field '${field}'`);
    if (raw.length > MAX_FILTER_VALUE_LENGTH) throw new FilterError(`Filter value for ${field} is longer than ${MAX_FILTER_VALUE_LENGTH} characters`);
    const operator = op as FilterOperator;
    if (type === "json") throw new FilterError(`Field ${field} cannot be filtered`);
    if (raw === "" && (operator === "=" || operator === "!=")) return { field, op: operator, value: null };
    if ((operator === "~" || operator === "^") && type !== "string") throw new FilterError(`Operator ${operator} applies only to text fields`);
    if (operator === "@") {
      const values = raw.split("|").map((part) => typed(field, type, part));
      if (values.length > 100) throw new FilterError(`At most 100 values are allowed for ${field}`);
      return { field, op: operator, value: values };
    }
    return { field, op: operator, value: typed(field, type, raw) };
  });
}
