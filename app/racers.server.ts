/**
 * Shared parsing of the racer, report and keypad pages (/race/:id/admin/racers, reports, keypad): the race
 * setup they read, racer form and CSV rows into RacerDoc changes, the list's rows, the reports' input, and
 * the keypad form into a manual entry. Routes stay thin: guard, call one of these, call the RaceRoom.
 */
import { z } from "zod";
import { parseCsv, CsvSyntaxError } from "../core/entity/csv";
import { exactSeconds, exactTimeOfDay, formatRaceTime, formatTimeOfDay } from "../core/time/format";
import { isInvalid, parseTimeOfDay, type Invalid } from "../core/time/parse";
import { missesText } from "../core/timing/biathlon";
import { deviceDisplayName } from "../core/timing/devices";
import type { FieldValue, Micros } from "../core/timing/model";
import { CUSTOM_FIELD_TYPES, validateCustomFieldValue, type CustomFieldRules, type CustomFieldType } from "../core/timing/racer-fields";
import { racerDisplayName } from "../core/timing/racer-name";
import { setRacerStatus, STATUS_TIME_REQUIRED, statusText } from "../core/timing/status";
import {
  buildChipRack,
  buildStartList,
  chipRackTable,
  startListTable,
  type ReportGroupRef,
  type ReportRacer,
  type ReportTable,
} from "../core/timing/start-list";
import type { RacerView } from "../durable/race-room";
import { chipsOf, type RacerDoc } from "../schema/race/racer";
import { zeroTimeOfRace, type RaceSettings } from "../schema/race/settings";
import { manualEntrySchema, type ManualEntry, type ManualReceipt } from "../schema/wire/timing-api";
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

const STATUS_LABELS: Record<string, string> = { finished: "Finished", oncourse: "On course", notstarted: "Not started", dns: "DNS", dnf: "DNF", dsq: "DSQ" };

export interface RacerRow {
  id: string;
  bib: number | null;
  name: string;
  course: string;
  startGroup: string;
  chips: string;
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
    // DSQ, DNS, DNF win over the computed state (timing.md section 4 priority).
    status: racer.statusText || (STATUS_LABELS[racer.status] ?? racer.status),
    time: racer.time === null ? "" : formatRaceTime(racer.time, setup.settings.display_precision),
  };
}

const listQuerySchema = z.object({
  q: z.string().trim().max(100).catch(""),
  page: z.coerce.number().int().min(1).catch(1),
});

