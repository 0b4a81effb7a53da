/**
 * Shared parsing of the racer pages (/race/:id/admin/racers): the race setup they read, the racer form into
 * RacerDoc changes, the list's rows and a racer's reads. CSV import (racer-import.server.ts), the reports
 * (racer-reports.server.ts) and the keypad (keypad.server.ts) build on it. Routes stay thin: guard, call one
 * of these, call the RaceRoom.
 */
import * as z from "zod";
import { exactSeconds, exactTimeOfDay, formatRaceTime, formatTimeOfDay } from "../core/time/format";
import { isInvalid, parseTimeOfDay, type Invalid } from "../core/time/parse";
import { deviceDisplayName } from "../core/timing/devices";
import type { FieldValue, Micros, RacerStatus } from "../core/timing/model";
import { CUSTOM_FIELD_TYPES, validateCustomFieldValue, type CustomFieldRules, type CustomFieldType } from "../core/timing/racer-fields";
import { racerDisplayName } from "../core/timing/racer-name";
import { RACER_STATUS_LABELS, setRacerStatus, STATUS_TIME_REQUIRED, statusText } from "../core/timing/status";
import { type ReportGroupRef } from "../core/timing/start-list";
import { MAX_RACERS_PER_PAGE } from "../durable/race/result-views";
import type { RacerView } from "../durable/race-room";
import { ENTRY_SOURCE_PREFIX } from "../core/registration/racer-entry";
import { chipsOf, type RacerDoc } from "../schema/race/racer";
import { zeroTimeOfRace, type RaceSettings } from "../schema/race/settings";
import type { RaceAccess } from "./race-admin.server";

export type FieldErrors = Record<string, string>;

// ---- The race setup the pages read ----

export interface CustomField extends CustomFieldRules {
  key: string;
  display: string;
}

export interface RacerSetup {
  settings: RaceSettings;
  courses: ReportGroupRef[];
  startGroups: ReportGroupRef[];
  /** A free-order race's meta start groups (racers name theirs in metastart_id); empty elsewhere. */
  metaStartGroups: ReportGroupRef[];
  points: { id: string; name: string }[];
  fields: CustomField[];
  /** Absolute microseconds of the race's clock origin: times of day count from it. */
  zeroTime: Micros;
}

/** A custom racer field as the Racer fields page stores it in fields_list; options may be a list or comma separated text. */
const customFieldSchema = z.object({
  key: z.string().min(1).max(64),
  display: z.string().max(200).default(""),
  type: z.enum(CUSTOM_FIELD_TYPES),
  options: z
    .union([z.array(z.union([z.string(), z.object({ value: z.string() }).transform((o) => o.value)])), z.string().transform((s) => s.split(","))])
    .transform((list) => list.map((o) => o.trim()).filter(Boolean))
    .optional()
    .catch(undefined),
  is_mandatory: z.boolean().optional().catch(undefined),
});

/** Custom fields of the race; an entry that does not parse is skipped rather than breaking every racer page. */
export function customFieldsOf(settings: RaceSettings): CustomField[] {
  return settings.fields_list.flatMap((raw) => {
    const parsed = customFieldSchema.safeParse(raw);
    if (!parsed.success) return [];
    const f = parsed.data;
    return [{ key: f.key, display: f.display || f.key, type: f.type as CustomFieldType, options: f.options, isMandatory: f.is_mandatory }];
  });
}

const refsOf = (docs: { id: string; ordinal: number; data: { name: string } }[]): ReportGroupRef[] =>
  docs.map((d) => ({ id: d.id, name: d.data.name, ordinal: d.ordinal })).sort((a, b) => a.ordinal - b.ordinal || a.name.localeCompare(b.name));

