/**
 * The forms of the race setup pages (setup, courses, timing points, devices, start groups, racer fields,
 * result formats) as zod schemas over the form kit's field rules (app/forms/); checks with wording in the
 * spec (timing.md section 5) come from core/timing, so the pages say exactly what it says.
 */
import * as z from "zod";
import { isInvalid, type Invalid } from "../core/time/parse";
import { BIATHLON_PENALTY_TYPES, BIATHLON_RESULT_CALCULATIONS, BIATHLON_TIMES_TO_DISPLAY, validateRangePattern } from "../core/timing/biathlon";
import { DEVICE_TYPE_KEYS } from "../core/timing/devices";
import { MULTI_RUN_MODES } from "../core/timing/multi-run";
import { DEFAULT_TEAM_LAP_TIME_DISPLAY, TEAM_LAP_TIME_DISPLAYS } from "../core/timing/relay";
import { ENDURO_COLUMN_OPTIONS } from "../core/timing/enduro";
import { COLUMN_OPTIONS, LAP_DISPLAY_DIFFS, RANK_DISPLAYS, SPLIT_DISPLAYS, SPLIT_TIMINGS } from "../core/timing/result-columns";
import { TimingError } from "../core/timing/errors";
import { MICROS_PER_SECOND } from "../core/timing/model";
import { sportTechniques } from "../core/timing/sports";
import { checkGroupTime, groupStartTime } from "../core/timing/start-times";
import { CUSTOM_FIELD_TYPES, customFieldKey, type CustomFieldType } from "../core/timing/racer-fields";
import { RACE_DEFAULTS, validateLapCount, validatePrecision } from "../core/timing/validation";
import type { FieldErrors } from "./components/form-kit";
import { FORMAT_KINDS, GROUP_TYPES, type FormatKind } from "./components/race-setup-choices";
import {
  rule,
  blankOr,
  text,
  nullableText,
  requiredName,
  checkbox,
  choice,
  parseSeconds,
  seconds,
  wholeFromZero,
  decimalFromZero,
  timeOfDay,
  validateRunCount,
  atLeastOne,
  precision,
} from "./forms/field-rules";
import { type RaceClock, absoluteOfTimeOfDay, startSchema, endSchema, timezoneSchema } from "./race-clock.server";

// ---------------------------------------------------------------------------------------------------------
// Setup (the race and its timing settings)

export const setupFormSchema = z.object({
  name: requiredName,
  sport: nullableText(),
  technique: nullableText(40),
  start: startSchema,
  end: endSchema,
  timezone: timezoneSchema,
  location: nullableText(),
  visibility: choice(["public", "unlisted", "private"], "Choose who may see the race"),
  timing_mode: choice(["p2p", "lap", "timelimit", "triathlon", "enduro"], "Choose a timing mode"),
  start_mode: choice(["mass", "individual"], "Choose a start mode"),
  start_option: z
    .enum(["", "gun", "chipstart"], { error: "Choose a start option" })
    .default("")
    .transform((v) => (v === "" ? null : v)),
  lap_count: atLeastOne,
  max_lap_count: blankOr(validateLapCount, null),
  precision,
  calc_precision: precision,
  display_precision: precision,
  same_time_threshold: seconds(0),
  same_time_display: text(20).transform((v) => v || RACE_DEFAULTS.sameTimeDisplay),
  dnf_option: choice(["hide", "time"], "Choose hide or time"),
  dsq_option: choice(["hide", "time"], "Choose hide or time"),
  start_interval: rule((t) => parseSeconds(t)),
  is_start_size_enabled: checkbox,
  start_size: atLeastOne,
  start_gap: seconds(0),
  first_bib: blankOr(wholeFromZero, null),
  is_last_name_first: checkbox,
  start_list_visibility: choice(["hidden", "public"], "Choose hidden or public"),
  biathlon_penalty_type: z
    .enum(["", ...BIATHLON_PENALTY_TYPES], { error: "Choose a penalty type" })
    .default("")
    .transform((v) => (v === "" ? null : v)),
  biathlon_result_calc: choice(BIATHLON_RESULT_CALCULATIONS, "Choose a result calculation").default("total"),
  biathlon_column_option: choice(BIATHLON_TIMES_TO_DISPLAY, "Choose the times to display").default("laps"),
  biathlon_penalty_device: nullableText(64),
  biathlon_range_device: nullableText(64),
  is_multi_run: checkbox,
  run_count: blankOr(validateRunCount, null),
  multi_run_mode: choice(MULTI_RUN_MODES, "Choose how runs make a result").default("best"),
  is_relay: checkbox,
  relay_member_count: blankOr(validateLapCount, null),
  team_field: nullableText(60),
  team_order: nullableText(60),
  team_relay_transition_point: nullableText(64),
  team_lap_time_display: choice(TEAM_LAP_TIME_DISPLAYS, "Choose how leg times are shown").default(DEFAULT_TEAM_LAP_TIME_DISPLAY),
  prev_race: nullableText(64),
  is_fastest_lap: checkbox,
  is_free_segment: checkbox,
  split_display: choice(SPLIT_DISPLAYS, "Choose which splits to show").default("splits"),
  split_timing: choice(SPLIT_TIMINGS, "Choose what split columns time").default("lap"),
  rank_display: choice(RANK_DISPLAYS, "Choose where places are shown").default("finish"),
  display_diffs: choice(LAP_DISPLAY_DIFFS, "Choose how gaps are shown").default("no-display"),
  column_option: choice(COLUMN_OPTIONS, "Choose the columns to show").default("lap"),
  enduro_column_option: choice(ENDURO_COLUMN_OPTIONS, "Choose the columns to show").default("lap"),
});

