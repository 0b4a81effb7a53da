/**
 * Running a registration report (platform.md sections 3, 4, 6 and 9; timing.md section 5): the engine that
 * turns a form's carts into a filtered, sorted, grouped table with subtotals and a totals row, as a page and
 * as CSV. Pure: the rows come in, the table goes out. The saved definition and who may use it are in
 * report-definition.ts, the columns and cells in report-columns.ts, the checks of a definition in
 * report-checks.ts.
 *
 * Only complete, non-removed carts and their non-removed, complete people are ever reported (section 4).
 * The SQL that loads the rows filters the same way; the engine checks again so no caller can forget.
 */
import { spreadsheetCsv } from "../entity/csv";
import { formatMoney } from "../money/money";
import { type ReportType, type ColumnKind, REPORT_LIMITS, type ReportLayout } from "./report-definition";
import {
  type ReportColumn,
  type ReportForm,
  type ReportCartData,
  isReportedCart,
  isReportedIndividual,
  collator,
  columnSpecs,
  type CellValue,
  type ColumnSpec,
  type Source,
} from "./report-columns";
import { compileFilter } from "./report-checks";

// ---------------------------------------------------------------------------------------------------------
// Running a report

export interface ReportGroup {
  level: number;
  /** The grouped column's label. */
  label: string;
  /** The group's value as shown; "" is the blank group. */
  text: string;
  count: number;
  /** Aligned with the table's columns: the sum of each money column, else null. */
  subtotals: (string | null)[];
  /** Rows [start, end) of the table. */
  start: number;
  end: number;
}

export interface ReportTableRow {
  cartId: string;
  individualId: string | null;
  cells: string[];
  /** The row's group at each level, as indexes into the table's groups. */
  groups: number[];
}

export interface ReportTable {
  type: ReportType;
  columns: ReportColumn[];
  groupColumns: ReportColumn[];
  rows: ReportTableRow[];
  groups: ReportGroup[];
  /** Aligned with the columns: the sum of each summable number column, else null. */
  totals: (string | null)[];
  /** Filters of the saved report on columns this viewer may not see: applied, not shown. */
  hiddenFilters: number;
  /** What was left out: columns of deleted fields, filters that no longer fit. */
  warnings: string[];
}

export interface RunOptions {
  /** The viewer may see sensitive columns (section 9); otherwise they are dropped from columns, sorts and groups. */
  allowSensitive: boolean;
}

/** The rows of a report: one per reported cart, or one per reported person of a reported cart. */
function sourcesOf(carts: readonly ReportCartData[], type: ReportType): Source[] {
  const sources: Source[] = [];
  for (const cart of carts) {
    if (!isReportedCart(cart)) continue;
    const people = cart.individuals.filter(isReportedIndividual).sort((a, b) => a.ordinal - b.ordinal);
    if (type === "carts") sources.push({ cart, person: null, personNumber: 0, people });
    else people.forEach((person, i) => sources.push({ cart, person, personNumber: i + 1, people }));
  }
  return sources;
}

const isBlank = (value: CellValue) => value === null || (Array.isArray(value) && value.length === 0);

/** Texts and options compare by what is shown (numbers inside texts by value), numbers by value; no blanks here. */
function compareCells(a: CellValue, b: CellValue, aText: string, bText: string, kind: ColumnKind): number {
  if (kind === "number") return (a as number) - (b as number);
  if (kind === "date") return a! < b! ? -1 : a! > b! ? 1 : 0;
  if (kind === "boolean") return Number(a === true) - Number(b === true);
  return collator.compare(aText, bText);
}

/** A row while the report runs: the values it was read to, and their texts once shown or compared. */
interface Prepared {
  source: Source;
  values: CellValue[];
  texts: (string | undefined)[];
}

/** Sums of numbers, without float noise for decimal number fields. */
function sumText(column: ReportColumn, sum: number): string {
  return column.money ? formatMoney(sum) : String(Number(sum.toFixed(6)));
}

/**
 * Sums of the given columns over rows [start, end). A cart-level column in an individuals report
 * repeats its cart's value on each person, so it is summed once per cart.
 */
function sumsOf(
  columns: readonly ReportColumn[],
  which: (c: ReportColumn) => boolean,
  rows: readonly Prepared[],
  slots: readonly number[],
  perCart: boolean,
  start: number,
  end: number,
): (string | null)[] {
  return columns.map((c, j) => {
    if (!which(c)) return null;
    const seen = new Set<string>();
    const at = slots[j]!;
    let sum = 0;
    for (let i = start; i < end; i++) {
      const row = rows[i]!;
      if (perCart && c.scope === "cart") {
        if (seen.has(row.source.cart.id)) continue;
        seen.add(row.source.cart.id);
      }
      const v = row.values[at];
      if (typeof v === "number") sum += v;
    }
    return sumText(c, sum);
  });
}

