import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { reportCsv } from "../../../core/timing/start-list";
import { requireRaceAccess } from "../../race-admin.server";
import { csvDownload } from "../../keypad.server";
import { loadWholeReport } from "../../racer-reports.server";

/** A report as a CSV download (`/race/:id/admin/reports/start-list/csv`). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireRaceAccess(request, context, params.id, "view");
  const report = await loadWholeReport(access, params.report);
  return csvDownload(reportCsv(report.table), access.race.name, report.key);
}
