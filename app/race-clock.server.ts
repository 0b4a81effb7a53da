/**
 * The race's clock in forms: times of day on race day as the pages show and read them, and a start (and
 * end) typed on the race's wall clock in its time zone.
 */
import * as z from "zod";
import { fieldErrorsOf, type FieldErrors } from "../core/entity/field-errors";
import { exactTimeOfDay } from "../core/time/format";
import { zeroTimeOfRace } from "../schema/race/settings";
import { epochOfLocalInput, isTimeZone } from "../core/time/wall-clock";
import { refuse, type PostedForm } from "./forms/posted-form.server";
import { CHOOSE_TIME_ZONE, END_AFTER_START, ENTER_DATE_TIME } from "./forms/field-rules";

export interface RaceClock {
  /** Midnight of the race day in the race's zone, absolute microseconds. */
  zeroTime: number;
  startTime: number;
  endTime: number | null;
}

export function raceClockOf(race: { startTime: number; endTime: number | null; timezone: string }): RaceClock {
  return {
    zeroTime: zeroTimeOfRace(race.startTime, race.timezone),
    startTime: race.startTime * 1000,
    endTime: race.endTime === null ? null : race.endTime * 1000,
  };
}

/** "09:30:00" or "09:30:00.25" for an absolute time on the race's clock; "" for none. */
export function timeOfDayText(absolute: number | null | undefined, clock: RaceClock): string {
  return absolute === null || absolute === undefined ? "" : exactTimeOfDay(absolute - clock.zeroTime);
}

export function absoluteOfTimeOfDay(tod: number | null, clock: RaceClock): number | null {
  return tod === null ? null : clock.zeroTime + tod;
}

export const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

export const startSchema = z
  .string()
  .default("")
  .transform((v) => v.trim())
  .pipe(z.string().regex(LOCAL_DATE_TIME, ENTER_DATE_TIME));
export const endSchema = z
  .string()
  .default("")
  .transform((v) => v.trim())
  .pipe(z.string().refine((v) => v === "" || LOCAL_DATE_TIME.test(v), ENTER_DATE_TIME));
export const timezoneSchema = z.string().default("").refine(isTimeZone, CHOOSE_TIME_ZONE);

/**
 * A form with a start (and end) typed on the race's wall clock: the schema's fields, and the instants as
 * epoch milliseconds. The instants are checked even when other fields are wrong, so every error shows at once.
 */
export function parseTimedForm<S extends z.ZodType<{ start: string; end?: string; timezone: string }>>(schema: S, posted: PostedForm) {
  const parsed = schema.safeParse(posted.values);
  const errors: FieldErrors = parsed.success ? {} : fieldErrorsOf(parsed.error.issues);
  const { start = "", end = "", timezone = "" } = posted.values;
  const zone = isTimeZone(timezone) ? timezone : null;
  const startTime = zone && LOCAL_DATE_TIME.test(start.trim()) ? epochOfLocalInput(start, zone) : null;
  const endTime = zone && LOCAL_DATE_TIME.test(end.trim()) ? epochOfLocalInput(end, zone) : null;
  if (zone && startTime === null) errors.start ??= ENTER_DATE_TIME;
  if (zone && end.trim() !== "" && endTime === null) errors.end ??= ENTER_DATE_TIME;
  if (startTime !== null && endTime !== null && endTime <= startTime) errors.end ??= END_AFTER_START;
  if (!parsed.success || Object.keys(errors).length > 0 || startTime === null) return { ok: false as const, reply: refuse(posted, errors) };
  return { ok: true as const, value: { ...(parsed.data as z.output<S>), startTime, endTime } };
}
