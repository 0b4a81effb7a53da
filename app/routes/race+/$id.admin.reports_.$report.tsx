import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { formatRaceDate } from "../../format";
import { requireRaceAccess } from "../../race-admin.server";
import { loadReport } from "../../racer-reports.server";
import { ReportFinder, ReportPageLinks, ReportSections } from "../../components/report-sections";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.title} · ${data.raceName}` : "Report" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireRaceAccess(request, context, params.id, "view");
  const report = await loadReport(access, params.report, new URL(request.url));
  return { raceId: access.race.id, raceName: access.race.name, raceDate: formatRaceDate(access.race.startTime, access.race.timezone), ...report };
}

// app.css is shared with other pages, so the print layout of reports lives here: only the report is printed,
// each section keeps its heading with its rows, and table headers repeat on every page.
const PRINT_CSS = `
@media print {
  .site-header, .site-footer, .admin-tabs, .race-admin > .race-meta, .race-admin > h1, .report-tools { display: none !important; }
  .page { max-width: none; padding: 0; }
  .report h2 { font-size: 16pt; margin: 0 0 4pt; }
  .report h3 { font-size: 12pt; margin: 10pt 0 4pt; break-after: avoid; }
  .report table { font-size: 9pt; }
  .report thead { display: table-header-group; }
  .report tr { break-inside: avoid; }
  .report th, .report td { padding: 2pt 4pt; }
  .table-scroll { overflow: visible; }
}`;

/** A report as a page to print: one table per section, a Print button and the CSV download. */
export default function ReportPage() {
  const { raceId, raceName, raceDate, key, title, description, table, q, page, pages, rows } = useLoaderData<typeof loader>();
  const base = `/race/${raceId}/admin/reports`;
  return (
    <article className="report" aria-labelledby="report-heading">
      <style>{PRINT_CSS}</style>
      <p className="report-tools">
        <Link to={base}>← Reports</Link>
      </p>
      <h2 id="report-heading">
        {title}: {raceName}
      </h2>
      <p className="race-meta">
        {raceDate}. {description}
      </p>
      <p className="actions report-tools">
        <button type="button" onClick={() => window.print()}>
          Print
        </button>
        <a href={`${base}/${key}/csv`} className="button secondary" download>
          Download CSV
        </a>
      </p>
      <ReportFinder view={{ q, page, pages, rows }} base={`${base}/${key}`} downloads="The CSV" />
      <ReportSections table={table} empty={q ? `No racer matches “${q}”.` : key === "start-list" ? "No racer has a start group yet." : "No racers yet."} />
      <ReportPageLinks view={{ q, page, pages, rows }} base={`${base}/${key}`} label="Pages, at the end of the list" />
    </article>
  );
}
