/**
 * A report definition checked against the columns it names (operators, values, limits, sensitive columns),
 * and a layout described in words for the report's page.
 */
import { parseDate } from "../forms/dates";
import { parseMoney } from "../money/money";
import {
  type ReportType,
  OPERATOR_LABELS,
  type FilterOperator,
  OPERATORS_BY_KIND,
  operatorNeedsValue,
  REPORT_LIMITS,
  type ReportDefinition,
  type ReportSort,
  type ReportFilter,
  type ReportLayout,
} from "./report-definition";
import { type ReportOption, type ReportColumn, BUILT_IN_KEYS, numberValue, type CellValue } from "./report-columns";

// ---------------------------------------------------------------------------------------------------------
// Checking a definition against the columns

export type ReportErrors = Record<string, string>;

/** The option a typed filter value names: by its value, else by its label, ignoring case. */
export function findOption(column: Pick<ReportColumn, "options">, text: string): ReportOption | undefined {
  const wanted = text.trim().toLowerCase();
  return column.options.find((o) => o.value.toLowerCase() === wanted) ?? column.options.find((o) => o.label.trim().toLowerCase() === wanted);
}

type CompiledFilter = { ok: true; test: (value: CellValue) => boolean } | { ok: false; error: string };

const norm = (text: string) => text.normalize("NFC").trim().toLowerCase();

/** A filter as a test of one cell, or why it cannot be one (a wrong operator or value). */
export function compileFilter(column: ReportColumn, filter: Pick<ReportFilter, "op" | "value">): CompiledFilter {
  const { op } = filter;
  if (!OPERATORS_BY_KIND[column.kind].includes(op)) return { ok: false, error: `“${OPERATOR_LABELS[op]}” does not apply to ${column.label}` };
  const value = filter.value.trim();
  if (operatorNeedsValue(op) && value === "") return { ok: false, error: "Enter a value to compare with" };
  switch (column.kind) {
    case "text": {
      const wanted = norm(value);
      const text = (cell: CellValue) => (typeof cell === "string" ? norm(cell) : "");
      const tests: Record<string, (cell: CellValue) => boolean> = {
        matches: (cell) => text(cell) === wanted,
        not_matches: (cell) => text(cell) !== wanted,
        starts_with: (cell) => text(cell).startsWith(wanted),
        not_starts_with: (cell) => !text(cell).startsWith(wanted),
        blank: (cell) => text(cell) === "",
        not_blank: (cell) => text(cell) !== "",
      };
      return { ok: true, test: tests[op]! };
    }
    case "number": {
      const target = column.money ? parseMoney(value) : numberValue(value);
      if (target === null) return { ok: false, error: column.money ? "Enter an amount such as 12.50" : "Enter a number" };
      return { ok: true, test: compareWith(op, target, (a, b) => a - b) };
    }
    case "date": {
      const parsed = parseDate(value);
      if (!parsed.ok || parsed.value === null) return { ok: false, error: "Enter a date as YYYY-MM-DD" };
      const day = parsed.value;
      return { ok: true, test: compareWith(op, day, (a, b) => (a < b ? -1 : a > b ? 1 : 0)) };
    }
    case "option": {
      if (op === "set") return { ok: true, test: (cell) => Array.isArray(cell) && cell.length > 0 };
      if (op === "not_set") return { ok: true, test: (cell) => !Array.isArray(cell) || cell.length === 0 };
      const option = findOption(column, value);
      if (!option) return { ok: false, error: `${column.label} has no option “${value}”` };
      const has = (cell: CellValue) => Array.isArray(cell) && cell.includes(option.value);
      return { ok: true, test: op === "set_to" ? has : (cell) => !has(cell) };
    }
    case "boolean":
      return { ok: true, test: op === "checked" ? (cell) => cell === true : (cell) => cell !== true };
  }
}

/** eq, lt and gt are false on a blank cell; "not equal to" keeps blanks, which are not equal to anything. */
function compareWith<T extends number | string>(op: FilterOperator, target: T, diff: (a: T, b: T) => number): (cell: CellValue) => boolean {
  return (cell) => {
    if (cell === null || typeof cell !== typeof target) return op === "ne";
    const d = diff(cell as T, target);
    return op === "eq" ? d === 0 : op === "ne" ? d !== 0 : op === "lt" ? d < 0 : d > 0;
  };
}

/**
 * A definition checked against the form's columns, as the builder saves it: every key a column the
 * caller may use, every filter an operator of its column's kind with a readable value. Option filter
 * values are stored as the option's value even when its label was typed. Errors are keyed by the
 * builder's field names (fields_list, filter.0.value, sort.1.key, group.0).
 */
