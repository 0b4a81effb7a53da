/**
 * Registration reports (platform.md sections 3, 4, 6 and 9; timing.md section 5): a saved definition, who
 * may see and change reports and their sensitive columns, the columns a form offers, and the engine that
 * turns a form's carts into a filtered, sorted, grouped table with subtotals and a totals row, as a page
 * and as CSV. Pure: the rows come in, the table goes out.
 *
 * Only complete, non-removed carts and their non-removed, complete people are ever reported (section 4).
 * The SQL that loads the rows filters the same way; the engine checks again so no caller can forget.
 */
import { spreadsheetCsv } from "../entity/csv";
import { z } from "zod";
import { can, type Principal } from "../access/policy";
import { labelIn, type Lang } from "../forms/bilingual";
import { COUNTRIES } from "../forms/countries";
import { parseDate } from "../forms/dates";
import type { FieldType, FormElement, StoredValue } from "../forms/model";
import { optionLabel } from "../forms/options";
import { PROVINCES } from "../forms/provinces";
import { FIELD_TYPE_MODULES } from "../forms/registry";
import { formatMoney, parseMoney, type Cents } from "../money/money";
import { cartDisplayName, cartNumberOf } from "./cart-names";
import { isCartLevel } from "./price-form";

// ---------------------------------------------------------------------------------------------------------
// Definitions

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
const OPERATOR_IDS = Object.keys(OPERATOR_LABELS) as [FilterOperator, ...FilterOperator[]];

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

const columnKey = z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, "Unknown column");
const unique = (keys: string[]) => [...new Set(keys)];

export const reportSortSchema = z.object({ key: columnKey, dir: z.enum(["asc", "desc"]) });
export const reportFilterSchema = z.object({
  key: columnKey,
  op: z.enum(OPERATOR_IDS, "Choose an operator"),
  value: z.string().trim().max(REPORT_LIMITS.filterValue, `At most ${REPORT_LIMITS.filterValue} characters`).default(""),
});

/** RegistrationReport (section 3) as saved: fields_list holds column keys (reportColumns). */
export const reportDefinitionSchema = z.object({
  name: z.string().trim().min(1, "Give the report a name").max(REPORT_LIMITS.name, `At most ${REPORT_LIMITS.name} characters`),
  type: z.enum(REPORT_TYPES, "Choose individuals or carts"),
  is_shared: z.boolean(),
  fields_list: z.array(columnKey).min(1, "Choose at least one column").max(REPORT_LIMITS.fields, `At most ${REPORT_LIMITS.fields} columns`).transform(unique),
  sorts_list: z.array(reportSortSchema).max(REPORT_LIMITS.sorts, `Sort by at most ${REPORT_LIMITS.sorts} columns`),
  groups_list: z.array(columnKey).max(REPORT_LIMITS.groups, `Group by at most ${REPORT_LIMITS.groups} columns`).transform(unique),
  filters_list: z.array(reportFilterSchema).max(REPORT_LIMITS.filters, `At most ${REPORT_LIMITS.filters} filters`),
});

export type ReportDefinition = z.output<typeof reportDefinitionSchema>;
export type ReportSort = z.output<typeof reportSortSchema>;
export type ReportFilter = z.output<typeof reportFilterSchema>;
/** What the engine needs of a definition: the layout, not the name or sharing. */
export type ReportLayout = Pick<ReportDefinition, "type" | "fields_list" | "sorts_list" | "groups_list" | "filters_list">;

// ---------------------------------------------------------------------------------------------------------
// Who may see and change a form's reports

/** What a principal may do with a form's reports. */
export interface ReportPermissions {
  /** See the form's reports (its own and shared ones). */
  view: boolean;
  /** Make reports, and change or delete shared ones and their own. */
  edit: boolean;
  /** See sensitive columns (section 9). */
  sensitive: boolean;
}

/**
 * Who may do what with a form's reports, from the policy's roles (section 6):
 * - view: view_reports on the form (View Report, Edit and View Report, All Registrations, Organization
 *   Admin, super and site admins with the registrations flag), or anyone who may see the carts or
 *   administer the form, since a report only shows them what they can already see.
 * - edit: edit_reports on the form (Edit and View Report, All Registrations, Organization Admin), or edit
 *   on its reports (Registration Form Admin).
 * - sensitive: those who may view the form's carts (Registration Form Admin, finance and read-only,
 *   Organization Admin), take payments on them (Financial Admin), or administer the form (All
 *   Registrations); never the two report roles, whose holders see the form only through reports.
 */
