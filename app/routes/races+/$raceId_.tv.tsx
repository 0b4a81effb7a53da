import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { requirePublicRace } from "../../public-race.server";
import { loadRaceResults } from "../../../workers/services/race-results";
import { TvResults } from "../../components/tv-results";
import { tvSettings } from "../../results/tv-plan";

/** `/races/{raceId}/tv?format=…`: a format's results for a screen at the venue (the same formats the results page may show). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { db, listing, race } = await requirePublicRace(context, params.raceId);
  const formatParam = new URL(request.url).searchParams.get("format");
  const results = await loadRaceResults(context.env, db, context.tenant, context.session, race, formatParam);
  if (!results.current || !results.display) throw new Response("Not found", { status: 404 });
  return { race: { id: listing.id, name: listing.name }, current: results.current, settings: tvSettings(results.display) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `TV · ${data.current.name} · ${data.race.name}` : "TV" },
  { name: "viewport", content: "width=device-width, initial-scale=1" },
];

export default function RaceTv() {
  const { race, current, settings } = useLoaderData<typeof loader>();
  return (
    <main className="tv-page">
      <TvResults raceId={race.id} raceName={race.name} snapshot={current} settings={settings} />
    </main>
  );
}
