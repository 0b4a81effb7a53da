/**
 * A free-order segment race's stored setup (settings segments_list, meta_courses_list,
 * meta_startgroups_list) in the engine's and the RaceRoom's terms: the core's segments and course groups,
 * the course each group is ranked as, the stored segment courses kept in step with the segment list, and
 * the start groups rebuilt from the segments and meta start groups (timing.md section 2).
 */
import { DEFAULT_COURSE_GROUP_NAME, courseGroupOf, segmentsOfGroup, type CourseGroupSetup, type FreeSegment } from "../../core/timing/free-order";
import type { Criterion, Racer } from "../../core/timing/model";
import { courseSchema, criterionSchema, type CourseDoc, type StoredDocument } from "./documents";
import type { MetaCourseGroupEntry, RaceSettings, SegmentEntry } from "./settings";

function freeSegmentOf(s: SegmentEntry): FreeSegment {
  return { id: s.id, name: s.name, startPointId: s.start_point, finishPointId: s.finish_point, minTime: s.min_time };
}

export function segmentsOf(settings: Pick<RaceSettings, "segments_list">): FreeSegment[] {
  return settings.segments_list.map(freeSegmentOf);
}

/** Stored criteria that do not read as criteria are left out (a group then matches on its id or as the only group). */
function criteriaOf(entries: readonly unknown[]): Criterion[] {
  return entries.flatMap((entry) => {
    const parsed = criterionSchema.safeParse(entry);
    return parsed.success ? [parsed.data as Criterion] : [];
  });
}

export function courseGroupsOf(settings: Pick<RaceSettings, "meta_courses_list">): CourseGroupSetup[] {
  return settings.meta_courses_list.map((g) => ({
    id: g.id,
    name: g.name,
    orderType: g.segment_order_type,
    segmentIds: g.segment_order_list,
    criteria: criteriaOf(g.criteria),
  }));
}

/** The default course group a race gets when it becomes free-order with none: "All Racers", every segment, any order. */
export function defaultCourseGroup(id: string): MetaCourseGroupEntry {
  return {
    id,
    name: DEFAULT_COURSE_GROUP_NAME,
    description: "",
    criteria: [],
    segment_order_type: "any",
    segment_order_list: [],
    seed_function: null,
    start_size: null,
    start_interval: null,
    first_bib: null,
    first_start_time: null,
    scheduled_start_time: null,
  };
}

/** A segment's start and finish as course points; the finish carries the segment's name and minimum time. */
function segmentPoints(segment: FreeSegment): CourseDoc["points_list"] {
  return courseSchema.shape.points_list.parse([
    { id: `${segment.id}:start`, point: segment.startPointId, mode: "start", name: "Start" },
    { id: `${segment.id}:finish`, point: segment.finishPointId, mode: "split", name: segment.name, min_split: segment.minTime },
  ]);
}

/** The stored course of one segment (segment_id set), as the resync writes it. */
export function segmentCourseData(segment: SegmentEntry, existing: CourseDoc | null): CourseDoc {
  return courseSchema.parse({
    ...(existing ?? {}),
    name: segment.name,
    timing_mode: "enduro",
    segment_id: segment.id,
    points_list: segmentPoints(freeSegmentOf(segment)),
  });
}

/**
 * The courses the engine ranks in a free-order race: one per course group, its segments' start and finish
 * pairs in segment list order, with the group's order type. Ids are the groups', which racers name in `course`.
 */
export function courseGroupDocs(settings: Pick<RaceSettings, "segments_list" | "meta_courses_list">): StoredDocument<"Course">[] {
  const segments = segmentsOf(settings);
  return courseGroupsOf(settings).map((group, i) => ({
    id: group.id,
    kind: "Course",
    ordinal: i + 1,
    data: courseSchema.parse({
      name: group.name,
      timing_mode: "enduro",
      segment_order_type: group.orderType,
      points_list: segmentsOfGroup(group, segments).flatMap(segmentPoints),
    }),
  }));
}

/** The courses results are computed and grouped on: the course groups in a free-order race, else the stored courses. */
export function engineCourseDocs(settings: RaceSettings, stored: StoredDocument<"Course">[]): StoredDocument<"Course">[] {
  return settings.is_free_segment ? courseGroupDocs(settings) : stored;
}

/** In a free-order race a racer's course is their course group (by id, criteria or the only group); elsewhere their own. */
export function racerCourseOf(settings: RaceSettings): ((racer: Racer) => string | null) | null {
  if (!settings.is_free_segment) return null;
  const groups = courseGroupsOf(settings);
  return (racer) => courseGroupOf(racer, groups);
}

export interface PlannedStartGroup {
  segment_id: string;
  metagroup_id: string | null;
  name: string;
  start_interval: number | null;
  scheduled_start_time: number | null;
}

/**
 * The start groups a free-order race has: one per segment, or one per segment and meta start group when
 * there are meta start groups. Each times from the racer's own read at the segment's start.
 */
export function plannedStartGroups(settings: Pick<RaceSettings, "segments_list" | "meta_startgroups_list">): PlannedStartGroup[] {
  const metas = settings.meta_startgroups_list;
  return settings.segments_list.flatMap((segment): PlannedStartGroup[] =>
    metas.length === 0
      ? [{ segment_id: segment.id, metagroup_id: null, name: segment.name, start_interval: null, scheduled_start_time: null }]
      : metas.map((m) => ({
          segment_id: segment.id,
          metagroup_id: m.id,
          name: `${m.name} – ${segment.name}`,
          start_interval: m.start_interval,
          scheduled_start_time: m.first_start_time,
        })),
  );
}
