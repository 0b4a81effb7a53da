import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { dayIn, reportColumns } from "../../../core/registration/report-columns";
import { describeLayout } from "../../../core/registration/report-checks";
import { reportPage, totalsCells } from "../../../core/registration/report";
import { deleteReport } from "../../../workers/services/registration-reports";
import { ConfirmForm } from "../../components/form-kit";
import { FormMessage } from "../../components/auth-card";
import { RegistrationReportTable } from "../../components/registration-report-table";
import { loadFormOf, pageParam, reportNoticeOf, reportsPath, requireReport, requireReportAccess, runForViewer } from "../../registration-reports.server";
import { ErrorPage, REGISTRATION_ADMIN_ERRORS } from "../../components/error-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.report.name} · ${data.registration.name}` : "Report" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireReportAccess(request, context, params.id, "view_reports");
  const form = await loadFormOf(access);
  const report = await requireReport(access, form, params.reportId);
  const table = await runForViewer(access, form, report.layout);
  const page = reportPage(table, pageParam(request));
  const url = new URL(request.url);
  return {
    registration: { id: access.registration.id, name: access.registration.name, clubName: access.registration.clubName },
    report: {
      id: report.id,
      name: report.name,
      type: report.layout.type,
      isBuiltIn: report.isBuiltIn,
      isShared: report.isShared,
      author: report.isOwn ? "you" : report.authorName,
      created: report.createdAt === null ? null : dayIn(report.createdAt, form.timeZone),
      mayChange: report.mayChange,
    },
    words: describeLayout(report.layout, reportColumns(form, report.layout.type), access.may.sensitive),
    warnings: table.warnings,
    columns: table.columns.map((c) => ({ key: c.key, label: c.label, numeric: c.kind === "number" })),
    rowCount: table.rows.length,
    page: { number: page.page, count: page.pageCount, from: page.from, to: page.to },
    lines: page.lines,
    totals: totalsCells(table),
    mayViewForm: access.mayViewForm,
    confirmDelete: report.mayChange && url.searchParams.get("delete") === "1",
    saved: reportNoticeOf(request),
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const access = await requireReportAccess(request, context, params.id, "edit_reports");
  const posted = await request.formData();
  if (posted.get("intent") !== "delete") return { error: "Unknown action" };
  const result = await deleteReport(access.db, access.registration, access.principal, String(params.reportId ?? ""));
  if (!result.ok) throw new Response(result.errors.form ?? "Not found", { status: result.errors.form === "This report no longer exists." ? 404 : 403 });
  return redirect(`${reportsPath(access.registration.id)}?saved=deleted`);
}

export default function RegistrationReportPage() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const base = `/registration/${data.registration.id}/reports`;
  const here = `${base}/${data.report.id}`;
  const unit = data.report.type === "carts" ? { one: "cart", many: "carts" } : { one: "person", many: "people" };
  const { words } = data;
  const pageLink = (n: number) => (n === 1 ? here : `${here}?page=${n}`);
  return (
    <main className="page registration-report">
      <p className="race-meta report-tools">
        <Link to={base}>← Reports</Link> · {data.registration.name} · {data.registration.clubName}
      </p>
      <h1>{data.report.name}</h1>
      <FormMessage notice={data.saved} error={reply && "error" in reply ? reply.error : null} />
      {data.confirmDelete ? (
        <ConfirmForm
          title={`Delete “${data.report.name}”?`}
          intent="delete"
          label="Delete report"
          pendingLabel="Deleting…"
          pending={navigation.state === "submitting"}
          cancelTo={here}
          danger
        >
          <p>The report's settings are deleted{data.report.isShared ? " for everyone it is shared with" : ""}. The registrations it lists are not changed.</p>
        </ConfirmForm>
      ) : null}
      <p className="race-meta">
        {data.report.isBuiltIn
          ? "Built-in report"
          : `${data.report.isShared ? "Shared" : "Only you see it"}${data.report.author ? `; made by ${data.report.author}` : ""}${data.report.created ? ` on ${data.report.created}` : ""}`}
        . Complete carts only.
      </p>
      {words.filters.length + words.sorts.length + words.groups.length + words.hiddenFilters > 0 ? (
        <ul className="report-words">
          {words.filters.length > 0 || words.hiddenFilters > 0 ? <li>{filtersSentence(words)}</li> : null}
          {words.groups.length > 0 ? <li>{`Grouped by: ${words.groups.join(", then ")}.`}</li> : null}
          {words.sorts.length > 0 ? <li>{`Sorted by: ${words.sorts.join(", then ")}.`}</li> : null}
        </ul>
      ) : null}
      {data.warnings.map((w) => (
        <p key={w} className="hint" role="note">
          {w}
        </p>
      ))}
      <p className="actions report-tools">
        <a href={`${here}.csv`} className="button secondary" download>
          Download CSV
        </a>
        {data.report.mayChange ? (
          <>
            <Link to={`${base}?edit=${data.report.id}#builder-heading`} className="button secondary">
              Edit report
            </Link>
            {data.confirmDelete ? null : (
              <Link to={`${here}?delete=1`} className="button secondary danger-link">
                Delete report…
              </Link>
            )}
          </>
        ) : null}
      </p>
      {data.rowCount === 0 ? (
        <p className="empty-state">
          {words.filters.length + words.hiddenFilters > 0 ? `No ${unit.many} match this report's filters.` : `No completed registrations yet.`}
        </p>
      ) : data.columns.length === 0 ? (
        <p className="empty-state">This report has no columns you may see.</p>
      ) : (
        <>
          <RegistrationReportTable
            id="report-table"
            caption={`${data.report.name}: ${data.rowCount} ${data.rowCount === 1 ? unit.one : unit.many}${data.page.count > 1 ? `, page ${data.page.number} of ${data.page.count}` : ""}`}
            columns={data.columns}
            lines={data.lines}
            totals={data.totals}
            unit={unit}
          />
          {data.page.count > 1 ? (
            <nav aria-label="Report pages" className="report-pages">
              {data.page.number > 1 ? (
                <Link to={pageLink(data.page.number - 1)} rel="prev">
                  ← Previous
                </Link>
              ) : null}
              <span aria-current="page">{`Rows ${data.page.from + 1}–${data.page.to} of ${data.rowCount} (page ${data.page.number} of ${data.page.count})`}</span>
              {data.page.number < data.page.count ? (
                <Link to={pageLink(data.page.number + 1)} rel="next">
                  Next →
                </Link>
              ) : null}
            </nav>
          ) : null}
        </>
      )}
    </main>
  );
}

function filtersSentence(words: { filters: string[]; hiddenFilters: number }): string {
  const hidden =
    words.hiddenFilters === 0 ? [] : [`${words.hiddenFilters} on ${words.hiddenFilters === 1 ? "a private column" : "private columns"} you may not see`];
  return `Filters: ${[...words.filters, ...hidden].join("; ")}.`;
}

export function ErrorBoundary() {
  return (
    <ErrorPage
      page
      {...REGISTRATION_ADMIN_ERRORS}
      forbidden="Deleting a report needs the Edit and View Report role for this form, or Registration Form Admin, All Registrations or Organization Admin; a report that is not shared can be changed only by the person who made it."
      back={{ to: "/", label: "Home" }}
    />
  );
}
