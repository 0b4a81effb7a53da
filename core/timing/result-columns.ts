/**
 * Result columns that are not plain splits: a biathlon's laps and shootings by "times to display", and a
 * multi-run race's runs. Pure, so pages and the RaceRoom build the same columns.
 */
import { shootingCount } from "./biathlon-result";
import type { EnduroColumnOption, EnduroSegment } from "./enduro";
import type { Course } from "./model";

/** A results column: a split's time (from `since` when given), a shooting's misses, or a run's time or status. */
export interface ResultColumn {
  index: number;
  name: string;
  since?: number | null;
  shooting?: number;
  run?: number;
  /** Enduro: a segment's time (1-based), or with `cumulative` the total after it. */
  segment?: number;
  cumulative?: boolean;
}

/** Column keys of shootings and runs sit above every split index, so a page can key columns by index alone. */
export const SHOOTING_COLUMN_BASE = 10_000;
export const RUN_COLUMN_BASE = 20_000;
export const SEGMENT_COLUMN_BASE = 40_000;

/**
 * Biathlon result columns by "times to display": lap times (each lap's own time), mid-lap splits (every
 * point, from the lap's start), total time at each point, or finish only; each shooting's misses follow
 * the lap before it ("Shooting 1 (P)"), whatever the option.
 */
export function biathlonColumns(course: Course, option: "laps" | "midlap" | "total" | "finish", rangePattern: string): ResultColumn[] {
  const pattern = course.points.filter((p) => p.mode !== "start" && p.mode !== "chipstart");
  const lapPosition = pattern.findIndex((p) => p.mode === "lap");
  const columns: ResultColumn[] = [];
  const shootings = shootingCount(course);
  for (let lap = 1; lap <= course.lapCount; lap++) {
    const first = (lap - 1) * pattern.length;
    const previousClose = lap === 1 || lapPosition < 0 ? null : first - pattern.length + lapPosition;
    if (option === "laps" && lapPosition >= 0) columns.push({ index: first + lapPosition, name: `Lap ${lap}`, since: previousClose });
    if (option === "midlap" || option === "total") {
      pattern.forEach((p, i) => columns.push({ index: first + i, name: `${p.name || (p.mode === "lap" ? "Lap" : `Split ${i + 1}`)} ${lap}`, ...(option === "midlap" ? { since: previousClose } : {}) }));
    }
    if (lap <= shootings) {
      const position = rangePattern[lap - 1];
      columns.push({ index: SHOOTING_COLUMN_BASE + lap, name: position ? `Shooting ${lap} (${position})` : `Shooting ${lap}`, shooting: lap });
    }
  }
  return columns;
}

/** One "Run n" column per run of a multi-run race. */
export function runColumns(runCount: number): ResultColumn[] {
  return Array.from({ length: runCount }, (_, i) => ({ index: RUN_COLUMN_BASE + i + 1, name: `Run ${i + 1}`, run: i + 1 }));
}

/** Enduro columns by the column option: each stage's time ("lap"), each followed by the total after it ("all"), or none ("finish"). */
export function enduroColumns(segments: readonly Pick<EnduroSegment, "name">[], option: EnduroColumnOption): ResultColumn[] {
  if (option === "finish") return [];
  return segments.flatMap((segment, i) => {
    const time: ResultColumn = { index: SEGMENT_COLUMN_BASE + 2 * i, name: segment.name, segment: i + 1 };
    return option === "all" ? [time, { index: SEGMENT_COLUMN_BASE + 2 * i + 1, name: `After ${segment.name}`, segment: i + 1, cumulative: true }] : [time];
  });
}
