/**
 * Which form field fills which racer field (issue 24, decision 0058): the racer's own fields (timing.md,
 * "Racer") and the race's custom fields (its fields_list), each filled by default from a field found by type
 * or caption, which the organiser may override (or leave unfilled). The values are converted here, so the
 * settings page shows the same defaults the sync applies.
 */
import { labelIn } from "../forms/bilingual";
import { readGender } from "../forms/gender";
import type { FormElement, StoredValue } from "../forms/model";
import { nameFieldsOf } from "../forms/name-fields";
import { findProvince } from "../forms/provinces";
import { CUSTOM_FIELD_TYPES, validateCustomFieldValue, type CustomFieldType } from "../timing/racer-fields";

/** The racer's own fields a form can fill, in the order the settings page lists them. */
export const BUILT_IN_TARGETS = [
  { key: "first_name", label: "First name" },
  { key: "last_name", label: "Last name" },
  { key: "dob", label: "Date of birth" },
  { key: "sex", label: "Sex" },
  { key: "club", label: "Club" },
  { key: "team", label: "Team" },
  { key: "province", label: "Province" },
  { key: "city", label: "City" },
  { key: "category", label: "Category" },
  { key: "chip", label: "Chip" },
  { key: "licence", label: "Licence" },
] as const;

export type BuiltInTarget = (typeof BUILT_IN_TARGETS)[number]["key"];
export const CUSTOM_TARGET_PREFIX = "custom:";

/** A custom racer field of the race, as its fields_list holds it (the parts a mapping needs). */
export interface RaceCustomField {
  key: string;
  display: string;
  type: CustomFieldType;
  options?: string[];
}

/** The race's custom fields from its fields_list; an entry that does not read is skipped, as the racer pages do. */
export function raceCustomFieldsOf(fieldsList: readonly unknown[]): RaceCustomField[] {
  return fieldsList.flatMap((raw) => {
    if (!raw || typeof raw !== "object") return [];
    const f = raw as Record<string, unknown>;
    if (typeof f.key !== "string" || !f.key || !(CUSTOM_FIELD_TYPES as readonly unknown[]).includes(f.type)) return [];
    const list = Array.isArray(f.options) ? f.options : typeof f.options === "string" ? f.options.split(",") : [];
    const options = list.map((o) => (typeof o === "string" ? o : String((o as { value?: unknown })?.value ?? ""))).map((o) => o.trim());
    const display = typeof f.display === "string" && f.display ? f.display : f.key;
    return [{ key: f.key, display, type: f.type as CustomFieldType, options: options.filter(Boolean) }];
  });
}

export interface MappingTarget {
  key: string;
  label: string;
}

export function mappingTargetsOf(custom: readonly RaceCustomField[]): MappingTarget[] {
  return [...BUILT_IN_TARGETS, ...custom.map((f) => ({ key: `${CUSTOM_TARGET_PREFIX}${f.key}`, label: f.display }))];
}

const INPUT_TYPES = new Set([
  "text",
  "number",
  "option",
  "multioption",
  "country",
  "province",
  "city",
  "date",
  "dob",
  "email",
  "phone",
  "gender",
  "licence",
  "yesno",
  "checkbox",
]);
const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
const captionOf = (e: FormElement) => fold(labelIn(e.caption, "en"));

/** The field of these types whose caption or logic key starts with one of the words, first in form order. */
function byCaption(elements: readonly FormElement[], types: readonly string[], words: readonly string[]): FormElement | undefined {
  const starts = (text: string) => words.some((w) => text === w || text.startsWith(`${w} `));
  return elements.find((e) => types.includes(e.type) && (starts(captionOf(e)) || starts(fold(e.logic_key ?? ""))));
}
const ofType = (elements: readonly FormElement[], type: string) => elements.find((e) => e.type === type);

