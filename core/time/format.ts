import { MICROS_PER_SECOND, type Micros } from "../timing/model";
import { truncateMicros } from "./truncate";

/** Result formats show one decimal unless set otherwise (timing.md section 9, "display precision 1"). */
export const DEFAULT_DISPLAY_PRECISION = 1;

const MICROS_PER_DAY = 86_400 * MICROS_PER_SECOND;

const pad2 = (n: number) => String(n).padStart(2, "0");

/** "SS.f" / "M:SS.f" / "H:MM:SS.f" of a non-negative time already truncated to `precision`. */
function clock(micros: number, precision: number, padLeadingUnit: boolean): string {
  const wholeSeconds = Math.floor(micros / MICROS_PER_SECOND);
  const fraction =
    precision === 0
      ? ""
      : "." +
        String(micros % MICROS_PER_SECOND)
          .padStart(6, "0")
          .slice(0, precision);
  const hours = Math.floor(wholeSeconds / 3600);
  const minutes = Math.floor((wholeSeconds % 3600) / 60);
  const seconds = wholeSeconds % 60;
  if (padLeadingUnit) return `${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}${fraction}`;
  if (hours > 0) return `${hours}:${pad2(minutes)}:${pad2(seconds)}${fraction}`;
  if (minutes > 0) return `${minutes}:${pad2(seconds)}${fraction}`;
  return `${seconds}${fraction}`;
}

function assertFinite(micros: number): void {
  if (!Number.isFinite(micros)) throw new RangeError(`time must be a finite number of microseconds, got ${micros}`);
}

/**
 * A duration as results show it: "12.3" under a minute, "1:02.3" under an hour, "1:02:03.4" above.
 * Truncated, never rounded, to `displayPrecision` decimals (0-6), so a shown time is never better than
 * the measured one; negative times get a leading "-" (a time that truncates to zero shows unsigned).
 */
export function formatRaceTime(micros: Micros, displayPrecision: number = DEFAULT_DISPLAY_PRECISION): string {
  assertFinite(micros);
  const shown = truncateMicros(micros, displayPrecision);
  return (shown < 0 ? "-" : "") + clock(Math.abs(shown), displayPrecision, false);
}

/**
 * A gap behind the group's leader: "+1:02.3". The leader (a diff of exactly 0) and the unranked (null)
 * show "" so the column stays empty for them; any non-zero gap shows, even one that truncates to "+0.0".
 */
export function formatDiff(micros: Micros | null, displayPrecision: number = DEFAULT_DISPLAY_PRECISION): string {
  if (micros === null || micros === 0) return "";
  const text = formatRaceTime(micros, displayPrecision);
  return text.startsWith("-") ? text : `+${text}`;
}

/**
 * A clock time "09:00:01.2" from microseconds since zero time (midnight). Values outside one day wrap
 * around the clock (a crossing after midnight of a race that runs past it shows "00:15:00.0"); the
 * fraction is truncated.
 */
export function formatTimeOfDay(microsSinceMidnight: Micros, displayPrecision: number = DEFAULT_DISPLAY_PRECISION): string {
  assertFinite(microsSinceMidnight);
  // Wrap first so truncation of a time before midnight goes back in time, as a clock does.
  const wrapped = ((microsSinceMidnight % MICROS_PER_DAY) + MICROS_PER_DAY) % MICROS_PER_DAY;
  return clock(truncateMicros(wrapped, displayPrecision), displayPrecision, true);
}

/**
 * A time of day exactly as stored, without trailing zeros: "09:00:30", "09:00:30.25". Forms show this so
 * that saving unchanged text gives back the same microseconds.
 */
export function exactTimeOfDay(microsSinceMidnight: Micros): string {
  return formatTimeOfDay(microsSinceMidnight, 6).replace(/\.?0+$/, "");
}

/** Microseconds as seconds with only the decimals there are: "30", "0.25", "-1.5" ("+0.25" when `signed`). */
export function exactSeconds(micros: Micros | null | undefined, signed = false): string {
  if (micros === null || micros === undefined) return "";
  const sign = micros < 0 ? "-" : signed && micros > 0 ? "+" : "";
  const abs = Math.abs(micros);
  const fraction = String(abs % MICROS_PER_SECOND)
    .padStart(6, "0")
    .replace(/0+$/, "");
  return `${sign}${Math.floor(abs / MICROS_PER_SECOND)}${fraction ? `.${fraction}` : ""}`;
}
