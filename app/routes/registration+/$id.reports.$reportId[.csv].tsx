import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvDownload, loadFormOf, requireReport, requireReportAccess, runForViewer } from "../../registration-reports.server";

/** The whole report (every row, not one page) as a CSV download: `/registration/:id/reports/:reportId.csv`. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireReportAccess(request, context, params.id, "view_reports");
  const form = await loadFormOf(access);
  const report = await requireReport(access, form, params.reportId);
  return csvDownload(await runForViewer(access, form, report.layout), access.registration.name, report.name);
}
