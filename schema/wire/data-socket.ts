// zod/mini: the SDK parses these frames in browsers too.
import * as z from "zod/mini";

/** Socket timings of platform.md section 9, shared by the server and the SDK. */
export const DATA_SOCKET_PING_MS = 10_000;
/** A socket that has not sent api-auth within this time is closed (our choice; the spec names no figure). */
export const DATA_SOCKET_AUTH_TIMEOUT_MS = 10_000;
/** Close codes: 4001 authentication failed or timed out, 4003 the token expired while connected. */
export const DATA_SOCKET_CLOSE_AUTH = 4001;
export const DATA_SOCKET_CLOSE_EXPIRED = 4003;

/** Frames a client sends on `/data-api/socket?instance=`: api-auth first, then pings every 10 s. */
export const dataClientMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("api-auth"), token: z.string().check(z.minLength(1), z.maxLength(200)) }),
  z.object({ type: z.literal("ping") }),
]);
export type DataClientMessage = z.infer<typeof dataClientMessageSchema>;

/** A channel names one entity: `{Class}/{uuid}`. */
export function channelOf(classname: string, uuid: string): string {
  return `${classname}/${uuid}`;
}

/** Frames the server sends. `hello` carries the connection id that `POST …/subscribe?conn=` names. */
export const dataServerMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("hello"), conn: z.string(), instance: z.string(), server_time: z.number() }),
  z.object({ type: z.literal("pong") }),
  z.object({ type: z.literal("subscription"), channel: z.string(), classname: z.string(), uuid: z.string() }),
  z.object({ type: z.literal("error"), message: z.string() }),
  z.object({
    type: z.literal("data"),
    channel: z.string(),
    classname: z.string(),
    uuid: z.string(),
    /** Only the fields that changed, by their API names; empty when `deleted`. */
    fields: z.record(z.string(), z.unknown()),
    field_mtimes: z.record(z.string(), z.number()),
    deleted: z.optional(z.boolean()),
  }),
]);
export type DataServerMessage = z.infer<typeof dataServerMessageSchema>;
