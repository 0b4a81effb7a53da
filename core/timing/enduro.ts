/**
 * Enduro (timing.md sections 2 and 9): a course of timed descents ("stages" or segments) joined by transfer
 * stages that are not timed. On a course's points list each timed segment is a start (or chip start) point
 * followed by the next point, its finish; whatever lies between one segment's finish and the next start is
 * a transfer. The finish point's minimum split is the segment's minimum descent time. A racer's result is
 * the sum of their segment times; with the fastest-lap option a segment ridden more than once counts its
 * fastest run, otherwise its first.
 */
import { truncateMicros } from "../time/truncate";
import type { Course, Crossing, Micros } from "./model";

/** Column options for enduro results (timing.md section 9): each segment's time, with the running total too, or the finish only. */
export const ENDURO_COLUMN_OPTIONS = ["lap", "all", "finish"] as const;
export type EnduroColumnOption = (typeof ENDURO_COLUMN_OPTIONS)[number];
export const ENDURO_COLUMN_OPTION_LABELS: Record<EnduroColumnOption, string> = {
  lap: "Each stage's time",
  all: "Each stage's time and the total after it",
  finish: "Finish time only",
};

/** The spec's default names: "Stage #N" for an enduro's timed segments. */
export function stageName(n: number): string {
  return `Stage #${n}`;
}

/** The spec's default name of a free-order race's segments: "Segment #N". */
export function segmentName(n: number): string {
  return `Segment #${n}`;
}

export interface EnduroSegment {
  /** 0-based position among the course's timed segments. */
  index: number;
  name: string;
  startTimingPointId: string;
  finishTimingPointId: string;
  /** The finish's course point, which the results show the segment under. */
  finishCoursePointId: string;
  /** A finish read sooner than this after the start read is not this segment's finish (a double read, a short cut). */
  minTime: Micros;
}

/**
 * The course's timed segments: each start point with the point after it. A start with no point after it, or
 * followed by another start, times nothing; a point not preceded by a start is on a transfer.
 */
export function enduroSegments(course: Pick<Course, "points" | "freeOrder">): EnduroSegment[] {
  const segments: EnduroSegment[] = [];
  course.points.forEach((start, i) => {
    const finish = course.points[i + 1];
    if ((start.mode !== "start" && start.mode !== "chipstart") || !finish || finish.mode === "start" || finish.mode === "chipstart") return;
    segments.push({
      index: segments.length,
      // A free-order course group's segments keep their own names (carried on the finish point).
      name: course.freeOrder ? finish.name || segmentName(segments.length + 1) : stageName(segments.length + 1),
      startTimingPointId: start.timingPointId,
      finishTimingPointId: finish.timingPointId,
      finishCoursePointId: finish.id,
      minTime: finish.minSplit,
    });
  });
  return segments;
}

export interface SegmentRun {
  start: Micros;
  finish: Micros;
  /** finish − start, truncated to the race precision. */
  time: Micros;
}

/**
 * Every complete run of one segment, from crossings sorted by time. The latest start read before a finish
 * opens the run (a racer waiting in the start gate is read more than once); a finish read at least minTime
 * later closes it. When start and finish share a timing point (a loop), a read too soon after the start is
 * the same pass and ignored, and a closing read opens the next run.
 */
export function segmentRuns(segment: EnduroSegment, crossings: readonly Crossing[], precision: number): SegmentRun[] {
  const runs: SegmentRun[] = [];
  let open: Micros | null = null;
  const loop = segment.startTimingPointId === segment.finishTimingPointId;
  for (const crossing of crossings) {
    if (crossing.timingPointId === segment.finishTimingPointId && open !== null) {
      if (crossing.time - open >= segment.minTime) {
        runs.push({ start: open, finish: crossing.time, time: truncateMicros(crossing.time - open, precision) });
        open = null;
      } else if (loop) continue;
    }
    if (crossing.timingPointId === segment.startTimingPointId) open = crossing.time;
  }
  return runs;
}

export interface EnduroSegmentResult {
  /** The counted run's time; null until the segment has a complete run. */
  time: Micros | null;
  /** Complete runs of the segment. */
  runs: number;
  start: Micros | null;
  finish: Micros | null;
}

export interface EnduroProgress {
  segments: EnduroSegmentResult[];
  /** Segments with a counted time. */
  done: number;
  /** The sum of the counted segment times so far. */
  sum: Micros;
  /** The first counted run's start and the last counted run's finish (by time). */
  start: Micros | null;
  finish: Micros | null;
}

/**
 * Each segment's counted run (the first, or with `fastest` the fastest) and the sum so far. With `ordered`
 * (a free-order course group ridden in the listed order) a run counts only when it starts after the last
 * counted run finished; a segment with no such run is skipped, so one missed read does not void the rest.
 */
export function enduroProgress(
  segments: readonly EnduroSegment[],
  crossings: readonly Crossing[],
  { precision, fastest, ordered = false }: { precision: number; fastest: boolean; ordered?: boolean },
): EnduroProgress {
  let sum = 0;
  let done = 0;
  let start: Micros | null = null;
  let finish: Micros | null = null;
  const results = segments.map((segment): EnduroSegmentResult => {
    const after = ordered ? finish : null;
    const runs = segmentRuns(segment, crossings, precision).filter((run) => after === null || run.start >= after);
    const counted = fastest
      ? runs.reduce<SegmentRun | undefined>((best, run) => (best === undefined || run.time < best.time ? run : best), undefined)
      : runs[0];
    if (!counted) return { time: null, runs: 0, start: null, finish: null };
    sum += counted.time;
    done += 1;
    start = start === null ? counted.start : Math.min(start, counted.start);
    finish = finish === null ? counted.finish : Math.max(finish, counted.finish);
    return { time: counted.time, runs: runs.length, start: counted.start, finish: counted.finish };
  });
  return { segments: results, done, sum, start, finish };
}
