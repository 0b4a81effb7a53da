/**
 * Result columns by mode and option: lap and time-limit splits, a biathlon's laps and shootings, a
 * multi-run race's runs, an enduro's segments; and what a split cell shows. Pure, so pages and the
 * RaceRoom build the same columns.
 */
import { shootingCount } from "./biathlon-result";
import type { EnduroColumnOption, EnduroSegment } from "./enduro";
import type { Course, Micros, Split } from "./model";

/** A results column: a split's time (from `since` when given), a shooting's misses, or a run's time or status. */
export interface ResultColumn {
  index: number;
  name: string;
  since?: number | null;
  shooting?: number;
  run?: number;
  /** Multistage, All Stages view: a stage's time (1-based; the last is this race). */
  stage?: number;
  /** Enduro: a segment's time (1-based), or with `cumulative` the total after it. */
  segment?: number;
  cumulative?: boolean;
}

/** Column keys of shootings and runs sit above every split index, so a page can key columns by index alone. */
export const SHOOTING_COLUMN_BASE = 10_000;
export const RUN_COLUMN_BASE = 20_000;
export const STAGE_COLUMN_BASE = 30_000;
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
      pattern.forEach((p, i) =>
        columns.push({
          index: first + i,
          name: `${p.name || (p.mode === "lap" ? "Lap" : `Split ${i + 1}`)} ${lap}`,
          ...(option === "midlap" ? { since: previousClose } : {}),
        }),
      );
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

/** The All Stages columns of stage `stageNumber`: one "Stage n" per stage, this one last. */
export function stageColumns(stageNumber: number): ResultColumn[] {
  return Array.from({ length: stageNumber }, (_, i) => ({ index: STAGE_COLUMN_BASE + i + 1, name: `Stage ${i + 1}`, stage: i + 1 }));
}

/** Enduro columns by the column option: each stage's time ("lap"), each followed by the total after it ("all"), or none ("finish"). */
export function enduroColumns(segments: readonly Pick<EnduroSegment, "name">[], option: EnduroColumnOption): ResultColumn[] {
  if (option === "finish") return [];
  return segments.flatMap((segment, i) => {
    const time: ResultColumn = { index: SEGMENT_COLUMN_BASE + 2 * i, name: segment.name, segment: i + 1 };
    return option === "all" ? [time, { index: SEGMENT_COLUMN_BASE + 2 * i + 1, name: `After ${segment.name}`, segment: i + 1, cumulative: true }] : [time];
  });
}

/** Time limit and lap modes' options (timing.md section 9), with the spec's defaults. */
export const SPLIT_DISPLAYS = ["splits", "lap", "finish"] as const;
export const SPLIT_TIMINGS = ["elapsed", "lap", "prev"] as const;
export const RANK_DISPLAYS = ["finish", "splits"] as const;
export const LAP_DISPLAY_DIFFS = ["no-display", "only", "lap-count"] as const;
export const COLUMN_OPTIONS = ["major", "lap", "all", "finish", "pace"] as const;
export type SplitDisplay = (typeof SPLIT_DISPLAYS)[number];
export type SplitTiming = (typeof SPLIT_TIMINGS)[number];
export type ColumnOption = (typeof COLUMN_OPTIONS)[number];

export const SPLIT_DISPLAY_LABELS: Record<SplitDisplay, string> = { splits: "Every split", lap: "Laps only", finish: "Finish only" };
export const SPLIT_TIMING_LABELS: Record<SplitTiming, string> = {
  elapsed: "Time since the start",
  lap: "Time since the lap began",
  prev: "Time since the previous column",
};
export const RANK_DISPLAY_LABELS: Record<(typeof RANK_DISPLAYS)[number], string> = { finish: "At the finish only", splits: "At every split too" };
export const LAP_DISPLAY_DIFF_LABELS: Record<(typeof LAP_DISPLAY_DIFFS)[number], string> = {
  "no-display": "Times in split columns",
  only: "Gaps to the fastest in split columns",
  "lap-count": "Laps behind the leader (time limit)",
};
export const COLUMN_OPTION_LABELS: Record<ColumnOption, string> = {
  major: "Laps (major splits)",
  lap: "Each lap",
  all: "Every split",
  finish: "Finish only",
  pace: "Pace per km",
};

/** The most split columns a results table shows; a longer race shows none rather than a wall of columns. */
export const MAX_SPLIT_COLUMNS = 40;

