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
import { reportInputOf, reportPageNumberOf, reportPageOf, reportSearchOf, reportTableOf } from "./racer-reports.server";
import type { ReportRacer, ReportTable } from "../core/timing/start-list";
import { edgeCacheKey, sharedAnswer } from "../workers/services/edge-cache";
import { resultSections } from "./results/result-sections";

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
 * The start list, public page and PDF (app/routes/races+/$raceId_.startlist.tsx): shown once public, to race
 * staff before that, a 404 otherwise. A public one is built once per list revision and edge (decision 0098):
 * a marathon's is 50,000 racers, its crowd opens it all at once, and each build holds the race's room for a second.
 */
export async function startListPdfOf(context: AppLoadContext, rawRaceId: string | undefined): Promise<Response> {
  const list = await startListAccess(context, rawRaceId);
  const build = async () => ({ response: startListPdf(list.listing, await reportTableOf("start-list", list.input)), shared: list.shared });
  const pdf = await list.cached(edgeCacheKey(`/races/${list.input.name}/startlist.pdf`, new URLSearchParams()), build);
  // The address names no revision, so a browser must ask again; the edge's copy is the one named.
  pdf.headers.set("Cache-Control", "no-store");
  return pdf;
}

/** The start list page's page of it: `url`'s search (`q`, a name or a bib) and page (`page`); the PDF holds it all. */
export async function loadStartListPage(context: AppLoadContext, rawRaceId: string | undefined, url: URL) {
  const list = await startListAccess(context, rawRaceId);
  const q = reportSearchOf(url);
  const page = reportPageNumberOf(url);
  const build = async () => ({ response: Response.json(await reportPageOf("start-list", list.input, q, page)), shared: list.shared });
  const key = edgeCacheKey(`/races/${list.input.name}/startlist`, new URLSearchParams({ q, page: String(page) }));
  const answer = await list.cached(key, build);
  return { listing: list.listing, isPublic: list.isPublic, ...((await answer.json()) as Awaited<ReturnType<typeof reportPageOf>>) };
}

/** Answers shared at the edge keep this long at most; each is named by its list revision, so this only bounds the cache. */
const START_LIST_CACHE_SECONDS = 600;

async function startListAccess(context: AppLoadContext, rawRaceId: string | undefined) {
  const { db, listing, race } = await requirePublicRace(context, rawRaceId);
  const room = await roomOf(context.env, race);
  // Whether the copy is shared depends on the setup the input reads, so it is decided below: edgeCopy runs only
  // when racers are asked for, after this function has returned.
  const input = await reportInputOf({ room, race }, (read, name) => edgeCopy(name, read));
  const isPublic = input.setup.settings.start_list_visibility === "public";
  // Access is checked on every request, before the cache; only what anyone may see is shared.
  if (!isPublic && !canOnRace(await principalOf(db, context.session), "view", race)) throw new Response("Not found", { status: 404 });
  const shared = isPublic && race.visibility !== "private";
  const cached = (key: Request, build: () => Promise<{ response: Response; shared: boolean }>) =>
    shared ? sharedAnswer(key, START_LIST_CACHE_SECONDS, build, (p) => context.ctx.waitUntil(p)) : build().then((b) => b.response);

  /** The racers from the copy this edge keeps of a shared list, made from the room once per revision. */
  async function edgeCopy(name: string, read: () => Promise<readonly ReportRacer[]>): Promise<readonly ReportRacer[]> {
    if (!shared) return read();
    const stored: Promise<unknown>[] = [];
    let built: readonly ReportRacer[] | null = null;
    const copy = await sharedAnswer(
      edgeCacheKey(`/races/${name}/report-racers`, new URLSearchParams()),
      START_LIST_CACHE_SECONDS,
      async () => ({ response: Response.json((built = await read())), shared }),
      (p) => stored.push(p),
    );
    // The racers just read are the copy: parsing it back would cost 100 ms more at 50,000.
    if (built) await copy.body?.cancel();
    const racers = built ?? ((await copy.json()) as ReportRacer[]);
    // The isolate's crowd waits here (the memo shares this build) until the copy is stored, so no other isolate misses it.
    await Promise.all(stored);
    return racers;
  }
  return { listing, isPublic, shared, input, cached };
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

function startListPdf(listing: Listing, table: ReportTable): Response {
  const pdf = tablePdf({
    deflate: deflatePdf,
    header: printHeader(listing, "Start list"),
    sections: reportSections(table, ["Start", "Bib"]),
    fontSize: printFontSize(null),
    empty: "The start list is not ready yet.",
  });
  return pdfDownload(pdf, listing.name, "start-list");
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
