/**
 * Turning a device's batch of reads into crossing-log rows: which timing point, which racer, whether it
 * falls in the race's time window. The caller writes the rows inside one transaction.
 */
import { absoluteFromTimeOfDay } from "../../core/time/zero-time";
import { parseTimeOfDay, isInvalid } from "../../core/time/parse";
import type { Crossing, Micros } from "../../core/timing/model";
import type { DEVICE_MODES, StoredDocument } from "../../schema/race/documents";
import type { DeviceRead, ReadBatchReceipt } from "../../schema/wire/timing-api";
import { readKeyOf, type CrossingState, type NewCrossing } from "./crossing-writes";
import type { RaceStore } from "./store";

/** With no end time set, a race's window closes this long after its start. */
export const DEFAULT_RACE_WINDOW_US = 24 * 60 * 60 * 1_000_000;

export interface RaceWindow {
  /** Reads before the start are warm-up passes; reads after the end are kept but not used. */
  from: Micros;
  to: Micros;
}

export function raceWindow(startTimeMs: number, endTimeMs: number | null): RaceWindow {
  const from = startTimeMs * 1000;
  return { from, to: endTimeMs === null ? from + DEFAULT_RACE_WINDOW_US : endTimeMs * 1000 };
}

export type DeviceMode = (typeof DEVICE_MODES)[number];

export interface PointOfDevice {
  timingPointId: string;
  mode: DeviceMode;
  /** precall and oncourse devices inform the announcer; only timing and backup devices time racers. */
  timing: boolean;
}

const pointAs = (timingPointId: string, mode: DeviceMode): PointOfDevice => ({ timingPointId, mode, timing: mode === "timing" || mode === "backup" });

/** Where a device's reads on a channel land: the first timing point listing that device (and channel). */
export function pointOfDevice(points: StoredDocument<"TimingPoint">[], deviceId: string, channel: number | null): PointOfDevice | null {
  for (const point of points) {
    for (const entry of point.data.devices_list) {
      if (entry.id !== deviceId) continue;
      if (entry.channel !== null && channel !== null && entry.channel !== channel) continue;
      return pointAs(point.id, entry.mode);
    }
  }
  return null;
}

/**
 * What a keypad entry at a point is: a precall (or on-course) report when the point's devices are all of that
 * mode, so a spotter with a keypad can precall; a timed crossing at any other point, as before.
 */
export function keypadPointOf(point: StoredDocument<"TimingPoint">): PointOfDevice {
  const modes = new Set(point.data.devices_list.map((d) => d.mode));
  const only = modes.size === 1 ? [...modes][0]! : null;
  return pointAs(point.id, only === "precall" || only === "oncourse" ? only : "timing");
}

/** The mode a stored read was taken in, by the points as they are now (a keypad entry by its point's devices). */
export function modeOfRead(
  points: StoredDocument<"TimingPoint">[],
  read: { device_id: string; channel: number | null; timing_point_id: string | null },
): DeviceMode | null {
  if (read.device_id === "manual") {
    const point = points.find((p) => p.id === read.timing_point_id);
    return point ? keypadPointOf(point).mode : null;
  }
  const point = pointOfDevice(points, read.device_id, read.channel);
  return point && point.timingPointId === read.timing_point_id ? point.mode : null;
}

/**
 * What a read is for the results: on no timing point, from an announcer device, outside the race's time
 * window, matched to a racer, or waiting for one (the one rule for device reads and keypad entries).
 */
export function crossingStateOf(point: PointOfDevice | null, time: Micros, window: RaceWindow, racerId: string | null): CrossingState {
  if (!point) return "nopoint";
  if (!point.timing) return "info";
  if (time < window.from || time > window.to) return "outside";
  return racerId ? "assigned" : "unmatched";
}

/** Reads for the results and reads for the announcer (precall, on course) name their racer; the rest wait for one. */
export function keepsRacer(state: CrossingState): boolean {
  return state === "assigned" || state === "info";
}

export interface IngestContext {
  store: RaceStore;
  device: StoredDocument<"TimingDevice">;
  points: StoredDocument<"TimingPoint">[];
  window: RaceWindow;
  zeroTime: Micros;
  now: number;
}

/**
 * A read whose device and sequence number (in its boot) were already used for a different read: the
 * device restarted and counts from the start again without announcing a new boot. The batch is refused.
 */
export class SequenceReused extends Error {
  constructor(
    readonly seq: number,
    readonly boot: string | null,
    readonly lastSeq: number,
  ) {
    super(`seq ${seq} reused`);
  }

