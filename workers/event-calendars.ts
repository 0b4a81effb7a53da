/**
 * A club site's event calendars: `/events.ics` (its upcoming and recent events) and `/events/{path}.ics`
 * (one event). Served here rather than by Remix, whose routes cannot tell `/events/{path}` from the same
 * address ending in `.ics` (decision 0046).
 */
import { CALENDAR_CONTENT_TYPE } from "../core/sites/icalendar";
import { originOf } from "./auth/hosts";
import type { RequestContext } from "./request-context";
import { eventsCalendar, getSiteEvent, siteCalendar } from "./services/event-pages";

const SITE_CALENDAR = "/events.ics";
const EVENT_CALENDAR = /^\/events\/([^/]+)\.ics$/;
/** Calendar apps poll a subscription every few hours; a short max-age keeps an edit visible soon after. */
const CALENDAR_CACHE = "public, max-age=300";

export function isEventCalendarPath(pathname: string): boolean {
  return pathname === SITE_CALENDAR || EVENT_CALENDAR.test(pathname);
}

export async function handleEventCalendar(request: Request, { env, tenant, db, now, session }: RequestContext): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") return new Response("Method not allowed", { status: 405, headers: { Allow: "GET, HEAD" } });
  const notFound = () => new Response("No such event calendar on this site", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  // Events belong to club sites; the main and super-admin hosts have none.
  if (tenant.kind !== "site") return notFound();
  const { pathname } = new URL(request.url);
  const origin = originOf(env, tenant.hostname);
  let body: string;
  let filename: string;
  if (pathname === SITE_CALENDAR) {
    body = await siteCalendar(db, tenant.siteId, tenant.theme.name, origin, now);
    filename = "events.ics";
  } else {
    const path = safeDecode(EVENT_CALENDAR.exec(pathname)?.[1] ?? "");
    const event = path === null ? null : await getSiteEvent(db, tenant.siteId, path);
    if (!event || !event.startDate) return notFound();
    body = eventsCalendar(tenant.theme.name, origin, [event]);
    filename = `${event.path}.ics`;
  }
  return new Response(request.method === "HEAD" ? null : body, {
    headers: {
      "Content-Type": CALENDAR_CONTENT_TYPE,
      // inline: a phone opens it in its calendar app; the name is what a download is saved as.
      "Content-Disposition": `inline; filename="${filename}"`,
      // A signed-in caller's answer may carry their refreshed session cookie, which no shared cache may keep.
      "Cache-Control": session ? "private, max-age=300" : CALENDAR_CACHE,
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** A percent-encoded address that does not decode is no event's. */
function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