export function reportPermissions(principal: Principal | null, registration: { id: string; clubId: string; siteId: string | null }): ReportPermissions {
  if (!principal) return { view: false, edit: false, sensitive: false };
  const owners = { registrationId: registration.id, clubId: registration.clubId, siteId: registration.siteId };
  const form = { area: "registrations" as const, id: registration.id, ...owners };
  const cartsOf = { area: "carts" as const, ...owners };
  const reports = { area: "reports" as const, ...owners };
  const sensitive = can(principal, "view", cartsOf) || can(principal, "finance", cartsOf) || can(principal, "administer", form);
  const edit = can(principal, "edit_reports", form) || can(principal, "edit", reports);
  const view = edit || sensitive || can(principal, "view_reports", form) || can(principal, "view", reports);
  return { view, edit, sensitive };
}

// ---------------------------------------------------------------------------------------------------------
// Columns

export interface ReportOption {
  value: string;
  label: string;
}

export interface ReportColumn {
  key: string;
  label: string;
  kind: ColumnKind;
  /** Integer cents, shown as "12.50"; money columns are number columns. */
  money: boolean;
  /** cart: one value per cart, repeated on each of its people in an individuals report. */
  scope: "cart" | "individual";
  /** Section 9: address, mail, birth, phone, medical or person id; shown only to those who may view the carts. */
  isSensitive: boolean;
  /** Summed in the totals row (number columns except counters such as Person #). */
  summable: boolean;
  /** The choices of an option column. */
  options: readonly ReportOption[];
}

/** The form a report is about: its elements, its name fields and the zone its dates are in. */
export interface ReportForm {
  elements: readonly FormElement[];
  firstNameFieldId?: string | null;
  lastNameFieldId?: string | null;
  /** The club's time zone: Completed is the day the cart was completed there. */
  timeZone: string;
  lang?: Lang;
}

const SENSITIVE_WORDS = /address|mail|birth|phone|medical|person[\s_-]?id/i;
const SENSITIVE_TYPES: ReadonlySet<FieldType> = new Set(["dob", "email", "phone"]);

/** Section 9's keywords in the column's label or key (or any language part of its caption), or a private type. */
export function isSensitiveColumn(label: string, key: string, type?: FieldType): boolean {
  return SENSITIVE_WORDS.test(label) || SENSITIVE_WORDS.test(key) || (type !== undefined && SENSITIVE_TYPES.has(type));
}

export const BUILT_IN_KEYS = {
  cartNumber: "cart.number",
  cartEmail: "cart.email",
  completed: "cart.completed",
  cartTotal: "cart.total",
  paid: "cart.paid",
  people: "cart.people",
  names: "cart.names",
  personNumber: "person.number",
  personTotal: "person.total",
} as const;

export function elementColumnKey(elementId: string): string {
  return `field.${elementId}`;
}

// ---------------------------------------------------------------------------------------------------------
// The rows a report reads

export interface ReportIndividualData {
  id: string;
  ordinal: number;
  isRemoved: boolean;
  isComplete: boolean;
  /** This person's share of the cart when it was completed (cents). */
  priceTotal: Cents | null;
  values: Readonly<Record<string, StoredValue | undefined>>;
}

export interface ReportCartData {
  id: string;
  legacyId: number | null;
  cartNumber: number | null;
  email: string | null;
  isComplete: boolean;
  isRemoved: boolean;
  completedAt: number | null;
  /** The total the cart was completed at (cents). */
  total: Cents | null;
  /** Completed, not void payments less completed, not void refunds (cents). */
  paid: Cents;
  values: Readonly<Record<string, StoredValue | undefined>>;
  individuals: readonly ReportIndividualData[];
}

/** Section 4: a cart is included in reports only when complete and not removed. */
export function isReportedCart(cart: Pick<ReportCartData, "isComplete" | "isRemoved">): boolean {
  return cart.isComplete && !cart.isRemoved;
}

/** Section 4: only non-removed, complete individuals count. */
export function isReportedIndividual(person: Pick<ReportIndividualData, "isComplete" | "isRemoved">): boolean {
  return person.isComplete && !person.isRemoved;
}

interface Source {
  cart: ReportCartData;
  person: ReportIndividualData | null;
  /** 1-based among the cart's reported people. */
  personNumber: number;
  /** The cart's reported people, in order. */
  people: readonly ReportIndividualData[];
}

/** One cell as the engine compares it: null is blank; option cells hold the chosen option values. */
type CellValue = string | number | boolean | readonly string[] | null;

interface ColumnSpec {
  column: ReportColumn;
  read: (source: Source) => CellValue;
  text: (value: CellValue, source: Source) => string;
}

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

const dayFormats = new Map<string, Intl.DateTimeFormat>();

const QUARTER_HOUR = 900_000;
const dayCache = new Map<string, string>();

/**
 * YYYY-MM-DD of an instant on the zone's calendar (UTC when the zone is unknown). Every zone's offset is a
 * whole number of quarter hours, so the day is the same across a quarter hour and is worked out once per one.
 */
