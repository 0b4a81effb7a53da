/**
 * The Segments page's forms and list edits (a free-order race's segments, course groups and meta start
 * groups). Each edit computes the whole new list and saves it through the RaceRoom's settings, which checks
 * it and resyncs the segment courses and start groups in the same write.
 */
import * as z from "zod";
import { nextSegmentName, SEGMENT_ORDER_TYPES } from "../core/timing/free-order";
import { defaultCourseGroup } from "../schema/race/free-order";
import { metaStartGroupSchema, type MetaCourseGroupEntry, type MetaStartGroupEntry, type RaceSettings, type SegmentEntry } from "../schema/race/settings";
import { absoluteOfTimeOfDay, type RaceClock } from "./race-clock.server";
import { blankOr, choice, requiredName, seconds, timeOfDay } from "./forms/field-rules";
import { criteriaOfForm, criterionFormFields } from "./race-setup.server";

export const segmentFormSchema = z.object({
  name: z.string().trim().max(200).default(""),
  start_point: z.string().default("").pipe(z.string().min(1, "Choose a timing point")),
  finish_point: z.string().default("").pipe(z.string().min(1, "Choose a timing point")),
  min_time: seconds(0),
});

/** The segment list with one segment added (a blank name takes the next "Segment #N") or changed in place. */
export function withSegment(list: readonly SegmentEntry[], id: string | null, v: z.output<typeof segmentFormSchema>): SegmentEntry[] {
  const others = list.filter((s) => s.id !== id);
  const entry: SegmentEntry = {
    id: id ?? crypto.randomUUID(),
    name: v.name || nextSegmentName(others),
    start_point: v.start_point,
    finish_point: v.finish_point,
    min_time: v.min_time ?? 0,
  };
  return id === null ? [...list, entry] : list.map((s) => (s.id === id ? entry : s));
}

/** Deleting a segment takes it out of the course groups that listed it too (a group left with none rides every segment). */
export function withoutSegment(settings: Pick<RaceSettings, "segments_list" | "meta_courses_list">, id: string) {
  return {
    segments_list: settings.segments_list.filter((s) => s.id !== id),
    meta_courses_list: settings.meta_courses_list.map((g) => ({ ...g, segment_order_list: g.segment_order_list.filter((s) => s !== id) })),
  };
}

/** A course group form: its segments are checkboxes named segment_<id>, none checked meaning every segment. */
export function courseGroupFormSchema(segmentIds: readonly string[]) {
  return z
    .object({ name: requiredName, segment_order_type: choice(SEGMENT_ORDER_TYPES, "Choose the order racers ride the segments in"), ...criterionFormFields })
    .catchall(z.string())
    .transform((v) => ({
      name: v.name,
      segment_order_type: v.segment_order_type,
      segment_order_list: segmentIds.filter((id) => v[`segment_${id}`] === "on"),
      criteria: criteriaOfForm(v),
    }));
}

export function withCourseGroup(
  list: readonly MetaCourseGroupEntry[],
  id: string | null,
  v: Pick<MetaCourseGroupEntry, "name" | "segment_order_type" | "segment_order_list" | "criteria">,
): MetaCourseGroupEntry[] {
  if (id === null) return [...list, { ...defaultCourseGroup(crypto.randomUUID()), ...v }];
  return list.map((g) => (g.id === id ? { ...g, ...v } : g));
}

export const metaStartFormSchema = z.object({ name: requiredName, first_start_time: blankOr(timeOfDay, null), start_interval: seconds(null) });

export function withMetaStart(
  list: readonly MetaStartGroupEntry[],
  id: string | null,
  v: z.output<typeof metaStartFormSchema>,
  clock: RaceClock,
): MetaStartGroupEntry[] {
  const fields = { name: v.name, first_start_time: absoluteOfTimeOfDay(v.first_start_time, clock), start_interval: v.start_interval };
  if (id === null) return [...list, metaStartGroupSchema.parse({ id: crypto.randomUUID(), ...fields })];
  return list.map((m) => (m.id === id ? { ...m, ...fields } : m));
}
