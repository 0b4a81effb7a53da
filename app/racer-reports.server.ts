/**
 * The racer reports of /race/:id/admin/reports (start list, chip rack): racers read for core/timing/start-list.ts.
 */
import * as z from "zod";
import { matchesRacerSearch } from "../core/timing/racer-name";
import { buildChipRack, buildStartList, chipRackTable, reportPage, startListTable, type ReportRacer, type ReportTable } from "../core/timing/start-list";
import type { RaceAccess } from "./race-admin.server";
import { type RacerSetup, loadRacerSetup } from "./racers.server";
import { everyReportRacer } from "../workers/services/race-racers";
import { IsolateMemo } from "../workers/services/isolate-memo";
import { zeroTimeOfRace } from "../schema/race/settings";

/** The custom field keyed or named "country", whose value the reports show as the racer's country; null when there is none. */
export function countryKeyOf(setup: RacerSetup): string | null {
  return setup.fields.find((f) => f.key.toLowerCase() === "country" || f.display.trim().toLowerCase() === "country")?.key ?? null;
}

export const REPORTS = {
  "start-list": {
    title: "Start List",
    description: "Grouped by start group and course, sorted by scheduled start then bib; only racers that have a start group.",
  },
  "chip-rack": {
    title: "Chip Rack",
    description: "Bib, chip rack, chips, names, team, club, city and country; grouped by chip rack (the hundreds of the bib), sorted by bib.",
  },
} as const;
export const reportParam = z.enum(["start-list", "chip-rack"]);
export type ReportKey = z.infer<typeof reportParam>;

/** A report of the race's racers now, as rows. */
export function buildReport(key: ReportKey, input: readonly ReportRacer[], setup: RacerSetup): ReportTable {
  const lastNameFirst = setup.settings.is_last_name_first;
  return key === "start-list"
    ? startListTable(buildStartList(input, setup.startGroups, setup.courses), { lastNameFirst, zeroTime: setup.zeroTime })
    : chipRackTable(buildChipRack(input), { lastNameFirst });
}

/** A report page's search (`q`): a name or a bib, as the racers list searches. */
export function reportSearchOf(url: URL): string {
  return (url.searchParams.get("q") ?? "").replace(CONTROL_CHARACTERS, "").trim().slice(0, MAX_SEARCH);
}
// Control characters match no name and would be echoed into the page's "No racer matches" line.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;
const MAX_SEARCH = 100;

/** A report page's page (`page`), 1 for none or garbage; reportPage clamps it to the pages there are. */
export function reportPageNumberOf(url: URL): number {
  return Math.floor(Number(url.searchParams.get("page") ?? "1")) || 1;
}

/**
 * A race's report input at one list revision: the setup and every racer as the reports read them. Its name
 * holds the revision, read before anything the reports are made of (a change in between gives a copy newer
 * than its name, never older), so whatever is kept under it is never stale.
 */
export interface ReportInput {
  name: string;
  setup: RacerSetup;
  /** Every racer, read from the room (or `shared`'s copy) at most once per isolate and revision. */
  racers: () => Promise<readonly ReportRacer[]>;
}

/**
 * The input of `access`'s race now. `shared` reads the racers from a copy at the edge where there is one
 * (the public start list's crowd, decision 0098): each read from the room holds it for about a second at 50,000.
 */
export async function reportInputOf(
  access: Pick<RaceAccess, "room" | "race">,
  shared?: (read: () => Promise<readonly ReportRacer[]>, name: string) => Promise<readonly ReportRacer[]>,
): Promise<ReportInput> {
  const revision = await access.room.listRevision();
  // The zero time is the catalogue's (D1), which the room's revision does not name.
  const at = `${access.race.id}/r${revision}/z${zeroTimeOfRace(access.race.startTime, access.race.timezone)}`;
  // A crowd's every view asked the room for its setup (four reads) where one revision read now does.
  const setup = await setupMemo.through(at, () => loadRacerSetup(access));
  const countryKey = countryKeyOf(setup);
  const name = `${at}${countryKey === null ? "" : `/country-${encodeURIComponent(countryKey)}`}`;
  const read = () => everyReportRacer(access.room, countryKey);
  return { name, setup, racers: () => racersMemo.through(name, () => (shared ? shared(read, name) : read())) };
}

// An isolate builds a revision's racers and each report's table once: at 50,000 racers that is about a second
// from the room, 100 ms to parse a copy and 80 ms to build the table, where a page of it then takes 0.3 ms
// (decision 0099). About 19 MB of racers and 10 of rows at 50,000, so each holds one marathon.
const MEMO_RACERS = 60_000;
const setupMemo = new IsolateMemo<RacerSetup>(200, () => 1);
const racersMemo = new IsolateMemo<readonly ReportRacer[]>(MEMO_RACERS, (racers) => racers.length);
const tableMemo = new IsolateMemo<ReportTable>(MEMO_RACERS, (table) => table.sections.reduce((n, s) => n + s.rows.length, 0) || 1);

/** The whole report of the input: the CSV and the PDF hold it, and each page is a slice of it. */
export function reportTableOf(key: ReportKey, input: ReportInput): Promise<ReportTable> {
  return tableMemo.through(`${input.name}/${key}`, async () => buildReport(key, await input.racers(), input.setup));
}

/** What a report page shows: the racers the search `q` finds (all without one), page `page` of the report of them. */
export async function reportPageOf(key: ReportKey, input: ReportInput, q: string, page: number) {
  if (!q) return { q, ...reportPage(await reportTableOf(key, input), page) };
  const found = (await input.racers()).filter((racer) => matchesRacerSearch(racer, q, input.setup.settings.is_last_name_first));
  return { q, ...reportPage(buildReport(key, found, input.setup), page) };
}

/** The report of `/race/:id/admin/reports/:report` as `url` pages and searches it, or a 404 for a name that is none. */
export async function loadReport(access: RaceAccess, rawKey: string | undefined, url: URL) {
  const key = reportKeyOf(rawKey);
  const page = await reportPageOf(key, await reportInputOf(access), reportSearchOf(url), reportPageNumberOf(url));
  return { key, ...REPORTS[key], ...page };
}

/** The whole report, for its CSV. */
export async function loadWholeReport(access: RaceAccess, rawKey: string | undefined) {
  const key = reportKeyOf(rawKey);
  return { key, table: await reportTableOf(key, await reportInputOf(access)) };
}

function reportKeyOf(rawKey: string | undefined): ReportKey {
  const key = reportParam.safeParse(rawKey);
  if (!key.success) throw new Response("Not found", { status: 404 });
  return key.data;
}
