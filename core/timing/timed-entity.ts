/**
 * TimedEntity (timing.md section 3): one racer's run or round, holding its crossing lists per course point
 * and its statuses. The RaceRoom keeps crossings in one append-only log; this is the per-racer view built
 * from it, and the flat storage names (time_{index}_list, round_{r}_time_{index}_list, dnf_{n}_time, …)
 * the data API and the multi-run and heats modes use.
 */
import type { Course, Micros } from "./model";
import type { RecordedTimes } from "./status";

/** A crossing time plus the device that recorded it (null for a keypad or hand entry). */
export interface TimeEntry {
  time: Micros;
  device: string | null;
}

/** Misses at the shooting after one lap (biathlon): { misses }. */
export type BiathlonLap = Record<string, number>;

/** Status fields of one run or round: dnf_{n}_time, dsq_{n}_time, is_dns_{n}. */
export interface RoundStatus {
  dnfTime: Micros | null;
  dsqTime: Micros | null;
  isDns: boolean;
}

export interface TimedEntity extends RecordedTimes<TimeEntry, BiathlonLap> {
  racerId: string;
  startGroupId: string | null;
  courseId: string | null;
  /** 1-based; a single-run race has run 1. */
  runNum: number;
  /** 1-based; a race without heats has round 1. */
  roundNum: number;
  heat: string | null;
  assignedStartTime: Micros | null;
  scheduledStartTime: Micros | null;
  dnfTime: Micros | null;
  dsqTime: Micros | null;
  isDns: boolean;
  /** Per-round (or per-run) statuses, by round number. */
  variants: Record<number, RoundStatus>;
}

/** The storage name of a point's crossing list; rounds after the first keep their own lists. */
export function timeListKey(pointIndex: number, round = 1): string {
  return round > 1 ? `round_${round}_time_${pointIndex}_list` : `time_${pointIndex}_list`;
}

export function variantKeys(n: number): { dnf: string; dsq: string; dns: string } {
  return { dnf: `dnf_${n}_time`, dsq: `dsq_${n}_time`, dns: `is_dns_${n}` };
}

export interface EntityCrossing {
  timingPointId: string;
  time: Micros;
  deviceId: string | null;
}

export interface EntityBase {
  racerId: string;
  startGroupId: string | null;
  courseId: string | null;
  heat?: string | null;
  assignedStartTime?: Micros | null;
  scheduledStartTime?: Micros | null;
  dnfTime: Micros | null;
  dsqTime: Micros | null;
  isDns: boolean;
  variants?: Record<number, RoundStatus>;
  /** From the results: started and neither finished nor out. */
  isOncourse?: boolean;
  /** Biathlon: misses per shooting (shooting n follows lap n). */
  rangeMisses?: readonly (number | null)[];
  /** Biathlon: when each lap was closed (from the results), to file penalty-loop reads under their lap. */
  lapCloses?: readonly Micros[];
}

/**
 * Builds a racer's entity for one run and round. A crossing goes in the list of the first course point
 * at its timing point (a lap point's passes all land in that one list), in time order; crossings at
 * points the course does not use are left out, as the engine ignores them.
 */
export function timedEntityOf(
  base: EntityBase,
  course: Course | null,
  crossings: EntityCrossing[],
  at: { runNum?: number; roundNum?: number } = {},
): TimedEntity {
  const roundNum = at.roundNum ?? 1;
  const indexOfPoint = new Map<string, number>();
  course?.points.forEach((point, index) => {
    if (!indexOfPoint.has(point.timingPointId)) indexOfPoint.set(point.timingPointId, index);
  });
  const timeLists: Record<string, TimeEntry[]> = {};
  const penaltyTimes: Record<string, TimeEntry[]> = {};
  const penaltyPoint = course?.biathlon?.penaltyTimingPointId ?? null;
  const closes = base.lapCloses ?? [];
  for (const crossing of [...crossings].sort((a, b) => a.time - b.time)) {
    if (crossing.timingPointId === penaltyPoint) {
      // A loop skied after lap n's shooting goes in penalty_times_{n}_list; reads before lap 1 closed are no loop.
      const lap = closes.filter((close) => close < crossing.time).length;
      if (lap > 0) (penaltyTimes[`penalty_times_${lap}_list`] ??= []).push({ time: crossing.time, device: crossing.deviceId });
      continue;
    }
    const index = indexOfPoint.get(crossing.timingPointId);
    if (index === undefined) continue;
    (timeLists[timeListKey(index, roundNum)] ??= []).push({ time: crossing.time, device: crossing.deviceId });
  }
  return {
    racerId: base.racerId,
    startGroupId: base.startGroupId,
    courseId: base.courseId,
    runNum: at.runNum ?? 1,
    roundNum,
    heat: base.heat ?? null,
    assignedStartTime: base.assignedStartTime ?? null,
    scheduledStartTime: base.scheduledStartTime ?? null,
    dnfTime: base.dnfTime,
    dsqTime: base.dsqTime,
    isDns: base.isDns,
    variants: base.variants ?? {},
    timeLists,
    biathlon: Object.fromEntries((base.rangeMisses ?? []).flatMap((misses, i) => (misses === null ? [] : [[`lap_${i + 1}_biathlon_dict`, { misses }]]))),
    penaltyTimes,
    isOncourse: base.isOncourse ?? false,
    warnings: [],
  };
}

