import type { Micros } from "../timing/model";
import { RecentAnswers } from "../memo/recent-answers";
import { offsetAt, wallClockOf as localParts } from "./wall-clock";

/**
 * Zero time: the race's clock origin, midnight at the start of the start day in the race's IANA time
 * zone, as absolute microseconds since the Unix epoch. Race times of day count from it.
 */

const MS_PER_HOUR = 3_600_000;
const MS_PER_DAY = 24 * MS_PER_HOUR;

/** The local calendar day of an instant, as the UTC ms of that date's midnight (a comparable day number). */
function localDay(epochMs: number, timeZone: string): number {
  const p = localParts(epochMs, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day);
}

/** First instant whose local day is `day` or later, for days with no midnight (a DST gap at 00:00). */
function firstInstantOfDay(day: number, timeZone: string): number {
  let before = day - 2 * MS_PER_DAY; // local day is surely earlier: no zone is 48 h ahead of UTC
  let after = day + 2 * MS_PER_DAY;
  while (after - before > 1) {
    const mid = Math.floor((before + after) / 2);
    if (localDay(mid, timeZone) >= day) after = mid;
    else before = mid;
  }
  return after;
}

/** Absolute ms of local midnight starting the local day of `epochMs`. */
function localMidnightMs(epochMs: number, timeZone: string): number {
  const day = localDay(epochMs, timeZone);
  // Midnight's offset may differ from the start's (DST change that day), so try every offset in effect
  // from a day before to a day after, and keep the instants that really are 00:00 local on that day.
  const offsets = new Set([day - MS_PER_DAY, day, day + MS_PER_DAY].map((t) => offsetAt(t, timeZone)));
  const midnights = [...offsets]
    .map((offset) => day - offset)
    .filter((t) => {
      const p = localParts(t, timeZone);
      return Date.UTC(p.year, p.month - 1, p.day) === day && p.hour === 0 && p.minute === 0 && p.second === 0;
    });
  // Two midnights when clocks fall back across 00:00: the day starts at the first.
  return midnights.length > 0 ? Math.min(...midnights) : firstInstantOfDay(day, timeZone);
}

// Remembered answers: every device batch asks for its race's zero time, and the Intl work behind one answer
// cost a timing device a fifth of a millisecond. The function is pure, so a bounded memo cannot go stale.
const zeroTimes = new RecentAnswers<Micros>(Infinity, 512);

/** Zero time of a race starting at `startTime` (absolute micros) in `timeZone` (IANA, e.g. "America/Toronto"). */
export function zeroTimeOf(startTime: Micros, timeZone: string): Micros {
  if (!Number.isFinite(startTime)) throw new RangeError(`start time must be finite, got ${startTime}`);
  const key = `${startTime}|${timeZone}`;
  const known = zeroTimes.get(key);
  if (known !== undefined) return known;
  const zeroTime = localMidnightMs(Math.floor(startTime / 1000), timeZone) * 1000;
  zeroTimes.set(key, zeroTime);
  return zeroTime;
}

/**
 * The absolute time of a race time of day. Times of day count elapsed microseconds from zero time, so on
 * a DST change day a time of day after the change differs from the wall clock by the shift.
 */
export function absoluteFromTimeOfDay(zeroTime: Micros, timeOfDay: Micros): Micros {
  return zeroTime + timeOfDay;
}
