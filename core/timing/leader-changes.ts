/**
 * Who led a result group when, for the announcer (decision 0045): the group's crossings replayed in time order
 * against the engine's live order (compute.ts keysOf: finishers first by their rank key, then racers on course
 * by most points passed and the time at the last), logging each time another racer comes out first. Pure, and
 * a function of the results alone, so it reads the same after an eviction.
 */
import type { Micros, RacerStatus } from "./model";
import { compareKeys } from "./rank";

/** What leader changes need of a racer's result. */
export interface LeaderRacer {
  racerId: string;
  status: RacerStatus;
  splits: readonly { index: number; time: Micros; elapsed: Micros }[];
  finish: Micros | null;
  rankKey: readonly number[] | null;
}

export interface LeaderChange {
  racerId: string;
  /** Who led before (null: nobody had passed a point yet). */
  previous: string | null;
  /** When the racer took the lead: the time of the crossing. */
  time: Micros;
  /** The split where it happened; `finish` when it was their finish. */
  index: number;
  finish: boolean;
  /** The racer's time since the start there. */
  elapsed: Micros;
}

interface Step {
  racerId: string;
  time: Micros;
  index: number;
  finish: boolean;
  elapsed: Micros;
  key: readonly number[];
}

/**
 * Each racer's steps: after their n-th split the key of a racer on course ([1, -n, elapsed]), at their finish
 * the finisher's ([0, ...rankKey]). A racer's keys only fall as they go on, so the leader at any moment is the
 * racer of the smallest key seen so far. Racers out (DNF, DSQ, DNS) lead nothing, even before they were out.
 */
function stepsOf(racer: LeaderRacer): Step[] {
  if (racer.status !== "oncourse" && racer.status !== "finished") return [];
  return racer.splits.map((split, i) => {
    const finish = racer.status === "finished" && racer.rankKey !== null && split.time === racer.finish;
    const key = finish ? [0, ...racer.rankKey!] : [1, -(i + 1), split.elapsed];
    return { racerId: racer.racerId, time: split.time, index: split.index, finish, elapsed: split.elapsed, key };
  });
}

/** The group's leader changes in time order (the first is whoever first passed a point). */
export function leaderChanges(members: Iterable<LeaderRacer>): LeaderChange[] {
  const steps: Step[] = [];
  for (const member of members) steps.push(...stepsOf(member));
  // Crossings at the same moment: the better placed first, so a dead heat is led by who ranks first.
  steps.sort((a, b) => a.time - b.time || compareKeys(a.key, b.key) || a.racerId.localeCompare(b.racerId));
  const changes: LeaderChange[] = [];
  let best: readonly number[] | null = null;
  let leader: string | null = null;
  for (const step of steps) {
    if (best !== null && compareKeys(step.key, best) >= 0) continue;
    best = step.key;
    if (step.racerId === leader) continue;
    changes.push({ racerId: step.racerId, previous: leader, time: step.time, index: step.index, finish: step.finish, elapsed: step.elapsed });
    leader = step.racerId;
  }
  return changes;
}
