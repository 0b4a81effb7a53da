/**
 * The data service's list format, `text/x-z4-api-list` (docs/api/list-format.md): CSV whose header cells are
 * `name:type`. A bare empty cell is null and a quoted empty cell is the empty string, so every list a
 * server writes parses back to the same values. Pure code: the SDK uses it in browsers and Node.
 */
import { csvCell, CsvSyntaxError, parseCsv, type CsvCell } from "../../core/entity/csv";

export const API_LIST_CONTENT_TYPE = "text/x-z4-api-list";

export const listColumnTypes = ["string", "int", "float", "bool", "time", "json"] as const;
export type ListColumnType = (typeof listColumnTypes)[number];

export interface ListColumn {
  readonly name: string;
  readonly type: ListColumnType;
}

export type ListValue = string | number | boolean | null | unknown[] | Record<string, unknown>;
export type ListRow = Record<string, ListValue>;

export interface ApiList {
  readonly columns: readonly ListColumn[];
  readonly rows: ListRow[];
}

export class ApiListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ApiListError";
  }
}

const columnTypeSet: ReadonlySet<string> = new Set(listColumnTypes);
const columnNamePattern = /^[a-z_][a-z0-9_]*$/;
// Names that would land on an object's prototype instead of being a column.
const reservedNames: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);
const decimalPattern = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

function encodeValue(type: ListColumnType, value: unknown): string {
  if (value === null || value === undefined) return "";
  switch (type) {
    case "string":
      return csvCell(String(value), value === "");
    case "int":
    case "time":
      if (typeof value !== "number" || !Number.isSafeInteger(value)) throw new ApiListError(`${String(value)} is not a whole number that can be listed`);
      return String(value);
    case "float":
      if (typeof value !== "number" || !Number.isFinite(value)) throw new ApiListError(`${String(value)} is not a finite number that can be listed`);
      return String(value);
    case "bool":
      return value ? "true" : "false";
    case "json":
      return csvCell(JSON.stringify(value));
  }
}

/** Writes a list: the typed header, then one CRLF-terminated record per row. */
export function encodeApiList(columns: readonly ListColumn[], rows: Iterable<Record<string, unknown>>): string {
  const lines = [columns.map((c) => `${c.name}:${c.type}`).join(",")];
  for (const row of rows) lines.push(columns.map((c) => encodeValue(c.type, row[c.name])).join(","));
  return lines.join("\r\n") + "\r\n";
}

function decodeValue(column: ListColumn, cell: CsvCell, line: number): ListValue {
  if (cell.text === "" && !cell.quoted) return null;
  const bad = () => new ApiListError(`Line ${line}: '${cell.text}' is not a valid ${column.type} for ${column.name}`);
  switch (column.type) {
    case "string":
      return cell.text;
    case "int":
    case "time": {
      if (!/^-?\d+$/.test(cell.text) || !Number.isSafeInteger(Number(cell.text))) throw bad();
      return Number(cell.text);
    }
    case "float": {
      const value = Number(cell.text);
      if (!decimalPattern.test(cell.text) || !Number.isFinite(value)) throw bad();
      return value;
    }
    case "bool":
      if (cell.text === "true") return true;
      if (cell.text === "false") return false;
      throw bad();
    case "json":
      try {
        return JSON.parse(cell.text) as ListValue;
      } catch {
        throw bad();
      }
  }
}

/** Parses a list; any header or value that does not match its declared type is an ApiListError. */
export function parseApiList(text: string): ApiList {
  let records: CsvCell[][];
  try {
    records = parseCsv(text);
  } catch (error) {
    throw new ApiListError(error instanceof CsvSyntaxError ? `Malformed list: ${error.message}` : "Malformed list");
  }
  const header = records[0];
  if (!header) throw new ApiListError("Malformed list: no header");
  const columns = header.map((cell): ListColumn => {
    const [name, type, ...rest] = cell.text.split(":");
    if (!name || !type || rest.length > 0 || !columnNamePattern.test(name) || reservedNames.has(name) || !columnTypeSet.has(type)) {
      throw new ApiListError(`Malformed list header cell '${cell.text}'`);
    }
    return { name, type: type as ListColumnType };
  });
  const rows = records.slice(1).map((record, index) => {
    if (record.length !== columns.length) {
      throw new ApiListError(`Line ${index + 2}: expected ${columns.length} cells, found ${record.length}`);
    }
    const row: ListRow = {};
    columns.forEach((column, c) => {
      row[column.name] = decodeValue(column, record[c] as CsvCell, index + 2);
    });
    return row;
  });
  return { columns, rows };
}
