/**
 * The Race fields of timing.md section 3 beyond the catalogue ones (name, sport, times, place, visibility),
 * with the spec's defaults. The RaceRoom keeps them as one JSON document in race_setup.settings; a
 * missing key reads as its default, so races made before a field existed need no migration.
 */
import * as z from "zod";
import { isInvalid, type Invalid } from "../../core/time/parse";
import { wallClockOf } from "../../core/time/wall-clock";
import { zeroTimeOf } from "../../core/time/zero-time";
import { BIATHLON_PENALTY_TYPES, BIATHLON_RESULT_CALCULATIONS, BIATHLON_TIMES_TO_DISPLAY, type BiathlonSetup } from "../../core/timing/biathlon";
import { normaliseBibList } from "../../core/timing/bibs";
import { ENDURO_COLUMN_OPTIONS } from "../../core/timing/enduro";
import { MAX_SEGMENTS, SEGMENT_ORDER_TYPES } from "../../core/timing/free-order";
import { COLUMN_OPTIONS, LAP_DISPLAY_DIFFS, RANK_DISPLAYS, SPLIT_DISPLAYS, SPLIT_TIMINGS } from "../../core/timing/result-columns";
import { DEFAULT_RUN_COUNT, MAX_RUNS, MULTI_RUN_MODES } from "../../core/timing/multi-run";
import { DEFAULT_RELAY_MEMBER_COUNT, DEFAULT_TEAM_LAP_TIME_DISPLAY, TEAM_LAP_TIME_DISPLAYS, type TeamLapTimeDisplay } from "../../core/timing/relay";
import { heatFormatSchema } from "./heat-format";
import { looseJson } from "./json";

const micros = z.number().int();
const count = z.number().int().min(0);
const text = z.string().max(200);
const list = z.array(looseJson).max(1000);
const dict = z.record(z.string(), looseJson);

/** Text a core rule reads and normalises (a bib list, a seed group order), refused with the rule's message. */
export function normalisedText(normalise: (text: string) => string | Invalid, max = 200) {
  return z
    .string()
    .max(max)
    .transform((value, ctx) => {
      const normal = normalise(value);
      if (isInvalid(normal)) {
        ctx.addIssue({ code: "custom", message: normal.error });
        return z.NEVER;
      }
      return normal;
    });
}
const bibList = normalisedText(normaliseBibList);

const entryId = z.string().min(1).max(64);

/** A free-order race's timed segment (timing.md section 2): a start point, a finish point and a minimum time, in list order. */
export const segmentSchema = z.object({
  id: entryId,
  name: z.string().trim().min(1).max(200),
  start_point: entryId,
  finish_point: entryId,
  /** A finish read sooner than this after the start is not a run (microseconds). */
  min_time: micros.min(0).default(0),
});
export type SegmentEntry = z.infer<typeof segmentSchema>;

/** Meta course group (timing.md section 3): racers who ride the same segments; criteria are result-group criteria. */
export const metaCourseGroupSchema = z.object({
  id: entryId,
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).default(""),
  criteria: list.default([]),
  segment_order_type: z.enum(SEGMENT_ORDER_TYPES).default("any"),
  /** The group's segment ids; empty rides every segment. */
  segment_order_list: z.array(entryId).max(MAX_SEGMENTS).default([]),
  seed_function: text.nullable().default(null),
  start_size: z.number().int().min(1).nullable().default(null),
  start_interval: micros.min(0).nullable().default(null),
  first_bib: count.nullable().default(null),
  first_start_time: micros.nullable().default(null),
  scheduled_start_time: micros.nullable().default(null),
});
export type MetaCourseGroupEntry = z.infer<typeof metaCourseGroupSchema>;

/** Meta start group (timing.md section 3): the meta course group's fields plus seeding; racers name theirs in metastart_id. */
export const metaStartGroupSchema = metaCourseGroupSchema.omit({ criteria: true, segment_order_type: true, segment_order_list: true }).extend({
  seed_list: list.default([]),
  starttime_order_list: list.default([]),
  starttime_sort: text.nullable().default(null),
  startlist_display_sort: text.nullable().default(null),
  start_gap: micros.min(0).nullable().default(null),
  reserved_bibs: bibList.default(""),
  fields_list: list.default([]),
  is_override_seeding: z.boolean().default(false),
  seed_option: text.nullable().default(null),
});
export type MetaStartGroupEntry = z.infer<typeof metaStartGroupSchema>;

