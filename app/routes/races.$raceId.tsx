import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { openDb } from "../../schema/d1";
import { getRaceForTenant } from "../../workers/services/races";
import { LiveStatus } from "../components/live-status";
import { formatRaceDate } from "../format";

export async function loader({ params, context }: LoaderFunctionArgs) {
  const raceId = z.string().uuid().safeParse(params.raceId);
  const race = raceId.success ? await getRaceForTenant(openDb(context.env.DB), context.tenant, raceId.data) : null;
  if (!race) throw new Response("Not found", { status: 404 });
  return { race };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.race.name ?? "Race" }];

export default function RacePage() {
  const { race } = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <h1>{race.name}</h1>
      <p className="race-meta">
        <time dateTime={new Date(race.startTime).toISOString()}>{formatRaceDate(race.startTime, race.timezone)}</time>
        {race.location ? <span> · {race.location}</span> : null}
        <span> · {race.clubName}</span>
      </p>
      <section aria-labelledby="results-heading">
        <h2 id="results-heading">Live results</h2>
        <LiveStatus raceId={race.id} />
        <p className="empty-state">No results yet. They appear here as racers cross the timing points.</p>
      </section>
    </main>
  );
}
