/**
 * The public race downloads (results CSV and PDF, start list PDF): the same race, format and start-list
 * rules as the public pages, and the files named after the race.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import type { RankingType } from "../core/timing/multistage";
import { printFontSize, reportSections } from "../core/print/print-table";
import { tablePdf, type PrintHeader } from "../core/print/table-pdf";
import { deflatePdf } from "../workers/services/pdf-deflate";
import { canOnRace, principalOf, roomOf } from "../workers/services/race-access";
import { loadRaceResults } from "../workers/services/race-results";
import { formatRaceDate } from "./format";
import { downloadName } from "./keypad.server";
import { requirePublicRace } from "./public-race.server";
import { buildReport, countryKeyOf } from "./racer-reports.server";
import { loadRacerSetup } from "./racers.server";
import { resultSections } from "./results/result-sections";
import { everyReportRacer } from "../workers/services/race-racers";

type Listing = Awaited<ReturnType<typeof requirePublicRace>>["listing"];

/**
 * The results a download holds: the format the results page would show for `?format=` (its default the
 * race's public format), or a 404 where the page would have none, for a format that is no format too.
 */
export async function loadPublishedResults(context: AppLoadContext, rawRaceId: string | undefined, url: URL) {
  const { db, listing, race } = await requirePublicRace(context, rawRaceId);
  const ranking: RankingType = url.searchParams.get("ranking") === "multistage" ? "multistage" : "default";
  const results = await loadRaceResults(context.env, db, context.tenant, context.session, race, url.searchParams.get("format"));
  if (!results.current) throw new Response("Not found", { status: 404 });
  const snapshot = results.current;
  return { listing, snapshot, printSize: results.printSize, sections: resultSections(snapshot, snapshot.stage ? ranking : "default") };
}

/**
 * The start list of the public page (app/routes/races+/$raceId_.startlist.tsx): shown once public, to race
 * staff before that, a 404 otherwise.
 */
export async function loadStartList(context: AppLoadContext, rawRaceId: string | undefined) {
  const { db, listing, race } = await requirePublicRace(context, rawRaceId);
  const room = await roomOf(context.env, race);
  const setup = await loadRacerSetup({ room, race });
  const isPublic = setup.settings.start_list_visibility === "public";
  if (!isPublic && !canOnRace(await principalOf(db, context.session), "view", race)) throw new Response("Not found", { status: 404 });
  const racers = await everyReportRacer(room, countryKeyOf(setup));
  return { listing, timezone: race.timezone, isPublic, table: buildReport("start-list", racers, setup) };
}

/** The header of every printed page: the race's name, then its date, club and place. */
export function printHeader(listing: Listing, documentName: string): PrintHeader {
  return { title: listing.name, details: [formatRaceDate(listing.startTime, listing.timezone), listing.clubName, listing.location ?? ""], documentName };
}

export function resultsPdf(loaded: Awaited<ReturnType<typeof loadPublishedResults>>): Response {
  const pdf = tablePdf({
    deflate: deflatePdf,
    // A format named plain "Results" (the usual one) is not named twice.
    header: printHeader(loaded.listing, loaded.snapshot.name === "Results" ? "Results" : `Results · ${loaded.snapshot.name}`),
    sections: loaded.sections,
    fontSize: printFontSize(loaded.printSize),
    empty: "No results are published for this race yet.",
  });
  return pdfDownload(pdf, loaded.listing.name, "results");
}

export function startListPdf(loaded: Awaited<ReturnType<typeof loadStartList>>): Response {
  const pdf = tablePdf({
    deflate: deflatePdf,
    header: printHeader(loaded.listing, "Start list"),
    sections: reportSections(loaded.table, ["Start", "Bib"]),
    fontSize: printFontSize(null),
    empty: "The start list is not ready yet.",
  });
  return pdfDownload(pdf, loaded.listing.name, "start-list");
}

/** A PDF shown in the browser, saved under the race's name; never cached, results change as racers finish. */
function pdfDownload(pdf: Uint8Array<ArrayBuffer>, raceName: string, what: string): Response {
  return new Response(pdf, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${downloadName(raceName, what)}.pdf"`,
      "Cache-Control": "no-store",
    },
  });
}
