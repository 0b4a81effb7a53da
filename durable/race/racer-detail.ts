/**
 * One racer's page as the RaceRoom serves it: their row in the first format that shows them, and their place,
 * gap and pace or speed at every point passed (core/timing/racer-standings.ts, split-distance.ts). Costs one
 * pass over the racer's result group, never a whole format's snapshot (decision 0035).
 */
import type { CoursePoint, Micros } from "../../core/timing/model";
import { lapTimeAt, racerStandings, type FinishStanding, type PointStanding } from "../../core/timing/racer-standings";
import { distanceAtKm, paceMeasureOf, paceMicrosPerKm, speedKmPerHour, type CourseLengths, type PaceMeasure } from "../../core/timing/split-distance";
import type { StoredDocument } from "../../schema/race/documents";
import { courseOf } from "../../schema/race/engine-input";
import type { ResultRow } from "../../schema/wire/race-socket";
import type { LiveResults } from "./live-results";

/** The racer at one passed point, as the page lists it. */
export interface RacerPoint extends PointStanding {
  name: string;
  /** The point is the lap line (the finish on a one-lap course). */
  isLap: boolean;
  /** Lap lines: the lap's own time; null elsewhere or after a missed lap read. */
  lapTime: Micros | null;
  /** Km from the start, where the course's lengths say. */
  distanceKm: number | null;
  /** Over the stretch since the previous point passed: time per km (pace) or km/h (speed), by `measure`. */
  pace: Micros | null;
  speed: number | null;
}

export interface RacerDetail {
  formatId: string;
  formatName: string;
  /** The format's version, so the page's socket asks only for what came after. */
  version: string;
  displayPrecision: number;
  measure: PaceMeasure;
  group: { id: string; name: string };
  racer: Pick<ResultRow, "racerId" | "bib" | "name" | "club" | "course" | "status" | "statusText" | "time" | "laps"> & {
    category: string | null;
    startGroup: string | null;
    /** The racer's start as a time of day (microseconds since the race's zero time); null before a start is known. */
    startTimeOfDay: Micros | null;
    penalty: Micros;
    bonus: Micros;
    addBack: Micros;
  };
  finish: FinishStanding;
  points: RacerPoint[];
}

export interface RacerDetailSource {
  live: LiveResults;
  formats: readonly StoredDocument<"ResultFormat">[];
  /** The format's version as its frames chain (live-push.ts). */
  versionOf: (formatId: string) => string;
  sport: string | null;
}

/** The racer in the first of `formatIds` that shows them, or null (not a racer of this race, or in none of those formats). */
export function racerDetailOf(source: RacerDetailSource, racerId: string, formatIds: readonly string[]): RacerDetail | null {
  const found = source.live.racerInFormats(formatIds, racerId);
  const format = found ? source.formats.find((f) => f.id === found.formatId) : undefined;
  if (!found || !format) return null;
  const { settings, docs } = source.live.setup;
  const standings = racerStandings(found.result, found.members, found.sameCourse);
  const courseDoc = docs.courses.find((c) => c.id === found.courseId);
  const course = courseDoc ? courseOf(courseDoc, settings, docs.points ?? []) : null;
  const pattern = course ? course.points.filter((p) => p.mode !== "start" && p.mode !== "chipstart") : [];
  const lengths: CourseLengths | null = courseDoc
    ? {
        pattern: pattern.map((p) => ({ mode: p.mode === "lap" ? "lap" : "split", distanceKm: pointDistanceKm(courseDoc, p.id) })),
        lapCount: settings.timing_mode === "timelimit" ? null : (course?.lapCount ?? null),
        courseDistanceKm: courseDoc.data.course_distance_km,
        lapDistanceKm: courseDoc.data.lap_distance_km,
      }
    : null;
  const measure = paceMeasureOf(source.sport);
  const multiLap = (course?.lapCount ?? 1) > 1 || settings.timing_mode === "timelimit";
  let previousKm: number | null = 0;
  const points = standings.points.map((point): RacerPoint => {
    const at = pattern.length > 0 ? pattern[point.index % pattern.length] : undefined;
    const distanceKm = lengths ? distanceAtKm(lengths, point.index) : null;
    const stretchKm = distanceKm !== null && previousKm !== null ? distanceKm - previousKm : null;
    previousKm = distanceKm;
    return {
      ...point,
      name: pointName(at, point.index % Math.max(pattern.length, 1), point.lap, multiLap),
      isLap: at?.mode === "lap",
      lapTime: at?.mode === "lap" ? lapTimeAt(found.result.splits, point.index, pattern.length) : null,
      distanceKm,
      pace: measure === "pace" ? paceMicrosPerKm(point.sinceLast, stretchKm) : null,
      speed: measure === "speed" ? speedKmPerHour(point.sinceLast, stretchKm) : null,
    };
  });
  const racer = found.racer;
  const startGroup = docs.startGroups.find((g) => g.id === racer.startGroupId);
  const { bib, name, club, status, statusText, time, laps } = found.row;
  return {
    formatId: format.id,
    formatName: format.data.name,
    version: source.versionOf(format.id),
    displayPrecision: format.data.display_precision,
    measure,
    group: { id: found.group.id, name: found.group.name },
    racer: {
      racerId: found.row.racerId,
      bib,
      name,
      club,
      course: found.row.course,
      status,
      statusText,
      time,
      laps,
      category: found.category,
      startGroup: startGroup ? startGroup.data.name || `Start group ${startGroup.ordinal}` : null,
      startTimeOfDay: found.result.start === null || settings.zero_time === null ? null : found.result.start - settings.zero_time,
      penalty: racer.penalty,
      bonus: racer.bonus,
      addBack: racer.addBack,
    },
    finish: standings.finish,
    points,
  };
}

/** A point's name as the results columns name it (lapColumns): its own, else "Lap" or "Split n", with the lap when there are several. */
function pointName(point: CoursePoint | undefined, position: number, lap: number, multiLap: boolean): string {
  const base = point?.name || (point?.mode === "lap" ? "Lap" : `Split ${position + 1}`);
  return multiLap ? `${base} ${lap}` : base;
}

/** A split point's distance into the lap (its distance_split, km; decision 0035). */
function pointDistanceKm(course: StoredDocument<"Course">, coursePointId: string): number | null {
  return course.data.points_list.find((p) => p.id === coursePointId)?.distance_split ?? null;
}
