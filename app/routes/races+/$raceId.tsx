import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { requirePublicRace } from "../../public-race.server";
import { roomOf } from "../../../workers/services/race-access";
import { loadRaceResults } from "../../../workers/services/race-results";
import { LiveResults } from "../../components/live-results";
import { formatRaceDate } from "../../format";
import { rankingViews, type RankingType } from "../../../core/timing/multistage";
import { printFontSize } from "../../../core/print/print-table";
import { PrintTools } from "../../components/print-tools";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { db, listing, race } = await requirePublicRace(context, params.raceId);
  const search = new URL(request.url).searchParams;
  const formatParam = search.get("format");
  const ranking: RankingType = search.get("ranking") === "multistage" ? "multistage" : "default";
  const results = await loadRaceResults(context.env, db, context.tenant, context.session, race, formatParam);
  if (formatParam && !results.current) throw new Response("Not found", { status: 404 });
  const settings = await (await roomOf(context.env, race)).settings();
  return {
    race: listing,
    ...results,
    printPoints: printFontSize(results.printSize),
    ranking,
    hasHeats: settings?.is_heats ?? false,
    hasStartList: settings?.start_list_visibility === "public",
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.current ? `${data.current.name} · ` : ""}${data.race.name}` : "Race" },
  { name: "viewport", content: "width=device-width, initial-scale=1" },
];

export default function RacePage() {
  const { race, formats, current, printPoints, ranking, hasHeats, hasStartList } = useLoaderData<typeof loader>();
  const formatQuery = current ? `format=${current.formatId}&` : "";
  const date = formatRaceDate(race.startTime, race.timezone);
  // The downloads hold what the page shows: this format, and All Stages when chosen.
  const downloadQuery = `?${formatQuery}${current?.stage && ranking === "multistage" ? "ranking=multistage" : ""}`.replace(/[?&]$/, "");
  return (
    <main className="page print-page">
      <h1>{race.name}</h1>
      <p className="race-meta">
        <time dateTime={new Date(race.startTime).toISOString()}>{date}</time>
        {race.location ? <span> · {race.location}</span> : null}
        <span> · {race.clubName}</span>
      </p>
      {hasHeats || hasStartList ? (
        <nav aria-label="Race pages">
          <ul className="format-links">
            {hasStartList ? (
              <li>
                <Link to={`/races/${race.id}/startlist`}>Start list</Link>
              </li>
            ) : null}
            {hasHeats ? (
              <li>
                <Link to={`/races/${race.id}/heats`}>Sprint heats and bracket</Link>
              </li>
            ) : null}
          </ul>
        </nav>
      ) : null}
      <section aria-labelledby="results-heading">
        <h2 id="results-heading">{current ? current.name : "Results"}</h2>
        {formats.length > 1 ? (
          <nav aria-label="Result formats">
            <ul className="format-links">
              {formats.map((f) => (
                <li key={f.id}>
                  <Link to={`?format=${f.id}`} aria-current={f.id === current?.formatId ? "page" : undefined}>
                    {f.name}
                    {f.kind !== "public" ? ` (${f.kind})` : ""}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {current?.stage ? (
          <nav aria-label="Rankings">
            <ul className="format-links">
              {rankingViews(current.stage.number).map((view) => (
                <li key={view.type}>
                  <Link to={`?${formatQuery}ranking=${view.type}`} aria-current={view.type === ranking ? "page" : undefined}>
                    {view.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {current ? (
          <PrintTools
            header={[race.name, date, race.clubName].join(" · ")}
            printPoints={printPoints}
            csvHref={`/races/${race.id}/results.csv${downloadQuery}`}
            pdfHref={`/races/${race.id}/results.pdf${downloadQuery}`}
            tvHref={`/races/${race.id}/tv?format=${current.formatId}`}
          />
        ) : null}
        {current ? (
          <LiveResults key={current.formatId} raceId={race.id} snapshot={current} ranking={current.stage ? ranking : "default"} />
        ) : (
          <p className="empty-state">No results are published for this race yet.</p>
        )}
      </section>
    </main>
  );
}
