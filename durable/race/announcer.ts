/**
 * The announcer screen's view, built in the RaceRoom (decision 0045): the format's results from the live
 * results, and the precall reads from the crossing log, both read back from storage after an eviction. The
 * part that depends on the results alone is kept beside the snapshot it came from, so a screen asking every
 * few seconds costs one precall pass per request, not a ranking of every group.
 */
import { MICROS_PER_SECOND } from "../../core/timing/model";
import type { PrecallRead } from "../../core/timing/precall";
import { PRECALL_TIMEOUT_US } from "../../core/timing/precall";
import type { StoredDocument } from "../../schema/race/documents";
import { announcerPrecall, announcerResults, type AnnouncerResults, type AnnouncerView } from "../../schema/wire/announcer-view";
import type { FormatSnapshot } from "../../schema/wire/race-socket";
import { modeOfRead } from "./ingest";
import type { LiveResults } from "./live-results";
import type { RaceStore } from "./store";

/** Announcer reads looked at per view, newest first: several reads per pass, a few hundred racers' passes. */
export const ANNOUNCER_READS = 5_000;

/** Reads this much older than the newest one can no longer list anyone; older samples are not typical of now. */
const READS_WINDOW_US = PRECALL_TIMEOUT_US + 50 * 60 * MICROS_PER_SECOND;

export interface AnnouncerSource {
  store: RaceStore;
  live: LiveResults;
  snapshot: FormatSnapshot;
  now: number;
}

export class AnnouncerViews {
  private bySnapshot = new WeakMap<FormatSnapshot, AnnouncerResults>();

  /** The view of an announcer format at `now` (ms). */
  view({ store, live, snapshot, now }: AnnouncerSource): AnnouncerView {
    const split = live.splitNamer();
    let results = this.bySnapshot.get(snapshot);
    if (!results) {
      results = announcerResults(snapshot, split);
      this.bySnapshot.set(snapshot, results);
    }
    const points = store.documents("TimingPoint");
    const names = new Map(points.map((p) => [p.id, p.data.name]));
    const nowUs = now * 1000;
    const precall = announcerPrecall(snapshot, precallReads(store, points), { point: (id) => names.get(id) ?? "Precall", split }, nowUs);
    const precallPoints = points.filter((p) => p.data.devices_list.some((d) => d.mode === "precall")).map((p) => p.data.name);
    return { ...results, now: nowUs, precallPoints, precall };
  }
}

/** The recent reads of precall devices (the points' current device modes decide, as they do for new reads). */
export function precallReads(store: RaceStore, points: StoredDocument<"TimingPoint">[]): PrecallRead[] {
  const rows = store.announcerReads(ANNOUNCER_READS);
  const newest = rows.reduce((max, r) => Math.max(max, r.time), -Infinity);
  const reads: PrecallRead[] = [];
  for (const row of rows) {
    if (row.timing_point_id === null || row.time < newest - READS_WINDOW_US || modeOfRead(points, row) !== "precall") continue;
    reads.push({ racerId: row.racer_id, pointId: row.timing_point_id, time: row.time });
  }
  return reads;
}
