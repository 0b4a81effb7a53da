/**
 * One racer's result from that racer's crossings (timing.md sections 3, 4 and 9): start, matched splits,
 * laps, finish, result time, status and the keys that sort and rank it. Pure; the engine and the
 * from-scratch reference both call it, so they cannot disagree about a racer.
 */
import { truncateMicros } from "../time/truncate";
import { TimingError } from "./errors";
import { biathlonResult } from "./biathlon-result";
import { enduroProgress, enduroSegments } from "./enduro";
import { combineRuns, crossingsByRun } from "./multi-run";
import { statusText } from "./status";
import type { Course, CoursePoint, Crossing, Micros, RacerResult, RacerStatus, RaceRules, RunSummary, Split, StartGroup, TimedRacer } from "./model";

export interface RacerContext {
  rules: RaceRules;
  /** The racer's course; null when the racer has none (or names a course the race does not have). */
  course: Course | null;
  startGroups: ReadonlyMap<string, StartGroup>;
  /**
   * The racer's `order`, else its position in the race's racer list: the last element of every sort key, so no
   * two racers ever compare equal and the incremental and from-scratch orders are the same.
   */
  order: number;
}

/** Sort classes: finishers first, then those still out, then statuses in the spec's order dnf, dsq, dns. */
const STATUS_CLASS: Record<RacerStatus, number> = { finished: 0, oncourse: 1, notstarted: 2, dnf: 3, dsq: 4, dns: 5 };

/** A racer with no bib sorts after every bib among equals. */
const NO_BIB = Number.MAX_SAFE_INTEGER;

/** Negation that gives 0, not -0, so equal keys stay equal under Object.is (and toEqual). */
const negate = (n: number): number => 0 - n;

function byTimeThenSeq(a: Crossing, b: Crossing): number {
  return a.time - b.time || a.seq - b.seq;
}

/** The crossings up to `cutoff`, by time then seq; the engine's lists come sorted, so usually no copy. */
function keptInOrder(crossings: readonly Crossing[], cutoff: Micros): readonly Crossing[] {
  let sorted = true;
  for (let i = 1; i < crossings.length && sorted; i++) sorted = byTimeThenSeq(crossings[i - 1] as Crossing, crossings[i] as Crossing) <= 0;
  const inOrder = sorted ? crossings : [...crossings].sort(byTimeThenSeq);
  const last = inOrder.at(-1);
  return last === undefined || last.time <= cutoff ? inOrder : inOrder.filter((c) => c.time <= cutoff);
}

function isStartMode(point: CoursePoint): boolean {
  return point.mode === "start" || point.mode === "chipstart";
}

/** The course's start point: a chipstart point, else a start point (a course may have neither). */
function startPointOf(course: Course): CoursePoint | undefined {
  return course.points.find((p) => p.mode === "chipstart") ?? course.points.find((p) => p.mode === "start");
}

/**
 * The gun start: the start group's start mode (else the race's) decides. A start group names its time by
 * priority recorded > assigned > scheduled > the race's. A start group id the race does not have counts as
 * none. Individual start with no own time and no group gives null: the racer has no start yet.
 */
export function gunStart(ctx: RacerContext, racer: TimedRacer): Micros | null {
  const group = racer.startGroupId === null ? undefined : ctx.startGroups.get(racer.startGroupId);
  const mode = group?.startMode ?? ctx.rules.startMode;
  if (group === undefined) return mode === "individual" ? racer.startTime : ctx.rules.startTime;
  const groupStart = group.recordedStartTime ?? group.assignedStartTime ?? group.scheduledStartTime ?? ctx.rules.startTime;
  return mode === "individual" ? (racer.startTime ?? groupStart) : groupStart;
}

const FLAGGED_STATUS = { DSQ: "dsq", DNS: "dns", DNF: "dnf" } as const;
const TEXT_OF_STATUS: Partial<Record<RacerStatus, RacerResult["statusText"]>> = { dsq: "DSQ", dns: "DNS", dnf: "DNF" };

