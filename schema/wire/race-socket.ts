// zod/mini: these schemas are parsed in the browser too, where full zod would triple the page's JS.
import * as z from "zod/mini";

/** Frames a spectator or timer sends on a race socket. Plain pings are answered without waking the object. */
export const raceClientMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ping") }),
  z.object({ type: z.literal("info") }),
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
});
export type ResultRow = z.infer<typeof resultRowSchema>;

export const resultGroupWireSchema = z.object({
  id: z.string(),
  name: z.string(),
  sameTimeThreshold: micros,
  /** Split column names, when every racer of the group runs one course. */
  columns: z.array(z.object({ index: count, name: z.string() })),
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
});
export type FormatSnapshot = z.infer<typeof formatSnapshotSchema>;

/** Frames a RaceRoom sends. `hello` arrives first on every connection. */
export const raceServerMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("hello"), race_id: z.string(), name: z.string(), server_time: z.number(), connections: count, version: z.optional(z.string()) }),
  z.object({ type: z.literal("pong") }),
  z.object({ type: z.literal("info"), race_id: z.string(), connections: count }),
  z.object({ type: z.literal("error"), message: z.string() }),
  /** The whole format: sent when the page's copy is older than the room's (or the room restarted). */
  z.object({ type: z.literal("snapshot"), snapshot: formatSnapshotSchema }),
  /** The rows that changed since `from`, batched every 50-100 ms. */
  z.object({ type: z.literal("rows"), formatId: z.string(), from: z.string(), version: z.string(), rows: z.array(resultRowSchema) }),
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
