import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { requirePublicRace } from "../../public-race.server";
import { canOnRace, principalOf, roomOf } from "../../../workers/services/race-access";
import { ReportSections } from "../../components/report-sections";
import { formatRaceDate } from "../../format";
import { buildReport } from "../../racer-reports.server";
import { loadRacerSetup } from "../../racers.server";

/**
 * The public start list: grouped by start group and course, sorted by scheduled start then bib, only racers
 * with a start group. Shown when the race's start list visibility is public; race staff see it before that.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const { db, listing, race } = await requirePublicRace(context, params.raceId);
  const room = await roomOf(context.env, race);
  const [setup, racers] = await Promise.all([loadRacerSetup({ room, race }), room.racers()]);
  const isPublic = setup.settings.start_list_visibility === "public";
  if (!isPublic && !canOnRace(await principalOf(db, context.session), "view", race)) throw new Response("Not found", { status: 404 });
  return {
    race: { id: listing.id, name: listing.name, date: formatRaceDate(listing.startTime, race.timezone) },
    isPublic,
    table: buildReport("start-list", racers, setup),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Start list · ${data.race.name}` : "Start list" },
  { name: "viewport", content: "width=device-width, initial-scale=1" },
];

export default function StartList() {
  const { race, isPublic, table } = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <p className="race-meta">
        <Link to={`/races/${race.id}`}>← {race.name}</Link> · {race.date}
      </p>
      <h1>Start list</h1>
      {isPublic ? null : <p className="notice">Only race staff see this start list until it is made public in the race setup.</p>}
      <ReportSections table={table} empty="The start list is not ready yet." />
    </main>
  );
}