/** The status the flags give, by the spec's priority DSQ > DNS > DNF (status.ts); null when none is set. */
function flaggedStatus(racer: TimedRacer): "dsq" | "dns" | "dnf" | null {
  const text = statusText(racer);
  return text === "" ? null : FLAGGED_STATUS[text];
}

/** The time after which crossings are dropped: the earliest dnf/dsq time whose option is "hide". */
function hideAfter(rules: RaceRules, racer: TimedRacer): Micros {
  let limit = Infinity;
  if (racer.dnfTime !== null && rules.dnfOption === "hide") limit = Math.min(limit, racer.dnfTime);
  if (racer.dsqTime !== null && rules.dsqOption === "hide") limit = Math.min(limit, racer.dsqTime);
  return limit;
}

/**
 * The expected sequence: the course's non-start points, lap after lap. Kept virtual (a lap pattern and a
 * length) because a time-limit race with no max lap count has no end; a lookup scans one lap's points.
 */
class ExpectedSequence {
  readonly pattern: CoursePoint[];
  readonly length: number;

  constructor(course: Course, laps: number) {
    this.pattern = course.points.filter((p) => !isStartMode(p));
    // 0 × Infinity is NaN: a course with no points after the start has an empty sequence.
    this.length = this.pattern.length === 0 ? 0 : this.pattern.length * laps;
  }

  /** The first index at or after `cursor` whose point is at `timingPointId`; -1 when it never comes again. */
  nextIndexOf(timingPointId: string, cursor: number): number {
    const perLap = this.pattern.length;
    // One full lap of look-ahead finds any point the pattern has.
    for (let index = cursor; index < cursor + perLap && index < this.length; index++) {
      if (this.pointAt(index).timingPointId === timingPointId) return index;
    }
    return -1;
  }

  pointAt(index: number): CoursePoint {
    return this.pattern[index % this.pattern.length] as CoursePoint;
  }

  lapAt(index: number): number {
    return Math.floor(index / this.pattern.length) + 1;
  }
}

/** p2p and lap races run lapCount laps (at least 1); a time-limit race its max lap count, or no limit. */
function lapsToRun(rules: RaceRules, course: Course): number {
  if (rules.timingMode === "timelimit") return course.maxLapCount !== null && course.maxLapCount >= 1 ? course.maxLapCount : Infinity;
  return Math.max(1, course.lapCount);
}

/** The time of the latest accepted split at a timing point (a backward scan: a racer has few splits). */
function lastPassAt(timingPointId: string, splits: readonly Split[], sequence: ExpectedSequence): Micros | undefined {
  for (let i = splits.length - 1; i >= 0; i--) {
    const split = splits[i] as Split;
    if (sequence.pointAt(split.index).timingPointId === timingPointId) return split.time;
  }
  return undefined;
}

interface Matched {
  splits: Split[];
  /** Lap number of the last accepted lap point: a lap proven by a later lap read counts even if a read was missed. */
  laps: number;
  lastLapTime: Micros | null;
  finishedSequence: boolean;
}

/**
 * Walks the crossings (sorted, already cut at the hide time) against the expected sequence. A crossing at
 * or before the start is no split. A crossing matches the next occurrence of its timing point at or after
 * the cursor, skipping missed points; it is the same pass, and ignored, when closer than that point's
 * minSplit (strictly less) to the last accepted crossing at the same timing point. The start itself counts
 * as accepted at the start point's timing point, so start-mat reads just after the start are not a lap.
 * Time limit: the first lap completed after timeLimitEnd still counts (the racer finishes the lap in
 * progress), and nothing after it does; a lap completed exactly at timeLimitEnd is within the limit.
 */
