import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { roomOf } from "../../../workers/services/race-access";
import { loadWindowFor } from "../../results-window.server";
import { LiveResults } from "../../components/live-results";
import { formatRaceDate } from "../../format";
import { rankingViews } from "../../../core/timing/multistage";
import { printFontSize } from "../../../core/print/print-table";
import { PrintTools } from "../../components/print-tools";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { listing, race, view } = await loadWindowFor(context, params.raceId, new URL(request.url));
  const settings = await (await roomOf(context.env, race)).settings();
  return {
    race: listing,
    ...view,
    printPoints: printFontSize(view.printSize),
    hasHeats: settings?.is_heats ?? false,
    hasStartList: settings?.start_list_visibility === "public",
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.current ? `${data.current.format.name} · ` : ""}${data.race.name}` : "Race" },
  { name: "viewport", content: "width=device-width, initial-scale=1" },
];

export default function RacePage() {
  const { race, formats, current, printPoints, hasHeats, hasStartList } = useLoaderData<typeof loader>();
  const ranking = current?.query.ranking ?? "default";
  const stage = current?.format.stage;
  const formatQuery = current ? `format=${current.format.formatId}&` : "";
  const date = formatRaceDate(race.startTime, race.timezone);
  // The downloads hold what the page shows: this format, and All Stages when chosen.
  const downloadQuery = `?${formatQuery}${stage && ranking === "multistage" ? "ranking=multistage" : ""}`.replace(/[?&]$/, "");
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
        <h2 id="results-heading">{current ? current.format.name : "Results"}</h2>
        {formats.length > 1 ? (
          <nav aria-label="Result formats">
            <ul className="format-links">
              {formats.map((f) => (
                <li key={f.id}>
                  <Link to={`?format=${f.id}`} aria-current={f.id === current?.format.formatId ? "page" : undefined}>
                    {f.name}
                    {f.kind !== "public" ? ` (${f.kind})` : ""}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {stage ? (
          <nav aria-label="Rankings">
            <ul className="format-links">
              {rankingViews(stage.number).map((view) => (
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
            printHref={`/races/${race.id}/print${downloadQuery}`}
            tvHref={`/races/${race.id}/tv?format=${current.format.formatId}`}
          />
        ) : null}
        {current?.format.isAnnouncer ? (
          <p className="announcer-link">
            <Link to={`/races/${race.id}/announcer?format=${current.format.formatId}`}>Announcer screen</Link>: precall, latest finishers and leader changes in
            large type
          </p>
        ) : null}
        {current ? (
          <LiveResults key={current.format.formatId} raceId={race.id} initial={current} />
        ) : (
          <p className="empty-state">No results are published for this race yet.</p>
        )}
      </section>
    </main>
  );
}
