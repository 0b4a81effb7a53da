import { type Invalid, parseRaceTime } from "../time/parse";
import { MICROS_PER_SECOND, type FieldValue } from "./model";
import { MUST_BE_A_NUMBER, readFormNumber } from "./validation";

/** Custom racer fields (timing.md section 3): their types, generated keys, and value checks. */

export const CUSTOM_FIELD_TYPES = ["text", "number", "option", "bib", "time", "seconds", "date", "gender", "boolean", "checkbox", "category"] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/**
 * The Racer's own fields (section 3), the entity id names, and the standard columns the stored racer
 * also has (schema/race/racer.ts: team, club, city, assigned_start_time, custom): a custom field key
 * must never be one.
 */
export const RESERVED_RACER_FIELD_KEYS: ReadonlySet<string> = new Set([
  "uuid",
  "id",
  "classname",
  "first_name",
  "last_name",
  "fullname",
  "bib",
  "chip",
  "chip_list",
  "person",
  "course",
  "setupgroup_id",
  "metastart_id",
  "scheduled_start_time",
  "imported_from",
  "category_dict",
  "qualifier_num",
  "random",
  "round_num",
  "sex",
  "province",
  "dob",
  "birth_year",
  "category",
  "photos_list",
  "seed",
  "ccc_licence",
  "licence",
  "cpl_distance_pts",
  "cpl_sprint_pts",
  "is_manual_seed",
  "penalty",
  "bonus",
  "add_back",
  "para_factor",
  "status_text",
  "dns",
  "dnf_time",
  "dsq_time",
  "team",
  "club",
  "city",
  "assigned_start_time",
  "custom",
]);

/** stage_time_N and stage_bonus_N are Racer fields for every stage N. */
const RESERVED_KEY_PATTERN = /^stage_(time|bonus)_\d+$/;

export function isReservedFieldKey(key: string): boolean {
  return RESERVED_RACER_FIELD_KEYS.has(key) || RESERVED_KEY_PATTERN.test(key);
}

export const FIELD_KEY_EMPTY = "Field name must contain a letter or a digit";

/**
 * The storage key for a new custom field named `display`: lowercased, accents dropped, every
 * character other than a-z, 0-9 and "_" removed (spaces too), "is_" in front for a category. A key
 * already taken or reserved gets "_2", "_3", … (an underscore so "lap1" becomes "lap1_2", not "lap12").
 */
export function customFieldKey(display: string, type: CustomFieldType, existingKeys: Iterable<string>): string | Invalid {
  const base = display.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\W/g, "");
  if (!/[a-z0-9]/.test(base)) return { error: FIELD_KEY_EMPTY };
  const key = type === "category" ? `is_${base}` : base;
  const taken = new Set([...existingKeys].map((k) => k.toLowerCase()));
  const free = (candidate: string) => !taken.has(candidate) && !isReservedFieldKey(candidate);
  if (free(key)) return key;
  for (let n = 2; ; n++) if (free(`${key}_${n}`)) return `${key}_${n}`;
}

export interface CustomFieldRules {
  type: CustomFieldType;
  /** The choices of an option field. */
  options?: readonly string[];
  isMandatory?: boolean;
}

export const FIELD_REQUIRED = "Required";
export const FIELD_NUMBER = MUST_BE_A_NUMBER;
export const FIELD_BIB = "Must be a whole number";
export const FIELD_SECONDS = "Must be a number of seconds, with up to 6 decimals";
export const FIELD_DATE = "Must be a date as YYYY-MM-DD";
export const FIELD_GENDER = "Must be M or F";
export const FIELD_BOOLEAN = "Must be yes or no";
export const fieldOptionError = (options: readonly string[]) => `Must be one of: ${options.join(", ")}`;

const TRUE_WORDS = new Set(["true", "yes", "y", "1", "on", "x", "checked"]);
const FALSE_WORDS = new Set(["false", "no", "n", "0", "off", "unchecked", ""]);

/** Blank (null, undefined or only spaces). */
function isBlank(raw: FieldValue | undefined): boolean {
  return raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "");
}

function parseBoolean(text: string): boolean | Invalid {
  const word = text.toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return { error: FIELD_BOOLEAN };
}

function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC maps years 0-99 to 1900-1999, so set the year explicitly.
  date.setUTCFullYear(year);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * A typed or imported value normalised for storage: text trimmed; number a number; bib a whole number
 * from 0; time (parseRaceTime) and seconds (a decimal number) as microseconds; date "YYYY-MM-DD" of a
 * real calendar day; gender "M" or "F" (also from male/female); boolean, checkbox and category (racer
 * is in it) true or false, blank meaning false; option one of the options (matched ignoring case,
 * stored as the option is spelled). A blank value is null, or the Required error for a mandatory field;
 * the yes/no types treat blank as false instead.
 */
export function validateCustomFieldValue(field: CustomFieldRules, raw: FieldValue | undefined): FieldValue | Invalid {
  if (field.type === "boolean" || field.type === "checkbox" || field.type === "category") {
    if (typeof raw === "boolean") return raw;
    return parseBoolean(isBlank(raw) ? "" : String(raw).trim());
  }
  if (isBlank(raw)) return field.isMandatory ? { error: FIELD_REQUIRED } : null;
  const text = String(raw).trim();
  switch (field.type) {
    case "text":
      return text;
    case "number": {
      const value = readFormNumber(typeof raw === "number" ? raw : text);
      return value ?? { error: FIELD_NUMBER };
    }
    case "bib":
      return /^\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : { error: FIELD_BIB };
    case "time":
      return parseRaceTime(text);
    case "seconds": {
      const match = /^(-)?(\d+)(?:\.(\d{1,6}))?$/.exec(text);
      if (!match) return { error: FIELD_SECONDS };
      const micros = Number(match[2]) * MICROS_PER_SECOND + Number((match[3] ?? "").padEnd(6, "0"));
      if (!Number.isSafeInteger(micros)) return { error: FIELD_SECONDS };
      return match[1] && micros !== 0 ? -micros : micros;
    }
    case "date": {
      const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
      return match && isRealDate(Number(match[1]), Number(match[2]), Number(match[3])) ? text : { error: FIELD_DATE };
    }
    case "gender": {
      const word = text.toLowerCase();
      if (word === "m" || word === "male") return "M";
      if (word === "f" || word === "female") return "F";
      return { error: FIELD_GENDER };
    }
    case "option": {
      const options = field.options ?? [];
      const found = options.find((option) => option.trim().toLowerCase() === text.toLowerCase());
      return found ?? { error: fieldOptionError(options) };
    }
  }
}
