/**
 * An iCalendar (RFC 5545) writer for a site's events: one VCALENDAR of VEVENTs, with CRLF line ends, content
 * lines folded at 75 octets (never inside a UTF-8 character), TEXT values escaped, and all-day events as DATE
 * values whose DTEND is the day after the last (the end is exclusive, section 3.6.1).
 */

export const CALENDAR_CONTENT_TYPE = "text/calendar; charset=utf-8";

/** A line may hold 75 octets before its CRLF; a continuation line starts with one space (section 3.1). */
const FOLD_OCTETS = 75;
const CRLF = "\r\n";

/** An event's moment: a whole day (`YYYY-MM-DD`) or an instant (epoch milliseconds, written in UTC). */
export type CalendarTime = { date: string } | { instant: number };

export interface CalendarEvent {
  /** Stable for the event's whole life, so a calendar that subscribed updates the event instead of adding one. */
  uid: string;
  /** When this version of the event was written (epoch ms). */
  stamp: number;
  start: CalendarTime;
  /** The last day (inclusive) of an all-day event, or the instant it ends; none: one day, or no length. */
  end?: CalendarTime;
  summary: string;
  description?: string | null;
  location?: string | null;
  url?: string | null;
  status?: "CONFIRMED" | "TENTATIVE" | "CANCELLED";
}

export interface Calendar {
  /** Who wrote it (PRODID). */
  productId: string;
  /** The calendar's name as apps show it (X-WR-CALNAME). */
  name?: string;
  events: readonly CalendarEvent[];
}

/** UTF-8 length of one code point. */
function octetsOf(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/** Folds one content line (no CR or LF in it) into physical lines of at most 75 octets, joined by CRLF + space. */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = "";
  let used = 0;
  for (const char of line) {
    const size = octetsOf(char.codePointAt(0)!);
    if (used + size > FOLD_OCTETS) {
      out.push(current);
      // The leading space of a continuation line counts towards its 75 octets.
      current = " ";
      used = 1;
    }
    current += char;
    used += size;
  }
  out.push(current);
  return out.join(CRLF);
}

/** Unfolds a calendar's text: a CRLF followed by one space or tab is removed (section 3.1). */
export function unfoldLines(text: string): string {
  return text.replace(/\r\n[ \t]/g, "");
}

/** A TEXT value: backslash, semicolon, comma and line breaks escaped; other control characters dropped (section 3.3.11). */
export function escapeText(value: string): string {
  return wellFormed(value)
    .replace(/[\\;,]/g, (c) => `\\${c}`)
    .replace(/\r\n|\r|\n/g, "\\n")
    .replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, ""); // eslint-disable-line no-control-regex
}

/** The text an escaped TEXT value stands for (for tests and readers). */
export function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === "n" || c === "N" ? "\n" : c));
}

/** Lone surrogate halves have no UTF-8 form; they become U+FFFD, as an encoder would write them. */
function wellFormed(value: string): string {
  return value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** `YYYY-MM-DD` as an iCalendar DATE (`YYYYMMDD`), or null when it is not a real calendar date. */
export function calendarDate(isoDate: string): string | null {
  const day = dayNumber(isoDate);
  return day === null ? null : isoDate.replace(/-/g, "");
}

/** An instant as a UTC DATE-TIME (`YYYYMMDDTHHMMSSZ`). */
export function calendarDateTime(epochMs: number): string {
  const d = new Date(epochMs);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
}

/** Days since 1970-01-01 of a real `YYYY-MM-DD` date, or null. */
function dayNumber(isoDate: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null;
  return ms / 86_400_000;
}

/** The DATE after an ISO date, as iCalendar writes it. */
function nextDay(isoDate: string): string {
  return calendarDateTime((dayNumber(isoDate)! + 1) * 86_400_000).slice(0, 8);
}

function timeProperty(name: "DTSTART" | "DTEND", time: CalendarTime): string {
  return "date" in time ? `${name};VALUE=DATE:${calendarDate(time.date)}` : `${name}:${calendarDateTime(time.instant)}`;
}

/** The lines of one VEVENT, unfolded. An end before the start, or a date that is no date, is left out rather than written wrong. */
function eventLines(event: CalendarEvent): string[] {
  const lines = ["BEGIN:VEVENT", `UID:${escapeText(event.uid)}`, `DTSTAMP:${calendarDateTime(event.stamp)}`];
  const { start, end } = event;
  if ("date" in start) {
    if (calendarDate(start.date) === null) throw new Error(`Not a date: ${start.date}`);
    lines.push(timeProperty("DTSTART", start));
    const last = end && "date" in end && calendarDate(end.date) !== null && end.date >= start.date ? end.date : start.date;
    lines.push(`DTEND;VALUE=DATE:${nextDay(last)}`);
  } else {
    lines.push(timeProperty("DTSTART", start));
    if (end && "instant" in end && end.instant >= start.instant) lines.push(timeProperty("DTEND", end));
  }
  lines.push(`SUMMARY:${escapeText(event.summary)}`);
  if (event.description) lines.push(`DESCRIPTION:${escapeText(event.description)}`);
  if (event.location) lines.push(`LOCATION:${escapeText(event.location)}`);
  // A URI value is not TEXT: it is written as it is, so only a URL without line breaks is taken.
  if (event.url && !/[\r\n]/.test(event.url)) lines.push(`URL:${event.url}`);
  if (event.status) lines.push(`STATUS:${event.status}`);
  lines.push("END:VEVENT");
  return lines;
}

/** The whole calendar as the text of a .ics file. */
export function writeCalendar(calendar: Calendar): string {
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", `PRODID:${escapeText(calendar.productId)}`, "CALSCALE:GREGORIAN", "METHOD:PUBLISH"];
  if (calendar.name) lines.push(`X-WR-CALNAME:${escapeText(calendar.name)}`);
  for (const event of calendar.events) lines.push(...eventLines(event));
  lines.push("END:VCALENDAR");
  return lines.map(foldLine).join(CRLF) + CRLF;
}
