/**
 * The racer reports of /race/:id/admin/reports (start list, chip rack): racers read for core/timing/start-list.ts.
 */
import * as z from "zod";
import { buildChipRack, buildStartList, chipRackTable, startListTable, type ReportRacer, type ReportTable } from "../core/timing/start-list";
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
export function buildReport(key: ReportKey, input: ReportRacer[], setup: RacerSetup): ReportTable {
  const lastNameFirst = setup.settings.is_last_name_first;
  return key === "start-list"
    ? startListTable(buildStartList(input, setup.startGroups, setup.courses), { lastNameFirst, zeroTime: setup.zeroTime })
    : chipRackTable(buildChipRack(input), { lastNameFirst });
}

/** The report of `/race/:id/admin/reports/:report`, or a 404 for a name that is none. */
export async function loadReport(access: RaceAccess, rawKey: string | undefined) {
  const key = reportParam.safeParse(rawKey);
  if (!key.success) throw new Response("Not found", { status: 404 });
  const setup = await loadRacerSetup(access);
  const racers = await everyReportRacer(access.room, countryKeyOf(setup));
  return { key: key.data, ...REPORTS[key.data], table: buildReport(key.data, racers, setup) };
}
