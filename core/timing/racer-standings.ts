/**
 * Where one racer stood at each point of their course and at the finish, against the members of one result
 * group (the racer's page). One pass over the members, O(members × splits), and no sort of the group: the
 * page of one racer must not cost what the results page of all of them does.
 */
import type { Micros, RacerResult, Split } from "./model";
import { compareKeys } from "./rank";

/** The racer at one passed point. */
export interface PointStanding {
  index: number;
  coursePointId: string;
  lap: number;
  /** Since the racer's start. */
  elapsed: Micros;
  /** Since the racer's previous passed point (the first: since the start). */
  sinceLast: Micros;
  /** Members of the group on the same course who passed this point, the racer included. */
  passed: number;
  /** 1 + those of them with a smaller elapsed time here; equal times share a place (columnStandings' rule). */
  rank: number;
  /** Behind the smallest elapsed time here; 0 for the leader at this point. */
  behind: Micros;
}

/** The racer's result in the group, as the results page ranks it (rank.ts: equal rank keys share). */
export interface FinishStanding {
  /** null while unranked (not finished, or a status). */
  rank: number | null;
  /** Ranked members of the group. */
  ranked: number;
  /** Behind the group's leader (the ranked member first by key); null while unranked. */
  behind: Micros | null;
}

export interface RacerStandings {
  points: PointStanding[];
  finish: FinishStanding;
}

/**
 * `members` are the group's results (the racer among them or not: the racer counts once either way).
 * `sameCourse` says which members ran the racer's course; places at points are among those only (a split
 * index means another point on another course). The finish is ranked over the whole group, as the results
 * page ranks it.
 */
export function racerStandings(target: RacerResult, members: Iterable<RacerResult>, sameCourse: (racerId: string) => boolean = () => true): RacerStandings {
  const byIndex = new Map<number, number>();
  target.splits.forEach((split, i) => byIndex.set(split.index, i));
  const passed = target.splits.map(() => 1);
  const ahead = target.splits.map(() => 0);
  const best = target.splits.map((s) => s.elapsed);
  const targetRanked = target.rankKey !== null && target.time !== null;
  let rankedAhead = 0;
  let ranked = targetRanked ? 1 : 0;
  let leader: RacerResult | null = targetRanked ? target : null;

  for (const member of members) {
    if (member.racerId === target.racerId) continue;
    if (member.rankKey !== null && member.time !== null) {
      ranked++;
      if (targetRanked && compareKeys(member.rankKey, target.rankKey as readonly number[]) < 0) rankedAhead++;
      if (leader === null || compareKeys(member.key, leader.key) < 0) leader = member;
    }
    if (byIndex.size === 0 || !sameCourse(member.racerId)) continue;
    for (const split of member.splits) {
      const i = byIndex.get(split.index);
      if (i === undefined || target.splits[i]!.coursePointId !== split.coursePointId) continue;
      passed[i]!++;
      if (split.elapsed < target.splits[i]!.elapsed) ahead[i]!++;
      if (split.elapsed < best[i]!) best[i] = split.elapsed;
    }
  }

  const points = target.splits.map((split, i) => ({
    index: split.index,
    coursePointId: split.coursePointId,
    lap: split.lap,
    elapsed: split.elapsed,
    sinceLast: split.elapsed - (i === 0 ? 0 : target.splits[i - 1]!.elapsed),
    passed: passed[i]!,
    rank: ahead[i]! + 1,
    behind: split.elapsed - best[i]!,
  }));
  const finish: FinishStanding = targetRanked
    ? { rank: rankedAhead + 1, ranked, behind: (target.time as Micros) - (leader?.time as Micros) }
    : { rank: null, ranked, behind: null };
  return { points, finish };
}

/**
 * A lap point's lap time: since the same point one lap before (lap 1: since the start); null when the racer
 * has no read there (a missed lap read) or the point is not the lap line.
 */
export function lapTimeAt(splits: readonly Pick<Split, "index" | "elapsed">[], index: number, lapLength: number): Micros | null {
  const here = splits.find((s) => s.index === index);
  if (!here || lapLength <= 0) return null;
  if (index < lapLength) return here.elapsed;
  const before = splits.find((s) => s.index === index - lapLength);
  return before ? here.elapsed - before.elapsed : null;
}