function matchCrossings(ctx: RacerContext, course: Course, start: Micros, crossings: readonly Crossing[]): Matched {
  const sequence = new ExpectedSequence(course, lapsToRun(ctx.rules, course));
  const startTimingPointId = startPointOf(course)?.timingPointId;
  const timeLimitEnd = ctx.rules.timingMode === "timelimit" ? course.timeLimitEnd : null;
  const matched: Matched = { splits: [], laps: 0, lastLapTime: null, finishedSequence: false };
  let cursor = 0;
  for (const crossing of crossings) {
    if (crossing.time <= start) continue;
    const index = sequence.nextIndexOf(crossing.timingPointId, cursor);
    if (index < 0) continue;
    const point = sequence.pointAt(index);
    const last = lastPassAt(crossing.timingPointId, matched.splits, sequence) ?? (crossing.timingPointId === startTimingPointId ? start : undefined);
    if (last !== undefined && crossing.time - last < point.minSplit) continue;
    const lap = sequence.lapAt(index);
    const elapsed = truncateMicros(crossing.time - start, ctx.rules.precision);
    matched.splits.push({ index, coursePointId: point.id, lap, time: crossing.time, elapsed });
    cursor = index + 1;
    if (point.mode === "lap") {
      matched.laps = lap;
      matched.lastLapTime = crossing.time;
      if (timeLimitEnd !== null && crossing.time > timeLimitEnd) break;
    }
    if (cursor >= sequence.length) {
      matched.finishedSequence = true;
      break;
    }
  }
  return matched;
}

/**
 * The result time: elapsed × para factor percent (rounded to the nearest microsecond, Math.round), plus
 * penalty, minus bonus and add back, truncated to the race precision.
 */
export function resultTime(rules: RaceRules, racer: TimedRacer, start: Micros, finish: Micros): Micros {
  const raw = finish - start;
  const factored = racer.paraFactor === null ? raw : Math.round((raw * racer.paraFactor) / 100);
  return truncateMicros(factored + racer.penalty - racer.bonus - racer.addBack, rules.precision);
}

interface KeyParts {
  status: RacerStatus;
  laps: number;
  splits: readonly Split[];
  time: Micros | null;
}

/**
 * Sort key (smaller first) and rank key. Finishers: [0, time at calc precision, bib, order], time limit
 * [0, -laps, time, bib, order]; on course: [1, -splits, last split elapsed, bib, order]; the rest
 * [class, bib, order]. Only finishers have a rank key.
 */
function keysOf(ctx: RacerContext, racer: TimedRacer, parts: KeyParts): Pick<RacerResult, "key" | "rankKey"> {
  const bib = racer.bib ?? NO_BIB;
  const statusClass = STATUS_CLASS[parts.status];
  // A biathlon finisher without the time it is ranked on (a range read missing): after every ranked finisher, unranked.
  if (parts.status === "finished" && parts.time === null) return { key: [statusClass, Number.MAX_SAFE_INTEGER, bib, ctx.order], rankKey: null };
  if (parts.status === "finished" && parts.time !== null) {
    const rankTime = truncateMicros(parts.time, ctx.rules.calcPrecision);
    const rankKey = ctx.rules.timingMode === "timelimit" ? [negate(parts.laps), rankTime] : [rankTime];
    return { key: [statusClass, ...rankKey, bib, ctx.order], rankKey };
  }
  if (parts.status === "oncourse") {
    const lastElapsed = parts.splits.at(-1)?.elapsed ?? 0;
    return { key: [statusClass, negate(parts.splits.length), lastElapsed, bib, ctx.order], rankKey: null };
  }
  return { key: [statusClass, bib, ctx.order], rankKey: null };
}

/**
 * One racer's result. Crossings may come in any order. Throws TimingError("noCourse") when the racer has
 * no course; resultForRacer is the variant that gives such a racer a status-only result instead.
 */