/** The pursuit wave rule's default: racers more than 3 minutes behind the leader start together. */
export const DEFAULT_MASS_START_CUTOFF = 180_000_000;

/** Fields the engine reads, typed exactly; the others are kept for the issues that use them. */
export const raceSettingsSchema = z.object({
  race_type: z.enum(["Series", "StandardRace", "LegacyRace"]).default("StandardRace"),
  technique: text.nullable().default(null),
  timing_mode: z.enum(["p2p", "lap", "timelimit", "triathlon", "enduro"]).default("lap"),
  start_mode: z.enum(["mass", "individual"]).default("mass"),
  /** null: the default for the start mode (chipstart for individual, gun for mass). */
  start_option: z.enum(["gun", "chipstart"]).nullable().default(null),
  /** Derived: midnight of the start day in the race's zone, recomputed whenever the start changes (zeroTimeOfRace). */
  zero_time: micros.nullable().default(null),
  precision: z.number().int().min(0).max(6).default(1),
  calc_precision: z.number().int().min(0).max(6).default(1),
  display_precision: z.number().int().min(0).max(6).default(1),
  first_bib: z.number().int().min(0).nullable().default(null),
  /** Bib lists ("13, 40-45"), stored normalised; their bibs are never given when bibs are assigned. */
  reserved_bibs: bibList.default(""),
  missing_bibs_csv: bibList.default(""),
  is_backwards_bibs: z.boolean().default(false),
  bib_assignment: text.nullable().default(null),
  category_groups_list: list.default([]),
  is_categories_enabled: z.boolean().default(false),
  fields_list: list.default([]),
  start_fields_list: list.default([]),
  meta_courses_list: z.array(metaCourseGroupSchema).max(100).default([]),
  meta_startgroups_list: z.array(metaStartGroupSchema).max(100).default([]),
  /** A free-order segment race: racers ride segments_list's segments in any order (free-order.ts). */
  is_free_segment: z.boolean().default(false),
  segments_list: z.array(segmentSchema).max(MAX_SEGMENTS).default([]),
  is_heats: z.boolean().default(false),
  is_dynamic_heats: z.boolean().default(false),
  default_heat_format: text.nullable().default(null),
  /** The race's own heat formats by key, beside the built-in ones. */
  heat_format_dict: z.record(z.string().min(1).max(40), heatFormatSchema).default({}),
  is_auto_heat_scheduling: z.boolean().default(false),
  heat_start_interval: micros.nullable().default(null),
  heat_min_rest: micros.nullable().default(null),
  heat_group_count: count.nullable().default(null),
  /** Times to display, sprint heats (timing.md section 2): qualifier times (the default, "quali") or heat times. */
  sprint_column_option: z.enum(["quali", "heat"]).default("quali"),
  is_relay: z.boolean().default(false),
  /** Racers per team (legs); null: 4. */
  relay_member_count: z.number().int().min(1).nullable().default(null),
  /** The racer field naming the team; null: the racer's team. */
  team_field: text.nullable().default(null),
  team_lap_time_display: z.enum(TEAM_LAP_TIME_DISPLAYS).default(DEFAULT_TEAM_LAP_TIME_DISPLAY),
  /** The racer field giving the leg number; null: bib order within the team. */
  team_order: text.nullable().default(null),
  /** The timing point where legs hand over (a timing point id); null: each leg ends at its finish. */
  team_relay_transition_point: text.nullable().default(null),
  /** "fixed": every racer runs the course run_count times (timing.md section 3); null: one run. */
  multi_run_option: z.enum(["fixed"]).nullable().default(null),
  run_count: z.number().int().min(1).max(MAX_RUNS).nullable().default(null),
  /** How runs make a result (timing.md section 9); not named in the spec's fields, "best" by default. */
  multi_run_mode: z.enum(MULTI_RUN_MODES).default("best"),
  prev_stages_count: count.default(0),
  ranking_types_list: list.default([]),
  seed_list: list.default([]),
  seed_function: text.default("random"),
  /** The club's ranking scheme the "by ranking points" seed function reads (decision 0054); null: none chosen. */
  ranking_scheme_id: text.nullable().default(null),
  /** Written by seeding by ranking points: the scheme ranks the most points first (a points table, decision 0068). */
  ranking_higher_first: z.boolean().default(false),
  seed_option: text.nullable().default(null),
  starttime_sort: text.default("bib"),
  starttime_order_list: list.default([]),
  startlist_display_sort: text.default("time"),
  start_list_visibility: z.enum(["hidden", "public"]).default("hidden"),
  start_size: z.number().int().min(1).default(1),
  start_interval: micros.min(0).default(30_000_000),
  start_gap: micros.min(0).default(0),
  is_start_size_enabled: z.boolean().default(false),
  is_mass_start_cutoff: z.boolean().default(false),
  /** Pursuit, with is_mass_start_cutoff: racers more than this behind the leader all start at it (microseconds). */
  mass_start_cutoff: micros.min(0).default(DEFAULT_MASS_START_CUTOFF),
  same_time_threshold: micros.min(0).default(0),
  same_time_display: text.default("s/t"),
  finisher_mode: text.nullable().default(null),
  tod_option: text.nullable().default(null),
  timing_dict: dict.default({}),
  lap_count: z.number().int().min(1).default(1),
  max_lap_count: z.number().int().min(1).nullable().default(null),
  /** null: not a biathlon. lap: penalty loops are skied; time: 60 s (the course's biathlon_penalty) per miss. */
  biathlon_penalty_type: z.enum(BIATHLON_PENALTY_TYPES).nullable().default(null),
  /** Time limit and lap modes (timing.md section 9): which split columns, what they time, ranks and gaps in them. */
  split_display: z.enum(SPLIT_DISPLAYS).default("splits"),
  split_timing: z.enum(SPLIT_TIMINGS).default("lap"),
  rank_display: z.enum(RANK_DISPLAYS).default("finish"),
  display_diffs: z.enum(LAP_DISPLAY_DIFFS).default("no-display"),
  /** Time limit races' columns, and "pace" for a Pace per km column in any lap race. */
  column_option: z.enum(COLUMN_OPTIONS).default("lap"),
  /** Enduro (timing.md section 9): a segment ridden more than once counts its fastest run, not its first. */
  is_fastest_lap: z.boolean().default(false),
  /** Enduro columns: each stage's time (the default), with the total after each, or the finish only. */
  enduro_column_option: z.enum(ENDURO_COLUMN_OPTIONS).default("lap"),
  /** Biathlon result calculation (timing.md section 2): total time (the default), ski time only, range time only. */
  biathlon_result_calc: z.enum(BIATHLON_RESULT_CALCULATIONS).default("total"),
  /** Biathlon times to display: lap times (the default), mid-lap splits, total time at each point, finish only. */
  biathlon_column_option: z.enum(BIATHLON_TIMES_TO_DISPLAY).default("laps"),
  /** The device whose reads are penalty loops (penalty laps only); its timing point is the loop's. */
  biathlon_penalty_device: z.string().max(64).nullable().default(null),
  /** The device allowed to send range data (misses per shooting). */
  biathlon_range_device: z.string().max(64).nullable().default(null),
  awards_max_rank: count.nullable().default(null),
  age_field: text.nullable().default(null),
  series_id: text.nullable().default(null),
  series_points_field: text.nullable().default(null),
  prev_race: text.nullable().default(null),
  is_advanced: z.boolean().default(false),
  is_hide_result_groups: z.boolean().default(false),
  is_show_pings: z.boolean().default(false),
  hide_racers: list.default([]),
  legacy_id: text.nullable().default(null),
  page_url: text.nullable().default(null),
  template_type: text.nullable().default(null),
  /** Names shown "LAST, First" (timing.md: last-name-first races). */
  is_last_name_first: z.boolean().default(false),
  dnf_option: z.enum(["hide", "time"]).default("hide"),
  dsq_option: z.enum(["hide", "time"]).default("time"),
});

