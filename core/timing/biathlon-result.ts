/**
 * A biathlon racer's shooting, penalty loops and times (timing.md sections 2, 3 and 9), from what the
 * sequence matcher accepted: one shooting between consecutive laps, so shooting k happens in lap k + 1,
 * where its range-in and range-out points are passed and its penalty loops skied.
 */
import { truncateMicros } from "../time/truncate";
import { missingLoops, penaltyLoopsDone, rangeTime } from "./biathlon";
import type { BiathlonCourse, BiathlonResult, Course, Crossing, Micros, Split, TimedRacer } from "./model";

export interface BiathlonInput {
  course: Course;
  /** The course's shooting rules (its `biathlon`). */
  rules: BiathlonCourse;
  racer: TimedRacer;
  start: Micros;
  splits: readonly Split[];
  /** The racer's crossings, sorted and already cut at the hide time. */
  crossings: readonly Crossing[];
  /** The racer's result time before any shooting penalty (null until finished). */
  baseTime: Micros | null;
  precision: number;
}

/** Shootings of a course: one between each pair of laps. */
export function shootingCount(course: Course): number {
  return Math.max(0, course.lapCount - 1);
}

/** Absolute time each lap was closed, lap 1 first; null for a lap not closed yet. */
export function lapCloses(course: Course, splits: readonly Split[]): (Micros | null)[] {
  const lapPoints = new Set(course.points.filter((p) => p.mode === "lap").map((p) => p.id));
  const closes: (Micros | null)[] = Array.from({ length: course.lapCount }, () => null);
  for (const split of splits) if (lapPoints.has(split.coursePointId) && split.lap <= course.lapCount) closes[split.lap - 1] = split.time;
  return closes;
}

/** Range-in and range-out times of each shooting: the role's split in the lap after the shooting. */
function rangeReads(course: Course, splits: readonly Split[], role: "in" | "out", shootings: number): (Micros | null)[] {
  const ids = new Set(course.points.filter((p) => p.rangeRole === role).map((p) => p.id));
  const reads: (Micros | null)[] = Array.from({ length: shootings }, () => null);
  for (const split of splits) if (ids.has(split.coursePointId) && split.lap >= 2 && split.lap - 2 < shootings) reads[split.lap - 2] = split.time;
  return reads;
}

/**
 * Penalty loops after each shooting: reads at the recorder's timing point after lap k closed and up to the
 * close of lap k + 1 (open while that lap runs). Loops are owed only once the lap after is closed.
 */
function loopsPerShooting(input: BiathlonInput, closes: readonly (Micros | null)[], shootings: number): number[] {
  const biathlon = input.rules;
  if (biathlon.penaltyType !== "lap" || biathlon.penaltyTimingPointId === null) return Array.from({ length: shootings }, () => 0);
  const reads = input.crossings.filter((c) => c.timingPointId === biathlon.penaltyTimingPointId && c.time > input.start).map((c) => c.time);
  return Array.from({ length: shootings }, (_, k) => {
    const from = closes[k];
    if (from === null || from === undefined) return 0;
    const to = closes[k + 1] ?? Infinity;
    return penaltyLoopsDone(
      reads.filter((time) => time > from && time <= to),
      biathlon.minLoop,
    );
  });
}

/**
 * Shooting and times. Time penalties: every miss adds perMiss. Penalty laps: the loops are skied, so their
 * time is in the crossings; a loop owed but not skied (counted once the lap after the shooting is closed)
 * adds perMiss, so skipping a loop never pays.
 */
export function biathlonResult(input: BiathlonInput): BiathlonResult {
  const { course, rules: biathlon, racer, splits, baseTime, precision } = input;
  const shootings = shootingCount(course);
  const misses = Array.from({ length: shootings }, (_, k) => {
    const value = racer.rangeMisses?.[k];
    return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : null;
  });
  const closes = lapCloses(course, splits);
  const loops = loopsPerShooting(input, closes, shootings);
  let penalty = 0;
  misses.forEach((missed, k) => {
    if (missed === null) return;
    if (biathlon.penaltyType === "time") penalty += missed * biathlon.perMiss;
    else if (closes[k + 1] !== null && closes[k + 1] !== undefined) penalty += missingLoops(missed, loops[k] ?? 0) * biathlon.perMiss;
  });
  const total = baseTime === null ? null : truncateMicros(baseTime + penalty, precision);
  const hasRange = course.points.some((p) => p.rangeRole === "in") && course.points.some((p) => p.rangeRole === "out");
  const measured = hasRange ? rangeTime(rangeReads(course, splits, "in", shootings), rangeReads(course, splits, "out", shootings)) : null;
  const range = measured === null ? null : truncateMicros(measured, precision);
  const ski = total !== null && range !== null ? total - range : null;
  return { misses, loops, penalty, total, range, ski };
}
