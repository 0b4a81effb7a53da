/**
 * The columns a registration report can show and the cells it reads: built-in columns, then the form's fields
 * in order, each with its kind, options and whether it is sensitive (section 9).
 */
import { labelIn, type Lang } from "../forms/bilingual";
import { COUNTRIES } from "../forms/countries";
import type { FieldType, FormElement, StoredValue } from "../forms/model";
import { optionLabel } from "../forms/options";
import { nameFieldsOf } from "../forms/name-fields";
import { PROVINCES } from "../forms/provinces";
import { FIELD_TYPE_MODULES } from "../forms/registry";
import { formatMoney, type Cents } from "../money/money";
import { cartDisplayName, cartNumberOf } from "./cart-names";
import { isCartLevel } from "./price-form";
import { type ReportType, type ColumnKind } from "./report-definition";

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

export interface Source {
  cart: ReportCartData;
  person: ReportIndividualData | null;
  /** 1-based among the cart's reported people. */
  personNumber: number;
  /** The cart's reported people, in order. */
  people: readonly ReportIndividualData[];
}

/** One cell as the engine compares it: null is blank; option cells hold the chosen option values. */
export type CellValue = string | number | boolean | readonly string[] | null;

export interface ColumnSpec {
  column: ReportColumn;
  read: (source: Source) => CellValue;
  text: (value: CellValue, source: Source) => string;
}

export const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

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

/** A person's name from the form's name fields (core/forms/name-fields.ts). */
function nameReader(form: ReportForm): (person: ReportIndividualData) => string {
  const { first, last } = nameFieldsOf(form.elements, form);
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

export function numberValue(v: unknown): number | null {
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

export function columnSpecs(form: ReportForm, type: ReportType): ColumnSpec[] {
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
