/**
 * A ranking scheme's rules that span fields (decision 0054), keyed by the path the admin page and the data API
 * both report. Shapes (numbers, ranges) are the config schema's; this is what one field cannot say alone.
 */
export interface RankingConfigShape {
  readonly penalty_count: number;
  readonly top_finishers: number;
  readonly min_penalty?: number;
  readonly max_penalty?: number | null;
  readonly seasons: readonly { readonly label: string; readonly races: readonly { readonly race: string }[] }[];
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
