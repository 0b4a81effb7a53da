/**
 * A ranking scheme's rules that span fields (decision 0054), keyed by the path the admin page and the data API
 * both report. Shapes (numbers, ranges) are the config schema's; this is what one field cannot say alone.
 */
import { tableRise } from "./table-points";

/** The scheme's method column and the config's words for it. */
const CONFIG_METHOD = { fis_points: "fis", points_table: "table" } as const;

export const RANKING_CONFIG_MESSAGES = {
  method: "A ranking scheme's method is fis_points (the FIS points method) or points_table (points by place); custom makes no list",
  configMethod: (column: string, config: string) => `The scheme's method is ${column}: the config's method must be ${config}, or left out`,
  emptyTable: "A points table needs the points of 1st place at least",
  rise: (place: number) => `The points table must not rise from one place to the next: place ${place} has more points than place ${place - 1}`,
  sum: "FIS points are averaged or the best one taken, never summed; use list_mode average or best",
  plus20: "The +20% rule is FIS's, for lists where fewer points rank first; a points table ranks the most points first",
} as const;

export interface RankingConfigShape {
  readonly penalty_count: number;
  readonly top_finishers: number;
  readonly min_penalty?: number;
  readonly max_penalty?: number | null;
  readonly seasons: readonly { readonly label: string; readonly races: readonly { readonly race: string }[] }[];
  readonly method?: "fis" | "table";
  readonly points_table?: readonly number[];
  readonly list_mode?: "average" | "best" | "sum";
  readonly one_result_plus_20?: boolean;
}

/** The rules between the scheme's method column and its config: a table for points_table, FIS's options for FIS. */
export function rankingMethodProblems(method: string, config: RankingConfigShape): Record<string, string> | null {
  const found: Record<string, string> = {};
  const wanted = CONFIG_METHOD[method as keyof typeof CONFIG_METHOD];
  if (!wanted) return { method: RANKING_CONFIG_MESSAGES.method };
  if (config.method !== undefined && config.method !== wanted) found["config.method"] = RANKING_CONFIG_MESSAGES.configMethod(method, wanted);
  if (wanted === "table") {
    const table = config.points_table ?? [];
    const rise = tableRise(table);
    if (table.length === 0) found["config.points_table"] = RANKING_CONFIG_MESSAGES.emptyTable;
    else if (rise !== null) found["config.points_table"] = RANKING_CONFIG_MESSAGES.rise(rise);
    if (config.one_result_plus_20) found["config.one_result_plus_20"] = RANKING_CONFIG_MESSAGES.plus20;
  } else if (config.list_mode === "sum") {
    found["config.list_mode"] = RANKING_CONFIG_MESSAGES.sum;
  }
  return Object.keys(found).length > 0 ? found : null;
}

export function rankingConfigProblems(config: RankingConfigShape, season: string | null): Record<string, string> | null {
  const found: Record<string, string> = {};
  if (config.penalty_count > config.top_finishers)
    found["config.penalty_count"] = `The penalty count cannot be more than the top finishers it is chosen from (${config.top_finishers})`;
  if (config.max_penalty != null && config.min_penalty !== undefined && config.max_penalty < config.min_penalty)
    found["config.max_penalty"] = "The maximum penalty cannot be less than the minimum penalty";
  const labels = config.seasons.map((s) => s.label.toLowerCase());
  const twice = config.seasons.find((s, i) => labels.indexOf(s.label.toLowerCase()) !== i);
  if (twice) found["config.seasons"] = `The season ${twice.label} is listed twice`;
  for (const s of config.seasons) {
    const ids = s.races.map((r) => r.race);
    if (ids.some((id, i) => ids.indexOf(id) !== i)) found["config.seasons"] ??= `A race is in the season ${s.label} twice`;
  }
  if (season && !labels.includes(season.toLowerCase()))
    found.season =
      config.seasons.length === 0 ? "Add the scheme's seasons before choosing the current one" : `The season ${season} is not one of the scheme's seasons`;
  return Object.keys(found).length > 0 ? found : null;
}
