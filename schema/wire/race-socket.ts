// zod/mini: these schemas are parsed in the browser too, where full zod would triple the page's JS.
import * as z from "zod/mini";

/** Frames a spectator or timer sends on a race socket. Plain pings are answered without waking the object. */
export const raceClientMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ping") }),
  z.object({ type: z.literal("info") }),
]);
export type RaceClientMessage = z.infer<typeof raceClientMessageSchema>;

const count = z.int().check(z.nonnegative());

/** Frames a RaceRoom sends. `hello` arrives first on every connection. */
export const raceServerMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("hello"), race_id: z.string(), name: z.string(), server_time: z.number(), connections: count }),
  z.object({ type: z.literal("pong") }),
  z.object({ type: z.literal("info"), race_id: z.string(), connections: count }),
  z.object({ type: z.literal("error"), message: z.string() }),
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
