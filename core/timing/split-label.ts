/**
 * What an announcer calls a split (decision 0045): "Lap 2", "Finish", "Hill (lap 3)". A split's index counts
 * the course's non-start points lap by lap (model.ts Split), so the index names the point and the lap.
 */
import type { Course } from "./model";

/** The split at `index` of a course, in words; "Split n" when the course does not say (free-order and enduro indexes). */
export function splitLabel(course: Pick<Course, "points" | "lapCount" | "timeLimitEnd" | "maxLapCount"> | null, index: number): string {
  const pattern = course ? course.points.filter((p) => p.mode !== "start" && p.mode !== "chipstart") : [];
  if (!course || pattern.length === 0 || index < 0) return `Split ${index + 1}`;
  const point = pattern[index % pattern.length]!;
  const lap = Math.floor(index / pattern.length) + 1;
  const timeLimit = course.timeLimitEnd !== null || course.maxLapCount !== null;
  if (point.mode === "lap") return lap === course.lapCount && !timeLimit ? "Finish" : `Lap ${lap}`;
  const name = point.name.trim() || `Split ${(index % pattern.length) + 1}`;
  return course.lapCount > 1 || timeLimit ? `${name} (lap ${lap})` : name;
}
