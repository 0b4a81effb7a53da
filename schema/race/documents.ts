/**
 * The children of a race as the RaceRoom stores them (timing.md section 3, spec field names): each is a
 * document with an id, an ordinal and its fields, validated here on every write. Times are absolute
 * microseconds since the Unix epoch; durations are microseconds.
 */
import * as z from "zod";
import { normaliseBibList } from "../../core/timing/bibs";
import { SEGMENT_ORDER_TYPES } from "../../core/timing/free-order";
import { normaliseSeedGroupOrder } from "../../core/timing/seeding";
import { CRITERION_OPS } from "../../core/timing/model";
import { heatFormatSchema } from "./heat-format";
import { looseJson } from "./json";
import { normalisedText } from "./settings";

const id = z.string().min(1).max(64);
const name = z.string().trim().max(200);
const micros = z.number().int();
const duration = z.number().int().min(0);

export const coursePointSchema = z.object({
  id,
  /** The timing point crossed here. */
  point: id,
  mode: z.enum(["start", "chipstart", "lap", "split"]),
  name: name.default(""),
  /** Reads closer than this to the last accepted one at the same point are the same pass (default 10 s). */
  min_split: duration.default(10_000_000),
  avg_split_time: duration.nullable().default(null),
  seg_distance: z.number().min(0).nullable().default(null),
  distance_split: z.number().min(0).nullable().default(null),
  start_time: micros.nullable().default(null),
  end_time: micros.nullable().default(null),
  /** Triathlon: the section the point belongs to (1 Swim, 2 T1, 3 Bike, 4 T2, 5 Run). */
  section: z.number().int().min(1).max(5).nullable().default(null),
  /** Biathlon: racers enter ("in") or leave ("out") the shooting range here. */
  range_role: z.enum(["in", "out"]).nullable().default(null),
});
export type CoursePointDoc = z.infer<typeof coursePointSchema>;

export const courseSchema = z.object({
  name: name.min(1),
  description: z.string().max(2000).default(""),
  /** null: the race's timing mode. */
  timing_mode: z.enum(["p2p", "lap", "timelimit", "triathlon", "enduro"]).nullable().default(null),
  points_list: z.array(coursePointSchema).max(100).default([]),
  timing_dict: z.record(z.string(), looseJson).default({}),
  lap_count: z.number().int().min(1).nullable().default(null),
  max_lap_count: z.number().int().min(1).nullable().default(null),
  max_split_num: z.number().int().min(0).nullable().default(null),
  swim_lap_count: z.number().int().min(0).nullable().default(null),
  bike_lap_count: z.number().int().min(0).nullable().default(null),
  run_lap_count: z.number().int().min(0).nullable().default(null),
  course_distance_km: z.number().min(0).nullable().default(null),
  lap_distance_km: z.number().min(0).nullable().default(null),
  technique: name.nullable().default(null),
  shootings_list: z.array(looseJson).default([]),
  segment_id: id.nullable().default(null),
  relay_member_count: z.number().int().min(1).nullable().default(null),
  criteria_list: z.array(looseJson).default([]),
  is_time_limit: z.boolean().default(false),
  metagroup_id: id.nullable().default(null),
  /** Time limit races: laps completed after this are not counted (the lap in progress still is). */
  end_time: micros.nullable().default(null),
  range: z
    .string()
    .regex(/^[PS]*$/)
    .nullable()
    .default(null),
  biathlon_penalty: duration.nullable().default(null),
  biathlon_penalty_type: z.enum(["lap", "time"]).nullable().default(null),
  min_penalty_loop_seconds: z.number().min(0).nullable().default(null),
  /** A free-order race's course group (schema/race/free-order.ts): its segments in any or the listed order; null otherwise. */
  segment_order_type: z.enum(SEGMENT_ORDER_TYPES).nullable().default(null),
});
export type CourseDoc = z.infer<typeof courseSchema>;

export const DEVICE_MODES = ["timing", "backup", "precall", "oncourse"] as const;

