import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { standingsCsv } from "../../../core/series/standings-csv";
import { csvDownload } from "../../keypad.server";
import { loadAllStandings } from "../../series.server";

/** The standings as CSV: one line per racer per category, each race's points, dropped results in brackets. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const { series, standings } = await loadAllStandings(context, params.series);
  return csvDownload(standingsCsv(standings), series.year ? `${series.name} ${series.year}` : series.name, "standings");
}
