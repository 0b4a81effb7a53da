/**
 * How far into the course each point is, and the pace or speed between points, from the course's lengths
 * where the setup gives them (decision 0035). Unknown distances give null: a page shows nothing rather than
 * a guess.
 */
import { findSport } from "./sports";
import type { Micros } from "./model";
import { MICROS_PER_SECOND } from "./model";

/** Pace (time per km) or speed (km/h): which a sport's results speak in. */
export type PaceMeasure = "pace" | "speed";

/** Sports timed by speed (riders and paddlers, downhill); the rest by pace, as runners and skiers read it. */
const SPEED_SPORTS = new Set(["Cycling", "Mountain Biking", "Alpine Skiing", "Canoe", "Kayak", "Rowing"]);

export function paceMeasureOf(sport: string | null): PaceMeasure {
  const known = sport === null ? undefined : findSport(sport);
  return known && SPEED_SPORTS.has(known.name) ? "speed" : "pace";
}

/** The course as distances see it: its non-start points in lap order, and its lengths in km. */
export interface CourseLengths {
  /** One lap's points after the start, in course order; `distanceKm` is how far into the lap a split point is. */
  pattern: readonly { mode: "lap" | "split"; distanceKm: number | null }[];
  lapCount: number | null;
  courseDistanceKm: number | null;
  lapDistanceKm: number | null;
}

/** One lap's length: the lap distance, else the course distance over the laps (a one-lap course is its distance). */
export function lapLengthKm(course: Pick<CourseLengths, "lapCount" | "courseDistanceKm" | "lapDistanceKm">): number | null {
  if (course.lapDistanceKm !== null && course.lapDistanceKm > 0) return course.lapDistanceKm;
  if (course.courseDistanceKm !== null && course.courseDistanceKm > 0 && course.lapCount !== null && course.lapCount > 0)
    return course.courseDistanceKm / course.lapCount;
  return null;
}

/** Km from the start to the split at `index` (lap by lap over the pattern); null when a length it needs is unknown. */
export function distanceAtKm(course: CourseLengths, index: number): number | null {
  const length = course.pattern.length;
  if (length === 0 || index < 0) return null;
  const lapsBefore = Math.floor(index / length);
  const point = course.pattern[index % length]!;
  const lap = lapLengthKm(course);
  const within = point.mode === "lap" ? lap : point.distanceKm;
  if (within === null) return null;
  if (lapsBefore === 0) return within;
  return lap === null ? null : lapsBefore * lap + within;
}

/** Time per km over `km`, in whole seconds (what "m:ss /km" shows); null without a distance. */
export function paceMicrosPerKm(time: Micros, km: number | null): Micros | null {
  if (km === null || km <= 0 || time <= 0) return null;
  return Math.round(time / km / MICROS_PER_SECOND) * MICROS_PER_SECOND;
}

/** Km/h over `km` in `time`, to one decimal; null without a distance or a time. */
export function speedKmPerHour(time: Micros, km: number | null): number | null {
  if (km === null || km <= 0 || time <= 0) return null;
  return Math.round((km / (time / (3600 * MICROS_PER_SECOND))) * 10) / 10;
}
