/**
 * The reference: every result and every group computed from scratch with a plain sort. Slow and obviously
 * right, it is what the incremental engine is checked against.
 */
import { resultForRacer } from "./compute";
import { inGroup } from "./groups";
import type { Crossing, RaceInput, RacerResult } from "./model";
import { compareKeys } from "./rank";

export interface FullResults {
  results: Map<string, RacerResult>;
  /** Group id → its members, sorted by key. */
  groups: Map<string, RacerResult[]>;
}

/** A crossing's seq is its identity in the log: the same seq given twice counts once (the first). */
export function computeFull(input: RaceInput, crossings: readonly Crossing[]): FullResults {
  const seen = new Set<number>();
  const byRacer = new Map<string, Crossing[]>();
  for (const crossing of crossings) {
    if (seen.has(crossing.seq)) continue;
    seen.add(crossing.seq);
    const list = byRacer.get(crossing.racerId);
    if (list === undefined) byRacer.set(crossing.racerId, [crossing]);
    else list.push(crossing);
  }
  const startGroups = new Map(input.startGroups.map((group) => [group.id, group]));
  const results = new Map<string, RacerResult>();
  input.racers.forEach((racer, order) => {
    // A course id the race does not have counts as no course.
    const course = input.courses.find((c) => c.id === racer.courseId) ?? null;
    results.set(racer.id, resultForRacer({ rules: input.rules, course, startGroups, order: racer.order ?? order }, racer, byRacer.get(racer.id) ?? []));
  });
  const groups = new Map<string, RacerResult[]>();
  for (const spec of input.groups) {
    const members = input.racers.filter((racer) => inGroup(spec, racer)).map((racer) => results.get(racer.id) as RacerResult);
    groups.set(
      spec.id,
      members.sort((a, b) => compareKeys(a.key, b.key)),
    );
  }
  return { results, groups };
}