export async function loadRacerSetup({ room, race }: Pick<RaceAccess, "room" | "race">): Promise<RacerSetup> {
  const [stored, courses, startGroups, points] = await Promise.all([
    room.settings(),
    room.documents("Course"),
    room.documents("StartGroup"),
    room.documents("TimingPoint"),
  ]);
  if (!stored) throw new Response("Not found", { status: 404 });
  // The RPC stub widens the settings document; it is the RaceRoom's own RaceSettings.
  const settings = stored as RaceSettings;
  // A free-order racer's course is a course group (timing.md section 3, meta course groups).
  const listed = (entries: { id: string; name: string }[]) => entries.map((e, i) => ({ id: e.id, name: e.name, ordinal: i + 1 }));
  return {
    settings,
    courses: settings.is_free_segment ? listed(settings.meta_courses_list) : refsOf(courses),
    startGroups: refsOf(startGroups),
    metaStartGroups: settings.is_free_segment ? listed(settings.meta_startgroups_list) : [],
    points: refsOf(points).map(({ id, name }) => ({ id, name })),
    fields: customFieldsOf(settings),
    zeroTime: zeroTimeOfRace(race.startTime, race.timezone),
  };
}

// ---- The racers list ----

export const RACERS_PER_PAGE = 50;

export interface RacerRow {
  id: string;
  bib: number | null;
  name: string;
  course: string;
  startGroup: string;
  chips: string;
  /** Where the racer came from: "Registration" for one entered by a registration form, else what it was imported from. */
  source: string;
  status: string;
  time: string;
}

export function racerRow(racer: RacerView, setup: RacerSetup): RacerRow {
  const nameOf = (list: ReportGroupRef[], id: string | null) => (id ? (list.find((x) => x.id === id)?.name ?? "") : "");
  const d = racer.data;
  return {
    id: racer.id,
    bib: d.bib,
    name: racerDisplayName({ firstName: d.first_name, lastName: d.last_name, fullname: d.fullname }, setup.settings.is_last_name_first),
    course: nameOf(setup.courses, d.course),
    startGroup: nameOf(setup.startGroups, d.setupgroup_id),
    chips: chipsOf(d).join(", "),
    source: d.imported_from?.startsWith(ENTRY_SOURCE_PREFIX) ? "Registration" : (d.imported_from ?? ""),
    // DSQ, DNS, DNF win over the computed state (timing.md section 4 priority).
    status: racer.statusText || (RACER_STATUS_LABELS[racer.status as RacerStatus] ?? racer.status),
    time: racer.time === null ? "" : formatRaceTime(racer.time, setup.settings.display_precision),
  };
}

const listQuerySchema = z.object({
  q: z.string().trim().max(100).catch(""),
  page: z.coerce.number().int().min(1).catch(1),
});

/** `?q=` and `?page=` of the racers list; the room searches (core/timing/racer-name.ts) and clamps the page. */
function racerListQuery(url: URL): { q: string; page: number } {
  return listQuerySchema.parse({ q: url.searchParams.get("q") ?? "", page: url.searchParams.get("page") ?? 1 });
}

/** One page of the racers list, searched and paged by the room: a big race's whole field does not cross one RPC. */
export async function racerListPage(access: RaceAccess, url: URL) {
  const { q, page } = racerListQuery(url);
  const [setup, found] = await Promise.all([loadRacerSetup(access), access.room.racerPage({ q, page, perPage: RACERS_PER_PAGE })]);
  return { q, page: found.page, pages: found.pages, total: found.total, all: found.all, rows: found.racers.map((r) => racerRow(r, setup)) };
}

/** Every racer matching `?q=` (all pages), asked of the room a page of its largest size at a time. */
export async function racerListMatches(access: RaceAccess, url: URL): Promise<RacerRow[]> {
  const { q } = racerListQuery(url);
  const setup = await loadRacerSetup(access);
  const rows: RacerRow[] = [];
  for (let page = 1; ; page++) {
    const found = await access.room.racerPage({ q, page, perPage: MAX_RACERS_PER_PAGE });
    rows.push(...found.racers.map((r) => racerRow(r, setup)));
    if (page >= found.pages) return rows;
  }
}

export const RACER_LIST_COLUMNS = ["Bib", "Name", "Course", "Start group", "Chips", "Status", "Time"];
export const racerListCsvRow = (r: RacerRow) => [r.bib === null ? "" : String(r.bib), r.name, r.course, r.startGroup, r.chips, r.status, r.time];

// ---- One racer: form values and changes ----

