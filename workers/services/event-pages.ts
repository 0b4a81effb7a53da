/**
 * A club site's event pages (issue 26, decision 0046): the site's public events, one event by its address
 * with the races and registration forms it links to, and both as iCalendar files. Every query is scoped to
 * the site, so another tenant's event or race is never found here.
 */
import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import { inSiteCalendar, splitEvents } from "../../core/sites/event-dates";
import type { EventStatus } from "../../core/sites/event-card";
import { writeCalendar, type CalendarEvent } from "../../core/sites/icalendar";
import { isClosed, isOpen } from "../../core/registration/status";
import { clubs, eventPages, races, registrations, type Db } from "../../schema/d1";
import { catalogueColumns, roomOf, type RaceCatalogue } from "./race-access";

/** The most events a site lists; a club runs a few dozen a year. */
const SITE_EVENTS_MAX = 500;
const EVENT_PATH = /^[a-z0-9][a-z0-9-]{0,99}$/;

export interface SiteEvent {
  id: string;
  title: string;
  path: string;
  year: number | null;
  startDate: string | null;
  endDate: string | null;
  description: string | null;
  sport: string | null;
  bannerUrl: string | null;
  headerOption: "banner" | "title" | "none";
  status: EventStatus;
  location: string | null;
  clubName: string;
  /** When the page last changed (epoch ms): the calendar's DTSTAMP. */
  changedAt: number;
  raceIds: string[];
  registrationIds: string[];
}

const eventColumns = {
  id: eventPages.id,
  name: eventPages.name,
  title: eventPages.title,
  path: eventPages.pageUrl,
  year: eventPages.year,
  startDate: eventPages.startDate,
  endDate: eventPages.endDate,
  description: eventPages.description,
  sport: eventPages.sport,
  bannerUrl: eventPages.bannerUrl,
  headerOption: eventPages.headerOption,
  status: eventPages.eventStatus,
  location: eventPages.location,
  clubName: clubs.name,
  createdAt: eventPages.createdAt,
  fieldMtimes: eventPages.fieldMtimes,
  raceIds: eventPages.raceIds,
  registrationIds: eventPages.registrationIds,
};

type EventRow = Awaited<ReturnType<typeof selectEvents>>[number];

function selectEvents(db: Db) {
  return db.select(eventColumns).from(eventPages).innerJoin(clubs, eq(clubs.id, eventPages.clubId));
}

function siteEventOf(row: EventRow): SiteEvent {
  const { name, title, createdAt, fieldMtimes, path, ...rest } = row;
  return {
    ...rest,
    title: title || name,
    path: path ?? "",
    changedAt: Math.max(createdAt, ...Object.values(fieldMtimes ?? {}).filter((t): t is number => typeof t === "number")),
  };
}

/** Shown on the site: its own, public, and with an address to be at. */
const onSite = (siteId: string) => and(eq(eventPages.siteId, siteId), eq(eventPages.isPublic, true), isNotNull(eventPages.pageUrl));

/** The site's public events, upcoming (soonest first) and past (latest first). */
export async function listSiteEvents(db: Db, siteId: string, now: number): Promise<{ upcoming: SiteEvent[]; past: SiteEvent[] }> {
  const rows = await selectEvents(db).where(onSite(siteId)).orderBy(asc(eventPages.startDate)).limit(SITE_EVENTS_MAX);
  return splitEvents(rows.map(siteEventOf), now);
}

/** One public event of the site by its address, or null (another site's, a draft, or an address that cannot be one). */
export async function getSiteEvent(db: Db, siteId: string, path: string): Promise<SiteEvent | null> {
  if (!EVENT_PATH.test(path)) return null;
  const [row] = await selectEvents(db)
    .where(and(onSite(siteId), eq(eventPages.pageUrl, path)))
    .limit(1);
  return row ? siteEventOf(row) : null;
}

export interface EventRaceLink {
  id: string;
  name: string;
  startTime: number;
  timezone: string;
  location: string | null;
  hasStartList: boolean;
}