type ParsedSetup = z.output<typeof setupFormSchema> & { startTime: number; endTime: number | null };

/** The Race fields of a parsed setup form (written through the RaceRoom's changeRace). */
export function raceChangesOf(v: ParsedSetup) {
  return { name: v.name, sport: v.sport, start_time: v.startTime, end_time: v.endTime, timezone: v.timezone, location: v.location, visibility: v.visibility };
}

/** The timing settings of a parsed setup form (written through updateSettings). */
export function settingsChangesOf(v: ParsedSetup) {
  return {
    // A technique belongs to its sport (Cross Country Skiing: Free, Classic); another sport clears it.
    technique: v.sport && v.technique && sportTechniques(v.sport).includes(v.technique) ? v.technique : null,
    timing_mode: v.timing_mode,
    start_mode: v.start_mode,
    start_option: v.start_option,
    lap_count: v.lap_count,
    max_lap_count: v.max_lap_count,
    precision: v.precision,
    calc_precision: v.calc_precision,
    display_precision: v.display_precision,
    same_time_threshold: v.same_time_threshold,
    same_time_display: v.same_time_display,
    dnf_option: v.dnf_option,
    dsq_option: v.dsq_option,
    start_interval: v.start_interval,
    is_start_size_enabled: v.is_start_size_enabled,
    start_size: v.start_size,
    start_gap: v.start_gap,
    first_bib: v.first_bib,
    is_last_name_first: v.is_last_name_first,
    start_list_visibility: v.start_list_visibility,
    biathlon_penalty_type: v.biathlon_penalty_type,
    biathlon_result_calc: v.biathlon_result_calc,
    biathlon_column_option: v.biathlon_column_option,
    // The recorder counts loops only with penalty laps; with time penalties it is cleared.
    biathlon_penalty_device: v.biathlon_penalty_type === "lap" ? v.biathlon_penalty_device : null,
    biathlon_range_device: v.biathlon_range_device,
    multi_run_option: v.is_multi_run ? ("fixed" as const) : null,
    run_count: v.run_count,
    multi_run_mode: v.multi_run_mode,
    is_relay: v.is_relay,
    relay_member_count: v.relay_member_count,
    team_field: v.team_field,
    team_order: v.team_order,
    team_relay_transition_point: v.team_relay_transition_point,
    team_lap_time_display: v.team_lap_time_display,
    prev_race: v.prev_race,
    is_fastest_lap: v.is_fastest_lap,
    // Free order is an enduro setup (timing.md section 2); another mode turns it off.
    is_free_segment: v.timing_mode === "enduro" && v.is_free_segment,
    split_display: v.split_display,
    split_timing: v.split_timing,
    rank_display: v.rank_display,
    display_diffs: v.display_diffs,
    column_option: v.column_option,
    enduro_column_option: v.enduro_column_option,
  };
}