export const RACER_STATUS_CHOICES = ["ok", "dns", "dnf", "dsq"] as const;
export type RacerStatusChoice = (typeof RACER_STATUS_CHOICES)[number];

/** The status a racer's flags show, by the DSQ, DNS, DNF priority of timing.md section 4. */
export function statusChoiceOf(d: Pick<RacerDoc, "dns" | "dnf_time" | "dsq_time">): RacerStatusChoice {
  const text = statusText({ isDns: d.dns, dnfTime: d.dnf_time, dsqTime: d.dsq_time });
  return text === "" ? "ok" : (text.toLowerCase() as RacerStatusChoice);
}

/** A custom field's name in forms and import headers. */
export const customName = (key: string) => `custom.${key}`;

/** The text each input of the racer form starts with; the names are the form's and the error keys'. */
export function racerFormValues(doc: RacerDoc | null, setup: RacerSetup): Record<string, string> {
  const tod = (micros: Micros | null) => (micros === null ? "" : exactTimeOfDay(micros - setup.zeroTime));
  const text = (value: string | number | null | undefined) => (value === null || value === undefined ? "" : String(value));
  if (!doc) return { status: "ok", penalty: "0", bonus: "0", add_back: "0" };
  const values: Record<string, string> = {
    first_name: doc.first_name,
    last_name: doc.last_name,
    bib: text(doc.bib),
    chip: text(doc.chip),
    chip_list: doc.chip_list.join(", "),
    course: text(doc.course),
    setupgroup_id: text(doc.setupgroup_id),
    metastart_id: text(doc.metastart_id),
    sex: text(doc.sex),
    club: text(doc.club),
    team: text(doc.team),
    city: text(doc.city),
    category: text(doc.category),
    scheduled_start_time: tod(doc.scheduled_start_time),
    penalty: exactSeconds(doc.penalty),
    bonus: exactSeconds(doc.bonus),
    add_back: exactSeconds(doc.add_back),
    para_factor: text(doc.para_factor),
    ccc_licence: text(doc.ccc_licence),
    licence: text(doc.licence),
    cpl_distance_pts: text(doc.cpl_distance_pts),
    cpl_sprint_pts: text(doc.cpl_sprint_pts),
    seed: text(doc.seed),
    is_manual_seed: doc.is_manual_seed ? "on" : "",
    status: statusChoiceOf(doc),
    status_time: tod(doc.dsq_time ?? doc.dnf_time),
  };
  for (const field of setup.fields) {
    const value = doc.custom[field.key];
    values[customName(field.key)] =
      value === undefined || value === null
        ? ""
        : typeof value === "boolean"
          ? value
            ? "on"
            : ""
          : field.type === "seconds"
            ? exactSeconds(Number(value))
            : field.type === "time"
              ? formatRaceTime(Number(value), 6).replace(/\.?0+$/, "")
              : String(value);
  }
  return values;
}

/** Every input of the racer form, as text (missing ones blank); this is the form's boundary schema. */
const text200 = z.string().trim().max(200).catch("");
const racerInputSchema = z.object({
  first_name: text200,
  last_name: text200,
  bib: text200,
  chip: text200,
  chip_list: z.string().max(1000).catch(""),
  course: text200,
  setupgroup_id: text200,
  metastart_id: text200,
  sex: text200,
  club: text200,
  team: text200,
  city: text200,
  category: text200,
  scheduled_start_time: text200,
  penalty: text200,
  bonus: text200,
  add_back: text200,
  para_factor: text200,
  ccc_licence: text200,
  licence: text200,
  cpl_distance_pts: text200,
  cpl_sprint_pts: text200,
  seed: text200,
  is_manual_seed: text200,
  status: z.enum(RACER_STATUS_CHOICES).catch("ok"),
  status_time: text200,
});
type RacerInput = z.infer<typeof racerInputSchema>;

export const NOT_NEGATIVE = "Must be 0 or more";
export const PERCENT_RANGE = "Must be a percent from 1 to 200";

type Parsed = { ok: true; changes: Partial<RacerDoc> } | { ok: false; errors: FieldErrors };