/** `?q=` matches a bib exactly (digits) or any part of a name; `?page=` is clamped to the pages there are. */
export function racerListPage(racers: RacerView[], setup: RacerSetup, url: URL) {
  const { q, page } = listQuerySchema.parse({ q: url.searchParams.get("q") ?? "", page: url.searchParams.get("page") ?? 1 });
  const rows = racers.map((r) => racerRow(r, setup));
  const needle = q.toLowerCase();
  const matches = !q
    ? rows
    : /^\d+$/.test(q)
      ? rows.filter((r) => r.bib === Number(q))
      : rows.filter((r, i) => {
          const d = racers[i]!.data;
          return [r.name, `${d.first_name} ${d.last_name}`, d.fullname].some((name) => name.toLowerCase().includes(needle));
        });
  const pages = Math.max(1, Math.ceil(matches.length / RACERS_PER_PAGE));
  const current = Math.min(page, pages);
  return {
    q,
    page: current,
    pages,
    total: matches.length,
    all: racers.length,
    rows: matches.slice((current - 1) * RACERS_PER_PAGE, current * RACERS_PER_PAGE),
    matches,
  };
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

const customName = (key: string) => `custom.${key}`;

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

// ---- CSV import ----

/** Uploads and pasted text above this are refused before parsing. */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 5000;

/** Header names accepted for each racer field, compared lowercased with spaces, dashes and underscores removed. */
const COLUMN_ALIASES: Record<string, readonly string[]> = {
  first_name: ["firstname", "first", "givenname"],
  last_name: ["lastname", "last", "surname", "familyname"],
  bib: ["bib", "bibnumber", "bibno", "number"],
  chip: ["chip", "chipnumber", "chipid"],
  chip_list: ["chips", "chiplist", "extrachips"],
  course: ["course", "coursename", "distance"],
  setupgroup_id: ["startgroup", "startgroupname", "wave"],
  sex: ["sex", "gender"],
  club: ["club"],
  team: ["team"],
  city: ["city", "town"],
  category: ["category", "class"],
  scheduled_start_time: ["scheduledstart", "scheduledstarttime", "starttime"],
  ccc_licence: ["ccclicence", "ccclicense", "ccclicencenumber", "ccclicensenumber"],
  licence: ["licence", "license", "licencenumber", "licensenumber"],
  cpl_distance_pts: ["cpldistancepts", "cpldistancepoints"],
  cpl_sprint_pts: ["cplsprintpts", "cplsprintpoints"],
  seed: ["seed"],
  is_manual_seed: ["ismanualseed", "manualseed"],
};

const headerKey = (text: string) => text.toLowerCase().replace(/[\s_\-.]/g, "");

export interface ImportRow {
  /** The row in the file, counting the header as row 1, as a spreadsheet numbers it. */
  row: number;
  name: string;
  bib: string;
  errors: { field: string; message: string }[];
  changes: Partial<RacerDoc> | null;
}

export interface ImportPreview {
  /** Columns used, as "Header → field". */
  mapped: { header: string; field: string }[];
  ignored: string[];
  rows: ImportRow[];
  /** A problem with the file as a whole (empty, not CSV, too big). */
  fileError: string | null;
}

/** The label a row error names its field by. */
export function fieldLabel(name: string, setup: RacerSetup): string {
  const labels: Record<string, string> = {
    first_name: "First name",
    last_name: "Last name",
    bib: "Bib",
    chip: "Chip",
    chip_list: "Chips",
    course: "Course",
    setupgroup_id: "Start group",
    sex: "Sex",
    club: "Club",
    team: "Team",
    city: "City",
    category: "Category",
    scheduled_start_time: "Scheduled start",
    penalty: "Penalty",
    bonus: "Bonus",
    add_back: "Add back",
    para_factor: "Para factor",
    ccc_licence: "CCC licence",
    licence: "Licence",
    cpl_distance_pts: "CPL distance points",
    cpl_sprint_pts: "CPL sprint points",
    seed: "Seed",
    is_manual_seed: "Manual seed",
    status_time: "Status time",
    form: "Row",
  };
  if (name.startsWith("custom.")) return setup.fields.find((f) => customName(f.key) === name)?.display ?? name.slice(7);
  return labels[name] ?? name;
}

/**
 * Reads an import: a header row naming racer fields (standard names, custom field keys or display names)
 * and one racer per row. Course and start group are given by name. Every row is checked as the racer
 * form would check it, plus bibs and chips against the race's racers and the file's other rows, so the
 * preview shows the problems importRacers would refuse.
 */
export function previewImport(text: string, setup: RacerSetup, existing: RacerView[]): ImportPreview {
  const empty = (fileError: string): ImportPreview => ({ mapped: [], ignored: [], rows: [], fileError });
  let records;
  try {
    records = parseCsv(text.replace(/^\uFEFF/, "")).filter((r) => r.some((c) => c.text.trim() !== ""));
  } catch (error) {
    if (error instanceof CsvSyntaxError) return empty(`The file is not valid CSV: ${error.message}.`);
    throw error;
  }
  if (records.length < 2) return empty("The file needs a header row and at least one racer.");
  if (records.length - 1 > IMPORT_MAX_ROWS) return empty(`A file may hold at most ${IMPORT_MAX_ROWS} racers; split it into smaller files.`);

  const fieldByHeader = new Map<string, string>();
  for (const [field, aliases] of Object.entries(COLUMN_ALIASES)) for (const alias of aliases) fieldByHeader.set(alias, field);
  for (const f of setup.fields) {
    fieldByHeader.set(headerKey(f.key), customName(f.key));
    fieldByHeader.set(headerKey(f.display), customName(f.key));
  }
  const header = records[0]!.map((c) => c.text.trim());
  const columns = header.map((h) => fieldByHeader.get(headerKey(h)) ?? null);
  const mapped: ImportPreview["mapped"] = [];
  const seen = new Set<string>();
  const ignored: string[] = [];
  columns.forEach((field, i) => {
    // A field named twice takes its first column.
    if (field && !seen.has(field)) {
      seen.add(field);
      mapped.push({ header: header[i]!, field: fieldLabel(field, setup) });
    } else {
      columns[i] = null;
      if (header[i]) ignored.push(header[i]!);
    }
  });
  if (mapped.length === 0)
    return { mapped, ignored, rows: [], fileError: "No column of the header row names a racer field (for example First Name, Last Name, Bib)." };

  const byName = (list: ReportGroupRef[]) => new Map(list.map((x) => [x.name.trim().toLowerCase(), x.id]));
  const courses = byName(setup.courses);
  const groups = byName(setup.startGroups);
  const bibOwner = new Map<number, string>();
  const chipOwner = new Map<string, string>();
  for (const r of existing) {
    if (r.data.bib !== null) bibOwner.set(r.data.bib, "another racer");
    for (const chip of chipsOf(r.data)) chipOwner.set(chip, "another racer");
  }
  const present = new Set(columns.filter((c): c is string => c !== null));

  const rows = records.slice(1).map((record, index): ImportRow => {
    const rowNumber = index + 2;
    const raw: Record<string, string> = {};
    columns.forEach((field, i) => {
      if (field) raw[field] = record[i]?.text.trim() ?? "";
    });
    const errors: ImportRow["errors"] = [];
    const lookUp = (field: "course" | "setupgroup_id", names: Map<string, string>, label: string) => {
      const name = raw[field];
      if (!name) return;
      const id = names.get(name.toLowerCase());
      if (id) raw[field] = id;
      else {
        errors.push({ field: fieldLabel(field, setup), message: `No ${label} named “${name}”` });
        delete raw[field];
      }
    };
    lookUp("course", courses, "course");
    lookUp("setupgroup_id", groups, "start group");
    const parsed = racerChangesFrom(raw, setup, present);
    if (!parsed.ok) for (const [field, message] of Object.entries(parsed.errors)) errors.push({ field: fieldLabel(field, setup), message });
    const changes = parsed.ok ? parsed.changes : null;
    if (changes) {
      const bib = changes.bib ?? null;
      if (bib !== null) {
        const owner = bibOwner.get(bib);
        if (owner) errors.push({ field: "Bib", message: owner === "another racer" ? `Bib ${bib} is already taken` : `Bib ${bib} is also on ${owner}` });
        else bibOwner.set(bib, `row ${rowNumber}`);
      }
      for (const chip of chipsOf({ chip: changes.chip ?? null, chip_list: changes.chip_list ?? [] })) {
        const owner = chipOwner.get(chip);
        if (owner) errors.push({ field: "Chip", message: owner === "another racer" ? `Chip ${chip} is already taken` : `Chip ${chip} is also on ${owner}` });
        else chipOwner.set(chip, `row ${rowNumber}`);
      }
    }
    const name = racerDisplayName({ firstName: raw.first_name, lastName: raw.last_name }, setup.settings.is_last_name_first);
    return { row: rowNumber, name, bib: raw.bib ?? "", errors, changes: errors.length === 0 ? changes : null };
  });
  return { mapped, ignored, rows, fileError: null };
}

/** Rows listed in the preview when all is well; the count covers the rest. */
export const PREVIEW_SAMPLE_ROWS = 50;

/** What the preview page shows: every problem, and a sample of the rows (not the whole file back). */
export function previewView(preview: ImportPreview) {
  return {
    mapped: preview.mapped,
    ignored: preview.ignored,
    fileError: preview.fileError,
    total: preview.rows.length,
    problems: preview.rows.flatMap((r) => r.errors.map((e) => ({ row: r.row, ...e }))),
    sample: preview.rows.slice(0, PREVIEW_SAMPLE_ROWS).map((r) => ({ row: r.row, bib: r.bib, name: r.name })),
  };
}
export type ImportPreviewView = ReturnType<typeof previewView>;

const importFormSchema = z.object({
  intent: z.enum(["preview", "import"], { error: "Unknown action" }),
  text: z.string().catch(""),
  source: z.string().trim().max(200).catch(""),
});

/**
 * The import form: pasted text or an uploaded file (multipart), at most IMPORT_MAX_BYTES. The confirm
 * step posts the same text back, so nothing is kept between the preview and the import.
 */
export async function readImportForm(request: Request): Promise<{ intent: "preview" | "import"; text: string; source: string } | { error: string }> {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > IMPORT_MAX_BYTES + 64 * 1024) return { error: "The file is larger than 2 MB." };
  const form = await request.formData();
  const parsed = importFormSchema.safeParse({ intent: form.get("intent"), text: form.get("text"), source: form.get("source") });
  if (!parsed.success) return { error: "Unknown action" };
  const file = form.get("file");
  const upload = file && typeof file !== "string" && file.size > 0 ? file : null;
  if (upload && upload.size > IMPORT_MAX_BYTES) return { error: "The file is larger than 2 MB." };
  const text = upload ? await upload.text() : parsed.data.text;
  if (new TextEncoder().encode(text).length > IMPORT_MAX_BYTES) return { error: "The text is larger than 2 MB." };
  if (!text.trim()) return { error: "Choose a CSV file or paste the racers." };
  const source = upload ? upload.name.slice(0, 200) : parsed.data.source || "Pasted CSV";
  return { intent: parsed.data.intent, text, source };
}

