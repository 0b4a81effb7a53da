/**
 * RFC 4180 CSV that remembers whether a cell was quoted, so the list format can tell null (an empty bare
 * cell) from the empty string (a quoted empty cell). Records end in CRLF; LF alone is accepted on input.
 */

export interface CsvCell {
  readonly text: string;
  readonly quoted: boolean;
}

export class CsvSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CsvSyntaxError";
  }
}

/** Parses CSV text into records of cells. A trailing line break does not make an empty record. */
export function parseCsv(text: string): CsvCell[][] {
  const records: CsvCell[][] = [];
  let record: CsvCell[] = [];
  let i = 0;
  const n = text.length;
  if (n === 0) return records;
  for (;;) {
    let cell: CsvCell;
    if (text[i] === '"') {
      let value = "";
      i++;
      for (;;) {
        const close = text.indexOf('"', i);
        if (close < 0) throw new CsvSyntaxError("Unterminated quoted cell");
        value += text.slice(i, close);
        if (text[close + 1] === '"') {
          value += '"';
          i = close + 2;
          continue;
        }
        i = close + 1;
        break;
      }
      if (i < n && text[i] !== "," && text[i] !== "\r" && text[i] !== "\n") {
        throw new CsvSyntaxError("Text after a closing quote");
      }
      cell = { text: value, quoted: true };
    } else {
      let end = i;
      while (end < n && text[end] !== "," && text[end] !== "\r" && text[end] !== "\n") end++;
      const value = text.slice(i, end);
      if (value.includes('"')) throw new CsvSyntaxError("A quote inside an unquoted cell");
      cell = { text: value, quoted: false };
      i = end;
    }
    record.push(cell);
    if (i >= n) {
      records.push(record);
      return records;
    }
    if (text[i] === ",") {
      i++;
      continue;
    }
    // A line break: \r\n or \n ends the record.
    if (text[i] === "\r") i++;
    if (text[i] === "\n") i++;
    records.push(record);
    record = [];
    if (i >= n) return records;
  }
}

/** Quotes a cell when it holds a comma, quote or line break, or when `forceQuotes` (to keep "" apart from null). */
export function csvCell(value: string, forceQuotes = false): string {
  if (forceQuotes || /[",\r\n]/.test(value)) return `"${value.replaceAll('"', '""')}"`;
  return value;
}

/**
 * A cell a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage return) gets a
 * leading apostrophe. A plain decimal ("-3.00", a refund) is a number, never a formula, and stays as is.
 */
export function csvSafe(text: string): string {
  if (!FORMULA_STARTS.has(text.charCodeAt(0)) || /^-\d+(\.\d+)?$/.test(text)) return text;
  return `'${text}`;
}

const FORMULA_STARTS = new Set(["=", "+", "-", "@", "\t", "\r"].map((c) => c.charCodeAt(0)));

/** CSV for spreadsheets: UTF-8 byte order mark (so Excel reads accents), every cell quoted and made safe, CRLF. */
export function spreadsheetCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => cells.map((cell) => csvCell(csvSafe(cell), true)).join(",");
  return "\uFEFF" + [header, ...rows].map(line).join("\r\n") + "\r\n";
}
