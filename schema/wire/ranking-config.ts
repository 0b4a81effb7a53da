/**
 * A ranking scheme's config column (issue 27, decision 0054): the FIS method's numbers, how a season's list
 * is made (best N, averaged or the best), which result groups are scored, and the scheme's seasons with the
 * races an organiser added to each. Every part has a default, so `{}` is FIS's method with no seasons yet.
 * Cross-field rules (core/rankings/config-rules.ts, races of the scheme's club) run in admin-entity-rules.ts.
 */
import * as z from "zod";
import { FIS_DEFAULTS, type FisConfig, type ListConfig } from "../../core/rankings/fis-points";
import type { RankingScoring } from "../../core/rankings/season-lists";

const points = (what: string) => z.number(`${what} is a number`).min(0, `${what} cannot be negative`).max(100_000, `${what} is at most 100000`);
const whole = (what: string, max: number) =>
  z.number(`${what} is a number`).int(`${what} is a whole number`).min(1, `${what} is at least 1`).max(max, `${what} is at most ${max}`);

export const rankingRaceSchema = z.object({
  race: z.uuid("A race is named by its id"),
  /** The result format whose groups are scored; the race's first public format when absent. */
  format: z.string().min(1).max(100).nullable().default(null),
});

export const rankingSeasonSchema = z.object({
  label: z
    .string("A season needs a label, like 2026 or 2025-26")
    .trim()
    .min(1, "A season needs a label, like 2026 or 2025-26")
    .max(50, "A season label is at most 50 characters"),
  races: z.array(rankingRaceSchema).max(100, "A season has at most 100 races").default([]),
});

export const rankingConfigSchema = z.object({
  /** Follows the scheme's method column (fis_points, points_table); given here it must agree (decision 0064). */
  method: z.enum(["fis", "table"], "The method is fis (the FIS points method) or table (points by place)").optional(),
  /** Points by place for a points_table scheme: 1st place first; places past the table earn 0. */
  points_table: z.array(points("A place's points")).max(1000, "A points table has at most 1000 places").default([]),
  /** FIS's rule: a racer with one result in the season is listed at that result plus 20%. */
  one_result_plus_20: z.boolean("The +20% rule is on (true) or off (false)").default(false),
  factor: z.number("The F factor is a number").gt(0, "The F factor is more than 0").max(10_000, "The F factor is at most 10000").default(FIS_DEFAULTS.factor),
  penalty_count: whole("The penalty count", 50).default(FIS_DEFAULTS.penaltyCount),
  top_finishers: whole("Top finishers", 500).default(FIS_DEFAULTS.topFinishers),
  divisor: z.number("The divisor is a number").gt(0, "The divisor is more than 0").max(1000, "The divisor is at most 1000").default(FIS_DEFAULTS.divisor),
  unranked_points: points("Unranked points").default(FIS_DEFAULTS.unrankedPoints),
  min_penalty: points("The minimum penalty").default(FIS_DEFAULTS.minPenalty),
  /** FIS caps a race's penalty by event category; null for no cap. */
  max_penalty: points("The maximum penalty").nullable().default(null),
  best_n: whole("Best N", 100).default(2),
  list_mode: z.enum(["average", "best", "sum"], "The list is the average of the best results, the best one, or their sum").default("average"),
  /** Result group names scored, each its own competition; empty scores every group of the format. */
  categories: z.array(z.string().trim().min(1).max(200)).max(200).default([]),
  seasons: z.array(rankingSeasonSchema).max(50, "A scheme has at most 50 seasons").default([]),
});

export type RankingConfig = z.output<typeof rankingConfigSchema>;

/** A stored config that no longer parses (written before its schema) ranks nothing rather than failing the page. */
export function rankingConfigOf(raw: unknown): RankingConfig {
  const parsed = rankingConfigSchema.safeParse(raw);
  return parsed.success ? parsed.data : rankingConfigSchema.parse({});
}

export function fisConfigOf(config: RankingConfig): FisConfig {
  return {
    factor: config.factor,
    penaltyCount: config.penalty_count,
    topFinishers: config.top_finishers,
    divisor: config.divisor,
    unrankedPoints: config.unranked_points,
    minPenalty: config.min_penalty,
    maxPenalty: config.max_penalty,
  };
}

export const listConfigOf = (config: RankingConfig): ListConfig => ({
  bestN: config.best_n,
  mode: config.list_mode,
  oneResultPlus20: config.one_result_plus_20,
});

/** How the scheme scores a competition: its method column decides (a table for points_table, else FIS's method). */
export function scoringOf(method: string, config: RankingConfig): RankingScoring {
  return method === "points_table" ? { kind: "table", table: config.points_table } : { kind: "fis", fis: fisConfigOf(config) };
}