export function computeRacerResult(ctx: RacerContext, racer: TimedRacer, crossings: readonly Crossing[]): RacerResult {
  const course = ctx.course;
  if (course === null) throw new TimingError("noCourse", `racer ${racer.id}`);
  const kept = keptInOrder(crossings, hideAfter(ctx.rules, racer));

  const startPoint = startPointOf(course);
  const chipRead =
    ctx.rules.startOption === "chipstart" && startPoint !== undefined ? kept.find((c) => c.timingPointId === startPoint.timingPointId) : undefined;
  const start = chipRead?.time ?? gunStart(ctx, racer);

  const matched: Matched = start === null ? { splits: [], laps: 0, lastLapTime: null, finishedSequence: false } : matchCrossings(ctx, course, start, kept);
  const finish = ctx.rules.timingMode === "timelimit" ? matched.lastLapTime : matched.finishedSequence ? (matched.splits.at(-1)?.time ?? null) : null;
  const baseTime = start !== null && finish !== null ? resultTime(ctx.rules, racer, start, finish) : null;
  const rules = course.biathlon;
  const biathlon =
    rules && start !== null
      ? biathlonResult({ course, rules, racer, start, splits: matched.splits, crossings: kept, baseTime, precision: ctx.rules.precision })
      : undefined;
  // A biathlon ranks on the time its result calculation names (total, ski or range), once finished.
  const time = rules && biathlon && baseTime !== null ? biathlon[rules.resultCalculation] : baseTime;

  let status: RacerStatus = flaggedStatus(racer) ?? "notstarted";
  if (status === "notstarted") {
    if (finish !== null && baseTime !== null) status = "finished";
    else if (matched.splits.length > 0 || chipRead !== undefined) status = "oncourse";
  }
  const keys = keysOf(ctx, racer, { status, laps: matched.laps, splits: matched.splits, time });
  const result: RacerResult = {
    racerId: racer.id,
    status,
    statusText: statusText(racer),
    start,
    laps: matched.laps,
    splits: matched.splits,
    finish,
    time,
    ...keys,
  };
  if (biathlon) result.biathlon = biathlon;
  return result;
}

/** A racer with no course: status from the flags only, no splits, unranked; sorted among its status class. */
export function statusOnlyResult(ctx: RacerContext, racer: TimedRacer): RacerResult {
  const status = flaggedStatus(racer) ?? "notstarted";
  const keys = keysOf(ctx, racer, { status, laps: 0, splits: [], time: null });
  return { racerId: racer.id, status, statusText: statusText(racer), start: gunStart(ctx, racer), laps: 0, splits: [], finish: null, time: null, ...keys };
}

/** Run n's statuses: its own (dnf_{n}_time, dsq_{n}_time, is_dns_{n}) when set, else the racer's. */
function runRacer(racer: TimedRacer, run: number): TimedRacer {
  const own = racer.runStatuses?.[run - 1];
  return own ? { ...racer, isDns: own.isDns, dnfTime: own.dnfTime, dsqTime: own.dsqTime } : racer;
}

/**
 * A multi-run racer: the crossings cut into runs at the start point's reads, each run timed as its own race
 * (run 1 may start from the gun, later runs from their start read), then the runs combined by the mode. A
 * run left unfinished when the next one started counts as not finished. The result shows the latest run's
 * progress; racers the mode gives a time to (or, in "all", a finished run) are ranked.
 */