export function runReport(layout: ReportLayout, form: ReportForm, carts: readonly ReportCartData[], options: RunOptions): ReportTable {
  const specs = new Map(columnSpecs(form, layout.type).map((spec) => [spec.column.key, spec]));
  const warnings: string[] = [];
  const allowed = (key: string) => {
    const spec = specs.get(key);
    return spec && (options.allowSensitive || !spec.column.isSensitive) ? spec : undefined;
  };
  const visible = layout.fields_list.map(allowed).filter((s): s is ColumnSpec => s !== undefined);
  const missing = layout.fields_list.filter((key) => !specs.has(key)).length;
  if (missing > 0)
    warnings.push(
      missing === 1 ? "A column of a field that no longer exists was left out." : `${missing} columns of fields that no longer exist were left out.`,
    );
  const groupSpecs = [...new Set(layout.groups_list)]
    .slice(0, REPORT_LIMITS.groups)
    .map(allowed)
    .filter((s): s is ColumnSpec => s !== undefined);
  const sortSpecs = layout.sorts_list.flatMap((sort) => {
    const spec = allowed(sort.key);
    return spec ? [{ spec, dir: sort.dir }] : [];
  });
  let hiddenFilters = 0;
  const filters = layout.filters_list.flatMap((filter) => {
    const spec = specs.get(filter.key);
    if (!spec) {
      warnings.push("A filter on a field that no longer exists was left out.");
      return [];
    }
    const compiled = compileFilter(spec.column, filter);
    if (!compiled.ok) {
      warnings.push(`A filter on ${spec.column.label} was left out: ${compiled.error}.`);
      return [];
    }
    // A saved filter on a hidden column still applies (dropping it would show rows its author excluded); it is not shown.
    if (spec.column.isSensitive && !options.allowSensitive) hiddenFilters++;
    return [{ spec, test: compiled.test }];
  });

  // Each spec's value is read once per row, whatever uses it: the filters' first, the rest only for rows kept.
  const needed = [...new Set([...filters.map((f) => f.spec), ...visible, ...groupSpecs, ...sortSpecs.map((s) => s.spec)])];
  const slot = new Map(needed.map((spec, i) => [spec, i]));
  const filterSlots = filters.map((f) => ({ i: slot.get(f.spec)!, test: f.test }));
  const firstUnread = new Set(filters.map((f) => f.spec)).size;
  let rows: Prepared[] = sourcesOf(carts, layout.type).map((source) => ({
    source,
    values: new Array<CellValue>(needed.length),
    texts: new Array<string | undefined>(needed.length),
  }));
  for (const row of rows) for (let i = 0; i < firstUnread; i++) row.values[i] = needed[i]!.read(row.source);
  rows = rows.filter((row) => filterSlots.every((f) => f.test(row.values[f.i]!)));
  for (const row of rows) for (let i = firstUnread; i < needed.length; i++) row.values[i] = needed[i]!.read(row.source);
  const textAt = (row: Prepared, i: number) => (row.texts[i] ??= needed[i]!.text(row.values[i]!, row.source));

  // Groups first (in the direction a sort on the same column asks, else ascending), then the sorts; ties keep load order.
  const order = [...groupSpecs.map((spec) => ({ spec, dir: sortSpecs.find((s) => s.spec === spec)?.dir ?? ("asc" as const) })), ...sortSpecs];
  // Each sort key becomes one number per row (its rank among the distinct values, negated for descending,
  // blanks last either way), so sorting compares numbers rather than calling the collator each time.
  const ranks = order.map(({ spec, dir }) => {
    const i = slot.get(spec)!;
    const kind = spec.column.kind;
    const keyOf = (row: Prepared) => (kind === "text" || kind === "option" ? textAt(row, i) : row.values[i]!);
    const firstWith = new Map<CellValue, Prepared>();
    for (const row of rows) {
      if (isBlank(row.values[i]!)) continue;
      const key = keyOf(row);
      if (!firstWith.has(key)) firstWith.set(key, row);
    }
    const compare = (a: Prepared, b: Prepared) => compareCells(a.values[i]!, b.values[i]!, textAt(a, i), textAt(b, i), kind);
    const sorted = [...firstWith.entries()].sort(([, a], [, b]) => compare(a, b));
    const rankOf = new Map<CellValue, number>();
    let rank = 0;
    sorted.forEach(([key, row], n) => {
      // Values the comparison finds equal ("Ada" and "ada") share a rank, so their rows keep load order.
      if (n > 0 && compare(sorted[n - 1]![1], row) !== 0) rank++;
      rankOf.set(key, dir === "desc" ? -rank : rank);
    });
    return rows.map((row) => (isBlank(row.values[i]!) ? Number.POSITIVE_INFINITY : rankOf.get(keyOf(row))!));
  });
  const positions = rows.map((_, n) => n);
  positions.sort((a, b) => {
    for (const rank of ranks) {
      const d = rank[a]! - rank[b]!;
      if (d !== 0 && !Number.isNaN(d)) return d;
    }
    return a - b;
  });
  rows = positions.map((n) => rows[n]!);

  const columns = visible.map((s) => s.column);
  const visibleSlots = visible.map((spec) => slot.get(spec)!);
  const groupSlots = groupSpecs.map((spec) => slot.get(spec)!);
  const sums = (which: (c: ReportColumn) => boolean, start: number, end: number) =>
    sumsOf(columns, which, rows, visibleSlots, layout.type === "individuals", start, end);
  const groups: ReportGroup[] = [];
  const rowGroups: number[][] = rows.map(() => []);
  const sameGroup = (a: Prepared, b: Prepared, level: number) => {
    for (let l = 0; l <= level; l++) if (textAt(a, groupSlots[l]!) !== textAt(b, groupSlots[l]!)) return false;
    return true;
  };
  groupSpecs.forEach((spec, level) => {
    let start = 0;
    for (let i = 1; i <= rows.length; i++) {
      if (i < rows.length && sameGroup(rows[i]!, rows[i - 1]!, level)) continue;
      const index = groups.length;
      groups.push({
        level,
        label: spec.column.label,
        text: textAt(rows[start]!, groupSlots[level]!),
        count: i - start,
        subtotals: sums((c) => c.money, start, i),
        start,
        end: i,
      });
      for (let r = start; r < i; r++) rowGroups[r]!.push(index);
      start = i;
    }
  });

  return {
    type: layout.type,
    columns,
    groupColumns: groupSpecs.map((s) => s.column),
    rows: rows.map((row, n) => ({
      cartId: row.source.cart.id,
      individualId: row.source.person?.id ?? null,
      cells: visibleSlots.map((i) => textAt(row, i)),
      groups: rowGroups[n]!,
    })),
    groups,
    totals: sums((c) => c.kind === "number" && c.summable, 0, rows.length),
    hiddenFilters,
    warnings: [...new Set(warnings)],
  };
}

