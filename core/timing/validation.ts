import type { Invalid } from "../time/parse";
import { MAX_PRECISION } from "../time/truncate";
import { TIMING_ERRORS } from "./errors";
import type { StartMode, StartOption } from "./model";

/** Race setup checks and defaults (timing.md sections 3, 4, 5 and 9). */

export const MUST_BE_A_NUMBER = "Must be a Number";
export const MUST_BE_AT_LEAST_1 = "Must be at least 1";
export const MUST_BE_WHOLE = "Must be a whole number";
export const PRECISION_RANGE = `Must be a whole number from 0 to ${MAX_PRECISION}`;
/** A setting naming a timing point the race does not have (a relay's handover point, a segment's start or finish). */
export const NOT_A_RACE_TIMING_POINT = "Choose one of the race's timing points";

/** Race setup defaults, under the Race field names in camelCase (section 3 and 9). */
export const RACE_DEFAULTS = {
  timingMode: "lap",
  startMode: "mass",
  startSize: 1,
  displayPrecision: 1,
  sameTimeDisplay: "s/t",
  teamLapTimeDisplay: "racer_at_lap_finish",
  startlistDisplaySort: "time",
  seedFunction: "random",
  starttimeSort: "bib",
  splitDisplay: "splits",
  splitTiming: "lap",
  rankDisplay: "finish",
  displayDiffs: "no-display",
  defaultResultFields: ["club", "team", "city"],
} as const;

/** Individual starts time each racer from their own read at the start mat; mass starts from the gun. */
export function defaultStartOption(startMode: StartMode): StartOption {
  return startMode === "individual" ? "chipstart" : "gun";
}

/** A number typed in a form, or null when it is not one (blank, words, "0x10", "1e3", "1,5"). */
export function readFormNumber(raw: string | number | null | undefined): number | null {
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : null;
  const text = (raw ?? "").trim();
  return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : null;
}

/** A standard-lap lap count: a number, at least 1, whole. */
export function validateLapCount(raw: string | number | null | undefined): number | Invalid {
  const value = readFormNumber(raw);
  if (value === null) return { error: MUST_BE_A_NUMBER };
  if (value < 1) return { error: MUST_BE_AT_LEAST_1 };
  if (!Number.isInteger(value)) return { error: MUST_BE_WHOLE };
  return value;
}

/** A timing setup mode is required and cannot be "none". */
export function validateSetupMode(mode: string | null | undefined): string | Invalid {
  const trimmed = (mode ?? "").trim();
  if (trimmed === "" || trimmed.toLowerCase() === "none") return { error: TIMING_ERRORS.setupModeNone };
  return trimmed;
}

/** Decimal places of a second, 0 to 6 (truncation supports no more). */
export function validatePrecision(raw: string | number | null | undefined): number | Invalid {
  const value = readFormNumber(raw);
  if (value === null) return { error: MUST_BE_A_NUMBER };
  if (!Number.isInteger(value) || value < 0 || value > MAX_PRECISION) return { error: PRECISION_RANGE };
  return value;
}

export const DELETE_BLOCKED_PUBLIC_RESULTS = "This race has public results. Make every result format private before deleting the race.";
export const DELETE_BLOCKED_START_LIST = "This race's start list is visible. Hide it before deleting the race.";

export interface DeletionCheck {
  /** Unlisted formats count as public: anyone with the link can see them. */
  resultFormats: readonly { isPublic: boolean; isUnlisted?: boolean }[];
  /** start_list_visibility: "hidden" (or false, null, "") hides it; anything else shows it. */
  startListVisibility: string | boolean | null;
}

/** Why the race cannot be deleted (public results first), or null when it can. */
export function deletionBlocked(race: DeletionCheck): string | null {
  if (race.resultFormats.some((format) => format.isPublic || format.isUnlisted)) return DELETE_BLOCKED_PUBLIC_RESULTS;
  const visibility = race.startListVisibility;
  const startListVisible = visibility === true || (typeof visibility === "string" && visibility !== "" && visibility !== "hidden");
  return startListVisible ? DELETE_BLOCKED_START_LIST : null;
}
