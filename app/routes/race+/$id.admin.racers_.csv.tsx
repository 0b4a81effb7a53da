import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { spreadsheetCsv } from "../../../core/entity/csv";
import { requireRaceAccess } from "../../race-admin.server";
import { csvDownload } from "../../keypad.server";
import { RACER_LIST_COLUMNS, racerListCsvRow, racerListMatches } from "../../racers.server";

/** The racers list as CSV: every racer matching `?q=` (all pages), the columns the list shows. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireRaceAccess(request, context, params.id, "view");
  const matches = await racerListMatches(access, new URL(request.url));
  return csvDownload(spreadsheetCsv(RACER_LIST_COLUMNS, matches.map(racerListCsvRow)), access.race.name, "racers");
}
