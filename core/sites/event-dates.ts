/**
 * When an event page counts as upcoming or past, and its dates in words (decision 0046). Event pages hold
 * whole days (YYYY-MM-DD) with no time zone, so "past" waits until the last day has ended everywhere.
 */

const DAY_MS = 86_400_000;
/** The last time zone to finish a day is UTC−12: a day there ends 12 hours after it ends in UTC. */
const LATEST_ZONE_MS = 12 * 60 * 60 * 1000;
/** The site's calendar file carries past events that ended this many days ago or less, so a recent one stays in subscribers' calendars. */
export const CALENDAR_RECENT_DAYS = 90;

export interface EventDays {
  startDate: string | null;
  endDate: string | null;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The event's last day: its end date, else its start date; null for an event with no date yet. */
export function lastDayOf(event: EventDays): string | null {
  const start = event.startDate && ISO_DATE.test(event.startDate) ? event.startDate : null;
  const end = event.endDate && ISO_DATE.test(event.endDate) ? event.endDate : null;
  return end && (!start || end >= start) ? end : start;
}

/** The moment (epoch ms) the event's last day has ended in every time zone; null for an event with no date. */
export function endsEverywhereAt(event: EventDays): number | null {
  const last = lastDayOf(event);
  if (!last) return null;
  const ms = Date.parse(`${last}T00:00:00Z`);
  return Number.isNaN(ms) ? null : ms + DAY_MS + LATEST_ZONE_MS;
}

/** Past once the last day is over everywhere; an event with no date is never past (it is still being planned). */
export function isEventPast(event: EventDays, now: number): boolean {
  const ends = endsEverywhereAt(event);
  return ends !== null && now >= ends;
}

/**
 * Upcoming events soonest first (undated ones last), and past events latest first: the order a visitor reads
 * a club's season in.
 */
export function splitEvents<T extends EventDays & { title: string }>(events: readonly T[], now: number): { upcoming: T[]; past: T[] } {
  const byStart = (a: T, b: T) => (a.startDate ?? "9999").localeCompare(b.startDate ?? "9999") || a.title.localeCompare(b.title);
  const upcoming = events.filter((e) => !isEventPast(e, now)).sort(byStart);
  const past = events.filter((e) => isEventPast(e, now)).sort((a, b) => byStart(b, a));
  return { upcoming, past };
}

/** Whether the site's calendar file carries the event: upcoming, or ended in the last CALENDAR_RECENT_DAYS days. */
export function inSiteCalendar(event: EventDays, now: number): boolean {
  const ends = endsEverywhereAt(event);
  return ends !== null && now - ends < CALENDAR_RECENT_DAYS * DAY_MS;
}

export type EventLang = "en" | "fr";
const LOCALES: Record<EventLang, string> = { en: "en-CA", fr: "fr-CA" };

/**
 * The event's days as words in the language: "February 14, 2027", "February 14 – 15, 2027" (fr: "14 – 15 février
 * 2027"). The dates are calendar days, so they are written in UTC and never shift with a reader's zone.
 */
export function formatEventDays(event: EventDays, lang: EventLang): string | null {
  const start = event.startDate && ISO_DATE.test(event.startDate) ? event.startDate : null;
  const last = lastDayOf(event);
  if (!start || !last) return null;
  const format = new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: "long", timeZone: "UTC" });
  const from = new Date(`${start}T00:00:00Z`);
  if (Number.isNaN(from.getTime())) return null;
  return last === start ? format.format(from) : format.formatRange(from, new Date(`${last}T00:00:00Z`));
}
