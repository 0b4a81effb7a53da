/**
 * A Racer as the RaceRoom stores it (timing.md section 3, spec field names). The columns the RaceRoom
 * looks racers up by (bib, chips) are kept beside the document; custom racer fields sit in the same
 * document under their generated keys.
 */
import * as z from "zod";
import { BIATHLON_MAX_MISSES, BIATHLON_MAX_SHOOTINGS } from "../../core/timing/biathlon";
import { MAX_RUNS } from "../../core/timing/multi-run";
import { MAX_STAGES } from "../../core/timing/multistage";
import { looseJson } from "./json";

const micros = z.number().int();
const text = z.string().trim().max(200);

export const racerSchema = z
  .object({
    first_name: text.default(""),
    last_name: text.default(""),
    fullname: text.default(""),
    bib: z.number().int().min(0).max(999_999).nullable().default(null),
    chip: z.string().trim().max(64).nullable().default(null),
    chip_list: z.array(z.string().trim().min(1).max(64)).max(10).default([]),
    person: z.string().max(64).nullable().default(null),
    course: z.string().max(64).nullable().default(null),
    /** The racer's start group. */
    setupgroup_id: z.string().max(64).nullable().default(null),
    metastart_id: z.string().max(64).nullable().default(null),
    scheduled_start_time: micros.nullable().default(null),
    assigned_start_time: micros.nullable().default(null),
    imported_from: text.nullable().default(null),
    category_dict: z.record(z.string(), looseJson).default({}),
    team: text.nullable().default(null),
    club: text.nullable().default(null),
    city: text.nullable().default(null),
    qualifier_num: z.number().int().nullable().default(null),
    random: z.number().nullable().default(null),
    round_num: z.number().int().min(1).nullable().default(null),
    sex: z.enum(["M", "F"]).nullable().default(null),
    province: z.string().max(8).nullable().default(null),
    dob: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .nullable()
      .default(null),
    category: text.nullable().default(null),
    photos_list: z.array(z.string().max(500)).max(50).default([]),
    seed: z.number().nullable().default(null),
    /** Seeding rule fields (timing.md section 3): licences and Canadian points, read by the CPL seed functions. */
    ccc_licence: text.nullable().default(null),
    licence: text.nullable().default(null),
    cpl_distance_pts: z.number().min(0).nullable().default(null),
    cpl_sprint_pts: z.number().min(0).nullable().default(null),
    /** The ranking points seeding by ranking points used (decision 0054); lower is better, null unranked. */
    ranking_points: z.number().min(0).nullable().default(null),
    /** The seed was set by hand: seeding never recalculates it. */
    is_manual_seed: z.boolean().default(false),
    penalty: micros.min(0).default(0),
    bonus: micros.min(0).default(0),
    /** Time given back (taken off the result), microseconds. */
    add_back: micros.min(0).default(0),
    /** Percent of the elapsed time that counts (para classes); null is 100. */
    para_factor: z.number().min(1).max(200).nullable().default(null),
    dns: z.boolean().default(false),
    /** Multi-run: each run's own statuses (the spec's dnf_{n}_time, dsq_{n}_time, is_dns_{n}), run 1 first; null uses the racer's. */
    run_statuses: z
      .array(z.object({ is_dns: z.boolean().default(false), dnf_time: micros.nullable().default(null), dsq_time: micros.nullable().default(null) }).nullable())
      .max(MAX_RUNS)
      .default([]),
    /**
     * Biathlon: missed shots at each shooting in order, from the range-data device or keypad (the spec's
     * lap_{n}_biathlon_dict, shooting n after lap n); null for a shooting not entered yet.
     */
    biathlon_misses: z.array(z.number().int().min(0).max(BIATHLON_MAX_MISSES).nullable()).max(BIATHLON_MAX_SHOOTINGS).default([]),
    dnf_time: micros.nullable().default(null),
    dsq_time: micros.nullable().default(null),
    /** Multistage: the earlier stages' times (stage_time_1..N) and bonuses (stage_bonus_1..N), stage 1 first; null: none. */
    stage_times: z.array(micros.min(0).nullable()).max(MAX_STAGES).default([]),
    stage_bonuses: z.array(micros.min(0).nullable()).max(MAX_STAGES).default([]),
    /** Custom racer fields, by generated key. */
    custom: z.record(z.string().max(64), z.union([z.string().max(500), z.number(), z.boolean(), z.null()])).default({}),
  })
  .strict();

export type RacerDoc = z.infer<typeof racerSchema>;

/** A racer's chips: the chip field and chip_list, de-duplicated. */
export function chipsOf(racer: Pick<RacerDoc, "chip" | "chip_list">): string[] {
  const chips = [racer.chip, ...racer.chip_list].filter((c): c is string => typeof c === "string" && c.length > 0);
  return [...new Set(chips)];
}

/** Birth year derived from dob (timing.md: "dob and derived birth year"). */
export function birthYearOf(racer: Pick<RacerDoc, "dob">): number | null {
  return racer.dob ? Number(racer.dob.slice(0, 4)) : null;
}

/** Every field's default, built once: a stored racer lacks only the fields added after it was written. */
const RACER_DEFAULTS: RacerDoc = racerSchema.parse({});
const RACER_KEYS = Object.keys(RACER_DEFAULTS) as (keyof RacerDoc)[];

/**
 * A racer read back from the RaceRoom's storage. Every write goes through racerSchema, so the stored JSON is
 * trusted: only fields added to the schema since it was written get their defaults. Parsing 15,000 racers
 * again on every wake-up cost about 320 ms of the first crossing after a quiet spell (decision 0023).
 */
export function racerFromStorage(json: string): RacerDoc {
  const stored = JSON.parse(json) as Partial<RacerDoc>;
  for (const key of RACER_KEYS) {
    // A fresh copy each time: defaults such as [] and {} must not be shared between racers.
    if (stored[key] === undefined) (stored as Record<string, unknown>)[key] = structuredClone(RACER_DEFAULTS[key]);
  }
  return stored as RacerDoc;
}
