/**
 * Test builders for races, shared by the timing tests. Times are written in seconds after a fixed gun
 * (`at(12.3)`) so the spec's numbers read as they are given.
 */
import type { Course, CoursePoint, Crossing, RaceInput, RaceRules, Racer, ResultGroupSpec, StartGroup } from "./model";
import { MICROS_PER_SECOND } from "./model";

/** The race's gun: 2025-06-01 10:00:00 UTC, in microseconds. */
export const GUN = 1_748_772_000_000_000;

export const seconds = (s: number): number => Math.round(s * MICROS_PER_SECOND);

/** An absolute time `s` seconds after the gun. */
export const at = (s: number): number => GUN + seconds(s);

export function rules(overrides: Partial<RaceRules> = {}): RaceRules {
  return {
    timingMode: "p2p",
    startMode: "mass",
    startOption: "gun",
    startTime: GUN,
    endTime: null,
    precision: 6,
    calcPrecision: 6,
    sameTimeThreshold: 0,
    dnfOption: "hide",
    dsqOption: "hide",
    ...overrides,
  };
}

export function point(id: string, mode: CoursePoint["mode"], overrides: Partial<CoursePoint> = {}): CoursePoint {
  return { id, timingPointId: `tp-${id}`, mode, name: id, minSplit: 0, ...overrides };
}

export function course(points: CoursePoint[], overrides: Partial<Course> = {}): Course {
  return { id: "c1", name: "Course 1", points, lapCount: 1, maxLapCount: null, timeLimitEnd: null, ...overrides };
}

export function startGroup(id: string, overrides: Partial<StartGroup> = {}): StartGroup {
  return {
    id,
    ordinal: 1,
    startMode: null,
    scheduledStartTime: null,
    assignedStartTime: null,
    recordedStartTime: null,
    startInterval: 0,
    startSize: 1,
    isStartSizeEnabled: false,
    ...overrides,
  };
}

export function racer(id: string, overrides: Partial<Racer> = {}): Racer {
  return {
    id,
    bib: null,
    chips: [],
    firstName: "",
    lastName: "",
    courseId: "c1",
    startGroupId: null,
    startTime: null,
    isDns: false,
    dnfTime: null,
    dsqTime: null,
    penalty: 0,
    bonus: 0,
    addBack: 0,
    paraFactor: null,
    fields: {},
    ...overrides,
  };
}

export function group(id: string, overrides: Partial<ResultGroupSpec> = {}): ResultGroupSpec {
  return { id, name: id, ordinal: 0, courseId: null, startGroupId: null, criteria: [], sameTimeThreshold: null, ...overrides };
}

export function raceInput(overrides: Partial<RaceInput> = {}): RaceInput {
  return { rules: rules(), courses: [], startGroups: [], racers: [], groups: [], ...overrides };
}

/** Crossings numbered in the order written: `reads("r1", ["tp-a", 10], ["tp-b", 20.5])`. */
export function reads(racerId: string, ...entries: [timingPointId: string, secondsAfterGun: number][]): Crossing[] {
  return entries.map(([timingPointId, s], i) => ({ seq: i + 1, racerId, timingPointId, time: at(s) }));
}
