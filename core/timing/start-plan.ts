/**
 * Assigning start times (timing.md section 4, "Start times"): zero time from the start time, then the
 * first start of each start group (an individual group follows the previous group's last start plus the
 * gap), then every racer's start; groups are then ordered by earliest assigned time and renumbered.
 * Pure: the RaceRoom reads the groups and racers, and writes what this returns.
 */
import { TimingError } from "./errors";
import type { Micros, StartMode } from "./model";
import { checkGroupTime, individualStartTimes, orderStartGroups } from "./start-times";
import { RACE_DEFAULTS } from "./validation";

// ---- The order racers start in within a group (starttime_sort) ----

export const STARTTIME_SORTS = [
  { key: "bib", label: "Bib" },
  { key: "seed", label: "Seed (seed groups, then random)" },
  { key: "random", label: "Random" },
  { key: "name", label: "Name" },
  { key: "custom", label: "Custom order" },
] as const;
export type StartTimeSort = (typeof STARTTIME_SORTS)[number]["key"];
export const DEFAULT_STARTTIME_SORT: StartTimeSort = RACE_DEFAULTS.starttimeSort;

/** How a start list is shown (startlist_display_sort); the default is by start time. */
export const STARTLIST_DISPLAY_SORTS = [
  { key: "time", label: "Start time" },
  { key: "bib", label: "Bib" },
  { key: "name", label: "Name" },
] as const;
export type StartListDisplaySort = (typeof STARTLIST_DISPLAY_SORTS)[number]["key"];
export const DEFAULT_STARTLIST_DISPLAY_SORT: StartListDisplaySort = RACE_DEFAULTS.startlistDisplaySort;

export function isStartTimeSort(key: unknown): key is StartTimeSort {
  return typeof key === "string" && STARTTIME_SORTS.some((s) => s.key === key);
}

/** The group's start-time sort, else the race's, else by bib; an unknown key counts as not set. */
export function startTimeSortFor(group: { starttime_sort: string | null }, race: { starttime_sort?: string | null }): StartTimeSort {
  if (isStartTimeSort(group.starttime_sort)) return group.starttime_sort;
  return isStartTimeSort(race.starttime_sort) ? race.starttime_sort : DEFAULT_STARTTIME_SORT;
}

/** What the start-time sorts read of a racer. */
export interface SortRacer {
  id: string;
  bib: number | null;
  random: number | null;
  firstName: string;
  lastName: string;
}

export interface SortOptions {
  /** "seed": the order seeding gave (seedStartOrder in seeding.ts). */
  seedOrder?: readonly string[];
  /** "custom": starttime_order_list, racer ids. */
  customOrder?: readonly unknown[];
}

const byBib = (a: SortRacer, b: SortRacer) => (a.bib ?? Infinity) - (b.bib ?? Infinity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Racer ids in the order they start. bib: by bib, racers with none last. seed: the seed order. random: by
 * the stored random value (none last). name: last name, then first name. custom: the listed ids first, in
 * the listed order. Racers the seed or custom order does not name come after, by bib; every tie is by bib.
 */
export function orderForStart(sort: StartTimeSort, racers: readonly SortRacer[], options: SortOptions = {}): string[] {
  const listedFirst = (list: readonly unknown[] = []) => {
    const position = new Map<unknown, number>();
    list.forEach((id, i) => {
      if (!position.has(id)) position.set(id, i);
    });
    const place = (r: SortRacer) => position.get(r.id) ?? Infinity;
    return (a: SortRacer, b: SortRacer) => place(a) - place(b);
  };
  const compare: Record<StartTimeSort, (a: SortRacer, b: SortRacer) => number> = {
    bib: () => 0,
    seed: listedFirst(options.seedOrder),
    random: (a, b) => (a.random ?? Infinity) - (b.random ?? Infinity),
    name: (a, b) => a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName),
    custom: listedFirst(options.customOrder),
  };
  const first = compare[sort];
  return [...racers].sort((a, b) => first(a, b) || byBib(a, b)).map((r) => r.id);
}

// ---- Start times ----

