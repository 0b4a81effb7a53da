import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { printFontSize } from "../../../core/print/print-table";
import { PrintTools } from "../../components/print-tools";
import { PrintSections } from "../../components/report-sections";
import { formatRaceDate } from "../../format";
import { loadPublishedResults } from "../../race-print.server";

/**
 * Every group of a result format in full, to print (the results page shows one page of one group at a time):
 * the rows the PDF holds, one group per printed page, at the format's print size. Not live.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const loaded = await loadPublishedResults(context, params.raceId, url);
  const { listing, snapshot } = loaded;
  const query = url.searchParams.toString();
  return {
    race: { id: listing.id, name: listing.name, clubName: listing.clubName, date: formatRaceDate(listing.startTime, listing.timezone) },
    formatName: snapshot.name,
    printPoints: printFontSize(loaded.printSize),
    sections: loaded.sections,
    query: query ? `?${query}` : "",
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.formatName} · ${data.race.name} (print)` : "Results" },
  { name: "viewport", content: "width=device-width, initial-scale=1" },
];

export default function PrintResults() {
  const { race, formatName, printPoints, sections, query } = useLoaderData<typeof loader>();
  return (
    <main className="page print-page">
      <p className="race-meta">
        <Link to={`/races/${race.id}${query}`}>← {race.name}</Link> · {race.date}
      </p>
      <h1>{race.name}</h1>
      <h2>{formatName}</h2>
      <PrintTools
        header={[race.name, race.date, race.clubName].join(" · ")}
        printPoints={printPoints}
        csvHref={`/races/${race.id}/results.csv${query}`}
        pdfHref={`/races/${race.id}/results.pdf${query}`}
      />
      <PrintSections sections={sections} empty="No results are published for this race yet." />
    </main>
  );
}
