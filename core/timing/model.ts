/**
 * The race model the results engine reads (timing.md sections 3, 4 and 9), in the engine's own terms.
 * Time is an integer count of microseconds; absolute times are microseconds since the Unix epoch
 * (safe as doubles until the year 2255). Storage and wire names map onto these in schema/race.
 */

/** Integer microseconds. */
export type Micros = number;

export const MICROS_PER_SECOND = 1_000_000;

/**
 * Timing modes of the engine; a triathlon runs as one lap of its sections and a biathlon as a lap race with
 * shootings (Course.biathlon). An enduro sums timed segments (enduro.ts).
 */
export const TIMING_MODES = ["p2p", "lap", "timelimit", "enduro"] as const;
export type TimingMode = (typeof TIMING_MODES)[number];

export const START_MODES = ["mass", "individual"] as const;
export type StartMode = (typeof START_MODES)[number];

/** gun: the start group's (or racer's) start time; chipstart: the racer's own read at the start mat. */
export const START_OPTIONS = ["gun", "chipstart"] as const;
export type StartOption = (typeof START_OPTIONS)[number];

export const POINT_MODES = ["start", "chipstart", "lap", "split"] as const;
export type PointMode = (typeof POINT_MODES)[number];

/** What a dnf or dsq recorded before a crossing does to that crossing: hide it, or keep showing its time. */
export type HideOrTime = "hide" | "time";

export const RACER_STATUSES = ["dns", "dnf", "dsq", "notstarted", "oncourse", "finished"] as const;
export type RacerStatus = (typeof RACER_STATUSES)[number];

/** Race-wide rules the engine applies (the Race fields of timing.md section 3 it needs). */
export interface RaceRules {
  timingMode: TimingMode;
  startMode: StartMode;
  startOption: StartOption;
  /** The race's start (the gun of a mass start with no start group time). */
  startTime: Micros;
  endTime: Micros | null;
  /** Decimal places of a second kept when result times are truncated (0-6). */
  precision: number;
  /** Decimal places compared when ranking: times equal at this precision share a rank (0-6). */
  calcPrecision: number;
  /** A finisher this close behind the previous finisher gets that finisher's time and the s/t label; 0 is off. */
  sameTimeThreshold: Micros;
  dnfOption: HideOrTime;
  dsqOption: HideOrTime;
  /** Multi-run races (multi_run_option "fixed"): every racer runs the course runCount times; null otherwise. */
  multiRun?: { runCount: number; mode: "best" | "all" | "one" | "sum" | "mean" | "worst" } | null;
  /** Enduro (is_fastest_lap): a segment ridden more than once counts its fastest run, not its first. */
  fastestLap?: boolean;
}

/** One entry of a course's points_list: a timing point crossed in a given role. */
export interface CoursePoint {
  id: string;
  timingPointId: string;
  mode: PointMode;
  name: string;
  /** Reads at the same timing point closer than this to the last accepted one are the same pass. */
  minSplit: Micros;
  /** Triathlon: the section (1 Swim, 2 T1, 3 Bike, 4 T2, 5 Run) the point closes a lap or transition of. */
  section?: number | null;
  /** Biathlon: the point where racers enter or leave the shooting range. */
  rangeRole?: "in" | "out" | null;
}

/** How a biathlon course turns shooting into time (timing.md sections 2, 3 and 9); see biathlon-result.ts. */
export interface BiathlonCourse {
  /** lap: a miss is paid by skiing a penalty loop; time: by perMiss added. */
  penaltyType: "lap" | "time";
  /** Added per missed shot (time penalties), and per penalty loop owed but not skied (penalty laps). */
  perMiss: Micros;
  /** Penalty-loop reads closer than this to the last counted one are the same loop. */
  minLoop: Micros;
  /** The timing point of the penalty-lap recorder device; null counts no loops. */
  penaltyTimingPointId: string | null;
  /** The time racers are ranked on. */
  resultCalculation: "total" | "ski" | "range";
}

export interface Course {
  id: string;
  name: string;
  /** In course order: optional start or chipstart first, then splits, with one lap point closing each lap. */
  points: CoursePoint[];
  /** Laps to finish (p2p is 1). */
  lapCount: number;
  /** Time limit races: the most laps counted. */
  maxLapCount: number | null;
  /** Time limit races: laps completed after this absolute time are not counted. */
  timeLimitEnd: Micros | null;
  /** Biathlon: one shooting between consecutive laps; null for every other course. */
  biathlon?: BiathlonCourse | null;
  /**
   * A free-order segment race's course group (free-order.ts): segments are named by their finish point, and
   * with `ordered` each counted run must start after the one before it finished (the segment list's order).
   */
  freeOrder?: { ordered: boolean } | null;
}

export interface StartGroup {
  id: string;
  ordinal: number;
  /** null: the race's start mode. */
  startMode: StartMode | null;
  scheduledStartTime: Micros | null;
  assignedStartTime: Micros | null;
  recordedStartTime: Micros | null;
  /** Individual start: gap between consecutive starts. */
  startInterval: Micros;
  /** Individual start: racers sent together (used only when isStartSizeEnabled). */
  startSize: number;
  isStartSizeEnabled: boolean;
}

export type FieldValue = string | number | boolean | null;

