/**
 * The racer reports of /race/:id/admin/reports (start list, chip rack): racers read for core/timing/start-list.ts.
 */
import * as z from "zod";
import { buildChipRack, buildStartList, chipRackTable, startListTable, type ReportRacer, type ReportTable } from "../core/timing/start-list";
import { chipsOf, type RacerDoc } from "../schema/race/racer";
import type { RaceAccess } from "./race-admin.server";
import { type RacerSetup, loadRacerSetup } from "./racers.server";
import { everyRacer } from "../workers/services/race-racers";

/** A racer as the reports read it; country is the custom field keyed or named "country", if the race has one. */
export function reportRacerOf(racer: { id: string; data: RacerDoc }, setup: RacerSetup): ReportRacer {
  const d = racer.data;
  const countryField = setup.fields.find((f) => f.key.toLowerCase() === "country" || f.display.trim().toLowerCase() === "country");
  const country = countryField ? d.custom[countryField.key] : null;
  return {
    id: racer.id,
    bib: d.bib,
    firstName: d.first_name,
    lastName: d.last_name,
    fullname: d.fullname,
    chips: chipsOf(d),
    team: d.team,
    club: d.club,
    city: d.city,
    country: country === null || country === undefined || country === "" ? null : String(country),
    courseId: d.course,
    startGroupId: d.setupgroup_id,
    // The start the racer will get: the assigned one (Start order page), else the scheduled one, as the results use.
    scheduledStart: d.assigned_start_time ?? d.scheduled_start_time,
    rankingPoints: d.ranking_points,
  };
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
export function buildReport(key: ReportKey, racers: { id: string; data: RacerDoc }[], setup: RacerSetup): ReportTable {
  const input = racers.map((r) => reportRacerOf(r, setup));
  const lastNameFirst = setup.settings.is_last_name_first;
  return key === "start-list"
    ? startListTable(buildStartList(input, setup.startGroups, setup.courses), { lastNameFirst, zeroTime: setup.zeroTime })
    : chipRackTable(buildChipRack(input), { lastNameFirst });
}

/** The report of `/race/:id/admin/reports/:report`, or a 404 for a name that is none. */
export async function loadReport(access: RaceAccess, rawKey: string | undefined) {
  const key = reportParam.safeParse(rawKey);
  if (!key.success) throw new Response("Not found", { status: 404 });
  const [setup, racers] = await Promise.all([loadRacerSetup(access), everyRacer(access.room)]);
  return { key: key.data, ...REPORTS[key.data], table: buildReport(key.data, racers, setup) };
}
