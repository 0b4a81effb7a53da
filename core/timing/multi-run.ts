/**
 * Multi-run races (multi_run_option "fixed" with run_count, timing.md sections 3 and 9): each racer runs
 * the course run_count times, and one of the modes best, all, one, sum, mean, worst turns the runs into a
 * result. Per-run statuses are stored as dnf_{n}_time, dsq_{n}_time and is_dns_{n} (timed-entity.ts
 * variantKeys); the caller reads them into RunResult.status.
 */
import type { Micros, RacerStatus } from "./model";

export const MULTI_RUN_MODES = ["best", "all", "one", "sum", "mean", "worst"] as const;
export type MultiRunMode = (typeof MULTI_RUN_MODES)[number];

export const MULTI_RUN_MODE_LABELS: Record<MultiRunMode, string> = {
  best: "Best run",
  all: "All runs (most runs finished, then total time)",
  one: "Run 1 only",
  sum: "Sum of all runs",
  mean: "Mean of all runs",
  worst: "Worst run",
};

/** Runs a race may have; two or three in alpine, ten covers any format. Not shown in the spec. */
export const MAX_RUNS = 10;
/** Runs when a multi-run race names no count. Not shown in the spec. */
export const DEFAULT_RUN_COUNT = 2;

/** One run of one racer; index in the runs list = run number − 1. */
export interface RunResult {
  /** The run's time (finish − start of that run); only read when the run is finished. */
  time: Micros | null;
  status: RacerStatus;
}

export interface CombinedRuns {
  /** The time the mode gives, or null when the mode gives none (see combineRuns). */
  time: Micros | null;
  status: RacerStatus;
  /** Runs 1..run_count finished with a time. */
  runsFinished: number;
  /** Compared element by element, smaller first (rank.ts compareKeys); null is unranked. */
  rankKey: readonly number[] | null;
}

/** Negation that gives 0, not -0, so equal keys stay equal under Object.is. */
const negate = (n: number): number => 0 - n;

const NOT_RUN: RunResult = { time: null, status: "notstarted" };

/** Runs 1..runCount: a run not given has not started; a "finished" run without a time is still out. */
function runsOf(runs: readonly RunResult[], runCount: number): RunResult[] {
  return Array.from({ length: runCount }, (_, i) => {
    const run = runs[i] ?? NOT_RUN;
    return run.status === "finished" && run.time === null ? { time: null, status: "oncourse" } : run;
  });
}

/**
 * The racer's status when not every run counts as finished: a status flag on any run by the spec's
 * priority DSQ > DNS > DNF; else on course once any run has started (between runs included); else not
 * started.
 */
function statusAcrossRuns(runs: readonly RunResult[]): RacerStatus {
  for (const flag of ["dsq", "dns", "dnf"] as const) if (runs.some((run) => run.status === flag)) return flag;
  return runs.some((run) => run.status === "finished" || run.status === "oncourse") ? "oncourse" : "notstarted";
}

const timed = (time: Micros): Pick<CombinedRuns, "time" | "status" | "rankKey"> => ({ time, status: "finished", rankKey: [time] });

/**
 * One racer's result over runs 1..runCount (runs past runCount are ignored):
 * - best: the fastest finished run; finished once any run is. A status on another run only voids that run.
 * - worst: the slowest run, only when every run is finished.
 * - sum: the total of all runs, only when every run is finished.
 * - mean: sum / runCount, truncated to the microsecond; only when every run is finished.
 * - one: run 1 alone, with its status; later runs are ignored.
 * - all: every run counts, and racers rank by runs finished (more first), then by the sum of the finished
 *   runs. Anyone with a finished run is ranked, even with a status on another run (the status still
 *   shows); the time is that partial sum. Finished only when every run is.
 * When a mode gives no time, the status is statusAcrossRuns: a dnf, dsq or dns in any run gives that
 * status (DSQ > DNS > DNF). Rank keys hold raw microseconds; the caller truncates to calc precision.
 */
export function combineRuns(runs: readonly RunResult[], { mode, runCount }: { mode: MultiRunMode; runCount: number }): CombinedRuns {
  if (!Number.isInteger(runCount) || runCount < 1) throw new RangeError(`runCount must be a whole number from 1, got ${runCount}`);
  const counted = runsOf(runs, runCount);
  const finishedTimes = counted.flatMap((run) => (run.status === "finished" && run.time !== null ? [run.time] : []));
  const runsFinished = finishedTimes.length;
  const allFinished = runsFinished === runCount;
  const sum = finishedTimes.reduce((total, time) => total + time, 0);
  const unranked = { time: null, status: statusAcrossRuns(counted), runsFinished, rankKey: null };

  switch (mode) {
    case "best":
      return runsFinished > 0 ? { ...timed(Math.min(...finishedTimes)), runsFinished } : unranked;
    case "worst":
      return allFinished ? { ...timed(Math.max(...finishedTimes)), runsFinished } : unranked;
    case "sum":
      return allFinished ? { ...timed(sum), runsFinished } : unranked;
    case "mean":
      return allFinished ? { ...timed(Math.trunc(sum / runCount)), runsFinished } : unranked;
    case "one": {
      const first = counted[0] as RunResult;
      return first.status === "finished" && first.time !== null ? { ...timed(first.time), runsFinished } : { ...unranked, status: statusAcrossRuns([first]) };
    }
    case "all":
      if (runsFinished === 0) return unranked;
      return { time: sum, status: allFinished ? "finished" : unranked.status, runsFinished, rankKey: [negate(runsFinished), sum] };
  }
}

/**
 * A racer's crossings cut into runs by reads at the course's start point: each start read (one closer than
 * `minSplit` to the previous start read is the same pass) begins the next run, and the reads up to the
 * next start read belong to it. Reads before the first start read belong to run 1, which may start from
 * the gun. Runs past `runCount` are dropped. `crossings` must be sorted by time.
 */
export function crossingsByRun<C extends { timingPointId: string; time: Micros }>(
  crossings: readonly C[],
  startTimingPointId: string | null,
  minSplit: Micros,
  runCount: number,
): C[][] {
  const runs: C[][] = [[]];
  let lastStart: Micros | null = null;
  for (const crossing of crossings) {
    const isStart = crossing.timingPointId === startTimingPointId;
    if (isStart && lastStart !== null && crossing.time - lastStart < minSplit) continue;
    if (isStart) {
      // The first start read opens run 1 unless run 1 already has reads of its own (a gun-started run 1).
      const current = runs[runs.length - 1] as C[];
      if (lastStart !== null || current.length > 0) runs.push([]);
      lastStart = crossing.time;
    }
    (runs[runs.length - 1] as C[]).push(crossing);
  }
  return runs.slice(0, runCount);
}