type StoredValue = string | number | boolean | null | TimeEntry[] | BiathlonLap;

/** The flat storage form: the spec's field names, as the data API shows them. */
export function timedEntityToStorage(entity: TimedEntity): Record<string, StoredValue> {
  const stored: Record<string, StoredValue> = {
    racer: entity.racerId,
    startgroup: entity.startGroupId,
    course: entity.courseId,
    run_num: entity.runNum,
    round_num: entity.roundNum,
    heat: entity.heat,
    assigned_start_time: entity.assignedStartTime,
    scheduled_start_time: entity.scheduledStartTime,
    dnf_time: entity.dnfTime,
    dsq_time: entity.dsqTime,
    is_dns: entity.isDns,
    is_oncourse: entity.isOncourse,
  };
  for (const [n, status] of Object.entries(entity.variants)) {
    const keys = variantKeys(Number(n));
    stored[keys.dnf] = status.dnfTime;
    stored[keys.dsq] = status.dsqTime;
    stored[keys.dns] = status.isDns;
  }
  Object.assign(stored, entity.timeLists, entity.biathlon, entity.penaltyTimes);
  return stored;
}

const VARIANT_KEY = /^(dnf|dsq)_(\d+)_time$|^is_dns_(\d+)$/;
const TIME_LIST_KEY = /^(?:round_\d+_)?time_\d+_list$/;
const BIATHLON_KEY = /^lap_\d+_biathlon_dict$/;
const PENALTY_KEY = /^penalty_times_\d+_list$/;

/** Reads the flat storage form back; unknown keys are ignored. */
export function timedEntityFromStorage(stored: Record<string, unknown>): TimedEntity {
  const entity: TimedEntity = {
    racerId: String(stored.racer ?? ""),
    startGroupId: (stored.startgroup as string | null) ?? null,
    courseId: (stored.course as string | null) ?? null,
    runNum: Number(stored.run_num ?? 1),
    roundNum: Number(stored.round_num ?? 1),
    heat: (stored.heat as string | null) ?? null,
    assignedStartTime: (stored.assigned_start_time as number | null) ?? null,
    scheduledStartTime: (stored.scheduled_start_time as number | null) ?? null,
    dnfTime: (stored.dnf_time as number | null) ?? null,
    dsqTime: (stored.dsq_time as number | null) ?? null,
    isDns: stored.is_dns === true,
    variants: {},
    timeLists: {},
    biathlon: {},
    penaltyTimes: {},
    isOncourse: stored.is_oncourse === true,
    warnings: [],
  };
  for (const [key, value] of Object.entries(stored)) {
    const variant = VARIANT_KEY.exec(key);
    if (variant) {
      const n = Number(variant[2] ?? variant[3]);
      const status = (entity.variants[n] ??= { dnfTime: null, dsqTime: null, isDns: false });
      if (variant[1] === "dnf") status.dnfTime = value as number | null;
      else if (variant[1] === "dsq") status.dsqTime = value as number | null;
      else status.isDns = value === true;
    } else if (TIME_LIST_KEY.test(key)) entity.timeLists[key] = value as TimeEntry[];
    else if (BIATHLON_KEY.test(key)) entity.biathlon[key] = value as BiathlonLap;
    else if (PENALTY_KEY.test(key)) entity.penaltyTimes[key] = value as TimeEntry[];
  }
  return entity;
}

/** The status a run or round uses: its own variant when it has one, else the entity's. */
export function statusOfRound(entity: TimedEntity, n: number): RoundStatus {
  return entity.variants[n] ?? { dnfTime: entity.dnfTime, dsqTime: entity.dsqTime, isDns: entity.isDns };
}
