/**
 * Triathlon sections (timing.md sections 5 and 9): 1 Swim, 2 T1, 3 Bike, 4 T2, 5 Run. Swim, bike and run
 * have lap counts (swim_lap_count, bike_lap_count, run_lap_count); a transition is one pass.
 */
import type { Course, CoursePoint, Micros } from "./model";

export const TRIATHLON_SECTION_NAMES = { 1: "Swim", 2: "T1", 3: "Bike", 4: "T2", 5: "Run" } as const;
export type TriathlonSectionNumber = keyof typeof TRIATHLON_SECTION_NAMES;
export type TriathlonSectionName = (typeof TRIATHLON_SECTION_NAMES)[TriathlonSectionNumber];

export interface TriathlonLapCounts {
  swimLapCount: number;
  bikeLapCount: number;
  runLapCount: number;
}

export interface TriathlonSection {
  number: TriathlonSectionNumber;
  name: TriathlonSectionName;
  /** Laps of a leg, or 1 for a transition: the crossings that close the section. */
  passes: number;
}

function assertLapCount(name: string, count: number): void {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`${name} must be a whole number from 0, got ${count}`);
}

function section(number: TriathlonSectionNumber, passes: number): TriathlonSection {
  return { number, name: TRIATHLON_SECTION_NAMES[number], passes };
}

/**
 * The sections that run, in order. A lap count of 0 skips that leg and the transition after it: swim 0
 * skips Swim and T1 (a bike-run), bike 0 skips Bike and T2 (a swim-run: T1 leads straight to the run),
 * run 0 skips Run only. Run has no transition after it, so with run 0 the race still ends through T2.
 */
export function triathlonSections({ swimLapCount, bikeLapCount, runLapCount }: TriathlonLapCounts): TriathlonSection[] {
  assertLapCount("swimLapCount", swimLapCount);
  assertLapCount("bikeLapCount", bikeLapCount);
  assertLapCount("runLapCount", runLapCount);
  const sections: TriathlonSection[] = [];
  if (swimLapCount > 0) sections.push(section(1, swimLapCount), section(2, 1));
  if (bikeLapCount > 0) sections.push(section(3, bikeLapCount), section(4, 1));
  if (runLapCount > 0) sections.push(section(5, runLapCount));
  return sections;
}

export interface SectionTimes {
  /** One per boundary: that section's time, or null from the first missing boundary on. */
  sectionTimes: (Micros | null)[];
  /** Last boundary − start (transitions included); null unless every section has a time. */
  total: Micros | null;
}

/**
 * Each section's time from the absolute time it ended. `boundaryTimes[i]` is the end of the i-th section
 * of triathlonSections(counts) (for a leg, its last lap). A section runs from the previous boundary (the
 * first from `start`). A missing boundary, or one before the previous (a read out of order), leaves that
 * section and every later one null: a later section cannot be timed without its own start.
 */
export function sectionTimes(start: Micros | null, boundaryTimes: readonly (Micros | null)[]): SectionTimes {
  const times: (Micros | null)[] = [];
  let previous = start;
  for (const boundary of boundaryTimes) {
    if (previous === null || boundary === null || boundary < previous) {
      previous = null;
      times.push(null);
      continue;
    }
    times.push(boundary - previous);
    previous = boundary;
  }
  const total = start !== null && previous !== null && boundaryTimes.length > 0 ? previous - start : null;
  return { sectionTimes: times, total };
}

/** Where a section ends in a triathlon course's crossing sequence (the engine's split index). */
export interface SectionBoundary {
  number: TriathlonSectionNumber;
  name: TriathlonSectionName;
  /** Split index of the section's last crossing. */
  index: number;
}

/**
 * A triathlon course as the results engine runs it: one pass through every section that runs, each leg's
 * points repeated lap by lap ("Swim (lap 2)"), so the ordinary sequence matcher times it and the total is
 * start to the last point, transitions included. Start points stay first. A section the course has no point
 * for cannot be timed on its own, so its time falls into the next section's.
 */
export function triathlonCourse(course: Course, counts: TriathlonLapCounts): { course: Course; boundaries: SectionBoundary[] } {
  const isStart = (p: CoursePoint) => p.mode === "start" || p.mode === "chipstart";
  const points: CoursePoint[] = course.points.filter(isStart);
  const boundaries: SectionBoundary[] = [];
  let index = 0;
  for (const sec of triathlonSections(counts)) {
    const own = course.points.filter((p) => !isStart(p) && p.section === sec.number);
    if (own.length === 0) continue;
    for (let pass = 1; pass <= sec.passes; pass++) {
      for (const p of own) {
        points.push(sec.passes > 1 ? { ...p, id: `${p.id}#${pass}`, name: `${p.name} (lap ${pass})` } : p);
        index++;
      }
    }
    boundaries.push({ number: sec.number, name: sec.name, index: index - 1 });
  }
  return { course: { ...course, points, lapCount: 1 }, boundaries };
}
