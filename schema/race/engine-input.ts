/**
 * Stored race documents (spec field names) -> the results engine's model (core/timing/model.ts).
 * One direction only: the engine never writes storage.
 */
import { BIATHLON_MIN_PENALTY_LOOP, BIATHLON_PENALTY_PER_MISS } from "../../core/timing/biathlon";
import {
  MICROS_PER_SECOND,
  type BiathlonCourse,
  type Course,
  type Criterion,
  type FieldValue,
  type Racer,
  type RaceInput,
  type RaceRules,
  type ResultGroupSpec,
  type StartGroup,
  type TimingMode,
} from "../../core/timing/model";
import { triathlonCourse, type SectionBoundary } from "../../core/timing/triathlon";
import { withAgeDates } from "../../core/timing/age-classes";
import type { CourseDoc, ResultFormatDoc, ResultGroupDoc, StartGroupDoc, StoredDocument } from "./documents";
import { racerCourseOf } from "./free-order";
import { chipsOf, birthYearOf, type RacerDoc } from "./racer";
import { runCountOf, type RaceSettings } from "./settings";

export interface StoredRacer {
  id: string;
  data: RacerDoc;
  /** The racer's small number in this race (live frames name racers by it); absent before the racer is stored. */
  handle?: number;
}

export interface RaceDocuments {
  courses: StoredDocument<"Course">[];
  /** Timing points: where the penalty-lap recorder's reads land (biathlon). */
  points?: StoredDocument<"TimingPoint">[];
  startGroups: StoredDocument<"StartGroup">[];
  formats: StoredDocument<"ResultFormat">[];
  groups: StoredDocument<"ResultGroup">[];
}

/** The engine's mode: a triathlon runs as one lap of its sections, so as a lap race. */
function engineMode(mode: RaceSettings["timing_mode"] | CourseDoc["timing_mode"]): TimingMode {
  return mode === "p2p" || mode === "timelimit" || mode === "enduro" ? mode : "lap";
}

export function rulesOf(settings: RaceSettings, startTimeMs: number, endTimeMs: number | null): RaceRules {
  return {
    timingMode: engineMode(settings.timing_mode),
    startMode: settings.start_mode,
    // Individual start forces the chip start option; otherwise the default is the gun (timing.md section 3).
    startOption: settings.start_option ?? (settings.start_mode === "individual" ? "chipstart" : "gun"),
    startTime: startTimeMs * 1000,
    endTime: endTimeMs === null ? null : endTimeMs * 1000,
    precision: settings.precision,
    calcPrecision: settings.calc_precision,
    sameTimeThreshold: settings.same_time_threshold,
    dnfOption: settings.dnf_option,
    dsqOption: settings.dsq_option,
    multiRun: runCountOf(settings) > 0 ? { runCount: runCountOf(settings), mode: settings.multi_run_mode } : null,
    fastestLap: settings.is_fastest_lap,
  };
}

export function courseOf(doc: StoredDocument<"Course">, settings: RaceSettings, points: StoredDocument<"TimingPoint">[] = []): Course {
  return courseWithSections(doc, settings, points).course;
}

/** The timing point a device is listed on (the first one), or null. */
export function timingPointOfDevice(points: StoredDocument<"TimingPoint">[], deviceId: string | null): string | null {
  if (deviceId === null) return null;
  return points.find((p) => p.data.devices_list.some((d) => d.id === deviceId))?.id ?? null;
}

/** A biathlon race's shooting rules for one course: the course's own penalty settings, else the race's and the spec's defaults. */
function biathlonOf(doc: StoredDocument<"Course">, settings: RaceSettings, points: StoredDocument<"TimingPoint">[]): BiathlonCourse | null {
  if (settings.biathlon_penalty_type === null) return null;
  const penaltyType = doc.data.biathlon_penalty_type ?? settings.biathlon_penalty_type;
  return {
    penaltyType,
    perMiss: doc.data.biathlon_penalty ?? BIATHLON_PENALTY_PER_MISS,
    minLoop: doc.data.min_penalty_loop_seconds === null ? BIATHLON_MIN_PENALTY_LOOP : Math.round(doc.data.min_penalty_loop_seconds * MICROS_PER_SECOND),
    penaltyTimingPointId: penaltyType === "lap" ? timingPointOfDevice(points, settings.biathlon_penalty_device) : null,
    resultCalculation: settings.biathlon_result_calc,
  };
}

