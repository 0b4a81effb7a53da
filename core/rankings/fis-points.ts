/**
 * Ranking points by the FIS points method (issue 27, decision 0052): race points P = F·(Tx/To − 1) from the
 * winner's time, a race penalty from the best-ranked starters and finishers, result points = P + penalty, and
 * a ranking list of each racer's best results. Lower is better, as in FIS lists. Pure: no I/O.
 */

export interface FisConfig {
  /** The discipline factor F (FIS cross-country distance 800, sprint 1010 …). */
  factor: number;
  /** How many best-ranked racers count towards the penalty (FIS: 5). */
  penaltyCount: number;
  /** Among how many first finishers the penalty's finishers are chosen (FIS: 10). */
  topFinishers: number;
  /** The penalty's divisor (FIS: 10). */
  divisor: number;
  /** The ranking points of a racer with none (FIS: the list's maximum). */
  unrankedPoints: number;
  /** The least penalty a race gets (0 for none). */
  minPenalty: number;
  /** The most penalty a race gets (FIS sets one per event category); null for none. */
  maxPenalty?: number | null;
}

export const FIS_DEFAULTS: FisConfig = { factor: 800, penaltyCount: 5, topFinishers: 10, divisor: 10, unrankedPoints: 999.99, minPenalty: 0 };

export interface Finisher {
  racerId: string;
  /** Finish time (any unit, the same for all). */
  time: number;
  /** The racer's ranking points before the race; null when unranked. */
  rankingPoints: number | null;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** P = F·(Tx/To − 1), to the hundredth. */
export function racePoints(factor: number, time: number, winnerTime: number): number {
  if (!(winnerTime > 0) || !(time >= winnerTime)) return 0;
  return round2(factor * (time / winnerTime - 1));
}

/**
 * The FIS race penalty (A + B − C) / divisor: A the sum of the best `penaltyCount` ranking points among the
 * first `topFinishers`, B the sum of the best `penaltyCount` ranking points of all starters, C the race points
 * of the racers counted in A. Fewer racers than `penaltyCount` count the unranked value for the missing ones.
 */
export function racePenalty(finishers: readonly Finisher[], starters: readonly (number | null)[], config: FisConfig): number {
  const ordered = [...finishers].sort((a, b) => a.time - b.time);
  const winner = ordered[0]?.time ?? 0;
  const points = (p: number | null) => p ?? config.unrankedPoints;
  const best = ordered
    .slice(0, config.topFinishers)
    .map((f) => ({ ranking: points(f.rankingPoints), race: racePoints(config.factor, f.time, winner) }))
    .sort((a, b) => a.ranking - b.ranking || a.race - b.race)
    .slice(0, config.penaltyCount);
  const fill = (n: number) => Math.max(0, config.penaltyCount - n) * config.unrankedPoints;
  const a = best.reduce((sum, f) => sum + f.ranking, 0) + fill(best.length);
  const c = best.reduce((sum, f) => sum + f.race, 0);
  const startersBest = starters
    .map(points)
    .sort((x, y) => x - y)
    .slice(0, config.penaltyCount);
  const b = startersBest.reduce((sum, p) => sum + p, 0) + fill(startersBest.length);
  const penalty = Math.max(config.minPenalty, (a + b - c) / config.divisor);
  return round2(config.maxPenalty != null ? Math.min(config.maxPenalty, penalty) : penalty);
}

/** Each finisher's result points (race points plus the race's penalty), best first. */
export function resultPoints(finishers: readonly Finisher[], starters: readonly (number | null)[], config: FisConfig): { racerId: string; points: number }[] {
  const ordered = [...finishers].sort((a, b) => a.time - b.time);
  if (ordered.length === 0) return [];
  const penalty = racePenalty(ordered, starters, config);
  return ordered.map((f) => ({ racerId: f.racerId, points: round2(racePoints(config.factor, f.time, ordered[0]!.time) + penalty) }));
}

export interface ListConfig {
  /** How many of a racer's best results count. */
  bestN: number;
  /** Their average, the best alone, or their sum (a points table's season total). */
  mode: "average" | "best" | "sum";
  /** More points rank first (a points table); FIS lists rank the fewest first. */
  higherFirst?: boolean;
  /** FIS's rule: a racer with a single result in the season is listed at that result plus 20% (decision 0064). */
  oneResultPlus20?: boolean;
}

/** The racer's listed points with only one result: FIS adds 20% to it. */
export const plus20 = (points: number) => round2(points * 1.2);

/** A season's ranking list: each racer's best `bestN` result points averaged, the best, or summed; best first. */
export function rankingList(
  results: readonly { racerId: string; points: number }[],
  config: ListConfig,
): { racerId: string; points: number; counted: number; plus20: boolean }[] {
  const better = (a: number, b: number) => (config.higherFirst ? b - a : a - b);
  const byRacer = new Map<string, number[]>();
  for (const r of results) {
    const mine = byRacer.get(r.racerId);
    if (mine) mine.push(r.points);
    else byRacer.set(r.racerId, [r.points]);
  }
  const list = [...byRacer].map(([racerId, all]) => {
    const best = [...all].sort(better).slice(0, Math.max(1, config.bestN));
    const sum = best.reduce((s, p) => s + p, 0);
    const points = config.mode === "best" ? best[0]! : config.mode === "sum" ? sum : sum / best.length;
    const single = config.oneResultPlus20 === true && all.length === 1;
    return { racerId, points: single ? plus20(points) : round2(points), counted: best.length, plus20: single };
  });
  return list.sort((a, b) => better(a.points, b.points) || a.racerId.localeCompare(b.racerId));
}

/**
 * A start list ordered by ranking points, best first (the fewest, or the most when `higherFirst`: a points
 * table); unranked racers last, in their given order.
 */
export function seedByPoints<T>(racers: readonly T[], pointsOf: (racer: T) => number | null, higherFirst = false): T[] {
  const key = (points: number | null) => (points === null ? Infinity : higherFirst ? -points : points);
  return racers
    .map((racer, index) => ({ racer, index, key: key(pointsOf(racer)) }))
    .sort((a, b) => (a.key === b.key ? 0 : a.key < b.key ? -1 : 1) || a.index - b.index)
    .map((r) => r.racer);
}
