/**
 * A points series' config column (issue 27, decision 0048): how places become points, which races count
 * (with their scale factors and, when not the race's public one, the result format read), which categories
 * (result groups, by name) are scored, and best N. Every part has a default, so `{}` is a series with the
 * World Cup table and no races yet. Cross-field rules (best N within the races, a table that never rises,
 * races of the series' club) are in workers/services/admin-entity-rules.ts.
 */
import * as z from "zod";
import type { PointsRule, PointsSystem } from "../../core/series/points";

/** The FIS World Cup table: the points most organisers start from. */
export const WORLD_CUP_TABLE = [100, 80, 60, 50, 45, 40, 36, 32, 29, 26, 24, 22, 20, 18, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1];

const points = z.number().min(0, "Points cannot be negative").max(100_000, "Points are at most 100000");

const pointsRuleSchema = z.discriminatedUnion("method", [
  z.object({
    method: z.literal("table"),
    table: z.array(points).min(1, "Enter the points of 1st place at least").max(1000, "A table has at most 1000 places"),
  }),
  z.object({ method: z.literal("linear"), max: points, step: points, min: points.default(0) }),
  z.object({ method: z.literal("time_percent"), max: points, min: points.default(0) }),
  // Read by core/series/formula.ts, never run as code; config-rules.ts says when it cannot be read.
  z.object({ method: z.literal("formula"), formula: z.string().trim().min(1, "Enter the formula").max(500, "A formula is at most 500 characters") }),
]);

export const seriesRaceSchema = z.object({
  race: z.uuid("A race is named by its id"),
  /** The result format whose places count; the race's first public format when absent. */
  format: z.string().min(1).max(100).nullable().default(null),
  scale: z.number().gt(0, "A scale factor is more than 0").max(10, "A scale factor is at most 10").default(1),
});

export const seriesConfigSchema = z.object({
  /** A points system (the Points Systems area) whose rule, ties and best N the series takes instead of its own. */
  points_system: z.uuid("A points system is named by its id").nullable().default(null),
  points: pointsRuleSchema.default({ method: "table", table: WORLD_CUP_TABLE }),
  ties: z.enum(["share", "split"]).default("share"),
  status_points: z.object({ dnf: points.default(0), dns: points.default(0), dsq: points.default(0) }).prefault({}),
  best_of: z.number().int("Best N is a whole number").min(1, "Best N is at least 1").nullable().default(null),
  races: z.array(seriesRaceSchema).max(100, "A series has at most 100 races").default([]),
  /** Result group names scored, in the order shown; empty scores every group of the member races. */
  categories: z.array(z.string().trim().min(1).max(200)).max(200).default([]),
});

export type SeriesConfig = z.output<typeof seriesConfigSchema>;

/** A PointsSystem row as the series reads it (schema/d1/admin.ts pointsSystems). */
export interface LinkedPointsSystem {
  method: "table" | "formula";
  pointsTable: number[];
  formula: string | null;
  bestOf: number | null;
  ties: "share" | "split";
  scalePerRace: boolean;
}

/** The series' own rule, or its points system's (the series' best N when the system has none; statuses are the series'). */
export function pointsSystemOf(config: SeriesConfig, linked: LinkedPointsSystem | null = null): PointsSystem {
  if (!linked) return { rule: config.points, ties: config.ties, statusPoints: config.status_points, bestOf: config.best_of };
  const rule: PointsRule = linked.method === "table" ? { method: "table", table: linked.pointsTable } : { method: "formula", formula: linked.formula ?? "" };
  return { rule, ties: linked.ties, statusPoints: config.status_points, bestOf: linked.bestOf ?? config.best_of };
}

/** A member race's scale factor: a linked points system without scale_per_race scores every race alike. */
export const raceScaleOf = (scale: number, linked: LinkedPointsSystem | null): number => (linked && !linked.scalePerRace ? 1 : scale);