/** Triathlon lap counts of a course: each leg 1 lap unless set (0 skips it). */
function lapCountsOf(doc: StoredDocument<"Course">) {
  return { swimLapCount: doc.data.swim_lap_count ?? 1, bikeLapCount: doc.data.bike_lap_count ?? 1, runLapCount: doc.data.run_lap_count ?? 1 };
}

/** The engine's course, and for triathlon courses where each section ends in the crossing sequence. */
export function courseWithSections(
  doc: StoredDocument<"Course">,
  settings: RaceSettings,
  timingPoints: StoredDocument<"TimingPoint">[] = [],
): { course: Course; sections: SectionBoundary[] | null } {
  const timingMode = doc.data.timing_mode ?? settings.timing_mode;
  const mode = engineMode(timingMode);
  const course: Course = {
    id: doc.id,
    name: doc.data.name,
    points: doc.data.points_list.map((p) => ({
      id: p.id,
      timingPointId: p.point,
      mode: p.mode,
      name: p.name,
      minSplit: p.min_split,
      section: p.section,
      rangeRole: p.range_role,
    })),
    lapCount: mode === "p2p" ? 1 : (doc.data.lap_count ?? settings.lap_count),
    maxLapCount: doc.data.max_lap_count ?? settings.max_lap_count,
    timeLimitEnd: doc.data.end_time,
    biathlon: timingMode === "triathlon" ? null : biathlonOf(doc, settings, timingPoints),
    freeOrder: doc.data.segment_order_type === null ? null : { ordered: doc.data.segment_order_type === "fixed" },
  };
  if (timingMode !== "triathlon") return { course, sections: null };
  const sectioned = triathlonCourse(course, lapCountsOf(doc));
  return { course: sectioned.course, sections: sectioned.boundaries };
}

export function startGroupOf(doc: StoredDocument<"StartGroup">, settings: RaceSettings): StartGroup {
  const data: StartGroupDoc = doc.data;
  return {
    id: doc.id,
    ordinal: doc.ordinal,
    startMode: data.start_mode,
    scheduledStartTime: data.scheduled_start_time,
    assignedStartTime: data.assigned_start_time,
    recordedStartTime: data.recorded_start_time,
    startInterval: data.start_interval ?? settings.start_interval,
    startSize: data.start_size ?? settings.start_size,
    isStartSizeEnabled: settings.is_start_size_enabled,
  };
}

/** The racer fields result groups and criteria may match on, by spec name. */
export function racerFieldsOf(data: RacerDoc): Record<string, FieldValue> {
  return {
    sex: data.sex,
    category: data.category,
    club: data.club,
    team: data.team,
    city: data.city,
    province: data.province,
    birth_year: birthYearOf(data),
    dob: data.dob,
    seed: data.seed,
    ...data.custom,
  };
}

/** The engine's racer; `courseOf` (a free-order race's course groups) overrides the stored course. */
export function racerOf(stored: StoredRacer, courseOf: ((racer: Racer) => string | null) | null = null): Racer {
  const racer = racerFromStorage(stored);
  return courseOf ? { ...racer, courseId: courseOf(racer) } : racer;
}

