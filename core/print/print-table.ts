/**
 * A document to print or download: sections (a result group, a start group's course) of rows, each section
 * with its own columns. One shape feeds the PDF, the CSV and nothing else needs to know the source.
 */
import { spreadsheetCsv } from "../entity/csv";
import type { ReportTable } from "../timing/start-list";

export interface PrintColumn {
  label: string;
  /** Times, ranks and bibs: right-aligned in print. */
  numeric?: boolean;
}

export interface PrintSection {
  heading: string;
  columns: PrintColumn[];
  rows: string[][];
}

/**
 * ResultFormat.print_size as a font size in points. The spec names the field but not its values: "small",
 * "medium" (and blank) and "large", or a number of points (6 to 16) as "9" or "9pt" (decision 0033).
 */
export function printFontSize(printSize: string | null | undefined): number {
  const value = (printSize ?? "").trim().toLowerCase();
  if (value === "small") return 8;
  if (value === "large") return 12;
  const points = /^(\d+(?:\.\d+)?)\s*(?:pt)?$/.exec(value);
  if (points) return Math.min(16, Math.max(6, Number(points[1])));
  return 10;
}

/** A start list or chip rack report as print sections: the same columns in each, the named ones numeric. */
export function reportSections(table: ReportTable, numeric: readonly string[]): PrintSection[] {
  const columns = table.columns.map((label) => ({ label, numeric: numeric.includes(label) }));
  return table.sections.map((section) => ({ heading: section.heading, columns, rows: section.rows }));
}

/**
 * One CSV of every section: a first column naming the section, then the union of the sections' columns
 * (a column another section lacks is blank there). A column new to the union goes right after the one
 * before it in its own section, so each section's order holds (splits before the time).
 */
export function sectionsCsv(sectionLabel: string, sections: readonly PrintSection[]): string {
  const union: string[] = [];
  const keysOf = (section: PrintSection) => {
    const seen = new Map<string, number>();
    // A label repeated within a section ("Lap", "Lap") keeps each column apart.
    return section.columns.map((c) => {
      const n = (seen.get(c.label) ?? 0) + 1;
      seen.set(c.label, n);
      return n === 1 ? c.label : `${c.label} (${n})`;
    });
  };
  const sectionKeys = sections.map(keysOf);
  for (const keys of sectionKeys) {
    let after = -1;
    for (const key of keys) {
      const at = union.indexOf(key);
      if (at >= 0) after = at;
      else union.splice(++after, 0, key);
    }
  }
  const rows = sections.flatMap((section, s) => {
    const position = new Map(sectionKeys[s]!.map((key, i) => [key, i]));
    return section.rows.map((row) => [section.heading, ...union.map((key) => row[position.get(key) ?? -1] ?? "")]);
  });
  return spreadsheetCsv([sectionLabel, ...union], rows);
}