export const timingPointSchema = z.object({
  name: name.min(1),
  devices_list: z
    .array(
      z.object({
        id,
        mode: z.enum(DEVICE_MODES).default("timing"),
        /** null: every channel of the device. */
        channel: z.number().int().min(0).nullable().default(null),
        accuracy: z.number().min(0).nullable().default(null),
        tested_time: micros.nullable().default(null),
      }),
    )
    .max(20)
    .default([]),
});
export type TimingPointDoc = z.infer<typeof timingPointSchema>;

export const timingDeviceSchema = z.object({
  type: z.string().min(1).max(40),
  name: name.default(""),
  humanname: name.default(""),
  device_number: z.number().int().min(0).nullable().default(null),
  device_num: z.number().int().min(0).nullable().default(null),
  accuracy: z.number().min(0).default(0.5),
  precision: z.number().int().min(0).max(6).default(0),
  connected_to: z.string().max(200).nullable().default(null),
  channels: z.array(z.string().max(40)).max(20).default([]),
  show_on_grid: z.boolean().default(true),
  has_bibs: z.boolean().default(false),
  extra_columns: z.array(z.string().max(40)).max(20).default([]),
  /** Added to every time the device sends (its clock's error), microseconds. */
  offset: micros.default(0),
  club: id.nullable().default(null),
});
export type TimingDeviceDoc = z.infer<typeof timingDeviceSchema>;

export const startGroupSchema = z.object({
  name: name.default(""),
  metagroup_id: id.nullable().default(null),
  segment_id: id.nullable().default(null),
  /** null: the race's start mode. */
  start_mode: z.enum(["mass", "individual"]).nullable().default(null),
  start_interval: duration.nullable().default(null),
  sort_by: name.nullable().default(null),
  seed_list: z.array(looseJson).default([]),
  seed_function: name.nullable().default(null),
  /** The Seed Group Order ("6,5,4"), stored normalised; empty is the default, highest group first. */
  custom_seed_order: normalisedText(normaliseSeedGroupOrder).default(""),
  startlist_display_sort: name.nullable().default(null),
  recorded_start_time: micros.nullable().default(null),
  assigned_start_time: micros.nullable().default(null),
  scheduled_start_time: micros.nullable().default(null),
  first_start_time: micros.nullable().default(null),
  last_start_time: micros.nullable().default(null),
  start_gap: duration.nullable().default(null),
  start_transfer: z.boolean().default(false),
  is_set_assigned: z.boolean().default(false),
  heat_format: name.nullable().default(null),
  /** The format frozen when the heats were seeded. */
  heat_format_defn: heatFormatSchema.nullable().default(null),
  rounds_list: z.array(looseJson).default([]),
  first_bib: z.number().int().min(0).nullable().default(null),
  reserved_bibs: normalisedText(normaliseBibList).default(""),
  start_size: z.number().int().min(1).nullable().default(null),
  start_option: z.enum(["gun", "chipstart"]).nullable().default(null),
  criteria_list: z.array(looseJson).default([]),
  starttime_sort: name.nullable().default(null),
  starttime_order_list: z.array(looseJson).default([]),
});
export type StartGroupDoc = z.infer<typeof startGroupSchema>;

export const criterionSchema = z.object({
  field: z.string().min(1).max(64),
  op: z.enum(CRITERION_OPS),
  value: z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.union([z.string(), z.number(), z.boolean(), z.null()]))]).default(null),
  /** "age" criteria: the day ages are taken on, as a basis (age-classes.ts) or a date. */
  on: z
    .string()
    .regex(/^(race_day|year_end|\d{4}-\d{2}-\d{2})$/)
    .optional(),
});

