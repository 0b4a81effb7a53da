/**
 * Ranking of an already sorted result list. Shared by the server and the browser (which re-ranks a group
 * after a pushed change), so it imports nothing but the model types.
 */
import type { Micros, RacerResult, RankedResult } from "./model";

/** Element by element, smaller first; a key that is a prefix of the other sorts first. */
export function compareKeys(a: readonly number[], b: readonly number[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const difference = (a[i] as number) - (b[i] as number);
    if (difference !== 0) return difference < 0 ? -1 : 1;
  }
  return a.length - b.length;
}

/** Same laps (every rank key element but the time): only then can one finisher share another's time. */
function sameRankPrefix(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length - 1; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Places, diffs and same-time labels for results sorted by key. Equal rank keys share a place and the next
 * place skips (standard competition ranking 1, 1, 3). A finisher at most `sameTimeThreshold` behind the
 * previous finisher (same laps) shows that finisher's shown time, so a bunch chains to its first rider.
 */
export function rankSorted(results: readonly RacerResult[], sameTimeThreshold: Micros): RankedResult[] {
  const ranked: RankedResult[] = [];
  let rankedCount = 0;
  let rank = 0;
  let leaderTime: Micros | null = null;
  let previous: { rankKey: readonly number[]; time: Micros; shownTime: Micros } | null = null;
  for (const result of results) {
    // A rank key without a time cannot come from compute; treat it as unranked rather than rank a blank.
    if (result.rankKey === null || result.time === null) {
      ranked.push({ result, rank: null, shownTime: result.time, sameTime: false, diff: null });
      continue;
    }
    if (previous === null || compareKeys(previous.rankKey, result.rankKey) !== 0) rank = rankedCount + 1;
    rankedCount++;
    leaderTime ??= result.time;
    let shownTime = result.time;
    let sameTime = false;
    if (previous !== null && sameTimeThreshold > 0 && sameRankPrefix(previous.rankKey, result.rankKey)) {
      // Can be negative within a tie at calc precision (sorted by bib there); still the same bunch.
      if (result.time - previous.time <= sameTimeThreshold) {
        sameTime = true;
        shownTime = previous.shownTime;
      }
    }
    ranked.push({ result, rank, shownTime, sameTime, diff: result.time - leaderTime });
    previous = { rankKey: result.rankKey, time: result.time, shownTime };
  }
  return ranked;
}