export type RaceSettings = z.infer<typeof raceSettingsSchema>;

/** The settings the biathlon checks read (core/timing/biathlon.ts biathlonSetupProblems). */
export function biathlonSetupOf(settings: RaceSettings): BiathlonSetup {
  return {
    penaltyType: settings.biathlon_penalty_type,
    lapCount: settings.lap_count,
    isRelay: settings.is_relay,
    relayMemberCount: settings.relay_member_count,
    penaltyDeviceId: settings.biathlon_penalty_type === "lap" ? settings.biathlon_penalty_device : null,
    rangeDeviceId: settings.biathlon_range_device,
  };
}

/** Runs each racer makes: run_count (2 when unset) in a multi-run race, 0 otherwise. */
export function runCountOf(settings: Pick<RaceSettings, "multi_run_option" | "run_count">): number {
  return settings.multi_run_option === "fixed" ? (settings.run_count ?? DEFAULT_RUN_COUNT) : 0;
}

/** Shootings a keypad offers in a biathlon race: one between each pair of laps of its longest course; 0 otherwise. */
export function keypadShootings(settings: Pick<RaceSettings, "biathlon_penalty_type" | "lap_count">, courseLapCounts: (number | null)[]): number {
  if (settings.biathlon_penalty_type === null) return 0;
  return Math.max(1, ...courseLapCounts.map((laps) => (laps ?? settings.lap_count) - 1), settings.lap_count - 1);
}