/** The race's rules for assigning starts. */
export interface PlanRace {
  startTime: Micros;
  endTime: Micros | null;
  /** Midnight of race day (zeroTimeOfRace), recalculated by the caller from the start time. */
  zeroTime: Micros;
  startMode: StartMode;
  startInterval: Micros;
  startSize: number;
  /** Start size counts only when enabled (timing.md section 9). */
  isStartSizeEnabled: boolean;
  /** Gap between an individual group's first start and the previous group's last. */
  startGap: Micros;
}

export interface PlanGroup {
  id: string;
  ordinal: number;
  /** null: the race's. */
  startMode: StartMode | null;
  scheduledStartTime: Micros | null;
  assignedStartTime: Micros | null;
  /** null: the race's. */
  startInterval: Micros | null;
  startSize: number | null;
  startGap: Micros | null;
  /** The group's racers in start order. */
  racerIds: readonly string[];
  /** Pursuit: each racer's start after the group's first start, which replaces the interval rule. */
  offsets?: ReadonlyMap<string, Micros> | null;
}

export interface GroupStartPlan {
  id: string;
  /** The new ordinal: groups by earliest assigned time, numbered from 1. */
  ordinal: number;
  startMode: StartMode;
  assignedStartTime: Micros;
  firstStartTime: Micros;
  lastStartTime: Micros;
  racers: number;
}

export interface StartPlan {
  zeroTime: Micros;
  /** In their new order. */
  groups: GroupStartPlan[];
  /** Each racer's assigned start. */
  starts: Map<string, Micros>;
}

/** TimingError("invalidGroupTime") ("Invalid group time"), naming the group that would start after the race's end. */
export class InvalidGroupTimeError extends TimingError {
  constructor(
    readonly groupId: string,
    readonly start: Micros,
  ) {
    super("invalidGroupTime");
  }
}

/**
 * Start times for every group, walked in ordinal order. A mass group starts at its scheduled time, else
 * the time assigned to it before, else the race's start. An individual group starts at its scheduled time
 * when it has one; else the first group starts at the race's start and a later one at the previous group's
 * last start plus the gap (the group's start_gap, else the race's). Throws InvalidGroupTimeError, a
 * TimingError("invalidGroupTime"), when a group would start after the race's end.
 */
export function planStartTimes(race: PlanRace, groups: readonly PlanGroup[]): StartPlan {
  const starts = new Map<string, Micros>();
  const planned: (GroupStartPlan & { scheduledStartTime: Micros | null })[] = [];
  let previousLast: Micros | null = null;
  for (const group of [...groups].sort((a, b) => a.ordinal - b.ordinal)) {
    const mode = group.startMode ?? race.startMode;
    let first: Micros;
    if (mode === "mass") first = group.scheduledStartTime ?? group.assignedStartTime ?? race.startTime;
    else first = group.scheduledStartTime ?? (previousLast === null ? race.startTime : previousLast + (group.startGap ?? race.startGap));
    try {
      checkGroupTime(first, race.endTime);
    } catch (error) {
      throw error instanceof TimingError ? new InvalidGroupTimeError(group.id, first) : error;
    }
    let last = first;
    if (mode === "mass") {
      for (const id of group.racerIds) starts.set(id, first);
    } else if (group.offsets) {
      for (const id of group.racerIds) {
        const start = first + (group.offsets.get(id) ?? 0);
        starts.set(id, start);
        last = Math.max(last, start);
      }
    } else {
      const rules = {
        startInterval: group.startInterval ?? race.startInterval,
        startSize: group.startSize ?? race.startSize,
        isStartSizeEnabled: race.isStartSizeEnabled,
      };
      for (const [id, start] of individualStartTimes(rules, group.racerIds, first)) {
        starts.set(id, start);
        last = Math.max(last, start);
      }
    }
    planned.push({
      id: group.id,
      ordinal: group.ordinal,
      startMode: mode,
      assignedStartTime: first,
      scheduledStartTime: group.scheduledStartTime,
      firstStartTime: first,
      lastStartTime: last,
      racers: group.racerIds.length,
    });
    previousLast = last;
  }
  const ordered = orderStartGroups(planned).map(({ scheduledStartTime: _scheduled, ...group }) => group);
  return { zeroTime: race.zeroTime, groups: ordered, starts };
}
