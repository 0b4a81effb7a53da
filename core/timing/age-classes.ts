/**
 * Age classes for result groups (issue 23, decision 0034): a racer's age in whole years on a day, the
 * classes an organiser types ("U10, U12, 17-19, 35+, every 5 from 35") and their names.
 */
import type { Criterion } from "./model";

/** Age on the race's day (the default), or on 31 December of the race's year (FIS, IBU and USSA classes). */
export const AGE_BASES = ["race_day", "year_end"] as const;
export type AgeBasis = (typeof AGE_BASES)[number];
export const DEFAULT_AGE_BASIS: AgeBasis = "race_day";

/** timing.md section 9, "Default numeric grouping upper range 80": a step stops here and the last class is open. */
export const AGE_STEP_UPPER = 80;

/** More classes than this is a typing mistake, not a race. */
const MAX_BANDS = 60;

export const AGE_CLASS_HELP = "Age classes are like U10, 17-19, 35+ or every 5 from 35, separated by commas";

interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A real calendar date written YYYY-MM-DD (29 February only in leap years), else null. */
function dateOf(text: unknown): CalendarDate | null {
  if (typeof text !== "string") return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return null;
  const days = month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  return day <= days ? { year, month, day } : null;
}

/**
 * Whole years from `birth` to `on` (both YYYY-MM-DD): a racer is a year older on their birthday itself. A
 * 29 February birthday comes on 1 March in common years. null when either is no date or birth is after `on`.
 */
export function ageOn(birth: unknown, on: unknown): number | null {
  const b = dateOf(birth);
  const d = dateOf(on);
  if (!b || !d) return null;
  const birthdayPassed = d.month > b.month || (d.month === b.month && d.day >= b.day);
  const age = d.year - b.year - (birthdayPassed ? 0 : 1);
  return age >= 0 ? age : null;
}

/** The day ages are taken on: the race's day, or 31 December of its year. */
export function ageDateOf(basis: AgeBasis, raceDay: string): string {
  return basis === "year_end" ? `${raceDay.slice(0, 4)}-12-31` : raceDay;
}

/** Stored age criteria name their basis ("race_day"); the engine gets the date it stands for on this race. */
export function withAgeDates(criteria: readonly Criterion[], raceDay: string): Criterion[] {
  return criteria.map((c) => (c.op === "age" && (c.on === "race_day" || c.on === "year_end") ? { ...c, on: ageDateOf(c.on, raceDay) } : c));
}

/** An age criterion's value [min, max] holds for `age`; either end may be open (null). */
export function ageInRange(age: number, value: Criterion["value"]): boolean {
  const [min, max] = Array.isArray(value) ? value : [null, null];
  return (typeof min !== "number" || age >= min) && (typeof max !== "number" || age <= max);
}

/** One class: ages from `min` to `max` inclusive (null: open), and how it reads. */
export interface AgeBand {
  min: number | null;
  max: number | null;
  label: string;
  /** "U14 Men" rather than "Men U14". */
  under: boolean;
}

const range = (min: number, max: number): AgeBand => ({ min, max, label: min === max ? String(min) : `${min}–${max}`, under: false });
const open = (min: number): AgeBand => ({ min, max: null, label: `${min}+`, under: false });

export type ParsedBands = { ok: true; bands: AgeBand[] } | { ok: false; message: string };

/**
 * The classes an organiser typed, youngest first. "U12" after "U10" is 10–11 (the FIS and USSA reading);
 * a first "U10" is everyone under 10. "every 5 from 35" makes 35–39 … 75–79 and 80+; "every 5 from 35 to 59"
 * stops at 55–59. Classes may leave gaps (nobody there is ranked in one) but may not overlap.
 */
export function parseAgeBands(text: string): ParsedBands {
  const tokens = text
    .split(/[,;\n]/)
    .map((t) => t.replace(/[…]|\.\.\./g, "").trim())
    .filter((t) => t !== "");
  if (tokens.length === 0) return { ok: false, message: "Enter the age classes" };
  const bands: AgeBand[] = [];
  let lastUnder: number | null = null;
  for (const token of tokens) {
    const t = token.toLowerCase().replace(/\s+/g, " ");
    let m: RegExpExecArray | null;
    if ((m = /^u ?(\d{1,3})$/.exec(t))) {
      const limit = Number(m[1]);
      const min = lastUnder !== null && lastUnder < limit ? lastUnder : null;
      if (limit < 1) return { ok: false, message: `Age class “${token}” is empty` };
      bands.push({ min, max: limit - 1, label: `U${limit}`, under: true });
      lastUnder = limit;
      continue;
    }
    lastUnder = null;
    if ((m = /^(\d{1,3}) ?[-–] ?(\d{1,3})$/.exec(t))) {
      const [min, max] = [Number(m[1]), Number(m[2])];
      if (min > max) return { ok: false, message: `Age class “${token}” runs backwards` };
      bands.push(range(min, max));
    } else if ((m = /^(\d{1,3}) ?(\+|and over|and older)$/.exec(t))) {
      bands.push(open(Number(m[1])));
    } else if ((m = /^(\d{1,3})$/.exec(t))) {
      bands.push(range(Number(m[1]), Number(m[1])));
    } else if ((m = /^every (\d{1,2}) (?:years? )?from (\d{1,3})(?: to (\d{1,3}))?$/.exec(t))) {
      const [step, from] = [Number(m[1]), Number(m[2])];
      const to = m[3] === undefined ? null : Number(m[3]);
      if (step < 1) return { ok: false, message: `Age class “${token}” needs a step of at least 1 year` };
      const last = to ?? AGE_STEP_UPPER - 1;
      for (let min = from; min <= last; min += step) bands.push(range(min, Math.min(min + step - 1, last)));
      if (to === null && from < AGE_STEP_UPPER) bands.push(open(AGE_STEP_UPPER));
    } else {
      return { ok: false, message: `Age class “${token}” is not one we read. ${AGE_CLASS_HELP}.` };
    }
    if (bands.length > MAX_BANDS) break;
  }
  if (bands.length > MAX_BANDS) return { ok: false, message: `Too many age classes: at most ${MAX_BANDS}` };
  const sorted = [...bands].sort((a, b) => (a.min ?? -1) - (b.min ?? -1));
  for (let i = 1; i < sorted.length; i++) {
    const [before, after] = [sorted[i - 1]!, sorted[i]!];
    if (before.max === null || (after.min ?? -1) <= before.max) return { ok: false, message: `Age classes ${before.label} and ${after.label} overlap` };
  }
  return { ok: true, bands: sorted };
}

/** The criterion for a class: an age from the birth-date field, taken on the basis's day. */
export function ageCriterion(field: string, band: Pick<AgeBand, "min" | "max">, basis: AgeBasis): Criterion {
  return { field, op: "age", value: [band.min, band.max], on: basis };
}
