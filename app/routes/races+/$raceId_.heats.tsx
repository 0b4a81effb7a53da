import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { requirePublicRace } from "../../public-race.server";
import { roomOf } from "../../../workers/services/race-access";
import { HeatBracket } from "../../components/heat-bracket";
import { LiveStatus } from "../../components/live-status";
import { useLiveHeats } from "../../hooks/use-live-heats";

/** The spectators' bracket of a sprint: public with the race, and live as heats finish. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const { listing, race } = await requirePublicRace(context, params.raceId);
  const room = await roomOf(context.env, race);
  return { race: { id: listing.id, name: listing.name, timezone: race.timezone }, view: await room.heatsView() };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Heats · ${data.race.name}` : "Heats" },
  { name: "viewport", content: "width=device-width, initial-scale=1" },
];

export default function RaceHeats() {
  const { race, view } = useLoaderData<typeof loader>();
  const { live, heats } = useLiveHeats(race.id, view);
  return (
    <main className="page">
      <p className="race-meta">
        <Link to={`/races/${race.id}`}>← {race.name}</Link>
      </p>
      <h1>Heats</h1>
      <LiveStatus state={live} />
      <HeatBracket view={heats} timeZone={race.timezone} />
    </main>
  );
}
