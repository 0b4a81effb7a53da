/**
 * What a shared link to an event page shows: the Open Graph and Twitter card tags and the schema.org
 * SportsEvent data (https://schema.org/SportsEvent). Values are plain data; the page renders them escaped.
 */
import { lastDayOf } from "./event-dates";

export type EventStatus = "scheduled" | "postponed" | "cancelled";

export interface EventCardInput {
  title: string;
  description: string | null;
  startDate: string | null;
  endDate: string | null;
  status: EventStatus;
  sport: string | null;
  /** Absolute URLs. */
  url: string;
  imageUrl: string | null;
  location: string | null;
  organizer: { name: string; url: string };
}

/** A card's description: the page's first words, on one line, cut at a word near 200 characters. */
export function summaryOf(description: string | null, fallback: string, max = 200): string {
  const flat = (description ?? "").replace(/\s+/g, " ").trim();
  if (!flat) return fallback;
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:]+$/, "")}…`;
}

const STATUS_URL: Record<EventStatus, string> = {
  scheduled: "https://schema.org/EventScheduled",
  postponed: "https://schema.org/EventPostponed",
  cancelled: "https://schema.org/EventCancelled",
};

/** The SportsEvent object for a `script:ld+json` block; fields with no value are left out. */
export function sportsEventData(event: EventCardInput): Record<string, unknown> {
  const data: Record<string, unknown> = {
    "@context": "https://schema.org",
    "@type": "SportsEvent",
    name: event.title,
    url: event.url,
    eventStatus: STATUS_URL[event.status],
    organizer: { "@type": "SportsOrganization", name: event.organizer.name, url: event.organizer.url },
  };
  if (event.startDate) data.startDate = event.startDate;
  const last = lastDayOf(event);
  if (last) data.endDate = last;
  if (event.description) data.description = summaryOf(event.description, event.title, 500);
  if (event.imageUrl) data.image = [event.imageUrl];
  if (event.sport) data.sport = event.sport;
  if (event.location) data.location = { "@type": "Place", name: event.location, address: event.location };
  return data;
}

/** Open Graph and Twitter card tags, as Remix meta descriptors. */
export type MetaTag = { property: string; content: string } | { name: string; content: string };

export function cardTags(event: EventCardInput, siteName: string): MetaTag[] {
  const description = summaryOf(event.description, event.title);
  const tags: MetaTag[] = [
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: siteName },
    { property: "og:title", content: event.title },
    { property: "og:description", content: description },
    { property: "og:url", content: event.url },
    { name: "twitter:card", content: event.imageUrl ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: event.title },
    { name: "twitter:description", content: description },
    { name: "description", content: description },
  ];
  if (event.imageUrl) tags.push({ property: "og:image", content: event.imageUrl }, { name: "twitter:image", content: event.imageUrl });
  return tags;
}
