/**
 * How one race's results turn into series points (issue 27): a table by place or a formula, ties, what a
 * status earns, and the race's scale factor. Points are whole hundredths, so sums are exact and a total
 * always equals the points a page shows for each race (decision 0048).
 */
import { compileFormula } from "./formula";

/** Points by place: a table (1st, 2nd, …), a linear formula, a share of the winner's time, or a formula of one's own. */
export type PointsRule =
  | { readonly method: "table"; readonly table: readonly number[] }
  | { readonly method: "linear"; readonly max: number; readonly step: number; readonly min: number }
  | { readonly method: "time_percent"; readonly max: number; readonly min: number }
  | { readonly method: "formula"; readonly formula: string };

export type ResultStatus = "dnf" | "dns" | "dsq";

export interface PointsSystem {
  readonly rule: PointsRule;
  /** Tied racers each get the place's points (share), or split the tied places' points evenly (split). */
  readonly ties: "share" | "split";
  /** What a racer with a status earns (usually 0); a status still counts as a race taken part in. */
  readonly statusPoints: Readonly<Record<ResultStatus, number>>;
  /** Only a racer's best N race results count; null counts every race. */
  readonly bestOf: number | null;
}

/** A ranked finisher (place by standard competition ranking: 1, 1, 3) or a status. */
export type RaceOutcome =
  | { readonly kind: "placed"; readonly place: number; readonly time: number | null }
  | { readonly kind: "status"; readonly status: ResultStatus };

/** Points are counted in hundredths: 45.5 points is 4550. */
export const HUNDREDTHS = 100;

export const toHundredths = (points: number): number => Math.round(points * HUNDREDTHS);

/** The points of one place (and time, for time_percent) before ties and scaling, in points. */
export function pointsForPlace(rule: PointsRule, place: number, time: number | null, winnerTime: number | null, finishers = place): number {
  return placePoints(rule)(place, time, winnerTime, finishers);
}

type PlacePoints = (place: number, time: number | null, winnerTime: number | null, finishers: number) => number;

/** A rule as a function of the place; a formula is read once (one that cannot be read gives nothing). */
function placePoints(rule: PointsRule): PlacePoints {
  if (rule.method === "formula") {
    const compiled = compileFormula(rule.formula);
    return compiled.ok ? (place, time, winner, finishers) => compiled.evaluate({ place, time, winner, finishers }) : () => 0;
  }
  return (place, time, winnerTime) => fixedRulePoints(rule, place, time, winnerTime);
}

function fixedRulePoints(rule: Exclude<PointsRule, { method: "formula" }>, place: number, time: number | null, winnerTime: number | null): number {
  switch (rule.method) {
    case "table":
      return rule.table[place - 1] ?? 0;
    case "linear":
      return Math.max(rule.min, rule.max - (place - 1) * rule.step);
    case "time_percent":
      // Without both times there is nothing to compare: the winner's share is the whole.
      if (time === null || winnerTime === null || time <= 0) return place === 1 ? rule.max : rule.min;
      return Math.max(rule.min, (rule.max * winnerTime) / time);
  }
}

/**
 * Each entry's points in one race of one category, in hundredths after the race's scale factor. Entries
 * with the same place are tied; `split` averages the points of the places they fill.
 */
export function racePoints(system: PointsSystem, outcomes: readonly RaceOutcome[], scale: number): number[] {
  const placed = outcomes.filter((o): o is Extract<RaceOutcome, { kind: "placed" }> => o.kind === "placed");
  const tiedAt = new Map<number, number>();
  for (const o of placed) tiedAt.set(o.place, (tiedAt.get(o.place) ?? 0) + 1);
  const winnerTime = placed.reduce<number | null>((best, o) => (o.time !== null && (best === null || o.time < best) ? o.time : best), null);
  const byPlace = placePoints(system.rule);
  const finishers = placed.length;
  return outcomes.map((o) => {
    if (o.kind === "status") return toHundredths(system.statusPoints[o.status] * scale);
    const tied = tiedAt.get(o.place) ?? 1;
    let points = byPlace(o.place, o.time, winnerTime, finishers);
    if (tied > 1 && system.ties === "split" && system.rule.method !== "time_percent") {
      let sum = 0;
      for (let p = o.place; p < o.place + tied; p++) sum += byPlace(p, o.time, winnerTime, finishers);
      points = sum / tied;
    }
    return toHundredths(points * scale);
  });
}

/** Hundredths as a page shows them: "45", "45.5", "45.25". */
export function formatPoints(hundredths: number): string {
  const sign = hundredths < 0 ? "-" : "";
  const abs = Math.abs(hundredths);
  const whole = Math.floor(abs / HUNDREDTHS);
  const rest = abs % HUNDREDTHS;
  if (rest === 0) return `${sign}${whole}`;
  return `${sign}${whole}.${String(rest).padStart(2, "0").replace(/0$/, "")}`;
}
