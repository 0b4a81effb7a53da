import { data, type HeadersFunction, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { EventList } from "../../components/event-list";
import { ErrorPage } from "../../components/error-page";
import { loadSiteEvents, pageCacheControl } from "../../events.server";

/** A club site's events: upcoming soonest first, then past ones latest first, and the site's calendar file. */
export async function loader({ context }: LoaderFunctionArgs) {
  return data(await loadSiteEvents(context), { headers: { "Cache-Control": pageCacheControl(context) } });
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const links: LinksFunction = () => [{ rel: "alternate", type: "text/calendar", href: "/events.ics", title: "Events calendar" }];

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const title = data ? `Events · ${data.siteName}` : "Events";
  return [{ title }, { name: "description", content: data ? `Upcoming and past events of ${data.siteName}` : "Events" }];
};

export default function Events() {
  const { upcoming, past, lang } = useLoaderData<typeof loader>();
  return (
    <main className="page" lang={lang}>
      <h1>Events</h1>
      <section aria-labelledby="upcoming-events-heading">
        <h2 id="upcoming-events-heading">Upcoming events</h2>
        <EventList events={upcoming} emptyText="No upcoming events yet. Check back soon." />
      </section>
      {past.length > 0 ? (
        <section aria-labelledby="past-events-heading">
          <h2 id="past-events-heading">Past events</h2>
          <EventList events={past} emptyText="" />
        </section>
      ) : null}
      <p>
        <a href="/events.ics" download="events.ics">
          Add these events to your calendar (.ics)
        </a>
      </p>
    </main>
  );
}

export const ErrorBoundary = () => <ErrorPage page notFound="Events are shown on a club's own site." />;
