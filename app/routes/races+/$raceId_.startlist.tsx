import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { printFontSize } from "../../../core/print/print-table";
import { PrintTools } from "../../components/print-tools";
import { ReportFinder, ReportPageLinks, ReportSections } from "../../components/report-sections";
import { formatRaceDate } from "../../format";
import { loadStartListPage } from "../../race-print.server";

/**
 * The public start list: grouped by start group and course, sorted by scheduled start then bib, only racers
 * with a start group. Shown when the race's start list visibility is public; race staff see it before that.
 * A page at a time, with a search for one's own name or bib: a marathon's is 50,000 rows (the PDF has them all).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { listing, isPublic, table, q, page, pages, rows } = await loadStartListPage(context, params.raceId, new URL(request.url));
  return {
    race: { id: listing.id, name: listing.name, clubName: listing.clubName, date: formatRaceDate(listing.startTime, listing.timezone) },
    isPublic,
    printPoints: printFontSize(null),
    table,
    view: { q, page, pages, rows },
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Start list · ${data.race.name}` : "Start list" },
  { name: "viewport", content: "width=device-width, initial-scale=1" },
];

export default function StartList() {
  const { race, isPublic, printPoints, table, view } = useLoaderData<typeof loader>();
  return (
    <main className="page print-page">
      <p className="race-meta">
        <Link to={`/races/${race.id}`}>← {race.name}</Link> · {race.date}
      </p>
      <h1>Start list</h1>
      <PrintTools header={[race.name, race.date, race.clubName].join(" · ")} printPoints={printPoints} pdfHref={`/races/${race.id}/startlist.pdf`} />
      {isPublic ? null : <p className="notice">Only race staff see this start list until it is made public in the race setup.</p>}
      <ReportFinder view={view} base={`/races/${race.id}/startlist`} downloads="The PDF" />
      <ReportSections table={table} empty={view.q ? `No racer matches “${view.q}”.` : "The start list is not ready yet."} />
      <ReportPageLinks view={view} base={`/races/${race.id}/startlist`} label="Pages, at the end of the list" />
    </main>
  );
}