/**
 * Racer fields from the form's (or a CSV row's) text: blank text fields are null, bib a whole number,
 * chip_list comma separated, scheduled start and DNF/DSQ times of day on the race's day, penalty, bonus
 * and add back seconds with decimals, para factor a percent, CPL points numbers from 0, seed a number,
 * manual seed yes or no (a checkbox), custom fields by validateCustomFieldValue,
 * and the status through setRacerStatus (one of DNS, DNF, DSQ clears the others). `present` limits the
 * result to the fields given (a CSV with a few columns changes only those).
 */
export function racerChangesFrom(raw: Record<string, string | undefined>, setup: RacerSetup, present?: ReadonlySet<string>): Parsed {
  const input: RacerInput = racerInputSchema.parse(raw);
  const errors: FieldErrors = {};
  const changes: Partial<RacerDoc> = {};
  const has = (name: string) => !present || present.has(name);
  const check = <T>(name: string, value: T): Exclude<T, Invalid> | undefined => {
    if (isInvalid(value)) {
      errors[name] = value.error;
      return undefined;
    }
    return value as Exclude<T, Invalid>;
  };
  const blankNull = (value: string) => value || null;
  const seconds = (name: "penalty" | "bonus" | "add_back") => {
    if (!has(name)) return;
    const value = check(name, validateCustomFieldValue({ type: "seconds" }, input[name]));
    if (value === undefined) return;
    if (typeof value === "number" && value < 0) errors[name] = NOT_NEGATIVE;
    else changes[name] = (value as number | null) ?? 0;
  };
  const timeOfDay = (text: string, name: string): Micros | null | undefined => {
    if (!text) return null;
    const tod = check(name, parseTimeOfDay(text));
    return tod === undefined ? undefined : setup.zeroTime + tod;
  };

  if (has("first_name")) changes.first_name = input.first_name;
  if (has("last_name")) changes.last_name = input.last_name;
  if (has("bib")) {
    const bib = check("bib", validateCustomFieldValue({ type: "bib" }, input.bib));
    if (bib !== undefined) changes.bib = bib as number | null;
  }
  if (has("chip")) changes.chip = blankNull(input.chip);
  if (has("chip_list"))
    changes.chip_list = input.chip_list
      .split(",")
      .map((c) => c.trim())
      .filter(Boolean);
  if (has("course")) changes.course = blankNull(input.course);
  if (has("setupgroup_id")) changes.setupgroup_id = blankNull(input.setupgroup_id);
  if (has("metastart_id")) changes.metastart_id = blankNull(input.metastart_id);
  if (has("sex")) {
    const sex = check("sex", validateCustomFieldValue({ type: "gender" }, input.sex));
    if (sex !== undefined) changes.sex = sex as "M" | "F" | null;
  }
  for (const name of ["club", "team", "city", "category"] as const) if (has(name)) changes[name] = blankNull(input[name]);
  if (has("scheduled_start_time")) {
    const start = timeOfDay(input.scheduled_start_time, "scheduled_start_time");
    if (start !== undefined) changes.scheduled_start_time = start;
  }
  seconds("penalty");
  seconds("bonus");
  seconds("add_back");
  if (has("para_factor")) {
    const factor = check("para_factor", validateCustomFieldValue({ type: "number" }, input.para_factor));
    if (typeof factor === "number" && (factor < 1 || factor > 200)) errors.para_factor = PERCENT_RANGE;
    else if (factor !== undefined) changes.para_factor = factor as number | null;
  }
  for (const name of ["ccc_licence", "licence"] as const) if (has(name)) changes[name] = blankNull(input[name]);
  for (const name of ["cpl_distance_pts", "cpl_sprint_pts"] as const) {
    if (!has(name)) continue;
    const points = check(name, validateCustomFieldValue({ type: "number" }, input[name]));
    if (typeof points === "number" && points < 0) errors[name] = NOT_NEGATIVE;
    else if (points !== undefined) changes[name] = points as number | null;
  }
  if (has("seed")) {
    const seed = check("seed", validateCustomFieldValue({ type: "number" }, input.seed));
    if (seed !== undefined) changes.seed = seed as number | null;
  }
  if (has("is_manual_seed")) {
    const manual = check("is_manual_seed", validateCustomFieldValue({ type: "boolean" }, input.is_manual_seed));
    if (manual !== undefined) changes.is_manual_seed = manual === true;
  }
  if (has("status")) {
    const time = input.status === "dnf" || input.status === "dsq" ? timeOfDay(input.status_time, "status_time") : null;
    if (time !== undefined) {
      const flags = setRacerStatus({ isDns: false, dnfTime: null, dsqTime: null }, input.status, time);
      if (isInvalid(flags)) errors.status_time = input.status === "dnf" ? STATUS_TIME_REQUIRED.dnf : STATUS_TIME_REQUIRED.dsq;
      else Object.assign(changes, { dns: flags.isDns, dnf_time: flags.dnfTime, dsq_time: flags.dsqTime });
    }
  }
  const custom: Record<string, FieldValue> = {};
  for (const field of setup.fields) {
    const name = customName(field.key);
    if (!has(name)) continue;
    const value = check(name, validateCustomFieldValue(field, raw[name]?.slice(0, 500)));
    if (value !== undefined) custom[field.key] = value;
  }
  if (Object.keys(custom).length > 0 || (!present && setup.fields.length > 0)) changes.custom = custom;
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, changes };
}