/** Each target's field found by type or caption: the defaults the settings page shows and the sync uses unless overridden. */
export function defaultRacerMapping(
  elements: readonly FormElement[],
  nameFields: { firstNameFieldId: string | null; lastNameFieldId: string | null },
  custom: readonly RaceCustomField[],
): Record<string, string> {
  const inputs = elements.filter((e) => INPUT_TYPES.has(e.type));
  const { first, last } = nameFieldsOf(elements, nameFields);
  const found: Record<string, FormElement | undefined> = {
    // A form's only date is usually the birth date; a captioned one wins over another date field.
    dob: ofType(inputs, "dob") ?? byCaption(inputs, ["date"], ["date of birth", "birth date", "birthdate", "date de naissance"]) ?? ofType(inputs, "date"),
    sex: ofType(inputs, "gender") ?? byCaption(inputs, ["option", "text"], ["sex", "gender", "sexe", "genre"]),
    club: byCaption(inputs, ["text", "option"], ["club"]),
    team: byCaption(inputs, ["text", "option"], ["team", "equipe"]),
    province: ofType(inputs, "province"),
    city: ofType(inputs, "city"),
    category: byCaption(inputs, ["text", "option"], ["category", "categorie"]),
    chip: byCaption(inputs, ["text", "number"], ["chip", "puce"]),
    licence: ofType(inputs, "licence") ?? byCaption(inputs, ["text"], ["licence", "license"]),
  };
  const mapping: Record<string, string> = {};
  if (first) mapping.first_name = first;
  if (last) mapping.last_name = last;
  for (const [key, element] of Object.entries(found)) if (element) mapping[key] = element.id;
  for (const field of custom) {
    const wanted = new Set([fold(field.display), fold(field.key)]);
    const element = inputs.find((e) => wanted.has(captionOf(e)) || (e.logic_key && wanted.has(fold(e.logic_key))));
    if (element) mapping[`${CUSTOM_TARGET_PREFIX}${field.key}`] = element.id;
  }
  return mapping;
}

/**
 * The organiser's choices over the defaults: a stored field id wins (if it is still a field of the form), a
 * stored "" leaves the target unfilled; a target not stored keeps its default.
 */
export function effectiveRacerMapping(
  defaults: Readonly<Record<string, string>>,
  stored: Readonly<Record<string, string>>,
  elements: readonly Pick<FormElement, "id">[],
): Record<string, string> {
  const ids = new Set(elements.map((e) => e.id));
  const mapping: Record<string, string> = {};
  for (const [target, id] of Object.entries(defaults)) if (!(target in stored)) mapping[target] = id;
  for (const [target, id] of Object.entries(stored)) if (id !== "" && ids.has(id)) mapping[target] = id;
  return mapping;
}

/** The racer's sex (timing.md: M or F) from a gender answer or word; Other and anything else stay unset rather than guessed. */
export function racerSexOf(raw: unknown): "M" | "F" | null {
  const gender = typeof raw === "string" ? readGender(raw) : null;
  return gender === "M" || gender === "F" ? gender : null;
}

/** A real calendar date as YYYY-MM-DD, from that form or YYYY/MM/DD; anything else is null. */
export function racerDateOf(raw: unknown): string | null {
  const match = typeof raw === "string" ? /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(raw.trim()) : null;
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** A province or state code ("ON") from its code or name ("Québec" → QC); another country's subdivision code (1–3 letters or digits) upper case; else null. */
export function racerProvinceOf(raw: unknown): string | null {
  if (typeof raw !== "string" || raw.trim() === "") return null;
  const province = findProvince(raw);
  if (province) return province.code;
  const text = raw.trim().toUpperCase();
  return /^[A-Z0-9]{1,3}$/.test(text) ? text : null;
}

/** An answer as racer text: a choice by its English label, a yes/no as yes or no, codes as stored; null when blank. */
export function answerText(element: FormElement, value: StoredValue | undefined): string | null {
  const v = value?.v;
  if (v === null || v === undefined) return null;
  if (element.type === "option" || element.type === "multioption") {
    const ids = Array.isArray(v) ? v : [v];
    const labels = ids.map((id) => element.options_list.find((o) => o.id === id)).map((o, i) => (o ? labelIn(o.display, "en") || o.id : String(ids[i])));
    return labels.join(", ").trim().slice(0, 200) || null;
  }
  if (typeof v === "boolean") return v ? "yes" : "no";
  const text = String(v).trim();
  return text ? text.slice(0, 200) : null;
}

/** A custom field's value from an answer, checked as the racer pages check it; a value the field refuses is left unset. */
export function customValueOf(field: RaceCustomField, text: string | null): string | number | boolean | null {
  const value = validateCustomFieldValue({ type: field.type, options: field.options }, text ?? "");
  if (value !== null && typeof value === "object") return null;
  return typeof value === "string" ? value.slice(0, 500) : value;
}
