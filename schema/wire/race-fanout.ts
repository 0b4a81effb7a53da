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
 * snapshot), the heats view when it changed, and the `announcer` frame when the announcer screen's view did.
 */
export type Publication = ({ kind: "rows"; formats: FormatFrame[] } | { kind: "reset"; version: string }) & {
  heats: HeatsFrame | null;
  /** The announcer screen fetches its view again (decision 0045); absent or null when it has nothing new. */
  announcer?: AnnouncerFrame | null;
};

/** Tells announcer screens their view changed; the frame is tiny, the view is fetched (it depends on the time too). */
export interface AnnouncerFrame {
  version: number;
  frame: string;
}

/** A format a spectator may follow; system formats (announcer, live) only with staff rights. */
export interface SpectatorFormat {
  id: string;
  isSystem: boolean;
}

/** What the Worker tells a shard about a connection it forwards (set by the Worker, never by the client). */
export const SHARD_HEADERS = { raceId: "X-Startline-Race", index: "X-Startline-Shard", staff: "X-Startline-Staff", name: "X-Startline-Race-Name" } as const;

/** WebSocket tags: sockets are found by what they follow without reading every attachment. */
export const formatTag = (formatId: string) => `f:${formatId}`;
/** Sockets of a format that take patch frames (`?patch=1`) carry this tag as well as the format's. */
export const patchTag = (formatId: string) => `p:${formatId}`;
export const HEATS_TAG = "heats";
/** Sockets of announcer screens: race staff only (the Worker says who is). */
export const ANNOUNCER_TAG = "announcer";
export const RACE_TAG = "race";