export interface LapColumnOptions {
  timeLimit: boolean;
  /** Lap races: split_display. */
  splitDisplay: SplitDisplay;
  /** Time limit races: column_option ("separate for time limit"). */
  columnOption: ColumnOption;
  splitTiming: SplitTiming;
}

/**
 * Split columns of a lap, point-to-point or time-limit course. Which points: split_display (lap races) or
 * column_option (time limit; major and lap are the lap points, all every point, finish and pace none). A
 * time-limit course shows its max lap count's laps, or none when it has no maximum. What each shows, by
 * split_timing: the time since the start, since the lap began (the previous lap point), or since the
 * previous column.
 */
export function lapColumns(course: Pick<Course, "points" | "lapCount" | "maxLapCount">, options: LapColumnOptions): ResultColumn[] {
  const pattern = course.points.filter((p) => p.mode !== "start" && p.mode !== "chipstart");
  const laps = options.timeLimit ? (course.maxLapCount ?? 0) : course.lapCount;
  const which = options.timeLimit
    ? ({ major: "lap", lap: "lap", all: "splits", finish: "finish", pace: "finish" } as const)[options.columnOption]
    : options.splitDisplay;
  if (which === "finish" || pattern.length === 0) return [];
  const lapPosition = pattern.findIndex((p) => p.mode === "lap");
  const columns: ResultColumn[] = [];
  for (let lap = 1; lap <= laps; lap++) {
    const first = (lap - 1) * pattern.length;
    const lapStart = lap === 1 || lapPosition < 0 ? null : first - pattern.length + lapPosition;
    pattern.forEach((p, i) => {
      if (which === "lap" && p.mode !== "lap") return;
      const base = p.name || (p.mode === "lap" ? "Lap" : `Split ${i + 1}`);
      const since = options.splitTiming === "elapsed" ? null : options.splitTiming === "lap" ? lapStart : (columns.at(-1)?.index ?? null);
      columns.push({ index: first + i, name: laps > 1 ? `${base} ${lap}` : base, since });
    });
  }
  return columns.length > MAX_SPLIT_COLUMNS ? [] : columns;
}

/** Pace per km ("m:ss /km" of time): the distance run is the course distance, else laps × the lap distance. */
export function paceDistanceKm(course: { courseDistanceKm: number | null; lapDistanceKm: number | null }, laps: number): number | null {
  const distance = course.courseDistanceKm ?? (course.lapDistanceKm !== null ? course.lapDistanceKm * laps : null);
  return distance !== null && distance > 0 ? distance : null;
}

/** A split column's value for one racer: the split's elapsed time less the elapsed at `since`; null while either is missing. */
export function splitCellTime(splits: readonly Pick<Split, "index" | "elapsed">[], column: Pick<ResultColumn, "index" | "since">): Micros | null {
  const split = splits.find((s) => s.index === column.index);
  if (!split) return null;
  if (column.since === undefined || column.since === null) return split.elapsed;
  const from = splits.find((s) => s.index === column.since);
  return from ? split.elapsed - from.elapsed : null;
}

export interface ColumnStanding {
  /** Each racer's place at the split, by elapsed time (1 first; equal times share). */
  ranks: Map<string, number>;
  /** The fastest value shown in the column, for gaps. */
  best: Micros | null;
}

/** Places at each split column and its fastest value, over a whole group (rank_display "splits", display_diffs "only"). */
export function columnStandings(
  rows: readonly { racerId: string; splits: readonly Pick<Split, "index" | "elapsed">[] }[],
  columns: readonly ResultColumn[],
): Map<number, ColumnStanding> {
  const standings = new Map<number, ColumnStanding>();
  for (const column of columns) {
    if (column.shooting !== undefined || column.run !== undefined || column.segment !== undefined || column.stage !== undefined) continue;
    const elapsed = rows.flatMap((row) => {
      const split = row.splits.find((s) => s.index === column.index);
      return split ? [{ racerId: row.racerId, elapsed: split.elapsed }] : [];
    });
    elapsed.sort((a, b) => a.elapsed - b.elapsed);
    const ranks = new Map<string, number>();
    elapsed.forEach((entry, i) => ranks.set(entry.racerId, i > 0 && entry.elapsed === elapsed[i - 1]!.elapsed ? ranks.get(elapsed[i - 1]!.racerId)! : i + 1));
    let best: Micros | null = null;
    for (const row of rows) {
      const value = splitCellTime(row.splits, column);
      if (value !== null && (best === null || value < best)) best = value;
    }
    standings.set(column.index, { ranks, best });
  }
  return standings;
}
