// The server and tests parse with these; the browser reads frames with race-socket-read.ts (no zod in its pages), kept in step by its test.
import * as z from "zod/mini";
import { RANKING_TYPES } from "../../core/timing/multistage";
import { TEAM_LAP_TIME_DISPLAYS } from "../../core/timing/relay";
import { FILTER_RACER_CHARS, MAX_FILTER_RACERS } from "./window-filter";

const shortText = z.string().check(z.maxLength(64));

/**
 * Frames a spectator or timer sends on a race socket. Plain pings are answered without waking the object.
 * `window`: the page a paged results page shows, so its shard sends only rows that can change it (window-filter.ts).
 */
export const raceClientMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ping") }),
  z.object({ type: z.literal("info") }),
  z.object({
    type: z.literal("window"),
    formatId: shortText,
    version: shortText,
    group: shortText,
    lastKey: z.nullable(z.array(z.number()).check(z.maxLength(16))),
    racers: z.array(z.string().check(z.maxLength(FILTER_RACER_CHARS))).check(z.maxLength(MAX_FILTER_RACERS)),
    ranking: z.enum(RANKING_TYPES),
    multistage: z.boolean(),
  }),
  z.object({ type: z.literal("window-all"), formatId: shortText, version: shortText }),
]);
export type RaceClientMessage = z.infer<typeof raceClientMessageSchema>;

const count = z.int().check(z.nonnegative());
const micros = z.number();

/** One passed course point of a racer (core/timing/model.ts Split). */
export const splitWireSchema = z.object({ index: count, coursePointId: z.string(), lap: count, time: micros, elapsed: micros });

/**
 * One racer's row in a result format: the engine's RacerResult (so the browser ranks with the same
 * core/timing/rank.ts as the server) plus what the page shows. `groups` are the format's groups holding
 * the racer; an empty list takes the racer out of the format.
 */
export const resultRowSchema = z.object({
  racerId: z.string(),
  /** The racer's handle in this race: patch frames name the racer by it (decision 0059). */
  h: z.optional(count),
  status: z.enum(["dns", "dnf", "dsq", "notstarted", "oncourse", "finished"]),
  statusText: z.enum(["", "DSQ", "DNS", "DNF"]),
  start: z.nullable(micros),
  laps: count,
  splits: z.array(splitWireSchema),
  finish: z.nullable(micros),
  time: z.nullable(micros),
  key: z.array(z.number()),
  rankKey: z.nullable(z.array(z.number())),
  bib: z.nullable(z.number()),
  name: z.string(),
  club: z.nullable(z.string()),
  team: z.nullable(z.string()),
  city: z.nullable(z.string()),
  course: z.nullable(z.string()),
  groups: z.array(z.string()),
  /** Biathlon courses: misses per shooting, loops and the three times (core/timing/model.ts BiathlonResult). */
  biathlon: z.optional(
    z.object({
      misses: z.array(z.nullable(count)),
      loops: z.array(count),
      penalty: micros,
      total: z.nullable(micros),
      range: z.nullable(micros),
      ski: z.nullable(micros),
    }),
  ),
  /** Multi-run races: each run's status and time, run 1 first. */
  runs: z.optional(z.array(z.object({ status: z.enum(["dns", "dnf", "dsq", "notstarted", "oncourse", "finished"]), time: z.nullable(micros) }))),
  /** Relays: the racer's leg (team_order) and read at the transition point; `team` is then the team_field's value. */
  leg: z.optional(z.nullable(count)),
  handover: z.optional(z.nullable(micros)),
  /** Multistage races: the earlier stages' times and bonuses (stage_time_1..N, stage_bonus_1..N). */
  stageTimes: z.optional(z.array(z.nullable(micros))),
  stageBonuses: z.optional(z.array(z.nullable(micros))),
  /** Enduro: each timed segment's counted time and complete runs. */
  segments: z.optional(z.array(z.object({ time: z.nullable(micros), runs: count }))),
});
export type ResultRow = z.infer<typeof resultRowSchema>;

/**
 * What changed in one racer's row (schema/wire/race-row-patch.ts): the changed fields with their new values;
 * `splits` with `splitsFrom` are the splits after the first `splitsFrom` the socket holds.
 */
