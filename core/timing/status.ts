import type { Invalid } from "../time/parse";
import type { Micros, RacerStatus } from "./model";

/** Racer statuses and race states (timing.md section 4). */

export interface StatusFlags {
  isDns: boolean;
  dnfTime: Micros | null;
  dsqTime: Micros | null;
}

/** What a timer sets: a status, or "ok" / "" to clear them. */
export const STATUS_CHANGES = ["dns", "dnf", "dsq", "ok", ""] as const;
export type StatusChange = (typeof STATUS_CHANGES)[number];

export const STATUS_TIME_REQUIRED = {
  dnf: "A DNF needs the time it happened",
  dsq: "A DSQ needs the time it happened",
} as const;
export const STATUS_UNKNOWN = "Status must be dns, dnf, dsq or ok";

const CLEAR: StatusFlags = { isDns: false, dnfTime: null, dsqTime: null };

/**
 * `entity` (a racer or timed entity) with one status set and the other two cleared; "ok" or "" clears
 * all three. dns is a flag (a time given with it is ignored); dnf and dsq record when they happened, so
 * they need a time. Other fields of `entity` are kept.
 */
export function setRacerStatus<T extends StatusFlags>(entity: T, status: StatusChange, time: Micros | null): T | Invalid {
  switch (status) {
    case "dns":
      return { ...entity, ...CLEAR, isDns: true };
    case "dnf":
    case "dsq":
      if (time === null || !Number.isFinite(time)) return { error: STATUS_TIME_REQUIRED[status] };
      return status === "dnf" ? { ...entity, ...CLEAR, dnfTime: time } : { ...entity, ...CLEAR, dsqTime: time };
    case "ok":
    case "":
      return { ...entity, ...CLEAR };
    default:
      return { error: STATUS_UNKNOWN };
  }
}

/** "DSQ", "DNS" or "DNF" by that priority when more than one is set (old data), else "". */
export function statusText(flags: StatusFlags): "" | "DSQ" | "DNS" | "DNF" {
  if (flags.dsqTime !== null) return "DSQ";
  if (flags.isDns) return "DNS";
  if (flags.dnfTime !== null) return "DNF";
  return "";
}

/** The parts of a TimedEntity that hold recorded times and what follows from them. */
export interface RecordedTimes<TimeEntry = unknown, BiathlonLap = unknown> {
  /** time_{index}_list and round_{r}_time_{index}_list, by storage name. */
  timeLists: Record<string, TimeEntry[]>;
  /** lap_{n}_biathlon_dict, by storage name. */
  biathlon: Record<string, BiathlonLap>;
  /** penalty_times_{lap}_list, by storage name. */
  penaltyTimes: Record<string, TimeEntry[]>;
  isOncourse: boolean;
  warnings: string[];
}

/**
 * "Clear all times": empties the time lists, biathlon data and penalty times, and drops the oncourse
 * flag and warnings. Everything else (statuses, start times, racer, course) is kept.
 */
export function clearAllTimes<T extends RecordedTimes>(entity: T): T {
  return { ...entity, timeLists: {}, biathlon: {}, penaltyTimes: {}, isOncourse: false, warnings: [] };
}

/** The TimedEntity storage fields "clear all times" removes, for a store that saves field by field. */
const CLEARED_FIELD = /^(?:(?:round_\d+_)?time_\d+_list|lap_\d+_biathlon_dict|penalty_times_\d+_list|is_oncourse|warnings)$/;

export function isClearedByClearAllTimes(fieldName: string): boolean {
  return CLEARED_FIELD.test(fieldName);
}

export type RaceState = "not started" | "active" | "ended";

/** Active from start_time (inclusive) until end_time (exclusive); no start time is not started, no end time never ends. */
export function raceState(startTime: Micros | null, endTime: Micros | null, now: Micros): RaceState {
  if (startTime === null || now < startTime) return "not started";
  if (endTime !== null && now >= endTime) return "ended";
  return "active";
}

/** A racer's status as pages say it (the out statuses as their codes). */
export const RACER_STATUS_LABELS: Record<RacerStatus, string> = {
  finished: "Finished",
  oncourse: "On course",
  notstarted: "Not started",
  dns: "DNS",
  dnf: "DNF",
  dsq: "DSQ",
};
