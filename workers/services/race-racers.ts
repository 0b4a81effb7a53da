/**
 * A race's whole field, gathered from its room in slices: one RPC carries at most 32 MiB, which the field's
 * views pass near 40,000 racers (decision 0096). Every page and service that needs the whole field asks here.
 */
import { byBibThenName, MAX_RACERS_PER_PAGE, type RacerSlice, type RacerView } from "../../durable/race/result-views";

/** A race room's stub, or anything else that gives the field in slices. */
interface RacerSource {
  racerSlice(after: number, limit: number): Promise<RacerSlice>;
}

/** Every racer with current status and time, by bib then name. */
export async function everyRacer(room: RacerSource): Promise<RacerView[]> {
  const racers: RacerView[] = [];
  for (let after = 0; ; ) {
    const slice = await room.racerSlice(after, MAX_RACERS_PER_PAGE);
    racers.push(...slice.racers);
    if (slice.next === null) return racers.sort(byBibThenName);
    after = slice.next;
  }
}