export interface Racer {
  id: string;
  bib: number | null;
  chips: string[];
  firstName: string;
  lastName: string;
  courseId: string | null;
  startGroupId: string | null;
  /** The racer's own start (individual start): recorded, else assigned, else scheduled. */
  startTime: Micros | null;
  isDns: boolean;
  dnfTime: Micros | null;
  dsqTime: Micros | null;
  /** Added to the time. */
  penalty: Micros;
  /** Taken off the time. */
  bonus: Micros;
  /** Time given back (taken off), in microseconds. */
  addBack: Micros;
  /** Percent applied to the elapsed time (para classes); null is 100. */
  paraFactor: number | null;
  /** Custom racer fields and the standard ones result groups may match on (sex, category, club, …). */
  fields: Record<string, FieldValue>;
  /** Biathlon: missed shots at each shooting in order (lap_{n}_biathlon_dict); null for one not entered yet. */
  rangeMisses?: readonly (number | null)[];
  /** Multi-run: each run's own statuses (dnf_{n}_time, dsq_{n}_time, is_dns_{n}), run 1 first; null for none. */
  runStatuses?: readonly (RunStatus | null)[];
  /**
   * The racer's lasting place in the race's order (the race room's racer handle): the last tie-break of every
   * sort key. Give it to every racer of a race or to none; without it a racer's place is its position in the list,
   * so removing a racer renumbers (and re-sends) every racer after it.
   */
  order?: number;
}

/**
 * What computing a racer's result reads: the engine keeps only this of a racer once it has placed the racer in
 * its groups (names, chips and fields matter to group membership, which is worked out when a racer is given).
 */
export type TimedRacer = Omit<Racer, "chips" | "firstName" | "lastName" | "fields">;

export interface RunStatus {
  isDns: boolean;
  dnfTime: Micros | null;
  dsqTime: Micros | null;
}

/** A crossing already assigned to a racer (reads outside the race window or with no racer never get here). */
export interface Crossing {
  /** Position in the race's crossing log: unique and increasing, so ordering is total. */
  seq: number;
  racerId: string;
  timingPointId: string;
  time: Micros;
}

/** "age": the field is a birth date (YYYY-MM-DD) and the age on `on` is within value [min, max] (age-classes.ts). */
export const CRITERION_OPS = ["eq", "ne", "in", "lt", "le", "gt", "ge", "blank", "notblank", "age"] as const;
export type CriterionOp = (typeof CRITERION_OPS)[number];

export interface Criterion {
  field: string;
  op: CriterionOp;
  value: FieldValue | FieldValue[];
  /** "age" only: the day ages are taken on (YYYY-MM-DD), or the basis "race_day" / "year_end" as stored. */
  on?: string;
}

/** A result group: who is ranked together. Every condition set must hold. */
export interface ResultGroupSpec {
  id: string;
  name: string;
  ordinal: number;
  courseId: string | null;
  startGroupId: string | null;
  criteria: Criterion[];
  sameTimeThreshold: Micros | null;
}

/** Everything the engine needs besides the crossings. */
export interface RaceInput {
  rules: RaceRules;
  courses: Course[];
  startGroups: StartGroup[];
  racers: Racer[];
  groups: ResultGroupSpec[];
}

/** One course point a racer passed, in course order. */
export interface Split {
  /** Position in the racer's expected sequence (lap by lap, every non-start point of the course). */
  index: number;
  coursePointId: string;
  lap: number;
  /** Absolute time of the accepted crossing. */
  time: Micros;
  /** Time since the racer's start, truncated to the race precision. */
  elapsed: Micros;
}

/** What the engine knows of one racer: the same whichever result group shows it. */
export interface RacerResult {
  racerId: string;
  status: RacerStatus;
  /** "DSQ", "DNS" or "DNF" by that priority, else "". */
  statusText: "" | "DSQ" | "DNS" | "DNF";
  start: Micros | null;
  laps: number;
  splits: Split[];
  /** Absolute time of the finish (or, in time limit races, of the last counted lap). */
  finish: Micros | null;
  /** The result time: elapsed with para factor, penalty, bonus and add back applied, truncated. */
  time: Micros | null;
  /** Sort key within any group: compared element by element, smaller first. */
  key: readonly number[];
  /** Racers with equal rank keys share a rank; null is unranked (not finished, or a status). */
  rankKey: readonly number[] | null;
  /** Biathlon courses only: shooting, loops and the three times (the result time is the one ranked on). */
  biathlon?: BiathlonResult;
  /** Multi-run races only: each run's time and status, run 1 first (the result time is the mode's). */
  runs?: RunSummary[];
  /** Enduro only: each timed segment's counted time and how many runs of it were complete. */
  segments?: SegmentSummary[];
}

export interface SegmentSummary {
  time: Micros | null;
  runs: number;
}

export interface RunSummary {
  status: RacerStatus;
  /** The run's result time, once finished. */
  time: Micros | null;
}

export interface BiathlonResult {
  /** Missed shots per shooting (laps − 1 of them); null for a shooting not entered. */
  misses: (number | null)[];
  /** Penalty loops counted after each shooting (penalty laps; zeros for time penalties). */
  loops: number[];
  /** Time added: every miss (time penalties), or every loop owed and not skied (penalty laps). */
  penalty: Micros;
  /** Start to finish with the racer's adjustments and the penalty; null until finished. */
  total: Micros | null;
  /** Time on the range (range in to range out, summed over the shootings); null while a read is missing. */
  range: Micros | null;
  /** total − range. */
  ski: Micros | null;
}

/** A racer's place within one result group. */
export interface RankedResult {
  result: RacerResult;
  rank: number | null;
  /** The time shown: the time, or the earlier finisher's time when within the same-time threshold. */
  shownTime: Micros | null;
  /** Shown with the "s/t" label. */
  sameTime: boolean;
  /** Behind the group's leader (null for the unranked). */
  diff: Micros | null;
}
