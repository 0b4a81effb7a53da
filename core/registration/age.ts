/**
 * Ages for age-limited options (platform.md section 9: the age calculation date defaults to 31 December
 * of the close year). Dates are YYYY-MM-DD calendar dates; times are epoch milliseconds.
 */

export interface AgeCalcSource {
  age_calc_date: string | null;
  close_time: number | null;
}

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real YYYY-MM-DD calendar date, or null. */
export function parseCalendarDate(text: string): CalendarDate | null {
  const match = DATE_TEXT.exec(text);
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/**
 * The date ages are counted on: age_calc_date when it is a real date, else 31 December of the year of
 * close_time (in UTC), else of `now` for a form that never closes.
 */
export function ageCalcDate(registration: AgeCalcSource, now: number): string {
  if (registration.age_calc_date !== null && parseCalendarDate(registration.age_calc_date) !== null) return registration.age_calc_date;
  return `${new Date(registration.close_time ?? now).getUTCFullYear()}-12-31`;
}

/**
 * Whole years from `birthDate` to `onDate`; the birthday itself counts. A 29 February birthday turns over
 * on 1 March in other years (28 February is still before it). Negative when born after `onDate`; null
 * when either is not a real date.
 */
export function ageOn(birthDate: string, onDate: string): number | null {
  const birth = parseCalendarDate(birthDate);
  const on = parseCalendarDate(onDate);
  if (birth === null || on === null) return null;
  const hadBirthday = on.month > birth.month || (on.month === birth.month && on.day >= birth.day);
  return on.year - birth.year - (hadBirthday ? 0 : 1);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