export function dayIn(epochMs: number, zone: string): string {
  const key = `${zone} ${Math.floor(epochMs / QUARTER_HOUR)}`;
  let day = dayCache.get(key);
  if (day === undefined) {
    if (dayCache.size > 50_000) dayCache.clear();
    day = formatDay(Math.floor(epochMs / QUARTER_HOUR) * QUARTER_HOUR, zone);
    dayCache.set(key, day);
  }
  return day;
}

function formatDay(epochMs: number, zone: string): string {
  let format = dayFormats.get(zone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" });
    } catch {
      format = new Intl.DateTimeFormat("en-CA", { timeZone: "UTC", year: "numeric", month: "2-digit", day: "2-digit" });
    }
    dayFormats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(epochMs)).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

function column(key: string, label: string, kind: ColumnKind, scope: ReportColumn["scope"], extra: Partial<ReportColumn> = {}): ReportColumn {
  return { key, label, kind, scope, money: false, isSensitive: isSensitiveColumn(label, key), summable: kind === "number", options: [], ...extra };
}

/** formatMoney, with a fast path for whole cents (what every stored amount is). */
function moneyText(value: CellValue): string {
  if (typeof value !== "number") return "";
  if (!Number.isSafeInteger(value)) return formatMoney(value);
  const magnitude = Math.abs(value);
  const cents = magnitude % 100;
  return `${value < 0 ? "-" : ""}${(magnitude - cents) / 100}.${cents < 10 ? "0" : ""}${cents}`;
}
const plainText = (value: CellValue) => (value === null ? "" : String(value));

function builtInSpecs(form: ReportForm, type: ReportType): ColumnSpec[] {
  const names = nameReader(form);
  const specs: ColumnSpec[] = [
    {
      column: column(BUILT_IN_KEYS.cartNumber, "Cart No.", "text", "cart", { summable: false }),
      read: ({ cart }) => cartNumberOf({ legacy_id: cart.legacyId, cart_number: cart.cartNumber, id: cart.id }),
      text: plainText,
    },
    { column: column(BUILT_IN_KEYS.cartEmail, "Cart email", "text", "cart"), read: ({ cart }) => blankToNull(cart.email), text: plainText },
    {
      column: column(BUILT_IN_KEYS.completed, "Completed", "date", "cart"),
      read: ({ cart }) => (cart.completedAt === null ? null : dayIn(cart.completedAt, form.timeZone)),
      text: plainText,
    },
    { column: column(BUILT_IN_KEYS.cartTotal, "Cart total", "number", "cart", { money: true }), read: ({ cart }) => cart.total, text: moneyText },
    { column: column(BUILT_IN_KEYS.paid, "Paid (net of refunds)", "number", "cart", { money: true }), read: ({ cart }) => cart.paid, text: moneyText },
  ];
  if (type === "carts") {
    specs.push(
      { column: column(BUILT_IN_KEYS.people, "People", "number", "cart"), read: ({ people }) => people.length, text: plainText },
      { column: column(BUILT_IN_KEYS.names, "Names", "text", "cart"), read: ({ people }) => blankToNull(cartDisplayName(people.map(names))), text: plainText },
    );
  } else {
    specs.push(
      {
        column: column(BUILT_IN_KEYS.personNumber, "Person # in cart", "number", "individual", { summable: false }),
        read: ({ personNumber }) => personNumber,
        text: plainText,
      },
      {
        column: column(BUILT_IN_KEYS.personTotal, "Individual total", "number", "individual", { money: true }),
        read: ({ person }) => person?.priceTotal ?? null,
        text: moneyText,
      },
    );
  }
  return specs;
}

/** A person's name from the form's first and last name fields, else its fields captioned so. */
function nameReader(form: ReportForm): (person: ReportIndividualData) => string {
  const textFields = form.elements.filter((e) => e.type === "text");
  const first = form.firstNameFieldId ?? textFields.find((e) => /first name|given name|prénom/i.test(e.caption))?.id;
  const last = form.lastNameFieldId ?? textFields.find((e) => /last name|family name|surname|nom de famille/i.test(e.caption))?.id;
  const valueOf = (person: ReportIndividualData, id: string | undefined) => {
    const v = id ? person.values[id]?.v : undefined;
    return typeof v === "string" ? v.trim() : "";
  };
  return (person) => [valueOf(person, first), valueOf(person, last)].filter((part) => part !== "").join(" ");
}

function blankToNull(text: string | null | undefined): string | null {
  return text === null || text === undefined || text.trim() === "" ? null : text;
}