function multiRunResult(
  ctx: RacerContext,
  course: Course,
  racer: TimedRacer,
  crossings: readonly Crossing[],
  multiRun: NonNullable<RaceRules["multiRun"]>,
): RacerResult {
  const startPoint = startPointOf(course);
  const byRun = crossingsByRun(keptInOrder(crossings, Infinity), startPoint?.timingPointId ?? null, startPoint?.minSplit ?? 0, multiRun.runCount);
  const single: RacerContext = { ...ctx, rules: { ...ctx.rules, multiRun: null } };
  const later: RacerContext = { ...single, rules: { ...single.rules, startOption: "chipstart" } };
  const timed = byRun.map((runCrossings, i) => computeRacerResult(i === 0 ? single : later, runRacer(racer, i + 1), runCrossings));
  const runs: RunSummary[] = Array.from({ length: multiRun.runCount }, (_, i) => {
    const result = timed[i];
    if (result === undefined) return { status: flaggedStatus(runRacer(racer, i + 1)) ?? "notstarted", time: null };
    const abandoned = result.status === "oncourse" && i < timed.length - 1;
    return { status: abandoned ? "dnf" : result.status, time: result.status === "finished" ? result.time : null };
  });
  const combined = combineRuns(runs, multiRun);
  const latest = timed.at(-1) as RacerResult;
  const bib = racer.bib ?? NO_BIB;
  const time = combined.time === null ? null : truncateMicros(combined.time, ctx.rules.precision);
  const rankKey =
    combined.rankKey === null ? null : combined.rankKey.map((part, i, all) => (i === all.length - 1 ? truncateMicros(part, ctx.rules.calcPrecision) : part));
  const keys =
    rankKey !== null
      ? { key: [0, ...rankKey, bib, ctx.order], rankKey }
      : keysOf(ctx, racer, { status: combined.status, laps: latest.laps, splits: latest.splits, time: null });
  return {
    racerId: racer.id,
    status: combined.status,
    statusText: TEXT_OF_STATUS[combined.status] ?? "",
    start: latest.start,
    laps: latest.laps,
    splits: latest.splits,
    finish: combined.status === "finished" ? latest.finish : null,
    time,
    ...keys,
    runs,
  };
}

/**
 * An enduro racer: each timed segment's counted run (enduro.ts), finished when every segment has one. The
 * time is the sum with the racer's adjustments; a racer still out sorts by segments done, then the sum so
 * far. Splits are the counted finishes in segment order, elapsed being the running sum.
 */
function enduroResult(ctx: RacerContext, course: Course, racer: TimedRacer, crossings: readonly Crossing[]): RacerResult {
  const segments = enduroSegments(course);
  const kept = keptInOrder(crossings, hideAfter(ctx.rules, racer));
  const progress = enduroProgress(segments, kept, {
    precision: ctx.rules.precision,
    fastest: ctx.rules.fastestLap === true,
    ordered: course.freeOrder?.ordered === true,
  });
  let running = 0;
  const splits: Split[] = [];
  progress.segments.forEach((segment, i) => {
    if (segment.time === null || segment.finish === null) return;
    running += segment.time;
    splits.push({ index: i, coursePointId: (segments[i] as (typeof segments)[number]).finishCoursePointId, lap: 1, time: segment.finish, elapsed: running });
  });
  const complete = segments.length > 0 && progress.done === segments.length;
  const time = complete ? resultTime(ctx.rules, racer, 0, progress.sum) : null;
  let status: RacerStatus = flaggedStatus(racer) ?? "notstarted";
  if (status === "notstarted") {
    if (complete) status = "finished";
    else if (kept.length > 0) status = "oncourse";
  }
  const keys = keysOf(ctx, racer, { status, laps: progress.done, splits, time });
  const summaries = progress.segments.map((s) => ({ time: s.time, runs: s.runs }));
  return {
    racerId: racer.id,
    status,
    statusText: statusText(racer),
    start: progress.start,
    laps: progress.done,
    splits,
    finish: complete ? progress.finish : null,
    time,
    ...keys,
    segments: summaries,
  };
}

/** What the engine and the reference use: one racer without a course must not stop a race's results. */
export function resultForRacer(ctx: RacerContext, racer: TimedRacer, crossings: readonly Crossing[]): RacerResult {
  if (ctx.course === null) return statusOnlyResult(ctx, racer);
  if (ctx.rules.timingMode === "enduro") return enduroResult(ctx, ctx.course, racer, crossings);
  if (ctx.rules.multiRun) return multiRunResult(ctx, ctx.course, racer, crossings, ctx.rules.multiRun);
  return computeRacerResult(ctx, racer, crossings);
}