export function checkDefinition(
  definition: ReportDefinition,
  columns: readonly ReportColumn[],
  allowSensitive: boolean,
): { ok: true; value: ReportDefinition } | { ok: false; errors: ReportErrors } {
  const byKey = new Map(columns.map((c) => [c.key, c]));
  const errors: ReportErrors = {};
  const usable = (key: string) => {
    const found = byKey.get(key);
    return found && (allowSensitive || !found.isSensitive) ? found : undefined;
  };
  if (definition.fields_list.some((key) => !usable(key))) errors.fields_list = "Choose columns from the list";
  definition.sorts_list.forEach((sort, i) => {
    if (!usable(sort.key)) errors[`sort.${i}.key`] = "Choose a column from the list";
  });
  definition.groups_list.forEach((key, i) => {
    if (!usable(key)) errors[`group.${i}`] = "Choose a column from the list";
  });
  const filters = definition.filters_list.map((filter, i) => {
    const found = usable(filter.key);
    if (!found) {
      errors[`filter.${i}.key`] = "Choose a column from the list";
      return filter;
    }
    const compiled = compileFilter(found, filter);
    if (!compiled.ok) {
      errors[OPERATORS_BY_KIND[found.kind].includes(filter.op) ? `filter.${i}.value` : `filter.${i}.op`] = compiled.error;
      return filter;
    }
    if (!operatorNeedsValue(filter.op)) return { ...filter, value: "" };
    return found.kind === "option" ? { ...filter, value: findOption(found, filter.value)!.value } : filter;
  });
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: { ...definition, filters_list: filters } };
}

/**
 * An edit by someone who may not see sensitive columns keeps the saved report's sensitive columns, sorts,
 * groups and filters, which their form never showed, so saving it does not quietly change them.
 */
export function keepHiddenParts(saved: ReportLayout, posted: ReportDefinition, columns: readonly ReportColumn[]): ReportDefinition {
  const sensitive = new Set(columns.filter((c) => c.isSensitive).map((c) => c.key));
  if (saved.type !== posted.type) return posted;
  const hiddenFields = saved.fields_list.filter((key) => sensitive.has(key) && !posted.fields_list.includes(key));
  const hiddenSorts = saved.sorts_list.filter((s) => sensitive.has(s.key) && !posted.sorts_list.some((p) => p.key === s.key));
  const hiddenGroups = saved.groups_list.filter((key) => sensitive.has(key) && !posted.groups_list.includes(key));
  const hiddenFilters = saved.filters_list.filter((f) => sensitive.has(f.key));
  return {
    ...posted,
    fields_list: [...posted.fields_list, ...hiddenFields].slice(0, REPORT_LIMITS.fields),
    sorts_list: [...hiddenSorts, ...posted.sorts_list].slice(0, REPORT_LIMITS.sorts),
    groups_list: [...hiddenGroups, ...posted.groups_list].slice(0, REPORT_LIMITS.groups),
    filters_list: [...hiddenFilters, ...posted.filters_list].slice(0, REPORT_LIMITS.filters),
  };
}

export interface LayoutWords {
  filters: string[];
  sorts: string[];
  groups: string[];
  /** Filters on columns this viewer may not see: they apply, and are not described. */
  hiddenFilters: number;
}

/** A layout in words for the report's page: "Dist. is set to “10 km”", "Age (descending)". */
export function describeLayout(layout: ReportLayout, columns: readonly ReportColumn[], allowSensitive: boolean): LayoutWords {
  const byKey = new Map(columns.map((c) => [c.key, c]));
  const shown = (key: string) => {
    const found = byKey.get(key);
    return found && (allowSensitive || !found.isSensitive) ? found : undefined;
  };
  let hiddenFilters = 0;
  const filters = layout.filters_list.flatMap((filter) => {
    const found = byKey.get(filter.key);
    if (!found) return [];
    if (!shown(filter.key)) {
      hiddenFilters++;
      return [];
    }
    if (!operatorNeedsValue(filter.op)) return [`${found.label} ${OPERATOR_LABELS[filter.op]}`];
    const value = found.kind === "option" ? (findOption(found, filter.value)?.label ?? filter.value) : filter.value;
    return [`${found.label} ${OPERATOR_LABELS[filter.op]} “${value}”`];
  });
  const sorts = layout.sorts_list.flatMap((sort) => {
    const found = shown(sort.key);
    return found ? [`${found.label} (${sort.dir === "asc" ? "ascending" : "descending"})`] : [];
  });
  const groups = layout.groups_list.flatMap((key) => {
    const found = shown(key);
    return found ? [found.label] : [];
  });
  return { filters, sorts, groups, hiddenFilters };
}

/** The report shown when none is saved: every column the viewer may see, by cart number. */
export function defaultLayout(type: ReportType, columns: readonly ReportColumn[], allowSensitive: boolean): ReportLayout {
  const sorts: ReportSort[] = [{ key: BUILT_IN_KEYS.cartNumber, dir: "asc" }];
  if (type === "individuals") sorts.push({ key: BUILT_IN_KEYS.personNumber, dir: "asc" });
  return { type, fields_list: columns.filter((c) => allowSensitive || !c.isSensitive).map((c) => c.key), sorts_list: sorts, groups_list: [], filters_list: [] };
}
