import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { loadRacerPage } from "../../../workers/services/racer-page";
import { requirePublicRace, routeIdOf } from "../../public-race.server";
import { LiveStatus } from "../../components/live-status";
import { noSplitsText, PositionChart, RacerFacts, SplitsTable } from "../../components/racer-splits";
import { useRacerLive } from "../../hooks/use-racer-live";

/** One racer's splits, places and position chart: public when the racer is in a result format the caller may see. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { db, listing, race } = await requirePublicRace(context, params.raceId);
  const racerId = routeIdOf(params.racerId);
  const formatParam = new URL(request.url).searchParams.get("format");
  const formatId = formatParam === null ? null : routeIdOf(formatParam);
  if (racerId === null || (formatParam !== null && formatId === null)) throw new Response("Not found", { status: 404 });
  const detail = await loadRacerPage(context.env, db, context.session, race, racerId, formatId);
  if (!detail) throw new Response("Not found", { status: 404 });
  return { race: { id: listing.id, name: listing.name }, detail };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.detail.racer.name} · ${data.race.name}` : "Racer" },
  { name: "viewport", content: "width=device-width, initial-scale=1" },
];

export default function RacerPage() {
  const { race, detail } = useLoaderData<typeof loader>();
  const live = useRacerLive(race.id, { formatId: detail.formatId, racerId: detail.racer.racerId, groupId: detail.group.id }, detail.version);
  const { racer } = detail;
  return (
    <main className="page racer-page">
      <p className="race-meta">
        <Link to={`/races/${race.id}?format=${detail.formatId}&group=${detail.group.id}&racer=${racer.racerId}#r-${racer.racerId}`}>
          ← {race.name}: {detail.formatName}
        </Link>
      </p>
      <h1>{racer.bib === null ? racer.name : `${racer.bib} ${racer.name}`}</h1>
      <LiveStatus state={live} />
      <RacerFacts detail={detail} />
      <section aria-labelledby="splits-heading">
        <h2 id="splits-heading">Splits and laps</h2>
        {detail.points.length === 0 ? (
          <p className="empty-state">{noSplitsText(racer)}</p>
        ) : (
          <>
            {racer.status === "dnf" || racer.status === "dsq" ? (
              <p className="empty-state">{racer.status === "dnf" ? "Did not finish." : "Disqualified."}</p>
            ) : null}
            <SplitsTable detail={detail} />
            <PositionChart detail={detail} />
          </>
        )}
      </section>
    </main>
  );
}