/** The form of /race/new. */
export const newRaceFormSchema = z.object({
  club: z.string().default("").pipe(z.string().min(1, "Choose a club")),
  name: requiredName,
  sport: nullableText(),
  start: startSchema,
  timezone: timezoneSchema,
});

// ---------------------------------------------------------------------------------------------------------
// Courses

export const courseFormSchema = z.object({
  name: requiredName,
  description: text(2000),
  lap_count: blankOr(validateLapCount, null),
  max_lap_count: blankOr(validateLapCount, null),
  end_time: blankOr(timeOfDay, null),
  course_distance_km: blankOr(decimalFromZero, null),
  lap_distance_km: blankOr(decimalFromZero, null),
  swim_lap_count: blankOr(wholeFromZero, null),
  bike_lap_count: blankOr(wholeFromZero, null),
  run_lap_count: blankOr(wholeFromZero, null),
  /** Biathlon: P (prone) and S (standing), one per shooting; blank takes PPSS cut to laps − 1. */
  range: blankOr(validateRangePattern, null),
  biathlon_penalty: blankOr((t) => parseSeconds(t), null),
  min_penalty_loop_seconds: blankOr(decimalFromZero, null),
});

export function courseChangesOf(v: z.output<typeof courseFormSchema>, clock: RaceClock) {
  return { ...v, end_time: absoluteOfTimeOfDay(v.end_time, clock) };
}

/** Reads of one point closer together than this are one pass, unless the course says otherwise (10 s). */
export const DEFAULT_MIN_SPLIT = 10 * MICROS_PER_SECOND;

export const coursePointFormSchema = z.object({
  point: z.string().default("").pipe(z.string().min(1, "Choose a timing point")),
  mode: choice(["start", "chipstart", "lap", "split"], "Choose how the point is used"),
  name: text(),
  min_split: seconds(DEFAULT_MIN_SPLIT),
  section: z
    .enum(["", "1", "2", "3", "4", "5"], { error: "Choose a section" })
    .default("")
    .transform((v) => (v === "" ? null : Number(v))),
  range_role: z
    .enum(["", "in", "out"], { error: "Choose in, out or neither" })
    .default("")
    .transform((v) => (v === "" ? null : v)),
});

/** Which entry of a list a row button is about, and where it goes. */
export const moveFormSchema = z.object({ index: z.coerce.number().int().min(0), direction: z.enum(["up", "down"]).optional() });

/** A list with one entry moved one place up or down (unchanged at the ends). */
export function moved<T>(list: readonly T[], index: number, direction: "up" | "down"): T[] {
  const other = direction === "up" ? index - 1 : index + 1;
  if (index < 0 || index >= list.length || other < 0 || other >= list.length) return [...list];
  const next = [...list];
  [next[index], next[other]] = [next[other]!, next[index]!];
  return next;
}

// ---------------------------------------------------------------------------------------------------------
// Timing points and devices

export const timingPointFormSchema = z.object({ name: requiredName });

export const pointDeviceFormSchema = z.object({
  device: z.string().default("").pipe(z.string().min(1, "Choose a device")),
  mode: choice(["timing", "backup", "precall", "oncourse"], "Choose a mode"),
  channel: blankOr(wholeFromZero, null),
});

export const newDeviceFormSchema = z.object({
  type: choice(DEVICE_TYPE_KEYS, "Choose a device type"),
  name: text(),
  humanname: text(),
  device_number: blankOr(wholeFromZero, null),
});

export const deviceFormSchema = z.object({
  name: text(),
  humanname: text(),
  device_number: blankOr(wholeFromZero, null),
  accuracy: rule(decimalFromZero),
  precision,
  offset: seconds(0, true),
  has_bibs: checkbox,
  show_on_grid: checkbox,
});

// ---------------------------------------------------------------------------------------------------------
// Start groups

export const startGroupFormSchema = z.object({
  name: text(),
  start_mode: z
    .enum(["", "mass", "individual"], { error: "Choose a start mode" })
    .default("")
    .transform((v) => (v === "" ? null : v)),
  scheduled_start_time: blankOr(timeOfDay, null),
  assigned_start_time: blankOr(timeOfDay, null),
  recorded_start_time: blankOr(timeOfDay, null),
  start_interval: seconds(null),
  start_size: blankOr(validateLapCount, null),
  start_gap: seconds(null),
});

