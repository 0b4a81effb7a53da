/**
 * The announcer screen's view of an announcer format (issue 23, decision 0045): the precall list, the latest
 * finishers and the leader changes of each result group. Built by the RaceRoom from its results and the
 * precall reads in its storage, fetched by the screen as JSON (the page imports only the types).
 */
import { leaderChanges } from "../../core/timing/leader-changes";
import type { Micros } from "../../core/timing/model";
import { precallList, type PrecallRead } from "../../core/timing/precall";
import type { FormatSnapshot, ResultRow } from "./race-socket";
import { rankGroup } from "./results-ranking";

/** Finishers and leader changes kept per group: a screen shows the newest few, and the JSON stays small. */
export const LATEST_PER_GROUP = 10;
export const LEADERS_PER_GROUP = 20;

export interface AnnouncerRacer {
  racerId: string;
  bib: number | null;
  name: string;
  club: string | null;
}

/** Where a racer stood at their last split, among the group's racers on their course who passed it. */
export interface SplitPlace {
  groupId: string;
  rank: number;
  of: number;
  /** The split, in words ("Lap 2"). */
  at: string;
}

export interface PrecallView extends AnnouncerRacer {
  /** The precall point's name, and when the racer passed it. */
  point: string;
  time: Micros;
  /** The timing point they are on their way to ("Finish", "Lap 3"). */
  next: string;
  /** When they are expected there, and their time since the start then (null: nobody has gone from there yet). */
  expectedAt: Micros | null;
  expectedElapsed: Micros | null;
  /** What the expectation is taken from: the median time from the precall point of `samples` racers. */
  typical: { duration: Micros; samples: number } | null;
  /** They leave the list then if no timing point reads them. */
  leaveAt: Micros;
  /** The format's groups they are in, and their place at their last split in each (none before their first split). */
  groups: string[];
  places: SplitPlace[];
}

export interface FinisherView extends AnnouncerRacer {
  groupId: string;
  rank: number | null;
  /** The time shown (a bunch's first time when within the same-time threshold). */
  time: Micros | null;
  sameTime: boolean;
  diff: Micros | null;
  /** When they finished, for the newest-first order. */
  finish: Micros;
}

export interface LeaderChangeView extends AnnouncerRacer {
  groupId: string;
  /** When they took the lead, where ("Lap 2", "Finish") and their time since the start there. */
  time: Micros;
  at: string;
  elapsed: Micros;
  previous: AnnouncerRacer | null;
}

export interface AnnouncerView {
  formatId: string;
  name: string;
  /** The format's results version the view was built from. */
  version: string;
  displayPrecision: number;
  sameTimeDisplay: string;
  /** The room's clock when the view was built (µs since the epoch): the screen's countdowns start from it. */
  now: Micros;
  groups: { id: string; name: string }[];
  /** The race's precall points by name (none: the screen says how to make one). */
  precallPoints: string[];
  /** Newest first. */
  precall: PrecallView[];
  /** Per group, newest first; a racer in two groups is in both. */
  latest: FinisherView[];
  /** Per group, newest first. */
  leaders: LeaderChangeView[];
}

/** Names a split of a racer's course ("Lap 2"): the room knows the courses. */
export type SplitNamer = (racerId: string, index: number) => string;

/** The part of the view that depends on the results alone: the room keeps it with the snapshot it came from. */
export type AnnouncerResults = Omit<AnnouncerView, "now" | "precall" | "precallPoints">;

const racerOf = (row: ResultRow): AnnouncerRacer => ({ racerId: row.racerId, bib: row.bib, name: row.name, club: row.club });