// ---- Reports ----

/** A racer as the reports read it; country is the custom field keyed or named "country", if the race has one. */
export function reportRacerOf(racer: { id: string; data: RacerDoc }, setup: RacerSetup): ReportRacer {
  const d = racer.data;
  const countryField = setup.fields.find((f) => f.key.toLowerCase() === "country" || f.display.trim().toLowerCase() === "country");
  const country = countryField ? d.custom[countryField.key] : null;
  return {
    id: racer.id,
    bib: d.bib,
    firstName: d.first_name,
    lastName: d.last_name,
    fullname: d.fullname,
    chips: chipsOf(d),
    team: d.team,
    club: d.club,
    city: d.city,
    country: country === null || country === undefined || country === "" ? null : String(country),
    courseId: d.course,
    startGroupId: d.setupgroup_id,
    // The start the racer will get: the assigned one (Start order page), else the scheduled one, as the results use.
    scheduledStart: d.assigned_start_time ?? d.scheduled_start_time,
  };
}

export const REPORTS = {
  "start-list": {
    title: "Start List",
    description: "Grouped by start group and course, sorted by scheduled start then bib; only racers that have a start group.",
  },
  "chip-rack": {
    title: "Chip Rack",
    description: "Bib, chip rack, chips, names, team, club, city and country; grouped by chip rack (the hundreds of the bib), sorted by bib.",
  },
} as const;
export const reportParam = z.enum(["start-list", "chip-rack"]);
export type ReportKey = z.infer<typeof reportParam>;