/** A parsed start group form as StartGroup fields: times of day become absolute times on race day. */
export function startGroupChangesOf(v: z.output<typeof startGroupFormSchema>, clock: RaceClock) {
  return {
    ...v,
    scheduled_start_time: absoluteOfTimeOfDay(v.scheduled_start_time, clock),
    assigned_start_time: absoluteOfTimeOfDay(v.assigned_start_time, clock),
    recorded_start_time: absoluteOfTimeOfDay(v.recorded_start_time, clock),
  };
}

/**
 * "Invalid group time" (timing.md section 8) when the group's start (recorded, else assigned, else
 * scheduled, else the race's) is after the race's end, on the field the start came from; else null.
 */
export function startGroupTimeProblem(group: ReturnType<typeof startGroupChangesOf>, clock: RaceClock): FieldErrors | null {
  const start = groupStartTime(
    { recordedStartTime: group.recorded_start_time, assignedStartTime: group.assigned_start_time, scheduledStartTime: group.scheduled_start_time },
    clock.startTime,
  );
  try {
    checkGroupTime(start, clock.endTime);
    return null;
  } catch (error) {
    if (!(error instanceof TimingError)) throw error;
    const field =
      group.recorded_start_time !== null ? "recorded_start_time" : group.assigned_start_time !== null ? "assigned_start_time" : "scheduled_start_time";
    return { [field]: error.message };
  }
}

// ---------------------------------------------------------------------------------------------------------
// Racer fields (settings.fields_list)

export interface RacerField {
  key: string;
  display: string;
  type: CustomFieldType;
  options: string[];
  is_public: boolean;
  is_mandatory: boolean;
  precision: number | null;
}

const storedFieldSchema = z.object({
  key: z.string().min(1),
  display: z.string(),
  type: z.enum(CUSTOM_FIELD_TYPES),
  options: z.array(z.string()).default([]),
  is_public: z.boolean().default(false),
  is_mandatory: z.boolean().default(false),
  precision: z.number().int().min(0).max(6).nullable().default(null),
});