/** A change names its racer by handle (`h`) when the row held has one, else by `racerId`. */
export const rowChangeSchema = z.extend(z.partial(resultRowSchema), { splitsFrom: z.optional(count) });
export type RowChange = z.infer<typeof rowChangeSchema>;

export const resultGroupWireSchema = z.object({
  id: z.string(),
  name: z.string(),
  sameTimeThreshold: micros,
  /**
   * Columns, when every racer of the group runs one course: a split (the split at `index`, timed from the
   * split at `since` when given), with `shooting` a biathlon shooting's misses, or with `run` a multi-run
   * race's run time or status, with `segment` an enduro segment's time (or with `cumulative` the total after it), or with `stage` a stage's time in the All Stages view (`index` is then only a key).
   */
  columns: z.array(
    z.object({
      index: count,
      name: z.string(),
      since: z.optional(z.nullable(count)),
      shooting: z.optional(count),
      run: z.optional(count),
      stage: z.optional(count),
      segment: z.optional(count),
      cumulative: z.optional(z.boolean()),
    }),
  ),
  /** The time column's heading when it is not the plain time (biathlon: "Ski time", "Range time"). */
  timeLabel: z.optional(z.string()),
  /** Lap and time limit options: each split cell also shows the place there; split cells show gaps to the fastest; the Diff column counts laps behind. */
  splitRanks: z.optional(z.boolean()),
  splitGaps: z.optional(z.boolean()),
  lapsBehind: z.optional(z.boolean()),
  /** A Pace column (per km) from the course's distances: the course's, else laps × the lap's. */
  pace: z.optional(z.object({ courseKm: z.nullable(z.number()), lapKm: z.nullable(z.number()) })),
});
export type ResultGroupWire = z.infer<typeof resultGroupWireSchema>;

/** Everything a results page shows for one format; the page renders it and the socket keeps it current. */
export const formatSnapshotSchema = z.object({
  formatId: z.string(),
  name: z.string(),
  version: z.string(),
  displayPrecision: count,
  displayDiffs: z.boolean(),
  sameTimeDisplay: z.string(),
  isAnnouncer: z.boolean(),
  groups: z.array(resultGroupWireSchema),
  rows: z.array(resultRowSchema),
  /** Relay races: teams of memberCount legs, and how a leg's time is shown (core/timing/relay.ts). */
  relay: z.optional(z.object({ memberCount: count, lapTimeDisplay: z.enum(TEAM_LAP_TIME_DISPLAYS) })),
  /** Multistage races: this race is stage `number` (prev_stages_count + 1); pages offer Stage N Only and All Stages. */
  stage: z.optional(z.object({ number: count })),
});
export type FormatSnapshot = z.infer<typeof formatSnapshotSchema>;

/** One seat of a sprint heat as the bracket shows it (core/timing/heats.ts BracketEntry plus the racer). */
export const heatEntryWireSchema = z.object({
  racerId: z.nullable(z.string()),
  seat: z.string(),
  bib: z.nullable(z.number()),
  name: z.string(),
  qualifierRank: z.nullable(count),
  /** The racer's qualifier result time, for pages showing qualifier times. */
  qualifierTime: z.nullable(micros),
  place: z.nullable(count),
  time: z.nullable(micros),
  status: z.nullable(z.enum(["dns", "dnf", "dsq"])),
  advances: z.nullable(z.enum(["place", "lucky", "lower"])),
});
export type HeatEntryWire = z.infer<typeof heatEntryWireSchema>;

export const heatWireSchema = z.object({
  id: z.string(),
  key: z.string(),
  round: count,
  name: z.string(),
  canonicalName: z.string(),
  rankIndex: count,
  scheduledStart: z.nullable(micros),
  ready: z.boolean(),
  complete: z.boolean(),
  entries: z.array(heatEntryWireSchema),
});
export type HeatWire = z.infer<typeof heatWireSchema>;

/** One start group's sprint: its rounds of heats and the ranking so far. */
export const heatGroupWireSchema = z.object({
  startGroupId: z.string(),
  name: z.string(),
  formatKey: z.string(),
  formatName: z.string(),
  rounds: z.array(z.object({ round: count, name: z.string(), complete: z.boolean(), timed: z.boolean(), heats: z.array(heatWireSchema) })),
  ranking: z.array(
    z.object({
      racerId: z.string(),
      rank: count,
      bib: z.nullable(z.number()),
      name: z.string(),
      roundReached: count,
      place: z.nullable(count),
      status: z.nullable(z.enum(["dns", "dnf", "dsq"])),
      qualifierRank: count,
    }),
  ),
});
export type HeatGroupWire = z.infer<typeof heatGroupWireSchema>;

