/**
 * The racer reports of /race/:id/admin/reports (start list, chip rack): racers read for core/timing/start-list.ts.
 */
import * as z from "zod";
import { matchesRacerSearch } from "../core/timing/racer-name";
import { buildChipRack, buildStartList, chipRackTable, reportPage, startListTable, type ReportRacer, type ReportTable } from "../core/timing/start-list";
import type { RaceAccess } from "./race-admin.server";
import { type RacerSetup, loadRacerSetup } from "./racers.server";
import { everyReportRacer } from "../workers/services/race-racers";

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

/** What a report page shows: the racers the search `q` finds (all without one), page `page` of the report of them. */
export function reportPageOf(key: ReportKey, racers: readonly ReportRacer[], setup: RacerSetup, q: string, page: number) {
  const found = q ? racers.filter((racer) => matchesRacerSearch(racer, q, setup.settings.is_last_name_first)) : racers;
  return { q, ...reportPage(buildReport(key, found, setup), page) };
}

/** The report of `/race/:id/admin/reports/:report` as `url` pages and searches it, or a 404 for a name that is none. */
export async function loadReport(access: RaceAccess, rawKey: string | undefined, url: URL) {
  const { key, setup, racers } = await reportInput(access, rawKey);
  return { key, ...REPORTS[key], ...reportPageOf(key, racers, setup, reportSearchOf(url), reportPageNumberOf(url)) };
}

/** The whole report, for its CSV. */
export async function loadWholeReport(access: RaceAccess, rawKey: string | undefined) {
  const { key, setup, racers } = await reportInput(access, rawKey);
  return { key, table: buildReport(key, racers, setup) };
}

async function reportInput(access: RaceAccess, rawKey: string | undefined) {
  const key = reportParam.safeParse(rawKey);
  if (!key.success) throw new Response("Not found", { status: 404 });
  const setup = await loadRacerSetup(access);
  return { key: key.data, setup, racers: await everyReportRacer(access.room, countryKeyOf(setup)) };
}