/** The racer form's inputs as text; a checkbox not ticked is absent, which reads as blank (false). */
export function formInputs(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string" && name !== "intent") values[name] = value;
  return values;
}

/**
 * Only the fields whose value differs from the stored racer, so a save bumps the change times of what
 * changed and nothing else; custom fields the form does not show are kept.
 */
export function changedFields(changes: Partial<RacerDoc>, existing: RacerDoc | null): Record<string, unknown> {
  if (!existing) return changes;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes)) {
    const next = key === "custom" ? { ...existing.custom, ...(value as RacerDoc["custom"]) } : value;
    if (JSON.stringify(next) !== JSON.stringify(existing[key as keyof RacerDoc])) out[key] = next;
  }
  return out;
}

/** Errors the RaceRoom gives by stored field, moved to the form input they came from. */
export function formErrorsOf(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, message] of Object.entries(errors)) {
    const name = key.startsWith("custom.")
      ? key
      : key === "dns" || key === "dnf_time" || key === "dsq_time"
        ? "status_time"
        : key === "id"
          ? "form"
          : key.split(".")[0]!;
    out[name] ??= message;
  }
  return out;
}

/** `/race/:id/admin/racers/:racerId`: "new", or a racer's id. */
export const racerIdParam = z.union([z.literal("new"), z.uuid()]);

// ---- A racer's reads ----

const CROSSING_STATES: Record<string, string> = {
  assigned: "Used",
  unmatched: "Unmatched",
  outside: "Outside the race's time window",
  nopoint: "Device on no timing point",
  info: "Information only (precall or oncourse)",
  cleared: "Cleared",
};

export interface CrossingRowView {
  seq: number;
  timeOfDay: string;
  point: string;
  device: string;
  state: string;
}

export function crossingRows(
  crossings: { seq: number; time: number; timing_point_id: string | null; device_id: string; state: string }[],
  setup: RacerSetup,
  devices: { id: string; data: { name: string; humanname: string; device_number: number | null; type: string } }[],
): CrossingRowView[] {
  const points = new Map(setup.points.map((p) => [p.id, p.name]));
  const deviceNames = new Map(
    devices.map((d) => [d.id, deviceDisplayName({ name: d.data.name, humanname: d.data.humanname, deviceNumber: d.data.device_number, type: d.data.type })]),
  );
  return crossings.map((c) => ({
    seq: c.seq,
    timeOfDay: formatTimeOfDay(c.time - setup.zeroTime, Math.max(1, setup.settings.precision)),
    point: c.timing_point_id ? (points.get(c.timing_point_id) ?? "Removed timing point") : "No timing point",
    device: c.device_id === "manual" ? "Keypad" : (deviceNames.get(c.device_id) ?? "Removed device"),
    state: CROSSING_STATES[c.state] ?? c.state,
  }));
}