/** Every heat of a race: what the bracket pages render and the socket replaces whole on each change. */
export const heatsViewSchema = z.object({
  version: count,
  displayPrecision: count,
  /** Times to display, sprint heats: the qualifier's or the heats'. */
  timesShown: z.enum(["quali", "heat"]),
  groups: z.array(heatGroupWireSchema),
});
export type HeatsView = z.infer<typeof heatsViewSchema>;

/** Racer ids of a frame's rows whose place may have gone back; absent when there are none. */
const fellSchema = z.optional(z.array(z.string()));

/** Frames a RaceRoom sends. `hello` arrives first on every connection. */
export const raceServerMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("hello"), race_id: z.string(), name: z.string(), server_time: z.number(), connections: count, version: z.optional(z.string()) }),
  z.object({ type: z.literal("pong") }),
  z.object({ type: z.literal("info"), race_id: z.string(), connections: count }),
  z.object({ type: z.literal("error"), message: z.string() }),
  /** The whole format: sent when the page's copy is older than the room's (or the room restarted). */
  z.object({ type: z.literal("snapshot"), snapshot: formatSnapshotSchema }),
  /** Sockets of a results page that shows one page of rows (`?window=1`): the format changed shape or frames were missed, so the page fetches its rows again. */
  z.object({ type: z.literal("refresh"), formatId: z.string(), version: z.string() }),
  /**
   * The rows that changed since `from`, batched every 50-100 ms. `fell`: the racers among them whose place may have
   * gone back (a status, a penalty, a cleared time, a removal): a page behind where they were cannot tell from their
   * new row that its own rows moved up, so it fetches itself again (decision 0087).
   */
  z.object({ type: z.literal("rows"), formatId: z.string(), from: z.string(), version: z.string(), rows: z.array(resultRowSchema), fell: fellSchema }),
  /**
   * To a paged page that sent its `window` (decision 0085): the rows that can change its page, each as at `version`.
   * Sent for a tick only when it has such rows, and when a new `window` comes, with what the old filter held back
   * since `from` (the version that page was fetched at). The page applies them whenever `version` is not older
   * than the page.
   */
  z.object({ type: z.literal("window-rows"), formatId: z.string(), from: z.string(), version: z.string(), rows: z.array(resultRowSchema), fell: fellSchema }),
  /**
   * As `rows`, for a socket holding the whole format that asked for patches (`?patch=1`): racers it does not
   * hold yet come whole in `rows`, the others as `changes` to the row it holds (decision 0059).
   */
  z.object({
    type: z.literal("patch"),
    formatId: z.string(),
    from: z.string(),
    version: z.string(),
    rows: z.array(resultRowSchema),
    changes: z.array(rowChangeSchema),
  }),
  /** Sprint heats, whole, after any heat changes (sockets opened with `?heats=1`). */
  z.object({ type: z.literal("heats"), heats: heatsViewSchema }),
  /** The announcer screen's sockets (`?announcer=1`, race staff only): a precall or a result it shows changed, so it fetches its view again. */
  z.object({ type: z.literal("announcer"), version: z.string() }),
]);
export type RaceServerMessage = z.infer<typeof raceServerMessageSchema>;

/** What the Worker tells a RaceRoom about its race from the D1 catalogue row. */
export const raceIdentitySchema = z.object({
  id: z.uuid(),
  clubId: z.string(),
  name: z.string().check(z.minLength(1)),
  startTime: z.int(),
  timezone: z.string().check(z.minLength(1)),
  siteId: z.optional(z.nullable(z.string())),
  sport: z.optional(z.nullable(z.string())),
  endTime: z.optional(z.nullable(z.int())),
  location: z.optional(z.nullable(z.string())),
  visibility: z.optional(z.enum(["public", "unlisted", "private"])),
  /** The catalogue row's field times, so both copies of a field carry the same time. */
  fieldMtimes: z.optional(z.record(z.string(), z.number())),
});
export type RaceIdentity = z.infer<typeof raceIdentitySchema>;