/** A relay race's team rules; null when the race is not a relay. */
export function relaySetupOf(
  settings: RaceSettings,
): { memberCount: number; teamField: string; teamOrder: string | null; transitionPointId: string | null; lapTimeDisplay: TeamLapTimeDisplay } | null {
  if (!settings.is_relay) return null;
  return {
    memberCount: settings.relay_member_count ?? DEFAULT_RELAY_MEMBER_COUNT,
    teamField: settings.team_field ?? "team",
    teamOrder: settings.team_order,
    transitionPointId: settings.team_relay_transition_point,
    lapTimeDisplay: settings.team_lap_time_display,
  };
}

/** Reads stored settings: unknown keys are dropped and missing ones take the spec's defaults. */
export function readRaceSettings(stored: unknown): RaceSettings {
  const parsed = raceSettingsSchema.safeParse(stored ?? {});
  // A stored document that no longer parses (a field's rule tightened) falls back field by field.
  if (parsed.success) return parsed.data;
  const defaults = raceSettingsSchema.parse({});
  const source = (stored ?? {}) as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...defaults };
  for (const key of Object.keys(defaults)) {
    const one = raceSettingsSchema.shape[key as keyof RaceSettings].safeParse(source[key]);
    if (one.success) merged[key] = one.data;
  }
  return merged as RaceSettings;
}

const { zero_time: _zeroTime, ...changeable } = raceSettingsSchema.shape;

/**
 * Settings that no result, frame or heats view reads: who may see the start list. Changing only these leaves a
 * room's built results as they are, where a rebuild takes 665 ms at 50,000 racers, devices waiting (decision 0099).
 */
const SETTINGS_OUTSIDE_RESULTS: ReadonlySet<string> = new Set(["start_list_visibility"]);

/** Whether a settings save changed anything the results read (a save that changed nothing did not). */
export function settingsChangeReachesResults(before: RaceSettings, after: RaceSettings): boolean {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  // Compared as JSON: a value written in another key order counts as a change, which only costs a rebuild.
  return [...keys].some(
    (key) =>
      !SETTINGS_OUTSIDE_RESULTS.has(key) &&
      JSON.stringify((before as Record<string, unknown>)[key]) !== JSON.stringify((after as Record<string, unknown>)[key]),
  );
}

/**
 * A partial change to settings, checked field by field with the same rules; zero_time follows the start, so
 * it is not set. Defaults are taken off first: zod 4 fills defaults even inside .partial(), which would
 * reset every field a change does not name.
 */
export const raceSettingsChangeSchema = z
  .object(
    Object.fromEntries(Object.entries(changeable).map(([key, field]) => [key, field.removeDefault().optional()])) as {
      [K in keyof typeof changeable]: z.ZodOptional<ReturnType<(typeof changeable)[K]["removeDefault"]>>;
    },
  )
  .strict();

/**
 * The race's zero time (timing.md section 4: "Zero time is recalculated from the start time"): every time
 * of day (device tods, keypad, forms, start lists) counts from it. One function, so no two readers disagree.
 */
export function zeroTimeOfRace(startTimeMs: number, timeZone: string): number {
  return zeroTimeOf(startTimeMs * 1000, timeZone);
}

/** The race's day (YYYY-MM-DD) in its own time zone: the day ages are taken on ("age on race day"). */
export function raceDayOf(startTimeMs: number, timeZone: string): string {
  const { year, month, day } = wallClockOf(startTimeMs, timeZone);
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