/** Each group's latest finishers and leader changes. */
export function announcerResults(snapshot: FormatSnapshot, splitName: SplitNamer): AnnouncerResults {
  const rows = new Map(snapshot.rows.map((row) => [row.racerId, row]));
  const latest: FinisherView[] = [];
  const leaders: LeaderChangeView[] = [];
  for (const group of snapshot.groups) {
    const ranked = rankGroup(snapshot, group, snapshot.rows, "default").ranked;
    const finishers = ranked.filter((entry) => entry.row.status === "finished" && entry.row.finish !== null);
    finishers.sort((a, b) => b.row.finish! - a.row.finish!);
    for (const entry of finishers.slice(0, LATEST_PER_GROUP)) {
      const { row } = entry;
      latest.push({
        ...racerOf(row),
        groupId: group.id,
        rank: entry.rank,
        time: entry.shownTime,
        sameTime: entry.sameTime,
        diff: entry.diff,
        finish: row.finish!,
      });
    }
    const changes = leaderChanges(ranked.map((entry) => entry.row))
      .slice(-LEADERS_PER_GROUP)
      .reverse();
    for (const change of changes) {
      const previous = change.previous === null ? undefined : rows.get(change.previous);
      leaders.push({
        ...racerOf(rows.get(change.racerId)!),
        groupId: group.id,
        time: change.time,
        at: change.finish ? "Finish" : splitName(change.racerId, change.index),
        elapsed: change.elapsed,
        previous: previous ? racerOf(previous) : null,
      });
    }
  }
  return {
    formatId: snapshot.formatId,
    name: snapshot.name,
    version: snapshot.version,
    displayPrecision: snapshot.displayPrecision,
    sameTimeDisplay: snapshot.sameTimeDisplay,
    groups: snapshot.groups.map((g) => ({ id: g.id, name: g.name })),
    latest,
    leaders,
  };
}

/** The precall list of the format's racers at `now`, with places at their last split (core/timing/precall.ts). */
export function announcerPrecall(
  snapshot: FormatSnapshot,
  reads: readonly PrecallRead[],
  names: { point: (pointId: string) => string; split: SplitNamer },
  now: Micros,
): PrecallView[] {
  const rows = new Map(snapshot.rows.map((row) => [row.racerId, row]));
  const places = splitPlaces(snapshot.rows);
  return precallList(rows.values(), reads, now).map((entry) => {
    const row = rows.get(entry.racerId)!;
    return {
      ...racerOf(row),
      point: names.point(entry.pointId),
      time: entry.time,
      next: names.split(row.racerId, entry.nextIndex),
      expectedAt: entry.expectedAt,
      expectedElapsed: entry.expectedElapsed,
      typical: entry.typical,
      leaveAt: entry.leaveAt,
      groups: row.groups,
      places: row.groups.flatMap((groupId) => {
        const place = places(groupId, row);
        return place ? [{ ...place, at: names.split(row.racerId, row.splits.at(-1)!.index) }] : [];
      }),
    };
  });
}

/**
 * A racer's place at their last split within a group: 1 + the group's racers on the same course with a smaller
 * elapsed time there (equal times share, as columnStandings ranks splits). Each split's times are gathered and
 * sorted once per call, and only for the splits asked about.
 */
function splitPlaces(rows: readonly ResultRow[]): (groupId: string, row: ResultRow) => Omit<SplitPlace, "at"> | null {
  const sorted = new Map<string, number[]>();
  return (groupId, row) => {
    const last = row.splits.at(-1);
    if (!last) return null;
    const key = `${groupId}\u0000${row.course ?? ""}\u0000${last.index}\u0000${last.coursePointId}`;
    let times = sorted.get(key);
    if (!times) {
      times = [];
      for (const other of rows) {
        if (other.course !== row.course || !other.groups.includes(groupId)) continue;
        const split = other.splits.find((s) => s.index === last.index && s.coursePointId === last.coursePointId);
        if (split) times.push(split.elapsed);
      }
      times.sort((a, b) => a - b);
      sorted.set(key, times);
    }
    return { groupId, rank: lowerBound(times, last.elapsed) + 1, of: times.length };
  };
}

/** How many of the sorted `values` are below `value`. */
function lowerBound(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (values[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
