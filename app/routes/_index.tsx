import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { adminAreaHref, adminAreas } from "../../core/access/admin-areas";
import { openDb } from "../../schema/d1";
import { activitiesOfSiteRaces } from "../../workers/services/activity-tags";
import { listedSince, listUpcomingPublicRaces, listUpcomingSiteRaces } from "../../workers/services/races";
import { HomeBlocks } from "../components/home-blocks";
import { RaceList } from "../components/race-list";
import { siteHome } from "../site-home.server";

const SEARCH_MAX_LENGTH = 100;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant, env } = context;
  const now = Date.now();
  if (tenant.kind === "admin") return { kind: "admin" as const };
  const db = openDb(env.DB);
  if (tenant.kind === "site") {
    // The club's own blocks, when it set some (decision 0056); otherwise the tagline and races below.
    const home = await siteHome(db, tenant.siteId, now);
    if (home) return { kind: "blocks" as const, ...home };
    // ?activity= narrows the list to one activity the site's races are tagged with; an unknown one lists none.
    const asked = new URL(request.url).searchParams.get("activity");
    const activity = asked && /^[0-9a-f-]{36}$/.test(asked) ? asked : null;
    const [races, activities] = await Promise.all([
      listUpcomingSiteRaces(db, tenant.siteId, now, 50, activity),
      activitiesOfSiteRaces(db, tenant.siteId, listedSince(now)),
    ]);
    return { kind: "site" as const, tagline: tenant.theme.tagline ?? null, races, activities, activity };
  }
  const query = (new URL(request.url).searchParams.get("q") ?? "").slice(0, SEARCH_MAX_LENGTH);
  return { kind: "main" as const, query, races: await listUpcomingPublicRaces(db, now, query) };
}

export const meta: MetaFunction<typeof loader> = ({ matches }) => {
  const root = matches.find((m) => m.id === "root")?.data as { theme?: { name: string; tagline?: string } } | undefined;
  const name = root?.theme?.name ?? "Startline";
  return [{ title: name }, { name: "description", content: root?.theme?.tagline ?? name }];
};

export default function Home() {
  const data = useLoaderData<typeof loader>();
  if (data.kind === "admin") return <AdminHome />;
  if (data.kind === "blocks")
    return (
      <main className="page">
        <HomeBlocks blocks={data.blocks} events={data.events} races={data.races} />
      </main>
    );
  if (data.kind === "site") return <SiteHome tagline={data.tagline} races={data.races} activities={data.activities} activity={data.activity} />;
  return <MainHome query={data.query} races={data.races} />;
}

function MainHome({ query, races }: { query: string; races: Parameters<typeof RaceList>[0]["races"] }) {
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.pathname === "/";
  return (
    <main className="page">
      <section className="hero">
        <h1>Registration, timing and live results for sports clubs</h1>
        <p>Build registration forms, time races with chip readers and keypads, and publish live results to every spectator.</p>
        <p className="actions">
          <a className="button" href="/signup">
            Create an account
          </a>
          <a className="button secondary" href="/login">
            Sign in
          </a>
        </p>
      </section>
      <section aria-labelledby="upcoming-heading">
        <h2 id="upcoming-heading">Upcoming races</h2>
        <Form method="get" role="search" className="search">
          <label htmlFor="race-search">Search races, clubs and places</label>
          <div className="search-row">
            <input id="race-search" type="search" name="q" defaultValue={query} maxLength={SEARCH_MAX_LENGTH} />
            <button type="submit" disabled={searching}>
              {searching ? "Searching…" : "Search"}
            </button>
          </div>
        </Form>
        <div aria-live="polite" aria-busy={searching}>
          <RaceList races={races} showClub emptyText={query ? `No upcoming races match “${query}”.` : "No upcoming races yet."} />
        </div>
      </section>
    </main>
  );
}

function SiteHome({
  tagline,
  races,
  activities,
  activity,
}: {
  tagline: string | null;
  races: Parameters<typeof RaceList>[0]["races"];
  activities: { id: string; name: string }[];
  activity: string | null;
}) {
  return (
    <main className="page">
      {tagline ? <p className="tagline">{tagline}</p> : null}
      <section aria-labelledby="upcoming-heading">
        <h2 id="upcoming-heading">Upcoming races</h2>
        {activities.length > 0 ? (
          <nav aria-label="Activities">
            <ul className="flag-list">
              <li>{activity ? <a href="/">All activities</a> : <strong aria-current="page">All activities</strong>}</li>
              {activities.map((a) => (
                <li key={a.id}>{a.id === activity ? <strong aria-current="page">{a.name}</strong> : <a href={`/?activity=${a.id}`}>{a.name}</a>}</li>
              ))}
            </ul>
          </nav>
        ) : null}
        <RaceList races={races} showClub={false} emptyText={activity ? "No upcoming races of this activity." : "No upcoming races yet. Check back soon."} />
      </section>
    </main>
  );
}

function AdminHome() {
  return (
    <main className="page">
      <h1>System administration</h1>
      <p>Sign in with a System Administrator account to manage the platform. Each area is open to administrators whose configuration allows it.</p>
      <nav aria-label="Administration areas">
        <ul className="area-grid">
          {adminAreas.map((area) => (
            <li key={area.key}>
              <a href={adminAreaHref(area.key)}>{area.label}</a>
            </li>
          ))}
        </ul>
      </nav>
    </main>
  );
}