/** A report of the race's racers now, as rows. */
export function buildReport(key: ReportKey, racers: { id: string; data: RacerDoc }[], setup: RacerSetup): ReportTable {
  const input = racers.map((r) => reportRacerOf(r, setup));
  const lastNameFirst = setup.settings.is_last_name_first;
  return key === "start-list"
    ? startListTable(buildStartList(input, setup.startGroups, setup.courses), { lastNameFirst, zeroTime: setup.zeroTime })
    : chipRackTable(buildChipRack(input), { lastNameFirst });
}

/** The report of `/race/:id/admin/reports/:report`, or a 404 for a name that is none. */
export async function loadReport(access: RaceAccess, rawKey: string | undefined) {
  const key = reportParam.safeParse(rawKey);
  if (!key.success) throw new Response("Not found", { status: 404 });
  const [setup, racers] = await Promise.all([loadRacerSetup(access), access.room.racers()]);
  return { key: key.data, ...REPORTS[key.data], table: buildReport(key.data, racers, setup) };
}

// ---- Keypad ----

const bibText = z
  .string()
  .trim()
  .regex(/^\d{1,6}$/, "Enter a bib number")
  .transform(Number);

/** The keypad's plain form (before the page's script takes over): the key comes with the page, so a resent form is a duplicate. */
const keypadFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("time"), key: z.string(), bib: bibText, point: z.string().min(1, "Choose a timing point").max(64) }),
  z.object({
    intent: z.literal("status"),
    key: z.string(),
    bib: bibText,
    status: z.enum(["dns", "dnf", "dsq", "ok"], { error: "Choose a status" }),
    // Multi-run races: "" is the racer's own status, a number that run's.
    run: z
      .string()
      .default("")
      .transform((v) => (v === "" ? undefined : Number(v))),
  }),
  z.object({
    intent: z.literal("range"),
    key: z.string(),
    bib: bibText,
    shooting: z.coerce.number({ error: "Choose a shooting" }).int().min(1, "Choose a shooting"),
    misses: z.coerce.number({ error: "Choose the misses" }).int().min(0).max(5, "Misses must be 0 to 5"),
  }),
]);

