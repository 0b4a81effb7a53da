/**
 * The announcer's precall list (issue 23, decision 0045): racers who passed a precall point (a timing point
 * whose device is listed with mode precall) and have not reached a timing point since, newest first, with
 * when they are expected at that next point. Pure: the RaceRoom hands it reads and results read back from
 * storage, so a room evicted between two steps lists the same racers.
 */
import type { Micros, RacerStatus } from "./model";
import { MICROS_PER_SECOND } from "./model";

/** One read of a racer at a precall point. */
export interface PrecallRead {
  racerId: string;
  pointId: string;
  time: Micros;
}

/** What the precall rules need of a racer's result (a RacerResult or a result row has it). */
export interface PrecallRacer {
  racerId: string;
  status: RacerStatus;
  start: Micros | null;
  splits: readonly { index: number; time: Micros; elapsed: Micros }[];
  /** Typical times are kept per precall point and course: another course may reach its next point elsewhere. */
  course: string | null;
}

/** A racer's pass of a precall point: the first of its reads (a chip is read several times as it passes). */
export interface PrecallPass {
  racerId: string;
  pointId: string;
  time: Micros;
  /** The first timing point passed after it (its split index and time), or null while on the way there. */
  next: { index: number; time: Micros } | null;
}

/** The typical time from a precall point to the next timing point, and how many racers it was taken from. */
export interface TypicalTime {
  duration: Micros;
  samples: number;
}

export interface PrecallEntry {
  racerId: string;
  pointId: string;
  /** When the racer passed the precall point. */
  time: Micros;
  /** The split index they are expected at next (their last split's + 1, or 0 before the first). */
  nextIndex: number;
  /** When they are expected there, and their time since the start then; null while nothing is known to estimate from. */
  expectedAt: Micros | null;
  expectedElapsed: Micros | null;
  typical: TypicalTime | null;
  /** They leave the list at this time if no timing point has read them by then. */
  leaveAt: Micros;
}

/** The most recent passes a typical time is taken from: it follows the race as conditions change. */
export const TYPICAL_SAMPLES = 25;
/** A pass that took longer than this to reach the next point is not typical (a stop, a missed read). */
export const MAX_SAMPLE_US = 30 * 60 * MICROS_PER_SECOND;
/** With no typical time, a racer stays listed this long after the precall; with one, at most this long. */
export const PRECALL_TIMEOUT_US = 10 * 60 * MICROS_PER_SECOND;
/** With a typical time, a racer stays listed twice that, and at least this much over it. */
export const PRECALL_GRACE_US = 2 * 60 * MICROS_PER_SECOND;
/** The list is for reading aloud: more than this is never useful at once. */
export const PRECALL_MAX = 50;

/**
 * A racer's passes of precall points: reads at one point with no timing point passed between them are one
 * pass, timed by its first read. Reads before the racer's start (a warm-up lap through the precall) are not passes.
 */
export function passesOf(racer: PrecallRacer, reads: readonly PrecallRead[]): PrecallPass[] {
  const byKey = new Map<string, PrecallPass>();
  for (const read of reads) {
    if (read.racerId !== racer.racerId || (racer.start !== null && read.time < racer.start)) continue;
    const split = racer.splits.find((s) => s.time >= read.time);
    const next = split ? { index: split.index, time: split.time } : null;
    const key = `${read.pointId}\u0000${next?.index ?? "open"}`;
    const held = byKey.get(key);
    if (!held || read.time < held.time) byKey.set(key, { racerId: racer.racerId, pointId: read.pointId, time: read.time, next });
  }
  return [...byKey.values()].sort((a, b) => a.time - b.time || a.pointId.localeCompare(b.pointId));
}

/** How long each completed pass took to the next timing point, by precall point and course. */
export interface PrecallSample {
  pointId: string;
  course: string | null;
  /** When the next point was reached: the newest samples are the ones kept. */
  at: Micros;
  duration: Micros;
}

export function samplesOf(racer: PrecallRacer, passes: readonly PrecallPass[]): PrecallSample[] {
  const samples: PrecallSample[] = [];
  for (const pass of passes) {
    if (!pass.next) continue;
    const duration = pass.next.time - pass.time;
    if (duration >= 0 && duration <= MAX_SAMPLE_US) samples.push({ pointId: pass.pointId, course: racer.course, at: pass.next.time, duration });
  }
  return samples;
}

/**
 * The median of the newest TYPICAL_SAMPLES passes from this precall point on this course, or from this point
 * on any course when none ran this one; null when nobody has gone from the point to the next one yet.
 */
export function typicalTime(samples: readonly PrecallSample[], pointId: string, course: string | null): TypicalTime | null {
  const atPoint = samples.filter((s) => s.pointId === pointId);
  const onCourse = atPoint.filter((s) => s.course === course);
  const chosen = onCourse.length > 0 ? onCourse : atPoint;
  if (chosen.length === 0) return null;
  const newest = [...chosen].sort((a, b) => b.at - a.at).slice(0, TYPICAL_SAMPLES);
  return { duration: median(newest.map((s) => s.duration)), samples: newest.length };
}

/** The lower middle of an even count: a time someone actually took, never an average of two. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** How long after the precall a racer the next point has not read leaves the list. */
export function leaveAfter(typical: TypicalTime | null): Micros {
  if (!typical) return PRECALL_TIMEOUT_US;
  return Math.min(PRECALL_TIMEOUT_US, Math.max(2 * typical.duration, typical.duration + PRECALL_GRACE_US));
}

/**
 * Whether a racer can be on the way: on course, or "not started" to the engine, which counts a racer as started
 * from their first read only (a point-to-point racer's precall often comes before any timing point).
 */
function isRacing(status: RacerStatus): boolean {
  return status === "oncourse" || status === "notstarted";
}

/**
 * The precall list at `now`: each racer still racing whose newest pass of a precall point has no timing point
 * after it, until they leave (leaveAfter), newest pass first. A finish, a DNF, DSQ or DNS, or any timing point
 * read after the precall takes a racer off.
 */
export function precallList(racers: Iterable<PrecallRacer>, reads: readonly PrecallRead[], now: Micros): PrecallEntry[] {
  const readsOf = new Map<string, PrecallRead[]>();
  for (const read of reads) {
    const list = readsOf.get(read.racerId);
    if (list) list.push(read);
    else readsOf.set(read.racerId, [read]);
  }
  const samples: PrecallSample[] = [];
  const open: { racer: PrecallRacer; pass: PrecallPass }[] = [];
  for (const racer of racers) {
    const own = readsOf.get(racer.racerId);
    if (!own) continue;
    const passes = passesOf(racer, own);
    samples.push(...samplesOf(racer, passes));
    const newest = passes.at(-1);
    if (newest && newest.next === null && isRacing(racer.status)) open.push({ racer, pass: newest });
  }
  const entries: PrecallEntry[] = [];
  for (const { racer, pass } of open) {
    const typical = typicalTime(samples, pass.pointId, racer.course);
    const leaveAt = pass.time + leaveAfter(typical);
    if (now > leaveAt) continue;
    const expectedAt = typical ? pass.time + typical.duration : null;
    entries.push({
      racerId: racer.racerId,
      pointId: pass.pointId,
      time: pass.time,
      nextIndex: (racer.splits.at(-1)?.index ?? -1) + 1,
      expectedAt,
      expectedElapsed: expectedAt !== null && racer.start !== null ? expectedAt - racer.start : null,
      typical,
      leaveAt,
    });
  }
  return entries.sort((a, b) => b.time - a.time || a.racerId.localeCompare(b.racerId)).slice(0, PRECALL_MAX);
}
