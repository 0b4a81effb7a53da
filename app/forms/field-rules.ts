/**
 * Field rules of the form kit as zod fields. Numbers arrive as text so a wrong one can be named ("Must be a
 * Number", not a browser hint); rules with wording in the spec come from core/, so the pages say exactly what
 * it says.
 */
import * as z from "zod";
import { isInvalid, parseTimeOfDay, type Invalid } from "../../core/time/parse";
import { MAX_RUNS } from "../../core/timing/multi-run";
import { FIELD_REQUIRED, validateCustomFieldValue } from "../../core/timing/racer-fields";
import { MUST_BE_A_NUMBER, MUST_BE_WHOLE, readFormNumber, validateLapCount, validatePrecision } from "../../core/timing/validation";

export const MUST_BE_ZERO_OR_MORE = "Must be 0 or more";
export const ENTER_A_NAME = "Enter a name";
export const ENTER_DATE_TIME = "Enter a date and time";
export const END_AFTER_START = "The end must be after the start";
export const CHOOSE_TIME_ZONE = "Choose a time zone";
/** A form's one-time id (sent twice, the form acts once); a page too old to carry one is asked to reload. */
export const submissionId = z.uuid("Please reload the page and try again");

/** A rule from core (value or Invalid) as a zod field; `blank` is what an empty field means (else the rule decides). */
export function rule<T>(check: (text: string) => T | Invalid) {
  return z
    .string()
    .default("")
    .transform((raw, ctx): T => {
      const value = check(raw.trim());
      if (isInvalid(value)) {
        ctx.addIssue({ code: "custom", message: value.error });
        return z.NEVER;
      }
      return value;
    });
}

export function blankOr<T, B>(check: (text: string) => T | Invalid, blank: B) {
  return rule<T | B>((text) => (text === "" ? blank : check(text)));
}

export const text = (max = 200) =>
  z
    .string()
    .default("")
    .transform((v) => v.trim().slice(0, max));
export const nullableText = (max = 200) => text(max).transform((v) => (v === "" ? null : v));
export const requiredName = z
  .string()
  .default("")
  .transform((v) => v.trim())
  .pipe(z.string().min(1, ENTER_A_NAME).max(200, "At most 200 characters"));
/** An unchecked box sends nothing. */
export const checkbox = z
  .string()
  .optional()
  .transform((v) => v === "on" || v === "true");
export const choice = <const T extends readonly [string, ...string[]]>(values: T, message: string) => z.enum(values, { error: message });

/** Seconds with up to 6 decimals ("30", "0.25", "-1.5" or "+1.5" where signed) as microseconds. */
export function parseSeconds(textValue: string, signed = false): number | Invalid {
  if (textValue.trim() === "") return { error: FIELD_REQUIRED };
  const value = validateCustomFieldValue({ type: "seconds" }, textValue.trim().replace(/^\+/, signed ? "" : "+"));
  if (isInvalid(value)) return value;
  if (typeof value !== "number") return { error: FIELD_REQUIRED };
  return !signed && value < 0 ? { error: MUST_BE_ZERO_OR_MORE } : value;
}

export function seconds(blank: number | null, signed = false) {
  return blankOr((t) => parseSeconds(t, signed), blank);
}

export function wholeFromZero(t: string): number | Invalid {
  const value = readFormNumber(t);
  if (value === null) return { error: MUST_BE_A_NUMBER };
  if (!Number.isInteger(value)) return { error: MUST_BE_WHOLE };
  return value < 0 ? { error: MUST_BE_ZERO_OR_MORE } : value;
}

export function decimalFromZero(t: string): number | Invalid {
  const value = readFormNumber(t);
  if (value === null) return { error: MUST_BE_A_NUMBER };
  return value < 0 ? { error: MUST_BE_ZERO_OR_MORE } : value;
}

/** A time of day "HH:MM:SS" (or "HH:MM", as time inputs send whole minutes) as microseconds since midnight. */
export function timeOfDay(t: string): number | Invalid {
  return parseTimeOfDay(/^\d{1,2}:\d{2}$/.test(t) ? `${t}:00` : t);
}

/** Runs of a multi-run race: a whole number from 1 to 10. */
export function validateRunCount(t: string): number | Invalid {
  const value = validateLapCount(t);
  return !isInvalid(value) && value > MAX_RUNS ? { error: `At most ${MAX_RUNS} runs` } : value;
}

/** A whole number from 1 (lap counts, start sizes): "Must be a Number", "Must be at least 1". */
export const atLeastOne = rule(validateLapCount);
export const precision = rule(validatePrecision);