export function keypadEntryFrom(form: FormData, nowMs: number): { ok: true; entry: ManualEntry } | { ok: false; errors: FieldErrors } {
  const parsed = keypadFormSchema.safeParse(Object.fromEntries([...form].filter(([, v]) => typeof v === "string")));
  if (!parsed.success) {
    const errors: FieldErrors = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
    return { ok: false, errors };
  }
  const f = parsed.data;
  const time = nowMs * 1000;
  const entry =
    f.intent === "time"
      ? { kind: "time" as const, key: f.key, bib: f.bib, point: f.point, time }
      : f.intent === "range"
        ? { kind: "range" as const, key: f.key, bib: f.bib, shooting: f.shooting, misses: f.misses }
        : {
            kind: "status" as const,
            key: f.key,
            bib: f.bib,
            status: f.status,
            ...(f.status === "dnf" || f.status === "dsq" ? { time } : {}),
            ...(f.run === undefined ? {} : { run: f.run }),
          };
  const checked = manualEntrySchema.safeParse(entry);
  return checked.success ? { ok: true, entry: checked.data } : { ok: false, errors: { form: "This form has expired; reload the page and enter it again." } };
}

/** What the keypad's plain form says after an entry. */
export function keypadOutcome(entry: ManualEntry, receipt: ManualReceipt): { notice: string | null; error: string | null } {
  const what =
    entry.kind === "time"
      ? `A time for bib ${entry.bib}`
      : entry.kind === "range"
        ? `${missesText(entry.misses)} at shooting ${entry.shooting} for bib ${entry.bib}`
        : `${entry.status.toUpperCase()}${entry.run === undefined ? "" : ` in run ${entry.run}`} for bib ${entry.bib}`;
  if (receipt.duplicates > 0) return { notice: `${what} was already recorded.`, error: null };
  if (receipt.unknown_bibs.length > 0) return { notice: null, error: `${what} is recorded, but no racer has bib ${entry.bib}.` };
  return { notice: `${what} is recorded.`, error: null };
}

/** Shootings the keypad offers in a biathlon race: one between each pair of laps of its longest course; 0 otherwise. */
export function keypadShootings(settings: RaceSettings, courseLapCounts: (number | null)[]): number {
  if (settings.biathlon_penalty_type === null) return 0;
  return Math.max(1, ...courseLapCounts.map((laps) => (laps ?? settings.lap_count) - 1), settings.lap_count - 1);
}

// ---- Downloads ----

/** A CSV file download named after the race ("spring-classic-start-list.csv"); never cached, it holds racers' details. */
export function csvDownload(csv: string, raceName: string, what: string): Response {
  const slug = `${raceName}-${what}`
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 80);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${slug || what}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
