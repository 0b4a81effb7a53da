import { MICROS_PER_SECOND, type Micros } from "../timing/model";

/** A value a user typed that could not be accepted, with the reason to show them. */
export interface Invalid {
  readonly error: string;
}

export function isInvalid(value: unknown): value is Invalid {
  return typeof value === "object" && value !== null && "error" in value;
}

export const TIME_REQUIRED = "Enter a time";
export const TIME_FORMAT = "Use H:MM:SS, M:SS or seconds, with up to 6 decimals";
export const TIME_UNIT_RANGE = "Minutes and seconds must be below 60";
export const TIME_TOO_LARGE = "Time is too large";
export const TIME_OF_DAY_FORMAT = "Use HH:MM:SS, with up to 6 decimals";
export const TIME_OF_DAY_HOURS = "Hours must be below 24";

const MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND;
const MICROS_PER_HOUR = 60 * MICROS_PER_MINUTE;

/** "12", "1:05" or "1:02:03" with an optional ".ffffff"; the first unit may have any number of digits. */
const RACE_TIME = /^(\d+)(?::(\d{1,2}))?(?::(\d{1,2}))?(?:\.(\d{1,6}))?$/;
const TIME_OF_DAY = /^(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$/;

/** ".1" is a tenth, so the fraction is padded on the right to microseconds. */
function fractionMicros(digits: string | undefined): number {
  return digits ? Number(digits.padEnd(6, "0")) : 0;
}

/**
 * A duration such as a result time or a penalty: "H:MM:SS", "MM:SS" or "SS", each with up to six
 * decimals and an optional leading "-". Minutes and seconds must be below 60 when a larger unit is
 * present (timing.md section 5); the first unit is unbounded, so "75" is 75 seconds and "90:00" 90 minutes.
 */
export function parseRaceTime(text: string): Micros | Invalid {
  const trimmed = text.trim();
  if (trimmed === "") return { error: TIME_REQUIRED };
  const negative = trimmed.startsWith("-");
  const match = RACE_TIME.exec(negative ? trimmed.slice(1) : trimmed);
  if (!match) return { error: TIME_FORMAT };
  const [, first = "0", second, third, fraction] = match;
  const units = [first, second, third].filter((unit): unit is string => unit !== undefined).map(Number);
  // The units after the first are the ones "a larger unit is present" for.
  if (units.slice(1).some((unit) => unit >= 60)) return { error: TIME_UNIT_RANGE };
  const [hours, minutes, seconds] = [0, 0, ...units].slice(-3) as [number, number, number];
  const micros = hours * MICROS_PER_HOUR + minutes * MICROS_PER_MINUTE + seconds * MICROS_PER_SECOND + fractionMicros(fraction);
  if (!Number.isSafeInteger(micros)) return { error: TIME_TOO_LARGE };
  // "-0" is zero, not negative zero.
  return negative && micros !== 0 ? -micros : micros;
}

/** A clock time "HH:MM:SS(.ffffff)" (hours below 24) as microseconds since midnight. */
export function parseTimeOfDay(text: string): Micros | Invalid {
  const match = TIME_OF_DAY.exec(text.trim());
  if (!match) return { error: text.trim() === "" ? TIME_REQUIRED : TIME_OF_DAY_FORMAT };
  const [, hours = "0", minutes = "0", seconds = "0", fraction] = match;
  if (Number(hours) >= 24) return { error: TIME_OF_DAY_HOURS };
  if (Number(minutes) >= 60 || Number(seconds) >= 60) return { error: TIME_UNIT_RANGE };
  return Number(hours) * MICROS_PER_HOUR + Number(minutes) * MICROS_PER_MINUTE + Number(seconds) * MICROS_PER_SECOND + fractionMicros(fraction);
}