  /** The refusal a device sees: what happened and what to send instead. */
  get advice(): string {
    const inBoot = this.boot === null ? "" : ` in boot "${this.boot}"`;
    return `Sequence number ${this.seq} was already used for a different read from this device${inBoot}. A device that restarts and counts from 1 again must send a new "boot" id with its batches; otherwise continue after last_seq ${this.lastSeq}.`;
  }
}

// Shared with the serverbox's intake, which refuses a reused number the same way.
export { readKeyOf };

/**
 * Writes a batch (inside the caller's transaction); returns the receipt and the new crossings assigned to
 * racers. Throws SequenceReused, which rolls the batch back, when a sequence number names a different read.
 */
export function ingestReads(ctx: IngestContext, reads: DeviceRead[], boot: string | null): { receipt: ReadBatchReceipt; assigned: Crossing[] } {
  const receipt: ReadBatchReceipt = { accepted: 0, duplicates: 0, unassigned: 0, outside: 0, last_seq: -1, ...(boot === null ? {} : { boot }) };
  const assigned: Crossing[] = [];
  const deviceId = ctx.device.id;
  // Read before the batch: a refusal must name what the device had sent before it, not this batch.
  const lastBefore = ctx.store.lastDeviceSeq(deviceId, boot);
  const chips = reads.flatMap((r) => (r.chip !== undefined ? [r.chip] : []));
  const bibs = reads.flatMap((r) => (r.chip === undefined && r.bib !== undefined ? [r.bib] : []));
  const { byChip, byBib } = ctx.store.racersByChipsAndBibs(chips, bibs);
  const rows = reads.map((read): NewCrossing & { readKey: string; point: PointOfDevice | null } => {
    const deviceTime = read.time ?? absoluteFromTimeOfDay(ctx.zeroTime, timeOfDay(read.tod ?? ""));
    const time = deviceTime + ctx.device.data.offset;
    const channel = read.channel ?? null;
    const point = pointOfDevice(ctx.points, deviceId, channel);
    const racerId = (read.chip !== undefined ? byChip.get(read.chip) : byBib.get(read.bib ?? -1)) ?? null;
    const state = crossingStateOf(point, time, ctx.window, racerId);
    return {
      readKey: readKeyOf(deviceId, boot, read.seq),
      deviceId,
      deviceSeq: read.seq,
      deviceBoot: boot,
      timingPointId: point?.timingPointId ?? null,
      chip: read.chip ?? null,
      bib: read.bib ?? null,
      channel,
      deviceTime,
      time,
      // Assigned and announcer reads keep their racer; "unmatched" reads are the ones a later racer can claim.
      racerId: keepsRacer(state) ? racerId : null,
      state,
      receivedAt: ctx.now,
      point,
    };
  });
  const written = ctx.store.insertCrossings(rows);
  for (const row of rows) {
    receipt.last_seq = Math.max(receipt.last_seq, row.deviceSeq);
    const seq = written.get(row.readKey);
    if (seq === undefined) {
      // A resend carries the same read; anything else under the same number is a restarted device.
      const stored = ctx.store.storedRead(deviceId, boot, row.deviceSeq);
      if (stored && (stored.chip !== row.chip || stored.bib !== row.bib || stored.channel !== row.channel || stored.device_time !== row.deviceTime)) {
        throw new SequenceReused(row.deviceSeq, boot, lastBefore);
      }
      receipt.duplicates += 1;
      continue;
    }
    // The same key twice in one batch: the second is a repeat of the first.
    written.delete(row.readKey);
    receipt.accepted += 1;
    if (row.state === "outside") receipt.outside += 1;
    else if (row.racerId === null) receipt.unassigned += 1;
    else if (row.state === "assigned" && row.point) assigned.push({ seq, racerId: row.racerId, timingPointId: row.point.timingPointId, time: row.time });
  }
  receipt.last_seq = Math.max(receipt.last_seq, lastBefore);
  return { receipt, assigned };
}

// The batch schema already checked the shape; this cannot fail for a parsed read.
function timeOfDay(text: string): Micros {
  const parsed = parseTimeOfDay(text);
  if (isInvalid(parsed)) throw new Error(parsed.error);
  return parsed;
}

/** The first few problems of a refused batch (the race room and the serverbox word them alike), each with where it is ("reads[3].tod: …"). */
export function issueText(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path
        .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
        .join("")
        .replace(/^\./, "");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}
