/**
 * Biathlon rules (timing.md sections 2, 3, 5 and 9): setup checks and defaults, shooting penalties,
 * penalty loops and the ski, range and total times. Plain inputs, so the results engine can call it
 * with whatever it read from the TimedEntity (lap_{n}_biathlon_dict, penalty_times_{lap}_list).
 */
import type { Invalid } from "../time/parse";
import { MICROS_PER_SECOND, type Micros } from "./model";
import { MUST_BE_A_NUMBER, MUST_BE_WHOLE, readFormNumber } from "./validation";

export const BIATHLON_DEFAULT_LAPS = 3;
export const BIATHLON_DEFAULT_RANGE = "PPSS";
export const BIATHLON_DEFAULT_RELAY_MEMBERS = 4;
export const BIATHLON_PENALTY_PER_MISS: Micros = 60 * MICROS_PER_SECOND;
export const BIATHLON_MIN_PENALTY_LOOP: Micros = 5 * MICROS_PER_SECOND;

export const BIATHLON_MIN_LAPS = 2;
/** Shots at one shooting are 5; a range entry above it is a typo. Not shown in the spec. */
export const BIATHLON_MAX_MISSES = 5;
/** Shootings a course can have (laps − 1); 20 covers any real format. Not shown in the spec. */
export const BIATHLON_MAX_SHOOTINGS = 20;
export const BIATHLON_MIN_RELAY_MEMBERS = 2;

export const BIATHLON_LAPS_TOO_FEW = "Biathlon races must have at least 2 laps";
export const BIATHLON_RELAY_TOO_FEW = "Biathlon team relays must have at least 2 racers";
export const BIATHLON_RANGE_LETTERS = "Must be some combination of P and S";

/** lap: a missed shot is paid by skiing a penalty loop; time: by a fixed time added per miss. */
export const BIATHLON_PENALTY_TYPES = ["lap", "time"] as const;
export type BiathlonPenaltyType = (typeof BIATHLON_PENALTY_TYPES)[number];
export const BIATHLON_PENALTY_TYPE_LABELS: Record<BiathlonPenaltyType, string> = { lap: "Penalty laps", time: "Time penalty" };

/** The time a biathlon result is ranked on; the names match the keys of BiathlonTimes. */
export const BIATHLON_RESULT_CALCULATIONS = ["total", "ski", "range"] as const;
export type BiathlonResultCalculation = (typeof BIATHLON_RESULT_CALCULATIONS)[number];
export const BIATHLON_RESULT_CALCULATION_LABELS: Record<BiathlonResultCalculation, string> = {
  total: "Total time",
  ski: "Ski time only",
  range: "Range time only",
};

export const BIATHLON_TIMES_TO_DISPLAY = ["laps", "midlap", "total", "finish"] as const;
export type BiathlonTimesToDisplay = (typeof BIATHLON_TIMES_TO_DISPLAY)[number];
export const BIATHLON_TIMES_TO_DISPLAY_LABELS: Record<BiathlonTimesToDisplay, string> = {
  laps: "Lap times",
  midlap: "Mid-lap splits",
  total: "Total time at each point",
  finish: "Finish only",
};

type FormValue = string | number | null | undefined;

/** A whole number typed in a form, at least `minimum`; `tooFew` is the message below it. */
function validateWholeAtLeast(raw: FormValue, minimum: number, tooFew: string): number | Invalid {
  const value = readFormNumber(raw);
  if (value === null) return { error: MUST_BE_A_NUMBER };
  if (value < minimum) return { error: tooFew };
  if (!Number.isInteger(value)) return { error: MUST_BE_WHOLE };
  return value;
}

/** Biathlon laps: a number, at least 2 (a lap, a shooting, a lap). */
export function validateBiathlonLaps(raw: FormValue): number | Invalid {
  return validateWholeAtLeast(raw, BIATHLON_MIN_LAPS, BIATHLON_LAPS_TOO_FEW);
}

/** Racers per team in a biathlon relay: a number, at least 2. */
export function validateBiathlonRelayMembers(raw: FormValue): number | Invalid {
  return validateWholeAtLeast(raw, BIATHLON_MIN_RELAY_MEMBERS, BIATHLON_RELAY_TOO_FEW);
}

