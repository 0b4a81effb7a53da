/**
 * Wall clocks in IANA time zones: the one home of time-zone conversion. Zero time (zero-time.ts) and the
 * datetime-local inputs of the setup pages both read an instant's local date and time through here.
 */

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

// One formatter per zone: building Intl formatters is the slow part.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat("en-US", {
        timeZone,
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
        hourCycle: "h23",
      });
    } catch {
      throw new RangeError(`Unknown time zone "${timeZone}"`);
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether the runtime knows the IANA zone name. */
export function isTimeZone(name: string): boolean {
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

/** The local date and time of an instant in `timeZone`; throws RangeError for an unknown zone. */
export function wallClockOf(epochMs: number, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(epochMs)) if (part.type !== "literal") parts[part.type] = Number(part.value);
  // Some engines still print midnight as hour 24 despite h23.
  const hour = parts.hour === 24 ? 0 : (parts.hour ?? 0);
  return { year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1, hour, minute: parts.minute ?? 0, second: parts.second ?? 0 };
}

/** The zone's UTC offset at an instant, in ms (local wall clock minus UTC). */
export function offsetAt(epochMs: number, timeZone: string): number {
  const p = wallClockOf(epochMs, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(epochMs / 1000) * 1000;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** An instant as a datetime-local value ("2026-06-01T09:30") on the wall clock of `timeZone`. */
export function localInputOf(epochMs: number, timeZone: string): string {
  const p = wallClockOf(epochMs, timeZone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/**
 * The instant a datetime-local value names on the wall clock of `timeZone`, or null when it is not one.
 * A wall time skipped by a DST change reads as the same time an hour later, as clocks do.
 */
export function epochOfLocalInput(text: string, timeZone: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second = 0] = match.slice(1).map((v) => Number(v ?? 0)) as number[];
  const naive = Date.UTC(year!, month! - 1, day!, hour!, minute!, second);
  const check = new Date(naive);
  if (check.getUTCMonth() !== month! - 1 || check.getUTCDate() !== day! || hour! > 23 || minute! > 59) return null;
  // Try every offset in effect from a day before to a day after and keep the instants that read back as the
  // same wall time; on the autumn change two do, and the first is meant. None does in a spring gap: the
  // offset from before the gap then moves the time forward by the gap, as clocks do.
  const DAY = 86_400_000;
  const offsets = [...new Set([naive - DAY, naive, naive + DAY].map((t) => offsetAt(t, timeZone)))];
  const readsBack = offsets
    .map((offset) => naive - offset)
    .filter((t) => localInputOf(t, timeZone) === localInputOf(naive, "UTC") && wallClockOf(t, timeZone).second === second);
  return readsBack.length > 0 ? Math.min(...readsBack) : naive - offsetAt(naive - DAY, timeZone);
}
