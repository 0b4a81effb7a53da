/**
 * A free-order race's setup kept whole (timing.md section 2): saving the segments resyncs the segment
 * courses (one per segment), deletes courses that have no segment, and rebuilds the start groups (one per
 * segment, or per segment and meta start group). Runs inside the RaceRoom's settings transaction.
 */
import { bumpMtimes, initialMtimes } from "../../core/entity/field-mtimes";
import { courseGroupProblem } from "../../core/timing/free-order";
import { TIMING_ERRORS } from "../../core/timing/errors";
import { NOT_A_RACE_TIMING_POINT } from "../../core/timing/validation";
import { startGroupSchema } from "../../schema/race/documents";
import { courseGroupsOf, defaultCourseGroup, plannedStartGroups, segmentCourseData, segmentsOf } from "../../schema/race/free-order";
import type { RaceSettings } from "../../schema/race/settings";
import type { RaceStore } from "./store";

/**
 * A settings change's free-order problems, field by field: meta start groups only on a free-order race
 * (the spec's message), segment points that exist, and course groups naming only the race's segments.
 */
export function freeOrderProblems(next: RaceSettings, changed: readonly string[], timingPointIds: ReadonlySet<string>): Record<string, string> | null {
  if (changed.includes("meta_startgroups_list") && next.meta_startgroups_list.length > 0 && !next.is_free_segment)
    return { meta_startgroups_list: TIMING_ERRORS.metaStartGroupsNotFreeSegment };
  const unknownPoint = next.segments_list.find((s) => !timingPointIds.has(s.start_point) || !timingPointIds.has(s.finish_point));
  if (changed.includes("segments_list") && unknownPoint) return { segments_list: NOT_A_RACE_TIMING_POINT };
  const ids = next.segments_list.map((s) => s.id);
  if (new Set(ids).size !== ids.length) return { segments_list: "Each segment needs its own id" };
  const problem = courseGroupProblem(courseGroupsOf(next), segmentsOf(next));
  return problem ? { meta_courses_list: problem } : null;
}

/** A race turning free-order with no course group gets the default one, "All Racers". */
export function withDefaultCourseGroup(next: RaceSettings): RaceSettings {
  if (!next.is_free_segment || next.meta_courses_list.length > 0) return next;
  return { ...next, meta_courses_list: [defaultCourseGroup(crypto.randomUUID())] };
}

/** Does this change need the courses and start groups brought in step? */
export function needsResync(next: RaceSettings, changed: readonly string[]): boolean {
  return next.is_free_segment && changed.some((key) => key === "is_free_segment" || key === "segments_list" || key === "meta_startgroups_list");
}

/** Brings segment courses and start groups in step with the settings; racers of a removed start group are left without one. */
export function resyncFreeOrder(store: RaceStore, settings: RaceSettings, now: number): void {
  const courses = store.documents("Course");
  const keptCourses = new Set<string>();
  settings.segments_list.forEach((segment, i) => {
    const existing = courses.find((c) => c.data.segment_id === segment.id);
    const id = existing?.id ?? crypto.randomUUID();
    const data = segmentCourseData(segment, existing?.data ?? null);
    keptCourses.add(id);
    store.putDocument(
      "Course",
      id,
      i + 1,
      data,
      existing ? bumpMtimes(store.documentMtimes(id), Object.keys(data), now) : initialMtimes(data as unknown as Record<string, unknown>, now),
    );
  });
  for (const course of courses) if (!keptCourses.has(course.id)) store.deleteDocument(course.id);

  const groups = store.documents("StartGroup");
  const keptGroups = new Set<string>();
  plannedStartGroups(settings).forEach((plan, i) => {
    const existing = groups.find((g) => g.data.segment_id === plan.segment_id && g.data.metagroup_id === plan.metagroup_id);
    const id = existing?.id ?? crypto.randomUUID();
    // Each segment is timed from the racer's own read at its start.
    const data = startGroupSchema.parse({ ...(existing?.data ?? {}), ...plan, start_option: "chipstart" });
    keptGroups.add(id);
    store.putDocument(
      "StartGroup",
      id,
      i + 1,
      data,
      existing ? bumpMtimes(store.documentMtimes(id), Object.keys(plan), now) : initialMtimes(data as unknown as Record<string, unknown>, now),
    );
  });
  const removed = new Set(groups.filter((g) => !keptGroups.has(g.id)).map((g) => g.id));
  for (const id of removed) store.deleteDocument(id);
  if (removed.size === 0) return;
  for (const racer of store.racers()) {
    if (racer.data.setupgroup_id !== null && removed.has(racer.data.setupgroup_id)) {
      store.putRacer(racer.id, { ...racer.data, setupgroup_id: null }, bumpMtimes(store.racerMtimes(racer.id), ["setupgroup_id"], now));
    }
  }
}