/** A range pattern: one letter per shooting, P (prone) or S (standing), any case; stored uppercase. Blank is refused. */
export function validateRangePattern(raw: string | null | undefined): string | Invalid {
  const pattern = (raw ?? "").trim().toUpperCase();
  return /^[PS]+$/.test(pattern) ? pattern : { error: BIATHLON_RANGE_LETTERS };
}

/**
 * The range pattern a course gets by default: one shooting between consecutive laps, so laps − 1 letters
 * of "PPSS" (3 laps → "PP", 5 laps → "PPSS"). Above 5 laps the pattern repeats (7 laps → "PPSSPP"): the
 * spec only says "cut", and repeating keeps prone and standing alternating in pairs as in the default.
 * Fewer than 2 laps has no shooting, so "".
 */
export function defaultRangePattern(laps: number): string {
  const shootings = Math.max(0, Math.trunc(laps) - 1);
  return BIATHLON_DEFAULT_RANGE.repeat(Math.ceil(shootings / BIATHLON_DEFAULT_RANGE.length)).slice(0, shootings);
}

function assertMissCount(misses: number): void {
  if (!Number.isInteger(misses) || misses < 0) throw new RangeError(`misses must be a whole number from 0, got ${misses}`);
}

export interface BiathlonPenaltyInput {
  type: BiathlonPenaltyType;
  /** Missed shots at each shooting, in order. */
  missesPerShooting: readonly number[];
  /** The course's biathlon_penalty; defaults to 60 s. */
  perMiss?: Micros;
}

/**
 * The time added for missed shots. Time penalties: every miss costs `perMiss`. Penalty laps add nothing
 * here: the loops are skied, so their time is already in the racer's crossings (see missingLoops).
 */
export function biathlonPenalty({ type, missesPerShooting, perMiss = BIATHLON_PENALTY_PER_MISS }: BiathlonPenaltyInput): Micros {
  if (type === "lap") return 0;
  let misses = 0;
  for (const shootingMisses of missesPerShooting) {
    assertMissCount(shootingMisses);
    misses += shootingMisses;
  }
  return misses * perMiss;
}

/**
 * Penalty loops skied, from a penalty-lap recorder's reads. A read closer than `minLoop` (strictly less)
 * to the last counted one is the same loop seen twice; a read exactly `minLoop` later is a new loop.
 */
export function penaltyLoopsDone(loopCrossings: readonly Micros[], minLoop: Micros = BIATHLON_MIN_PENALTY_LOOP): number {
  let loops = 0;
  let lastCounted: Micros | null = null;
  for (const time of [...loopCrossings].sort((a, b) => a - b)) {
    if (lastCounted !== null && time - lastCounted < minLoop) continue;
    loops++;
    lastCounted = time;
  }
  return loops;
}

/** Loops still owed for `misses` missed shots; skiing extra loops never earns credit. */
export function missingLoops(misses: number, loopsDone: number): number {
  assertMissCount(misses);
  return Math.max(0, misses - loopsDone);
}

/**
 * Misses per shooting from lap_{n}_biathlon_dict entries given in shooting order. Each dict holds the
 * lap's count under "misses"; a dict without it, or with something that is not a whole number from 0,
 * counts as 0 misses (a shooting not yet entered).
 */
export function missesFromDicts(dicts: readonly Record<string, number>[]): number[] {
  return dicts.map((dict) => {
    const misses = dict.misses;
    return typeof misses === "number" && Number.isInteger(misses) && misses >= 0 ? misses : 0;
  });
}

export interface BiathlonTimesInput {
  start: Micros | null;
  /** Absolute time each lap was finished, one entry per lap of the race; null for a lap not yet done. */
  lapTimes: readonly (Micros | null)[];
  /** Absolute time of entering the range, one per shooting. */
  rangeIn: readonly (Micros | null)[];
  /** Absolute time of leaving the range, one per shooting (the same index as rangeIn). */
  rangeOut: readonly (Micros | null)[];
  /** From biathlonPenalty: time added for misses (0 for penalty laps). */
  penalty: Micros;
}

