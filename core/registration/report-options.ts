/**
 * What a registration report may hold (timing.md sections 3 and 5): its types, the kinds of column, the
 * filter operators each kind offers, and the limits. No zod here: the report builder's page imports these in
 * the browser, and a module of zod schemas would bring full zod with it (issue 29); report-definition.ts
 * builds the saved definition's schema from them and re-exports them.
 */

export const REPORT_TYPES = ["individuals", "carts"] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export const COLUMN_KINDS = ["text", "number", "date", "option", "boolean"] as const;
export type ColumnKind = (typeof COLUMN_KINDS)[number];

/** The operators of timing.md section 5, by stored id, with the words the builder shows. */
export const OPERATOR_LABELS = {
  matches: "Matches",
  not_matches: "Does Not Match",
  starts_with: "Starts With",
  not_starts_with: "Does not start with",
  blank: "Is Blank",
  not_blank: "Is Not Blank",
  eq: "is equal to",
  ne: "not equal to",
  lt: "less than",
  gt: "greater than",
  set: "is set",
  not_set: "is not set",
  set_to: "is set to",
  not_set_to: "is not set to",
  checked: "is checked",
  not_checked: "is not checked",
} as const;

export type FilterOperator = keyof typeof OPERATOR_LABELS;
/** Exactly the operators each kind of column offers (section 5). */
export const OPERATORS_BY_KIND: Readonly<Record<ColumnKind, readonly FilterOperator[]>> = {
  text: ["matches", "not_matches", "starts_with", "not_starts_with", "blank", "not_blank"],
  number: ["eq", "ne", "lt", "gt"],
  date: ["eq", "ne", "lt", "gt"],
  option: ["set", "not_set", "set_to", "not_set_to"],
  boolean: ["checked", "not_checked"],
};

const VALUELESS: ReadonlySet<FilterOperator> = new Set(["blank", "not_blank", "set", "not_set", "checked", "not_checked"]);

/** Whether the operator compares with a typed value (the others look at the cell alone). */
export function operatorNeedsValue(op: FilterOperator): boolean {
  return !VALUELESS.has(op);
}

export const REPORT_LIMITS = {
  name: 100,
  /** A form has at most 300 elements, plus the built-in columns. */
  fields: 320,
  filters: 10,
  sorts: 5,
  groups: 2,
  filterValue: 200,
  pageSize: 200,
} as const;
