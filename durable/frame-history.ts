/**
 * The frames a spectator shard forwarded lately, per format, so a socket that comes back after a short gap
 * (a phone that changed network, a venue's Wi-Fi blip) is sent the frames it missed instead of the whole
 * format again: a few kilobytes instead of a snapshot that is a megabyte at 15,000 racers, for every
 * spectator reconnecting at once. Kept in memory only: a shard that wakes without it sends the snapshot, as
 * before, so nothing depends on it being there.
 */

/** A frame as it goes on the wire: text, or JSON deflated once for every socket (schema/wire/race-frame-pack.ts). */
export type WireFrame = string | Uint8Array;

/**
 * A frame as it was sent: the rows frame where a socket took whole rows, the patch frame where one took patches.
 * Only what was sent is kept (a rows frame of a busy tick is half a megabyte of JSON before it is packed).
 */
export interface HistoryFrame {
  from: string;
  version: string;
  rowsWire: WireFrame | null;
  patchWire: WireFrame | null;
}

/** About a minute of 100 ms ticks. */
export const HISTORY_FRAMES = 600;
/** Per format; a shard holds a few formats at most. */
export const HISTORY_BYTES = 4_000_000;

interface FormatHistory {
  frames: HistoryFrame[];
  bytes: number;
}

export class FrameHistory {
  private readonly byFormat = new Map<string, FormatHistory>();

  /** Adds a forwarded frame; one that does not follow the last starts the format's history again. */
  record(formatId: string, frame: HistoryFrame): void {
    let history = this.byFormat.get(formatId);
    if (!history || history.frames.at(-1)?.version !== frame.from) {
      history = { frames: [], bytes: 0 };
      this.byFormat.set(formatId, history);
    }
    history.frames.push(frame);
    history.bytes += sizeOf(frame);
    while (history.frames.length > HISTORY_FRAMES || history.bytes > HISTORY_BYTES) history.bytes -= sizeOf(history.frames.shift()!);
  }

  /** The format's frames no longer lead to what its sockets hold (a snapshot was sent, or it was dropped). */
  forget(formatId: string): void {
    this.byFormat.delete(formatId);
  }

  forgetAll(): void {
    this.byFormat.clear();
  }

  /** The frames from `since` up to `version`, in order; null when the history does not reach from one to the other. */
  between(formatId: string, since: string, version: string): HistoryFrame[] | null {
    const frames = this.byFormat.get(formatId)?.frames;
    if (!frames) return null;
    const first = frames.findIndex((frame) => frame.from === since);
    if (first < 0 || frames.at(-1)!.version !== version) return null;
    return frames.slice(first);
  }
}

/** The frame a socket is sent from the history: the patch where it takes patches and one was built, else the rows; null when neither. */
export function wireFor(frame: HistoryFrame, patches: boolean): WireFrame | null {
  return (patches ? frame.patchWire : null) ?? frame.rowsWire;
}

export function lengthOf(wire: WireFrame): number {
  return typeof wire === "string" ? wire.length : wire.byteLength;
}

function sizeOf(frame: HistoryFrame): number {
  return (frame.rowsWire === null ? 0 : lengthOf(frame.rowsWire)) + (frame.patchWire === null ? 0 : lengthOf(frame.patchWire));
}
