/**
 * Validation systems (issue 27): a membership or licence number checked against a club's uploaded list or a
 * pattern. Numbers are compared normalised, so "ab 0012-34" on the list matches "AB1234" typed.
 */
import { CsvSyntaxError, parseCsv } from "../entity/csv";

export const VALIDATION_WORDS = {
  notOnList: "This licence number is not on the club's list",
  noPattern: "This licence number is not in the form the club expects",
  noColumn: "Choose the column that holds the numbers",
  noRows: "The file has no numbers in that column",
  badCsv: (detail: string) => `The file is not a CSV file the page can read: ${detail}`,
  tooMany: (max: number) => `A list holds at most ${max.toLocaleString("en")} numbers`,
} as const;

/** A list this long still uploads in one request within the Worker's time and D1's batch. */
export const MAX_LIST_NUMBERS = 200_000;
/** The longest number kept; longer cells are not licence numbers. */
export const MAX_NUMBER_LENGTH = 64;

/**
 * One spelling per number: upper case, no spaces, dots, dashes or slashes, and no leading zeros in a run of
 * digits that starts the number ("00123" is "123", "AB-007" is "AB007": only a leading digit run is trimmed).
 */
export function normaliseNumber(raw: string): string {
  const compact = raw
    .normalize("NFKC")
    .toUpperCase()
    .replace(/[\s.\-/_]+/g, "");
  const trimmed = compact.replace(/^0+(?=\d)/, "");
  return trimmed;
}

/** Whether a value matches the system's pattern, the whole value (the pattern is anchored), tried raw and normalised. */
export function matchesPattern(pattern: string, value: string): boolean {
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${pattern})$`, "u");
  } catch {
    return false;
  }
  return re.test(value.trim()) || re.test(normaliseNumber(value));
}

export interface CsvNumbers {
  /** The header row's cells, for the CSVFile's column list. */
  columns: string[];
  /** Distinct normalised numbers, in file order. */
  numbers: string[];
}

/** The header of an uploaded CSV (its first record), for choosing the column. */
export function csvColumns(text: string): { ok: true; columns: string[] } | { ok: false; error: string } {
  const firstLine = text.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  try {
    return { ok: true, columns: (parseCsv(firstLine)[0] ?? []).map((c) => c.text.trim()) };
  } catch (error) {
    if (error instanceof CsvSyntaxError) return { ok: false, error: VALIDATION_WORDS.badCsv(error.message) };
    throw error;
  }
}

/**
 * The numbers of one column of an uploaded CSV whose first row names the columns. Empty cells are skipped;
 * duplicates after normalising are kept once.
 */
export function numbersOfCsv(text: string, column: string): { ok: true; value: CsvNumbers } | { ok: false; error: string } {
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    if (error instanceof CsvSyntaxError) return { ok: false, error: VALIDATION_WORDS.badCsv(error.message) };
    throw error;
  }
  const columns = (records[0] ?? []).map((c) => c.text.trim());
  const at = columns.indexOf(column.trim());
  if (!column.trim() || at < 0) return { ok: false, error: VALIDATION_WORDS.noColumn };
  const seen = new Set<string>();
  for (const record of records.slice(1)) {
    const number = normaliseNumber(record[at]?.text ?? "");
    if (number && number.length <= MAX_NUMBER_LENGTH) seen.add(number);
    if (seen.size > MAX_LIST_NUMBERS) return { ok: false, error: VALIDATION_WORDS.tooMany(MAX_LIST_NUMBERS) };
  }
  if (seen.size === 0) return { ok: false, error: VALIDATION_WORDS.noRows };
  return { ok: true, value: { columns, numbers: [...seen] } };
}

/** Splits a list into chunks of at most `size`, for inserts within D1's statement limits. */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
