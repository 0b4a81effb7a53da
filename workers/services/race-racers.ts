/**
 * A race's whole field, gathered from its room in slices: one RPC carries at most 32 MiB, which the field's
 * views pass near 40,000 racers (decision 0096). Every page and service that needs the whole field asks here.
 */
import type { ReportRacer } from "../../core/timing/start-list";
import { byBibThenName, MAX_RACERS_PER_PAGE, type RacerSlice, type RacerView, type Slice } from "../../durable/race/result-views";

/** A race room's stub, or anything else that gives the field in slices. */
interface RacerSource {
  racerSlice(after: number, limit: number): Promise<RacerSlice>;
  reportRacerSlice(after: number, limit: number, countryKey: string | null): Promise<Slice<ReportRacer>>;
}

/** Every racer with current status and time, by bib then name. */
export async function everyRacer(room: Pick<RacerSource, "racerSlice">): Promise<RacerView[]> {
  return (await gather((after) => room.racerSlice(after, MAX_RACERS_PER_PAGE))).sort(byBibThenName);
}

/** Every racer as the reports read them (start list, chip rack), in the order they were added. */
export async function everyReportRacer(room: Pick<RacerSource, "reportRacerSlice">, countryKey: string | null): Promise<ReportRacer[]> {
  return gather((after) => room.reportRacerSlice(after, MAX_RACERS_PER_PAGE, countryKey));
}

async function gather<T>(slice: (after: number) => Promise<Slice<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let after = 0; ; ) {
    const next = await slice(after);
    items.push(...next.racers);
    if (next.next === null) return items;
    after = next.next;
  }
}