const GENDER_OPTIONS: readonly ReportOption[] = [
  { value: "F", label: "Female" },
  { value: "M", label: "Male" },
  { value: "O", label: "Other" },
];
const YES_NO_OPTIONS: readonly ReportOption[] = [
  { value: "yes", label: "Yes" },
  { value: "no", label: "No" },
];

function kindOfElement(type: FieldType): ColumnKind {
  switch (type) {
    case "number":
    case "donation":
      return "number";
    case "date":
    case "dob":
      return "date";
    case "option":
    case "multioption":
    case "membership":
    case "country":
    case "province":
    case "gender":
    case "yesno":
      return "option";
    case "checkbox":
    case "waiver":
      return "boolean";
    default:
      return "text";
  }
}

function optionsOfElement(element: FormElement, lang: Lang): readonly ReportOption[] {
  switch (element.type) {
    case "option":
    case "multioption":
    case "membership":
      return element.options_list.map((option) => ({ value: option.id, label: optionLabel(option, lang) }));
    case "country":
      return COUNTRIES.map((country) => ({ value: country.alpha2, label: country.name }));
    case "province":
      return PROVINCES.map((province) => ({ value: province.code, label: province.name }));
    case "gender":
      return GENDER_OPTIONS;
    case "yesno":
      return YES_NO_OPTIONS;
    default:
      return [];
  }
}

/** The chosen option values of a stored option-like value: an id, several ids, or a membership's option. */
function optionValues(type: FieldType, v: unknown): readonly string[] | null {
  if (type === "membership") v = typeof v === "object" && v !== null ? (v as { option?: unknown }).option : null;
  const list = Array.isArray(v) ? v : [v];
  const values = list.filter((item): item is string => typeof item === "string" && item !== "");
  return values.length === 0 ? null : values;
}

function numberValue(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "string" && /^[-+]?(\d+\.?\d*|\.\d+)$/.test(v.trim())) return Number(v.trim());
  return null;
}

/** The type's own display of a stored value; a malformed stored value (an old import) shows as blank. */
function displayOf(element: FormElement, v: unknown, lang: Lang): string {
  try {
    const text = FIELD_TYPE_MODULES[element.type].display(element, (v ?? null) as never, lang);
    return typeof text === "string" ? text : "";
  } catch {
    return "";
  }
}

function elementSpec(element: FormElement, lang: Lang): ColumnSpec {
  const key = elementColumnKey(element.id);
  const label = labelIn(element.column_header?.trim() || element.caption, lang).trim() || `Field ${element.ordinal}`;
  const kind = kindOfElement(element.type);
  const money = element.type === "donation";
  const scope = isCartLevel(element) ? "cart" : "individual";
  const rawCaption = `${element.column_header ?? ""} ${element.caption}`;
  const spec = column(key, label, kind, scope, {
    money,
    isSensitive: isSensitiveColumn(label, key, element.type) || SENSITIVE_WORDS.test(rawCaption),
    options: optionsOfElement(element, lang),
  });
  const stored = (source: Source) => (scope === "cart" ? source.cart.values : (source.person?.values ?? {}))[element.id]?.v ?? null;
  const read = (source: Source): CellValue => {
    const v = stored(source);
    switch (kind) {
      case "number":
        return numberValue(v);
      case "date":
        return typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null;
      case "option":
        return optionValues(element.type, v);
      case "boolean":
        return v === true;
      default:
        return blankToNull(displayOf(element, v, lang));
    }
  };
  // A choice's display depends only on the options chosen, so each combination is displayed once.
  const shown = new Map<string, string>();
  const text = (value: CellValue, source: Source): string => {
    if (money) return moneyText(value);
    if (kind === "number") return plainText(value);
    if (kind === "text" || kind === "date") return typeof value === "string" ? value : "";
    const key = Array.isArray(value) ? value.join("\u0000") : String(value);
    let display = shown.get(key);
    if (display === undefined) {
      display = displayOf(element, stored(source), lang);
      shown.set(key, display);
    }
    return display;
  };
  return { column: spec, read, text };
}

function columnSpecs(form: ReportForm, type: ReportType): ColumnSpec[] {
  const lang = form.lang ?? "en";
  const inputs = [...form.elements].sort((a, b) => a.ordinal - b.ordinal).filter((e) => FIELD_TYPE_MODULES[e.type]?.isInput);
  // A carts report has one row per cart: only cart-level answers fit it; people's answers are per person.
  const elements = type === "carts" ? inputs.filter(isCartLevel) : inputs;
  return [...builtInSpecs(form, type), ...elements.map((e) => elementSpec(e, lang))];
}

/** The columns a report of this type can show, built-in columns first, then the form's fields in order. */
export function reportColumns(form: ReportForm, type: ReportType): ReportColumn[] {
  return columnSpecs(form, type).map((spec) => spec.column);
}

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
