/**
 * Multistage races (timing.md sections 3 and 9): each stage is a race whose prev_race is the stage before,
 * and prev_stages_count N says how many stages came before. A racer carries the earlier stages as
 * stage_time_1..N and stage_bonus_1..N. Two ranking types: "default" ranks this stage alone, "multistage"
 * ranks the total of all stages.
 */
import type { Micros } from "./model";

export const RANKING_TYPES = ["default", "multistage"] as const;
export type RankingType = (typeof RANKING_TYPES)[number];

export const ALL_STAGES_LABEL = "All Stages";

/** "Stage 3 Only": the label of the default ranking on stage 3. */
export function stageOnlyLabel(stageNumber: number): string {
  return `Stage ${stageNumber} Only`;
}

export interface RankingView {
  type: RankingType;
  label: string;
}

/**
 * The ranking views of a race that is stage `stageCount` (prev_stages_count + 1): "Stage N Only" for the
 * default ranking, and "All Stages" for multistage. A first stage has nothing to add up, so only the first.
 */
export function rankingViews(stageCount: number): RankingView[] {
  if (!Number.isInteger(stageCount) || stageCount < 1) throw new RangeError(`stageCount must be a whole number from 1, got ${stageCount}`);
  const stageOnly: RankingView = { type: "default", label: stageOnlyLabel(stageCount) };
  return stageCount === 1 ? [stageOnly] : [stageOnly, { type: "multistage", label: ALL_STAGES_LABEL }];
}

export interface StageTotalInput {
  /** This stage's result time (its own bonus already taken off by the result time). */
  current: Micros | null;
  /** stage_time_1..N, in stage order. */
  previous: readonly (Micros | null)[];
  /** stage_bonus_1..N, for the same stages as `previous`; null or absent is no bonus. */
  bonuses: readonly (Micros | null)[];
}

/**
 * All stages' time: current + stage_time_1..N − stage_bonus_1..N. Null when this stage or any earlier one
 * has no time: a racer missing a stage is not ranked in All Stages.
 */
export function stageTotal({ current, previous, bonuses }: StageTotalInput): Micros | null {
  if (bonuses.length > previous.length) throw new RangeError(`${bonuses.length} stage bonuses for ${previous.length} previous stages`);
  if (current === null || previous.some((time) => time === null)) return null;
  let total = current;
  for (const time of previous) total += time ?? 0;
  for (const bonus of bonuses) total -= bonus ?? 0;
  return total;
}

/** Stages a race may follow: enough for a grand tour, and a bound on the prev_race walk. */
export const MAX_STAGES = 50;

export const STAGE_LOOP = "A stage cannot follow itself or a later stage";
export const TOO_MANY_STAGES = `A race can follow at most ${MAX_STAGES} stages`;

/**
 * One step back along prev_race, from a race whose chain so far is `chain` (this race first): the problem
 * with stepping to `previous`, or null. Each step's prev_race is read from storage, so the walk itself is
 * the caller's; a race already in the chain is a loop, refused rather than followed forever.
 */
export function stageStepProblem(chain: readonly string[], previous: string): string | null {
  if (chain.includes(previous)) return STAGE_LOOP;
  return chain.length > MAX_STAGES ? TOO_MANY_STAGES : null;
}

interface Keyed {
  status: string;
  time: Micros | null;
  key: readonly number[];
  rankKey: readonly number[] | null;
}

/**
 * A result re-keyed for the All Stages ranking. A finisher of this stage with a time in every earlier stage
 * ranks on the stage total; a finisher missing a stage sorts after them, unranked; everyone else keeps the
 * stage's order. The engine's keys end in (bib, order), so ties still break the same way.
 */
export function allStagesResult<T extends Keyed>(result: T, previous: readonly (Micros | null)[], bonuses: readonly (Micros | null)[]): T {
  if (result.status !== "finished") return result;
  const tail = result.key.slice(-2);
  const total = stageTotal({ current: result.time, previous, bonuses: bonuses.slice(0, previous.length) });
  if (total === null) return { ...result, time: null, rankKey: null, key: [0, Number.MAX_SAFE_INTEGER, ...tail] };
  return { ...result, time: total, rankKey: [total], key: [0, total, ...tail] };
}

/** One racer of the stage before, as the next stage brings it in. */
export interface StageResult {
  bib: number | null;
  person: string | null;
  /** The racer's result time in that stage, when finished. */
  time: Micros | null;
  /** That stage's own stage_time_1..N and stage_bonus_1..N. */
  stageTimes: readonly (Micros | null)[];
  stageBonuses: readonly (Micros | null)[];
}

export interface CarriedStages {
  stageTimes: (Micros | null)[];
  stageBonuses: (Micros | null)[];
}

/**
 * Each racer's stage_time_1..N and stage_bonus_1..N from the stage before (N = stagesBefore): that stage's
 * own earlier stages plus its result. A racer is the same person when both name one, else the same bib; a
 * racer with no match gets no times (null each), so is not ranked in All Stages. null: no match.
 */
export function carriedStages(
  racer: { bib: number | null; person: string | null },
  previous: readonly StageResult[],
  stagesBefore: number,
): CarriedStages | null {
  if (!Number.isInteger(stagesBefore) || stagesBefore < 1) throw new RangeError(`stagesBefore must be a whole number from 1, got ${stagesBefore}`);
  const match =
    (racer.person !== null ? previous.find((p) => p.person === racer.person) : undefined) ??
    (racer.bib !== null ? previous.find((p) => p.bib === racer.bib && (p.person === null || racer.person === null)) : undefined);
  if (!match) return null;
  const earlier = Array.from({ length: stagesBefore - 1 }, (_, i) => match.stageTimes[i] ?? null);
  const bonuses = Array.from({ length: stagesBefore - 1 }, (_, i) => match.stageBonuses[i] ?? null);
  return { stageTimes: [...earlier, match.time], stageBonuses: [...bonuses, null] };
}