/** The race's custom racer fields, skipping entries this page cannot read (kept as they are when saving). */
export function racerFieldsOf(fieldsList: readonly unknown[]): RacerField[] {
  return fieldsList.flatMap((entry) => {
    const parsed = storedFieldSchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Options typed one per line (or separated by commas), trimmed, without blanks or repeats. */
const optionsText = z
  .string()
  .default("")
  .transform((v) =>
    [
      ...new Set(
        v
          .split(/[\n,]/)
          .map((o) => o.trim())
          .filter(Boolean),
      ),
    ].slice(0, 200),
  );

const fieldFlags = { options: optionsText, is_public: checkbox, is_mandatory: checkbox, precision: blankOr(validatePrecision, null) };
const needsOptions = (v: { type?: string; options: string[] }, ctx: z.RefinementCtx) => {
  if (v.type === "option" && v.options.length === 0) ctx.addIssue({ code: "custom", path: ["options"], message: "Enter at least one option" });
};

export const newRacerFieldFormSchema = z
  .object({ display: requiredName, type: choice(CUSTOM_FIELD_TYPES, "Choose a field type"), ...fieldFlags })
  .superRefine(needsOptions);
export const racerFieldFormSchema = z.object({ display: requiredName, ...fieldFlags });

/** A new field's entry with its generated key (timing.md section 5), or the reason no key can be made. */
export function newRacerField(v: z.output<typeof newRacerFieldFormSchema>, existing: readonly RacerField[]): RacerField | Invalid {
  const key = customFieldKey(
    v.display,
    v.type,
    existing.map((f) => f.key),
  );
  if (isInvalid(key)) return key;
  return {
    key,
    display: v.display,
    type: v.type,
    options: v.type === "option" ? v.options : [],
    is_public: v.is_public,
    is_mandatory: v.is_mandatory,
    precision: v.precision,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Result formats and groups

/** The one kind a format is (timing.md section 6: system formats are announcer and live; public ones public or unlisted). */
export function formatKindOf(f: { is_public: boolean; is_unlisted: boolean; is_announcer: boolean; is_live: boolean }): FormatKind | null {
  if (f.is_public) return "public";
  if (f.is_unlisted) return "unlisted";
  if (f.is_announcer) return "announcer";
  return f.is_live ? "live" : null;
}

function flagsOfKind(kind: FormatKind) {
  return { is_public: kind === "public", is_unlisted: kind === "unlisted", is_announcer: kind === "announcer", is_live: kind === "live" };
}

/**
 * The result group types the setup offers now (timing.md section 2): one list for a single course, by
 * course for several, by start order unless there is exactly one start group (or with heats), and from a
 * racer field unless the race has heats.
 */
export function offeredGroupTypes(race: { courses: number; startGroups: number; isHeats: boolean }): Record<(typeof GROUP_TYPES)[number], boolean> {
  return {
    all: race.courses <= 1 && !race.isHeats,
    course: race.courses > 1 && !race.isHeats,
    startgroup: race.startGroups !== 1 || race.isHeats,
    field: !race.isHeats,
  };
}

/** Racer fields a format can group by or a group can select on: the standard ones, then the race's own. */
export function groupableFields(custom: readonly RacerField[]): { value: string; label: string }[] {
  return [
    { value: "sex", label: "Sex" },
    { value: "category", label: "Category" },
    { value: "club", label: "Club" },
    ...custom.map((f) => ({ value: f.key, label: `${f.display} (${f.key})` })),
  ];
}

/** Fields a result group can select racers on: the groupable ones, and a few more standard ones. */
export function criterionFields(custom: readonly RacerField[]): { value: string; label: string }[] {
  const [sex, category, club, ...own] = groupableFields(custom);
  return [
    sex!,
    category!,
    club!,
    { value: "team", label: "Team" },
    { value: "city", label: "City" },
    { value: "province", label: "Province" },
    { value: "birth_year", label: "Birth year" },
    ...own,
  ];
}

export const formatFormSchema = z
  .object({
    name: requiredName,
    kind: choice(FORMAT_KINDS, "Choose who sees the format"),
    display_precision: precision,
    display_diffs: checkbox,
    same_time_threshold: seconds(null),
    group_type: choice(GROUP_TYPES, "Choose how groups are made"),
    group_field: nullableText(64),
  })
  .superRefine((v, ctx) => {
    if (v.group_type === "field" && !v.group_field) ctx.addIssue({ code: "custom", path: ["group_field"], message: "Choose a racer field" });
  })
  .transform(({ kind, ...v }) => ({ ...v, ...flagsOfKind(kind), group_field: v.group_type === "field" ? v.group_field : null }));

/** One optional condition on a racer field, as result groups and free-order course groups take it. */
export const criterionFormFields = {
  criterion_field: nullableText(64),
  criterion_op: z.enum(["eq", "ne", "lt", "le", "gt", "ge", "blank", "notblank"]).default("eq"),
  criterion_value: text(),
};
type CriterionForm = { criterion_field: string | null; criterion_op: z.output<typeof criterionFormFields.criterion_op>; criterion_value: string };

function criterionNeedsValue(v: CriterionForm, ctx: z.RefinementCtx) {
  const needsValue = v.criterion_op !== "blank" && v.criterion_op !== "notblank";
  if (v.criterion_field && needsValue && v.criterion_value === "")
    ctx.addIssue({ code: "custom", path: ["criterion_value"], message: "Enter the value to compare with" });
}

/** The stored criteria list of a criterion form: empty without a field. */
export function criteriaOfForm(v: CriterionForm) {
  return v.criterion_field
    ? [{ field: v.criterion_field, op: v.criterion_op, value: v.criterion_op === "blank" || v.criterion_op === "notblank" ? null : v.criterion_value }]
    : [];
}

export const resultGroupFormSchema = z
  .object({ name: requiredName, course: nullableText(64), startgroup: nullableText(64), ...criterionFormFields })
  .superRefine(criterionNeedsValue)
  .transform((v) => ({ name: v.name, course: v.course, startgroup: v.startgroup, criteria_list: criteriaOfForm(v) }));
