/**
 * What the event pages load: the site's events, one event with its links and its share card (decision 0046).
 * A host that is not a club site, or an address that is no public event of this site, is a 404.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { cardTags, sportsEventData, type EventCardInput } from "../core/sites/event-card";
import { formatEventDays, type EventLang } from "../core/sites/event-dates";
import { openDb } from "../schema/d1";
import { originOf } from "../workers/auth/hosts";
import { eventLinks, getSiteEvent, listSiteEvents, type SiteEvent } from "../workers/services/event-pages";

/** Sites have no language setting yet: their pages are English (decision 0046); the dates follow this. */
const SITE_LANG: EventLang = "en";

function requireSite(context: AppLoadContext) {
  if (context.tenant.kind !== "site") throw new Response("Not found", { status: 404 });
  return { ...context.tenant, origin: originOf(context.env, context.tenant.hostname) };
}

/** A minute: an organiser's edit shows soon, and a crowd opening a shared link is still served from caches. */
const PUBLIC_PAGE_CACHE = "public, max-age=60";

/** A public page for everyone; one with a signed-in user's name in its header is theirs alone. */
export function pageCacheControl(context: AppLoadContext): string {
  return context.session ? "private, no-cache" : PUBLIC_PAGE_CACHE;
}

const listed = (event: SiteEvent) => ({
  path: event.path,
  title: event.title,
  days: formatEventDays(event, SITE_LANG),
  startDate: event.startDate,
  location: event.location,
  sport: event.sport,
  status: event.status,
});

export type ListedEvent = ReturnType<typeof listed>;

/** The site's next few public events, for its home page's events block. */
export async function upcomingSiteEvents(db: ReturnType<typeof openDb>, siteId: string, now: number, limit: number): Promise<ListedEvent[]> {
  const { upcoming } = await listSiteEvents(db, siteId, now);
  return upcoming.slice(0, limit).map(listed);
}

export async function loadSiteEvents(context: AppLoadContext) {
  const site = requireSite(context);
  const { upcoming, past } = await listSiteEvents(openDb(context.env.DB), site.siteId, context.now);
  return { lang: SITE_LANG, siteName: site.theme.name, upcoming: upcoming.map(listed), past: past.map(listed) };
}

export async function loadSiteEvent(context: AppLoadContext, rawPath: string | undefined) {
  const site = requireSite(context);
  const db = openDb(context.env.DB);
  const event = await getSiteEvent(db, site.siteId, rawPath ?? "");
  if (!event) throw new Response("Not found", { status: 404 });
  const links = await eventLinks(context.env, db, site.siteId, event, context.now);
  const url = `${site.origin}/events/${event.path}`;
  const card: EventCardInput = {
    title: event.title,
    description: event.description,
    startDate: event.startDate,
    endDate: event.endDate,
    status: event.status,
    sport: event.sport,
    url,
    // An uploaded banner is a path on the site; a share card needs the whole address.
    imageUrl: event.bannerUrl ? new URL(event.bannerUrl, site.origin).href : null,
    // Where the event says it is, else its first race's place.
    location: event.location ?? links.races.find((race) => race.location)?.location ?? null,
    organizer: { name: event.clubName, url: `${site.origin}/` },
  };
  return {
    lang: SITE_LANG,
    event: { ...listed(event), description: event.description, bannerUrl: event.bannerUrl, headerOption: event.headerOption, location: card.location },
    links,
    meta: { title: `${event.title} · ${site.theme.name}`, tags: cardTags(card, site.theme.name), jsonLd: sportsEventData(card) },
  };
}
