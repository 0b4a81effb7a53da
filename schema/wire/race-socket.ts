import { z } from "zod";

/** Frames a spectator or timer sends on a race socket. Plain pings are answered without waking the object. */
export const raceClientMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ping") }),
  z.object({ type: z.literal("info") }),
]);
export type RaceClientMessage = z.infer<typeof raceClientMessageSchema>;

/** Frames a RaceRoom sends. `hello` arrives first on every connection. */
export const raceServerMessageSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("hello"),
    race_id: z.string(),
    name: z.string(),
    server_time: z.number(),
    connections: z.number().int().nonnegative(),
  }),
  z.object({ type: z.literal("pong") }),
  z.object({ type: z.literal("info"), race_id: z.string(), connections: z.number().int().nonnegative() }),
  z.object({ type: z.literal("error"), message: z.string() }),
]);
export type RaceServerMessage = z.infer<typeof raceServerMessageSchema>;

/** What the Worker tells a RaceRoom about its race from the D1 catalogue row. */
export const raceIdentitySchema = z.object({
  id: z.string().uuid(),
  clubId: z.string(),
  name: z.string().min(1),
  startTime: z.number().int(),
  timezone: z.string().min(1),
});
export type RaceIdentity = z.infer<typeof raceIdentitySchema>;