export const resultFormatSchema = z.object({
  name: name.min(1),
  page_url: name.nullable().default(null),
  print_size: name.nullable().default(null),
  scroll_factor: z.number().nullable().default(null),
  scroll_speed: z.number().nullable().default(null),
  top_x: z.number().int().min(1).nullable().default(null),
  is_complete: z.boolean().default(false),
  is_gc: z.boolean().default(false),
  precision: z.number().int().min(0).max(6).nullable().default(null),
  calc_precision: z.number().int().min(0).max(6).nullable().default(null),
  /** System formats (announcer, live) are shown only to race roles; public and unlisted ones to anyone. */
  is_announcer: z.boolean().default(false),
  is_live: z.boolean().default(false),
  is_public: z.boolean().default(false),
  is_unlisted: z.boolean().default(false),
  main_fields_list: z.array(z.string()).default([]),
  hide_racers: z.array(z.string()).default([]),
  fields_list: z.array(z.string()).default(["club", "team", "city"]),
  tod_option: name.nullable().default(null),
  filters_list: z.array(criterionSchema).default([]),
  display_diffs: z.boolean().default(true),
  display_precision: z.number().int().min(0).max(6).default(1),
  finisher_mode: name.nullable().default(null),
  same_time_threshold: duration.nullable().default(null),
  /** How the format's groups were made (timing.md section 2 result group types). */
  group_type: z.enum(["all", "course", "startgroup", "field"]).default("all"),
  group_field: z.string().max(64).nullable().default(null),
});
export type ResultFormatDoc = z.infer<typeof resultFormatSchema>;

export const resultGroupSchema = z.object({
  format: id,
  name: name.min(1),
  criteria_list: z.array(criterionSchema).default([]),
  lap_names_list: z.array(z.string()).default([]),
  fields_list: z.array(z.string()).default([]),
  columns_list: z.array(z.string()).default([]),
  display_diffs: z.boolean().nullable().default(null),
  finisher_mode: name.nullable().default(null),
  distance_metres: z.number().min(0).nullable().default(null),
  technique: name.nullable().default(null),
  course: id.nullable().default(null),
  startgroup: id.nullable().default(null),
  same_time_threshold: duration.nullable().default(null),
});
export type ResultGroupDoc = z.infer<typeof resultGroupSchema>;

export const raceReportSchema = z.object({
  name: name.min(1).default("Untitled Report"),
  fields_list: z.array(z.string()).default([]),
  is_start_list: z.boolean().default(false),
  filters_list: z.array(criterionSchema).default([]),
  groups_list: z.array(z.string()).default([]),
  sorts_list: z.array(z.string()).default([]),
  is_public: z.boolean().default(false),
  is_shared: z.boolean().default(false),
  created_time: micros.nullable().default(null),
});
export type RaceReportDoc = z.infer<typeof raceReportSchema>;

/**
 * A sprint heat (timing.md section 3 Heat). The seats (racer_ids_list) are derived from the start group's
 * frozen qualifier order and the results of earlier heats; the result fields are what a timer entered.
 */
export const heatSchema = z.object({
  name: name.min(1),
  round_num: z.number().int().min(1),
  startgroup: id,
  canonical_name: name.min(1),
  seed_list: z.array(looseJson).default([]),
  /** Photo-finish ties: racer ids that share one place. */
  tie_list: z.array(z.array(id).min(2).max(12)).max(6).default([]),
  racer_ids_list: z.array(id).max(20).default([]),
  entities_list: z.array(looseJson).default([]),
  scheduled_start_time: micros.nullable().default(null),
  start_mode: z.enum(["mass", "individual"]).default("mass"),
  /** The result: finishers' racer ids in finish order, their heat times when timed, and statuses of the others. */
  finish_list: z.array(id).max(20).default([]),
  times_dict: z.record(id, duration).default({}),
  status_dict: z.record(id, z.enum(["dns", "dnf", "dsq"])).default({}),
  is_complete: z.boolean().default(false),
});
export type HeatDoc = z.infer<typeof heatSchema>;

/** The child kinds the RaceRoom keeps as documents, with their schema. */
export const raceDocumentSchemas = {
  Course: courseSchema,
  TimingPoint: timingPointSchema,
  TimingDevice: timingDeviceSchema,
  StartGroup: startGroupSchema,
  Heat: heatSchema,
  ResultFormat: resultFormatSchema,
  ResultGroup: resultGroupSchema,
  RaceReport: raceReportSchema,
} as const;
export type RaceDocumentKind = keyof typeof raceDocumentSchemas;
export const RACE_DOCUMENT_KINDS = Object.keys(raceDocumentSchemas) as RaceDocumentKind[];

export type RaceDocumentOf<K extends RaceDocumentKind> = z.infer<(typeof raceDocumentSchemas)[K]>;

export interface StoredDocument<K extends RaceDocumentKind = RaceDocumentKind> {
  id: string;
  kind: K;
  ordinal: number;
  data: RaceDocumentOf<K>;
}
