import { TimingError } from "./errors";
import type { Micros, StartGroup } from "./model";

/** Start group and individual start times (timing.md sections 4 and 9). */

type GroupTimes = Pick<StartGroup, "recordedStartTime" | "assignedStartTime" | "scheduledStartTime">;
type IndividualStartRules = Pick<StartGroup, "startInterval" | "startSize" | "isStartSizeEnabled">;

/** What actually happened beats what was assigned, which beats the plan; with none, the race's start. */
export function groupStartTime(group: GroupTimes, raceStart: Micros): Micros {
  return group.recordedStartTime ?? group.assignedStartTime ?? group.scheduledStartTime ?? raceStart;
}

/**
 * Individual start: racers leave `startSize` at a time (only when start size is enabled, else one at a
 * time), each wave `startInterval` after the last, the first at `firstStart`.
 */
export function individualStartTimes(group: IndividualStartRules, racerIdsInOrder: readonly string[], firstStart: Micros): Map<string, Micros> {
  const size = group.isStartSizeEnabled ? group.startSize : 1;
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`start size must be a whole number from 1, got ${size}`);
  const starts = new Map<string, Micros>();
  racerIdsInOrder.forEach((racerId, i) => {
    if (starts.has(racerId)) throw new RangeError(`racer ${racerId} is listed twice in the start order`);
    starts.set(racerId, firstStart + group.startInterval * Math.floor(i / size));
  });
  return starts;
}

/** A group may not start after the race has ended (equal is allowed); a race with no end has no limit. */
export function checkGroupTime(groupStart: Micros, raceEnd: Micros | null): void {
  if (raceEnd !== null && groupStart > raceEnd) throw new TimingError("invalidGroupTime");
}

type Orderable = Pick<StartGroup, "ordinal" | "assignedStartTime" | "scheduledStartTime">;

/**
 * Start groups by earliest time (the assigned one, else the scheduled one; groups with neither last),
 * ties kept in their old order, renumbered 1, 2, 3… Returns new objects; the input is not changed.
 */
export function orderStartGroups<T extends Orderable>(groups: readonly T[]): T[] {
  const timeOf = (group: T) => group.assignedStartTime ?? group.scheduledStartTime ?? Number.POSITIVE_INFINITY;
  return [...groups].sort((a, b) => timeOf(a) - timeOf(b) || a.ordinal - b.ordinal).map((group, i) => ({ ...group, ordinal: i + 1 }));
}