/** "Total: 12 people" or "Total: 5 carts". */
export function totalsLabel(table: Pick<ReportTable, "type" | "rows">): string {
  const n = table.rows.length;
  return table.type === "carts" ? `Total: ${n} ${n === 1 ? "cart" : "carts"}` : `Total: ${n} ${n === 1 ? "person" : "people"}`;
}

/**
 * The totals row as cells under `columns` (the report's, after any leading group columns): the sums, and
 * the label in the first cell that holds no sum.
 */
export function totalsCells(table: Pick<ReportTable, "type" | "rows" | "totals" | "columns">, leading = 0): string[] {
  const cells = [...new Array<string>(leading).fill(""), ...table.totals.map((t) => t ?? "")];
  const kinds = [...new Array<ColumnKind>(leading).fill("text"), ...table.columns.map((c) => c.kind)];
  const at = cells.findIndex((cell, i) => cell === "" && kinds[i] !== "number");
  if (at >= 0) cells[at] = totalsLabel(table);
  return cells;
}

// ---------------------------------------------------------------------------------------------------------
// A page of the table

export type ReportLine =
  | { kind: "group"; level: number; label: string; text: string; count: number; subtotals: { label: string; text: string }[]; continued: boolean }
  | { kind: "row"; cells: string[] };

export interface ReportPage {
  page: number;
  pageCount: number;
  /** Rows shown: [from, to) of the table, 0-based. */
  from: number;
  to: number;
  lines: ReportLine[];
}

/**
 * Page `page` (1-based, clamped) of `pageSize` rows, each group's header before its first row on the
 * page; a group that began on an earlier page is headed again, marked continued. Counts and subtotals
 * are of the whole group.
 */
export function reportPage(table: ReportTable, page: number, pageSize: number = REPORT_LIMITS.pageSize): ReportPage {
  const pageCount = Math.max(1, Math.ceil(table.rows.length / pageSize));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
  const from = (current - 1) * pageSize;
  const to = Math.min(table.rows.length, from + pageSize);
  const lines: ReportLine[] = [];
  for (let i = from; i < to; i++) {
    const row = table.rows[i]!;
    row.groups.forEach((index, level) => {
      const previous = i === from ? undefined : table.rows[i - 1]!.groups[level];
      if (previous === index) return;
      const group = table.groups[index]!;
      const subtotals = group.subtotals.flatMap((text, j) => (text === null ? [] : [{ label: table.columns[j]!.label, text }]));
      lines.push({ kind: "group", level, label: group.label, text: group.text, count: group.count, subtotals, continued: group.start < i });
    });
    lines.push({ kind: "row", cells: row.cells });
  }
  return { page: current, pageCount, from, to, lines };
}

// ---------------------------------------------------------------------------------------------------------
// CSV

/**
 * The whole report as RFC 4180 CSV for spreadsheets: a UTF-8 byte order mark (so Excel reads accents),
 * every cell quoted, CRLF line ends; the group columns first when grouped; money as plain decimals;
 * a final totals row. Subtotal lines are left out so the sheet can be sorted and filtered as data.
 */
export function reportCsv(table: ReportTable): string {
  const header = [...table.groupColumns.map((c) => c.label), ...table.columns.map((c) => c.label)];
  const rows = table.rows.map((row) => [...row.groups.map((index) => table.groups[index]!.text), ...row.cells]);
  return spreadsheetCsv(header, [...rows, totalsCells(table, table.groupColumns.length)]);
}