function racerFromStorage(stored: StoredRacer): Racer {
  const data = stored.data;
  return {
    id: stored.id,
    bib: data.bib,
    chips: chipsOf(data),
    firstName: data.first_name,
    lastName: data.last_name,
    courseId: data.course,
    startGroupId: data.setupgroup_id,
    startTime: data.assigned_start_time ?? data.scheduled_start_time,
    isDns: data.dns,
    dnfTime: data.dnf_time,
    dsqTime: data.dsq_time,
    penalty: data.penalty,
    bonus: data.bonus,
    addBack: data.add_back,
    paraFactor: data.para_factor,
    fields: racerFieldsOf(data),
    rangeMisses: data.biathlon_misses,
    runStatuses: data.run_statuses.map((s) => (s === null ? null : { isDns: s.is_dns, dnfTime: s.dnf_time, dsqTime: s.dsq_time })),
    // The handle never changes and is never reused, so a removal leaves every other racer's key as it was.
    ...(stored.handle === undefined ? {} : { order: stored.handle }),
  };
}

export interface FormatGroup {
  formatId: string;
  spec: ResultGroupSpec;
}

/**
 * The result groups of one format: its ResultGroup documents if it has any, else the groups its
 * group_type makes (timing.md section 2: all racers, by course, by start order, from a racer field).
 * The format's own filters apply to every group. Ids are prefixed with the format's, so formats never share a group.
 */
export function groupsOfFormat(
  format: StoredDocument<"ResultFormat">,
  groupDocs: StoredDocument<"ResultGroup">[],
  courses: StoredDocument<"Course">[],
  startGroups: StoredDocument<"StartGroup">[],
  racers: StoredRacer[],
  raceDay: string,
): ResultGroupSpec[] {
  const f: ResultFormatDoc = format.data;
  // Age classes are stored with their basis ("race_day"), so a race moved to another day places its racers anew.
  const filters = withAgeDates(f.filters_list as Criterion[], raceDay);
  const threshold = f.same_time_threshold;
  const make = (suffix: string, name: string, ordinal: number, extra: Partial<ResultGroupSpec> = {}): ResultGroupSpec => ({
    id: `${format.id}:${suffix}`,
    name,
    ordinal,
    courseId: null,
    startGroupId: null,
    criteria: filters,
    sameTimeThreshold: threshold,
    ...extra,
  });
  const own = groupDocs.filter((g) => g.data.format === format.id);
  if (own.length > 0) {
    return own.map((g) => {
      const data: ResultGroupDoc = g.data;
      return make(g.id, data.name, g.ordinal, {
        courseId: data.course,
        startGroupId: data.startgroup,
        criteria: [...filters, ...withAgeDates(data.criteria_list as Criterion[], raceDay)],
        sameTimeThreshold: data.same_time_threshold ?? threshold,
      });
    });
  }
  switch (f.group_type) {
    case "course":
      return courses.map((c) => make(`course:${c.id}`, c.data.name, c.ordinal, { courseId: c.id }));
    case "startgroup":
      return startGroups.map((g) => make(`startgroup:${g.id}`, g.data.name || `Start group ${g.ordinal}`, g.ordinal, { startGroupId: g.id }));
    case "field": {
      const field = f.group_field;
      if (!field) return [make("all", "All Racers", 1)];
      const values = [...new Set(racers.map((r) => racerFieldsOf(r.data)[field]).filter((v) => v !== null && v !== undefined && v !== ""))]
        .map(String)
        .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
      return values.map((value, i) => make(`field:${value}`, value, i + 1, { criteria: [...filters, { field, op: "eq", value }] }));
    }
    default:
      return [make("all", "All Racers", 1)];
  }
}

/** The whole engine input of a race. */
export function raceInputOf(
  settings: RaceSettings,
  startTimeMs: number,
  endTimeMs: number | null,
  docs: RaceDocuments,
  racers: StoredRacer[],
  raceDay: string = new Date(startTimeMs).toISOString().slice(0, 10),
): RaceInput {
  const racerCourse = racerCourseOf(settings);
  return {
    rules: rulesOf(settings, startTimeMs, endTimeMs),
    courses: docs.courses.map((c) => courseOf(c, settings, docs.points)),
    startGroups: docs.startGroups.map((g) => startGroupOf(g, settings)),
    racers: racers.map((r) => racerOf(r, racerCourse)),
    groups: docs.formats.flatMap((f) => groupsOfFormat(f, docs.groups, docs.courses, docs.startGroups, racers, raceDay)),
  };
}
