/**
 * A points series' config rules that span fields (decision 0048), keyed by the config path the admin page
 * and the data API both report. Shapes (numbers, ranges) are the config schema's; this is what one field
 * cannot say alone.
 */
import { compileFormula } from "./formula";
import type { PointsRule } from "./points";

export interface SeriesConfigShape {
  readonly points: PointsRule;
  readonly best_of: number | null;
  readonly races: readonly { readonly race: string }[];
}

export function seriesConfigProblems(config: SeriesConfigShape): Record<string, string> | null {
  const found: Record<string, string> = {};
  const rule = config.points;
  if (rule.method === "table") {
    const rise = rule.table.findIndex((points, i) => i > 0 && points > rule.table[i - 1]!);
    if (rise > 0)
      found["config.points.table"] = `The points table must not rise from one place to the next: place ${rise + 1} has more points than place ${rise}`;
  } else if (rule.method === "formula") {
    const compiled = compileFormula(rule.formula);
    if (!compiled.ok) found["config.points.formula"] = compiled.message;
  } else if (rule.min > rule.max) {
    found["config.points.min"] = "The lowest points are more than the winner's points";
  }
  const ids = config.races.map((r) => r.race);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice) found["config.races"] = "A race is in the series twice";
  if (config.best_of !== null && config.best_of > ids.length) {
    found["config.best_of"] =
      ids.length === 0
        ? "Add the series' races before setting best N"
        : `Best N cannot be more than the series' ${ids.length} race${ids.length === 1 ? "" : "s"}`;
  }
  return Object.keys(found).length > 0 ? found : null;
}
