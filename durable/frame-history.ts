/**
 * The frames a spectator shard forwarded lately, per format, so a socket that comes back after a short gap
 * (a phone that changed network, a venue's Wi-Fi blip) is sent the frames it missed instead of the whole
 * format again: a few kilobytes instead of a snapshot that is a megabyte at 15,000 racers, for every
 * spectator reconnecting at once. Kept in memory only: a shard that wakes without it sends the snapshot, as
 * before, so nothing depends on it being there.
 */

/** A frame as it goes on the wire: text, or JSON deflated once for every socket (schema/wire/race-frame-pack.ts). */
export type WireFrame = string | Uint8Array;

export interface HistoryFrame {
  from: string;
  version: string;
  /** The rows frame as the room published it (JSON text), for sockets that take whole rows. */
  rows: string;
  /** `rows` packed for the wire, once it has been needed. */
  rowsWire: WireFrame | null;
  /** The patch frame as sent to patch sockets; null when none was built (no copy of the rows at `from`). */
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

/** What a frame of the chain costs to send: its patch where the socket takes patches and one was built. */
export function wireSizeOf(frame: HistoryFrame, patches: boolean): number {
  if (patches && frame.patchWire !== null) return lengthOf(frame.patchWire);
  return frame.rowsWire === null ? frame.rows.length : lengthOf(frame.rowsWire);
}

// The rows' packed copy is made later and is smaller than the rows, so it is left out: the bound is within two.
function sizeOf(frame: HistoryFrame): number {
  return frame.rows.length + (frame.patchWire === null ? 0 : lengthOf(frame.patchWire));
}

function lengthOf(wire: WireFrame): number {
  return typeof wire === "string" ? wire.length : wire.byteLength;
}