/**
 * The three times a biathlon result can be calculated on, keyed by BiathlonResultCalculation.
 * - total: last lap's finish − start, plus the time penalty.
 * - range ("range time only"): the sum over shootings of range out − range in; the time spent on the
 *   shooting range, with no penalty.
 * - ski ("ski time only"): total − range, i.e. everything but the range: the laps skied, the penalty loops
 *   (skied outside the range) and any time penalty, which stands in for those loops.
 */
export type BiathlonTimes = Record<BiathlonResultCalculation, Micros | null>;

/** Range time, or null when a shooting lacks a read, the in and out lists differ in length, or an out precedes its in. */
export function rangeTime(rangeIn: readonly (Micros | null)[], rangeOut: readonly (Micros | null)[]): Micros | null {
  if (rangeIn.length !== rangeOut.length) return null;
  let total = 0;
  for (let i = 0; i < rangeIn.length; i++) {
    const entered = rangeIn[i];
    const left = rangeOut[i];
    if (entered === null || entered === undefined || left === null || left === undefined || left < entered) return null;
    total += left - entered;
  }
  return total;
}

/** Total, ski and range time; total is null until every lap is done, range (and so ski) when a range read is missing. */
export function biathlonTimes({ start, lapTimes, rangeIn, rangeOut, penalty }: BiathlonTimesInput): BiathlonTimes {
  const finish = lapTimes.at(-1);
  const finished = start !== null && lapTimes.length > 0 && lapTimes.every((time) => time !== null);
  const total = finished && finish !== null && finish !== undefined ? finish - start + penalty : null;
  const range = rangeTime(rangeIn, rangeOut);
  const ski = total !== null && range !== null ? total - range : null;
  return { total, ski, range };
}

/** "No misses", "1 miss", "3 misses": how the keypad and results say a shooting's count. */
export function missesText(misses: number): string {
  return misses === 0 ? "No misses" : misses === 1 ? "1 miss" : `${misses} misses`;
}

/** Device types that may send range data (timing.md section 2): keypad, android keypad, summit and generic. */
export const RANGE_DATA_DEVICE_TYPES = ["webkeypad", "android", "summit", "other"] as const;
export const RANGE_DEVICE_KIND = "Range data comes from a keypad, android keypad, summit or generic device";
export const NO_SUCH_DEVICE = "No such device";

export interface BiathlonSetup {
  penaltyType: BiathlonPenaltyType | null;
  lapCount: number;
  isRelay: boolean;
  relayMemberCount: number | null;
  penaltyDeviceId: string | null;
  rangeDeviceId: string | null;
}

/**
 * What is wrong with a race's biathlon setup, by settings field; empty when nothing is (or the race is not
 * a biathlon). A relay's racer count is checked only when set: unset means the default of 4.
 */
export function biathlonSetupProblems(setup: BiathlonSetup, devices: readonly { id: string; type: string }[]): Record<string, string> {
  const problems: Record<string, string> = {};
  if (setup.penaltyType === null) return problems;
  if (setup.lapCount < BIATHLON_MIN_LAPS) problems.lap_count = BIATHLON_LAPS_TOO_FEW;
  if (setup.isRelay && setup.relayMemberCount !== null && setup.relayMemberCount < BIATHLON_MIN_RELAY_MEMBERS)
    problems.relay_member_count = BIATHLON_RELAY_TOO_FEW;
  const deviceType = (id: string) => devices.find((d) => d.id === id)?.type;
  if (setup.penaltyType === "lap" && setup.penaltyDeviceId !== null && deviceType(setup.penaltyDeviceId) === undefined)
    problems.biathlon_penalty_device = NO_SUCH_DEVICE;
  if (setup.rangeDeviceId !== null) {
    const type = deviceType(setup.rangeDeviceId);
    if (type === undefined) problems.biathlon_range_device = NO_SUCH_DEVICE;
    else if (!(RANGE_DATA_DEVICE_TYPES as readonly string[]).includes(type)) problems.biathlon_range_device = RANGE_DEVICE_KIND;
  }
  return problems;
}
