/**
 * Free-order segment races (timing.md sections 2, 3, 8 and 9): racers ride a race's timed segments in the
 * order they choose. Each segment is a start point and a finish point; a meta course group ("course
 * group") is the racers who ride the same segments, in any order or in the segment list's order; a meta
 * start group says when they may start. A course group is ranked as an enduro course whose points are its
 * segments' start and finish pairs, so one results engine serves both (enduro.ts matches each segment on its own).
 */
import { segmentName } from "./enduro";
import { TimingError, TIMING_ERRORS } from "./errors";
import { criterionHolds } from "./groups";
import type { Criterion, Micros, Racer } from "./model";

export { segmentName };

/** Segments a race may have (not in the spec: a course's points_list holds at most 100 points, two per segment). */
export const MAX_SEGMENTS = 50;

/** The spec's default name of a free-order race's one course group. */
export const DEFAULT_COURSE_GROUP_NAME = "All Racers";

/** segment_order_type: "any" rides the group's segments in any order, "fixed" in the segment list's order. */
export const SEGMENT_ORDER_TYPES = ["any", "fixed"] as const;
export type SegmentOrderType = (typeof SEGMENT_ORDER_TYPES)[number];
export const SEGMENT_ORDER_LABELS: Record<SegmentOrderType, string> = {
  any: "In any order",
  fixed: "In the order of the segment list",
};

export interface FreeSegment {
  id: string;
  name: string;
  startPointId: string;
  finishPointId: string;
  /** A finish read sooner than this after the start read is not a run of the segment. */
  minTime: Micros;
}

export interface CourseGroupSetup {
  id: string;
  name: string;
  orderType: SegmentOrderType;
  /** The group's segments; empty means every segment of the race. */
  segmentIds: readonly string[];
  /** Racers with no course group of their own join the first group whose criteria all hold. */
  criteria: readonly Criterion[];
}

/**
 * The segments a course group rides, in the segment list's order (the order "fixed" groups ride them).
 * A segment id the race does not have is a broken setup: "That segment does not exist".
 */
export function segmentsOfGroup(group: Pick<CourseGroupSetup, "segmentIds">, segments: readonly FreeSegment[]): FreeSegment[] {
  if (group.segmentIds.length === 0) return [...segments];
  const missing = group.segmentIds.find((id) => !segments.some((s) => s.id === id));
  if (missing !== undefined) throw new TimingError("noSuchSegment", missing);
  return segments.filter((s) => group.segmentIds.includes(s.id));
}

/** The spec's message for the first course group naming a segment the race does not have, else null. */
export function courseGroupProblem(groups: readonly Pick<CourseGroupSetup, "segmentIds">[], segments: readonly Pick<FreeSegment, "id">[]): string | null {
  const known = new Set(segments.map((s) => s.id));
  return groups.some((g) => g.segmentIds.some((id) => !known.has(id))) ? TIMING_ERRORS.noSuchSegment : null;
}

/** The name a new segment gets: "Segment #N", N one past the list's length and past any name already taken. */
export function nextSegmentName(segments: readonly Pick<FreeSegment, "name">[]): string {
  const taken = new Set(segments.map((s) => s.name));
  let n = segments.length + 1;
  while (taken.has(segmentName(n))) n += 1;
  return segmentName(n);
}

/**
 * A racer's course group: the one their course names; else the first whose criteria hold (a group with
 * no criteria matches no one this way); else the race's only group. null when none applies.
 */
export function courseGroupOf(racer: Racer, groups: readonly Pick<CourseGroupSetup, "id" | "criteria">[]): string | null {
  if (racer.courseId !== null) return groups.some((g) => g.id === racer.courseId) ? racer.courseId : null;
  const matched = groups.find((g) => g.criteria.length > 0 && g.criteria.every((c) => criterionHolds(c, racer)));
  if (matched) return matched.id;
  return groups.length === 1 ? groups[0]!.id : null;
}

export interface FreeOrderRacer {
  /** How the warning names the racer: "bib 12 Ana Alpine". */
  label: string;
  racer: Racer;
  metastartId: string | null;
}

/**
 * The console messages of timing.md section 8 for free-order racers the results cannot place: no start
 * group (the race has meta start groups, the racer none of them), no course (no course group applies),
 * or a course naming no course group (a stale metagroup).
 */
export function freeOrderWarnings(
  racers: readonly FreeOrderRacer[],
  setup: { groups: readonly Pick<CourseGroupSetup, "id" | "criteria">[]; metaStartIds: readonly string[] },
): string[] {
  const warnings: string[] = [];
  const starts = new Set(setup.metaStartIds);
  for (const { label, racer, metastartId } of racers) {
    if (starts.size > 0 && (metastartId === null || !starts.has(metastartId))) warnings.push(`Free-order racer ${label} has no start group`);
    if (racer.courseId !== null && !setup.groups.some((g) => g.id === racer.courseId))
      warnings.push(`Free-order racer ${label} has no metagroup: course ${racer.courseId} is not a course group`);
    else if (courseGroupOf(racer, setup.groups) === null) warnings.push(`Free-order racer ${label} has no course`);
  }
  return warnings;
}
