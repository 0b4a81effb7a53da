import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaDescriptor, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { ErrorPage } from "../../components/error-page";
import { loadSiteEvent, pageCacheControl } from "../../events.server";
import { formatDateTime, formatRaceDate } from "../../format";

/** One event of a club's site: its banner, days and description, and links to its forms, races, start lists and results. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  return data(await loadSiteEvent(context, params.path), { headers: { "Cache-Control": pageCacheControl(context) } });
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: "Event not found" }];
  const descriptors: MetaDescriptor[] = [{ title: data.meta.title }, ...data.meta.tags];
  // Remix writes this block with <, > and & escaped, so no title can close the script element.
  descriptors.push({ "script:ld+json": data.meta.jsonLd });
  descriptors.push({ tagName: "link", rel: "alternate", type: "text/calendar", href: `/events/${data.event.path}.ics` });
  return descriptors;
};

const STATUS_NOTICE = { scheduled: null, postponed: "This event is postponed.", cancelled: "This event is cancelled." } as const;

export default function EventPage() {
  const { event, links, lang } = useLoaderData<typeof loader>();
  const showBanner = event.headerOption === "banner" && event.bannerUrl;
  const paragraphs = (event.description ?? "").split(/\n\s*\n/).filter((p) => p.trim() !== "");
  return (
    <main className="page event-page" lang={lang}>
      <p>
        <a href="/events">← All events</a>
      </p>
      {showBanner ? <img className="event-banner" src={event.bannerUrl!} alt="" /> : null}
      <h1 className={event.headerOption === "none" ? "visually-hidden" : undefined}>{event.title}</h1>
      <p className="race-meta">
        {event.days ? <time dateTime={event.startDate ?? undefined}>{event.days}</time> : <span>Dates to be announced</span>}
        {event.location ? <span> · {event.location}</span> : null}
        {event.sport ? <span> · {event.sport}</span> : null}
      </p>
      {STATUS_NOTICE[event.status] ? (
        <p className="notice" role="status">
          {STATUS_NOTICE[event.status]}
        </p>
      ) : null}
      {paragraphs.map((paragraph, i) => (
        <p key={i} className="event-description">
          {paragraph}
        </p>
      ))}
      {links.forms.length > 0 ? (
        <section aria-labelledby="event-registration-heading">
          <h2 id="event-registration-heading">Registration</h2>
          <ul className="race-list">
            {links.forms.map((form) => (
              <li key={form.id} className="race-card">
                <a href={`/register/${form.id}`}>
                  <span className="race-name">{form.name}</span>
                </a>
                <span className="race-meta">
                  {form.state === "open"
                    ? form.closeTime
                      ? `Open until ${formatDateTime(form.closeTime)}`
                      : "Open"
                    : form.state === "closed"
                      ? "Registration is closed"
                      : form.openTime
                        ? `Opens ${formatDateTime(form.openTime)}`
                        : "Not open yet"}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {links.races.length > 0 ? (
        <section aria-labelledby="event-races-heading">
          <h2 id="event-races-heading">Races</h2>
          <ul className="race-list">
            {links.races.map((race) => (
              <li key={race.id} className="race-card">
                <span className="race-name">{race.name}</span>
                <span className="race-meta">
                  <time dateTime={new Date(race.startTime).toISOString()}>{formatRaceDate(race.startTime, race.timezone)}</time>
                  {race.location ? <span> · {race.location}</span> : null}
                </span>
                <span className="event-race-links">
                  <a href={`/races/${race.id}`} aria-label={`Results of ${race.name}`}>
                    Results
                  </a>
                  {race.hasStartList ? (
                    <a href={`/races/${race.id}/startlist`} aria-label={`Start list of ${race.name}`}>
                      Start list
                    </a>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {event.startDate ? (
        <p>
          <a href={`/events/${event.path}.ics`} download={`${event.path}.ics`}>
            Add to your calendar (.ics)
          </a>
        </p>
      ) : null}
    </main>
  );
}

export const ErrorBoundary = () => (
  <ErrorPage
    page
    notFound={{ title: "Event not found", text: "There is no event at this address on this site." }}
    back={{ to: "/events", label: "All events" }}
  />
);
