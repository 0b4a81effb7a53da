/**
 * A series' points file (the spec's last_points_file): points an organiser carries into the standings, from
 * last season or races timed elsewhere, as CSV with the columns Category, Name, Club and Points (a standings
 * export reads too: its Total column is taken when there is no Points column). Read whole or refused whole,
 * with one message per bad row, so a file is never half taken (decision 0048).
 */
import { CsvSyntaxError, parseCsv, spreadsheetCsv } from "../entity/csv";
import { racerIdentity } from "./identity";
import { formatPoints, toHundredths } from "./points";
import type { CarriedPoints } from "./standings";

export const POINTS_FILE_MAX_ROWS = 10_000;
export const POINTS_FILE_MAX_BYTES = 1_000_000;
const MAX_POINTS = 100_000;

export type PointsFileResult = { ok: true; rows: CarriedPoints[] } | { ok: false; errors: string[] };

const header = (cell: string) =>
  cell
    .replace(/^\uFEFF/, "")
    .trim()
    .toLowerCase();
// A spreadsheet-safe export prefixes formula-like cells with an apostrophe; the value is the rest.
const value = (cell: string | undefined) => (cell ?? "").replace(/^'(?=[=+\-@\t\r])/, "").trim();

export function readPointsFile(text: string): PointsFileResult {
  if (text.length > POINTS_FILE_MAX_BYTES) return { ok: false, errors: ["The file is larger than 1 MB"] };
  // A spreadsheet's own file (xlsx) or an image is not text: say so rather than report its bytes as CSV.
  if (text.includes("\u0000")) return { ok: false, errors: ["The file is not a CSV text file"] };
  let records: string[][];
  try {
    records = parseCsv(text.replace(/^\uFEFF/, "")).map((r) => r.map((c) => c.text));
  } catch (error) {
    if (error instanceof CsvSyntaxError) return { ok: false, errors: [`The file is not valid CSV: ${error.message}`] };
    throw error;
  }
  records = records.filter((r) => r.some((c) => c.trim() !== ""));
  const [head, ...body] = records;
  if (!head) return { ok: false, errors: ["The file is empty"] };
  const columns = head.map(header);
  const at = (name: string) => columns.indexOf(name);
  const points = at("points") >= 0 ? at("points") : at("total");
  const missing = [
    ["Category", at("category")],
    ["Name", at("name")],
    ["Points", points],
  ]
    .filter(([, i]) => i === -1)
    .map(([n]) => n);
  if (missing.length > 0) return { ok: false, errors: [`The first row must name the columns; missing: ${missing.join(", ")}`] };
  if (body.length > POINTS_FILE_MAX_ROWS) return { ok: false, errors: [`The file has more than ${POINTS_FILE_MAX_ROWS} rows`] };
  const errors: string[] = [];
  const rows: CarriedPoints[] = [];
  const seen = new Map<string, number>();
  body.forEach((record, i) => {
    const line = i + 2;
    const category = value(record[at("category")]);
    const name = value(record[at("name")]);
    const club = at("club") >= 0 ? value(record[at("club")]) || null : null;
    const raw = value(record[points]);
    const problems: string[] = [];
    if (!category) problems.push("Category is required");
    if (!name) problems.push("Name is required");
    const amount = /^-?\d+(\.\d{1,2})?$/.test(raw) ? Number(raw) : NaN;
    if (!raw) problems.push("Points is required");
    else if (!Number.isFinite(amount) || Math.abs(amount) > MAX_POINTS) problems.push("Points must be a number with at most two decimals");
    if (problems.length > 0) {
      errors.push(`Row ${line}: ${problems.join("; ")}`);
      return;
    }
    const identity = racerIdentity({ name, club });
    const key = `${category}\u0000${identity}`;
    const first = seen.get(key);
    if (first !== undefined) errors.push(`Row ${line}: ${name} in ${category} is already on row ${first}`);
    else seen.set(key, line);
    rows.push({ identity, name, club, category, points: toHundredths(amount) });
  });
  return errors.length > 0
    ? { ok: false, errors: errors.slice(0, 50).concat(errors.length > 50 ? [`… and ${errors.length - 50} more rows`] : []) }
    : { ok: true, rows };
}

/** The file as stored: the same columns in a fixed order, so what is kept is what the standings read. */
export function writePointsFile(rows: readonly CarriedPoints[]): string {
  return spreadsheetCsv(
    ["Category", "Name", "Club", "Points"],
    rows.map((r) => [r.category, r.name, r.club ?? "", formatPoints(r.points)]),
  );
}