export interface EventFormLink {
  id: string;
  name: string;
  state: "open" | "not-open" | "closed";
  openTime: number | null;
  closeTime: number | null;
}

/** In the order the event lists them; ids that no longer name a visible race or live form drop out. */
const inOrder = <T extends { id: string }>(ids: readonly string[], rows: T[]) =>
  ids.map((id) => rows.find((row) => row.id === id)).filter((row): row is T => row !== undefined);

/**
 * The event's races (public or unlisted, on this site) with whether their start list is public, and its live
 * registration forms on this site with whether they take entries now.
 */
export async function eventLinks(env: Env, db: Db, siteId: string, event: SiteEvent, now: number): Promise<{ races: EventRaceLink[]; forms: EventFormLink[] }> {
  const [raceRows, formRows] = await Promise.all([
    event.raceIds.length === 0
      ? []
      : db
          .select(catalogueColumns)
          .from(races)
          .innerJoin(clubs, eq(clubs.id, races.clubId))
          .where(and(inArray(races.id, event.raceIds), eq(races.siteId, siteId), inArray(races.visibility, ["public", "unlisted"]))),
    event.registrationIds.length === 0
      ? []
      : db
          .select({ id: registrations.id, name: registrations.name, openTime: registrations.openTime, closeTime: registrations.closeTime })
          .from(registrations)
          .where(and(inArray(registrations.id, event.registrationIds), eq(registrations.siteId, siteId), eq(registrations.isApproved, true))),
  ]);
  const raceLinks = await Promise.all(inOrder(event.raceIds, raceRows).map((race) => raceLinkOf(env, race)));
  const forms = inOrder(event.registrationIds, formRows).map((form) => {
    const window = { is_approved: true, open_time: form.openTime, close_time: form.closeTime };
    const state = isOpen(window, now) ? "open" : isClosed(window, now) ? "closed" : "not-open";
    return { ...form, state } as EventFormLink;
  });
  return { races: raceLinks, forms };
}

async function raceLinkOf(env: Env, race: RaceCatalogue): Promise<EventRaceLink> {
  // A race room that cannot answer costs only the start list link, never the event page.
  const settings = await roomOf(env, race)
    .then((room) => room.settings())
    .catch(() => null);
  return {
    id: race.id,
    name: race.name,
    startTime: race.startTime,
    timezone: race.timezone,
    location: race.location,
    hasStartList: settings?.start_list_visibility === "public",
  };
}

/** A UID that stays the event's for its whole life, whatever its address or the site's hostname become. */
export const eventUid = (event: Pick<SiteEvent, "id">) => `${event.id}@events.startline`;

const CALENDAR_STATUS: Record<EventStatus, CalendarEvent["status"]> = { scheduled: "CONFIRMED", postponed: "TENTATIVE", cancelled: "CANCELLED" };

/** Events with dates as VEVENTs; `origin` is the site's address, for each event's URL. */
export function eventsCalendar(siteName: string, origin: string, events: readonly SiteEvent[]): string {
  const dated = events.filter((e): e is SiteEvent & { startDate: string } => e.startDate !== null);
  return writeCalendar({
    productId: "-//Startline//Event pages//EN",
    name: siteName,
    events: dated.map((event) => ({
      uid: eventUid(event),
      stamp: event.changedAt,
      start: { date: event.startDate },
      end: event.endDate ? { date: event.endDate } : undefined,
      summary: event.title,
      description: event.description,
      location: event.location,
      url: `${origin}/events/${event.path}`,
      status: CALENDAR_STATUS[event.status],
    })),
  });
}

/** The site's calendar: its upcoming events and those that ended in the last 90 days. */
export async function siteCalendar(db: Db, siteId: string, siteName: string, origin: string, now: number): Promise<string> {
  const { upcoming, past } = await listSiteEvents(db, siteId, now);
  return eventsCalendar(siteName, origin, [...upcoming, ...past.filter((e) => inSiteCalendar(e, now))]);
}
