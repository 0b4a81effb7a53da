/**
 * A racer as the reports read it (core/timing/start-list.ts), drawn from its stored document. The race room
 * draws it, so a report of a big field crosses RPC as these few fields rather than as whole documents.
 */
import type { ReportRacer } from "../../core/timing/start-list";
import { chipsOf, type RacerDoc } from "./racer";

/** `countryKey` is the custom field keyed or named "country" (the page knows the race's fields), else null. */
export function reportRacerOf(racer: { id: string; data: RacerDoc }, countryKey: string | null): ReportRacer {
  const d = racer.data;
  const country = countryKey === null ? null : d.custom[countryKey];
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
    seed: d.seed,
  };
}
