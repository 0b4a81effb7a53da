/**
 * Messages between a RaceRoom and its spectator shards (durable/spectator-shard.ts), over typed RPC between
 * our own objects. Frames are serialised once by the room, so a shard only forwards strings to its sockets.
 */

/** One format's changed rows: `frame` is the ready `rows` frame, chained from the format's previous change. */
export interface FormatFrame {
  formatId: string;
  /** The version of the format's previous change (what a socket must hold to apply this frame). */
  from: string;
  version: string;
  frame: string;
}

/** The whole sprint-heats view, as the `heats` frame. */
export interface HeatsFrame {
  version: number;
  frame: string;
}

/**
 * A tick of the race: changed rows per format, or a reset (the setup changed: every page takes a fresh
 * snapshot), and the heats view when it changed.
 */
export type Publication = { kind: "rows"; formats: FormatFrame[]; heats: HeatsFrame | null } | { kind: "reset"; version: string; heats: HeatsFrame | null };

/** A format a spectator may follow; system formats (announcer, live) only with staff rights. */
export interface SpectatorFormat {
  id: string;
  isSystem: boolean;
}

/** What the Worker tells a shard about a connection it forwards (set by the Worker, never by the client). */
export const SHARD_HEADERS = { raceId: "X-Startline-Race", index: "X-Startline-Shard", staff: "X-Startline-Staff", name: "X-Startline-Race-Name" } as const;

/** WebSocket tags: sockets are found by what they follow without reading every attachment. */
export const formatTag = (formatId: string) => `f:${formatId}`;
export const HEATS_TAG = "heats";
export const RACE_TAG = "race";
