import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as z from "zod";
import { dayIn, reportColumns } from "../../../core/registration/report-columns";
import { OPERATOR_LABELS, OPERATORS_BY_KIND, REPORT_LIMITS, type ReportType } from "../../../core/registration/report-definition";
import { createReport, getReport, listReports, mayChangeReport, updateReport } from "../../../workers/services/registration-reports";
import { FormMessage } from "../../components/auth-card";
import {
  BUILT_IN_REPORTS,
  builderErrorsOf,
  builderValuesOf,
  definitionOfBuilder,
  loadFormOf,
  readBuilderForm,
  refuseBuilder,
  reportNoticeOf,
  reportsPath,
  requireReportAccess,
  slotsOf,
  type BuilderReply,
  type BuilderValues,
} from "../../registration-reports.server";
import { ErrorPage, REGISTRATION_ADMIN_ERRORS } from "../../components/error-page";
import { TableHead } from "../../components/setup-table";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Reports · ${data.registration.name}` : "Reports" }];

/** The operator list's groups: number and date columns share their operators. */
const OPERATOR_GROUPS = [
  { label: "For text columns", kind: "text" },
  { label: "For number and date columns", kind: "number" },
  { label: "For choice columns", kind: "option" },
  { label: "For checkbox columns", kind: "boolean" },
] as const;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const access = await requireReportAccess(request, context, params.id, "view_reports");
  const { registration, may, principal } = access;
  const url = new URL(request.url);
  const form = await loadFormOf(access);
  const saved = await listReports(access.db, registration, principal.userId);
  // ?edit= opens a saved report in the builder; ?type= picks the columns of a new one (or switches an edited one).
  const editId = z.uuid().safeParse(url.searchParams.get("edit"));
  const editing = may.edit && editId.success ? await getReport(access.db, registration, principal.userId, editId.data) : null;
  if (editing && !mayChangeReport(may, principal, editing)) throw new Response("Forbidden", { status: 403 });
  const typeParam = url.searchParams.get("type");
  const type: ReportType = typeParam === "carts" || typeParam === "individuals" ? typeParam : (editing?.layout.type ?? "individuals");
  const columns = reportColumns(form, type).filter((c) => may.sensitive || !c.isSensitive);
  return {
    registration: { id: registration.id, name: registration.name, clubName: registration.clubName },
    may,
    mayViewForm: access.mayViewForm,
    saved: reportNoticeOf(request),
    reports: saved.map((r) => ({
      id: r.id,
      name: r.name,
      type: r.layout.type,
      isShared: r.isShared,
      author: r.createdBy === principal.userId ? "You" : (r.authorName ?? "Someone"),
      created: dayIn(r.createdAt, form.timeZone),
      mayChange: mayChangeReport(may, principal, r),
    })),
    builtIns: Object.entries(BUILT_IN_REPORTS).map(([id, r]) => ({ id, ...r })),
    builder: may.edit
      ? {
          type,
          editing: editing ? { id: editing.id, name: editing.name, isOwn: editing.createdBy === principal.userId } : null,
          columns: columns.map((c) => ({ key: c.key, label: c.label, isSensitive: c.isSensitive })),
          values: builderValuesOf(type, editing),
        }
      : null,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const access = await requireReportAccess(request, context, params.id, "edit_reports");
  const posted = await request.formData();
  const intent = String(posted.get("intent") ?? "");
  const target = z.uuid().safeParse(posted.get("target"));
  const values = readBuilderForm(posted);
  if (intent !== "save") return refuseBuilder(intent, null, { form: "Unknown action" }, values);
  const targetId = target.success ? target.data : null;
  const parsed = definitionOfBuilder(values);
  if (!parsed.ok) return refuseBuilder(intent, targetId, parsed.errors, values);
  const form = await loadFormOf(access);
  const now = context.now;
  const base = reportsPath(access.registration.id);
  if (targetId) {
    const result = await updateReport(access.db, access.registration, form, access.principal, targetId, parsed.value, now);
    if (!result.ok) return refuseBuilder(intent, targetId, builderErrorsOf(result.errors, slotsOf(values)), values, result.errors.form ? 409 : 400);
    return redirect(`${base}/${targetId}?saved=saved`);
  }
  const result = await createReport(access.db, access.registration, form, access.principal, parsed.value, now);
  if (!result.ok) return refuseBuilder(intent, null, builderErrorsOf(result.errors, slotsOf(values)), values, result.errors.form ? 403 : 400);
  return redirect(`${base}/${result.value.id}?saved=created`);
}

export default function RegistrationReports() {
  const data = useLoaderData<typeof loader>();
  const base = `/registration/${data.registration.id}/reports`;
  return (
    <main className="page registration-reports">
      <p className="race-meta">
        {data.mayViewForm ? (
          <Link to={`/registration/${data.registration.id}/admin`}>← Form builder</Link>
        ) : (
          <Link to={`/registration/${data.registration.id}/overview`}>← Overview</Link>
        )}{" "}
        · {data.registration.clubName}
      </p>
      <h1>Reports: {data.registration.name}</h1>
      <FormMessage notice={data.saved} />
      <section aria-labelledby="saved-reports-heading">
        <h2 id="saved-reports-heading">Saved reports</h2>
        {data.reports.length === 0 ? (
          <p className="empty-state">
            No saved reports yet.{data.may.edit ? " Make one below, or start from a built-in report." : " Start from a built-in report."}
          </p>
        ) : (
          <div className="table-scroll">
            <table className="data-table">
              <TableHead headers={["Name", "Of", "Shared", "Made by", "Created"]} actions />
              <tbody>
                {data.reports.map((r) => (
                  <tr key={r.id}>
                    <th scope="row">
                      <Link to={`${base}/${r.id}`}>{r.name}</Link>
                    </th>
                    <td>{r.type === "carts" ? "Carts" : "Individuals"}</td>
                    <td>{r.isShared ? "Shared" : "Only you"}</td>
                    <td>{r.author}</td>
                    <td>{r.created}</td>
                    <td className="row-actions">
                      <a href={`${base}/${r.id}.csv`} aria-label={`Download ${r.name} as CSV`}>
                        CSV
                      </a>
                      {r.mayChange ? (
                        <>
                          {" · "}
                          <Link to={`?edit=${r.id}#builder-heading`} aria-label={`Edit ${r.name}`}>
                            Edit
                          </Link>
                          {" · "}
                          <Link to={`${base}/${r.id}?delete=1`} aria-label={`Delete ${r.name}`} className="danger-link">
                            Delete…
                          </Link>
                        </>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-labelledby="built-in-heading">
        <h2 id="built-in-heading">Built-in reports</h2>
        <ul className="report-list">
          {data.builtIns.map((r) => (
            <li key={r.id}>
              <Link to={`${base}/${r.id}`}>{r.name}</Link> · <a href={`${base}/${r.id}.csv`}>Download CSV</a>
              <br />
              <span className="hint">{r.description}</span>
            </li>
          ))}
        </ul>
      </section>
      {data.builder ? (
        <ReportBuilder base={base} builder={data.builder} />
      ) : (
        <p className="hint">
          Making and changing reports needs the Edit and View Report role for this form, or Registration Form Admin, All Registrations or Organization Admin.
        </p>
      )}
    </main>
  );
}

type Builder = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["builder"]>;

function ReportBuilder({ base, builder }: { base: string; builder: Builder }) {
  const reply = useActionData<BuilderReply>();
  const navigation = useNavigation();
  const editingId = builder.editing?.id ?? null;
  const mine = reply && reply.intent === "save" && (reply.target ?? null) === editingId ? reply : null;
  const errors = mine?.errors ?? {};
  // A refused form shows what was sent; otherwise the saved report's values (or a new report's).
  const values: BuilderValues = mine?.values && mine.values.type === builder.type ? mine.values : builder.values;
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const fieldErrors = Object.keys(errors).filter((k) => k !== "form").length;
  const columnChoices = builder.columns.map((c) => ({ value: c.key, label: c.label }));
  // A refused post renders this page again from the action's address, so it carries the type and the report edited.
  const action = `${base}?index&type=${builder.type}${editingId ? `&edit=${editingId}` : ""}`;
  return (
    <section aria-labelledby="builder-heading" className="report-builder">
      <h2 id="builder-heading">{builder.editing ? `Edit “${builder.editing.name}”` : "New report"}</h2>
      <Form method="get" className="inline-form report-type">
        {editingId ? <input type="hidden" name="edit" value={editingId} /> : null}
        <fieldset className="choice-group">
          <legend>Report of</legend>
          <label className="choice">
            <input type="radio" name="type" value="individuals" defaultChecked={builder.type === "individuals"} /> Individuals: one row per person
          </label>
          <label className="choice">
            <input type="radio" name="type" value="carts" defaultChecked={builder.type === "carts"} /> Carts: one row per completed cart
          </label>
          <button type="submit" className="small secondary">
            Show its columns
          </button>
        </fieldset>
      </Form>
      <Form method="post" action={action} className="setup-form report-form" key={`${builder.type}-${editingId ?? "new"}`}>
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="type" value={builder.type} />
        {editingId ? <input type="hidden" name="target" value={editingId} /> : null}
        <FormMessage error={errors.form} />
        {fieldErrors > 0 ? <FormMessage error="Please correct the fields marked below." /> : null}
        <div className="field">
          <label htmlFor="report-name">Name</label>
          <input
            id="report-name"
            name="name"
            required
            maxLength={100}
            defaultValue={values.name}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? "report-name-error" : undefined}
          />
          {errors.name ? (
            <span id="report-name-error" className="form-error">
              {errors.name}
            </span>
          ) : null}
        </div>
        {!builder.editing || builder.editing.isOwn ? (
          <div className="field check-field">
            <label htmlFor="report-shared">
              <input id="report-shared" type="checkbox" name="is_shared" value="on" defaultChecked={values.is_shared} aria-describedby="report-shared-hint" />{" "}
              Share with everyone who may see this form's reports
            </label>
            <span id="report-shared-hint" className="hint">
              A report that is not shared is seen only by you.
            </span>
          </div>
        ) : null}
        <fieldset className="setup-group" aria-describedby={errors.fields_list ? "fields-error" : "fields-hint"}>
          <legend>Columns</legend>
          <span id="fields-hint" className="hint">
            Tick the columns to show, in form order.
            {builder.columns.some((c) => c.isSensitive) ? " Private columns are marked; only people who may see the form's carts see them." : ""}
          </span>
          <div className="report-columns">
            {builder.columns.map((c) => (
              <label key={c.key} className="choice">
                <input type="checkbox" name="fields" value={c.key} defaultChecked={values.fields.includes(c.key)} /> {c.label}
                {c.isSensitive ? <span className="hint"> (private)</span> : null}
              </label>
            ))}
          </div>
          {errors.fields_list ? (
            <span id="fields-error" className="form-error">
              {errors.fields_list}
            </span>
          ) : null}
        </fieldset>
        <fieldset className="setup-group">
          <legend>Filters</legend>
          <span className="hint">Only rows that pass every filter are shown. Leave the column empty to not use a row. For a choice, type it as shown.</span>
          {values.filters.map((filter, i) => (
            <div key={i} className="report-row" role="group" aria-label={`Filter ${i + 1}`}>
              <SelectCell
                id={`filter.${i}.key`}
                label={`Filter ${i + 1}: column`}
                choices={columnChoices}
                defaultValue={filter.key}
                error={errors[`filter.${i}.key`]}
                blank="—"
              />
              <div className="cell-field">
                <label htmlFor={`filter.${i}.op`} className="visually-hidden">{`Filter ${i + 1}: operator`}</label>
                <select
                  id={`filter.${i}.op`}
                  name={`filter.${i}.op`}
                  defaultValue={filter.op}
                  aria-invalid={errors[`filter.${i}.op`] ? true : undefined}
                  aria-describedby={errors[`filter.${i}.op`] ? `filter.${i}.op-error` : undefined}
                >
                  {OPERATOR_GROUPS.map((group) => (
                    <optgroup key={group.kind} label={group.label}>
                      {OPERATORS_BY_KIND[group.kind].map((op) => (
                        <option key={op} value={op}>
                          {OPERATOR_LABELS[op]}
                        </option>
                      ))}
                    </optgroup>
                  ))}
                </select>
                {errors[`filter.${i}.op`] ? (
                  <span id={`filter.${i}.op-error`} className="form-error">
                    {errors[`filter.${i}.op`]}
                  </span>
                ) : null}
              </div>
              <div className="cell-field">
                <label htmlFor={`filter.${i}.value`} className="visually-hidden">{`Filter ${i + 1}: value`}</label>
                <input
                  id={`filter.${i}.value`}
                  name={`filter.${i}.value`}
                  defaultValue={filter.value}
                  maxLength={200}
                  placeholder="Value"
                  aria-invalid={errors[`filter.${i}.value`] ? true : undefined}
                  aria-describedby={errors[`filter.${i}.value`] ? `filter.${i}.value-error` : undefined}
                />
                {errors[`filter.${i}.value`] ? (
                  <span id={`filter.${i}.value-error`} className="form-error">
                    {errors[`filter.${i}.value`]}
                  </span>
                ) : null}
              </div>
            </div>
          ))}
        </fieldset>
        <fieldset className="setup-group">
          <legend>Sort by</legend>
          {values.sorts.map((sort, i) => (
            <div key={i} className="report-row" role="group" aria-label={`Sort ${i + 1}`}>
              <SelectCell
                id={`sort.${i}.key`}
                label={`Sort ${i + 1}: column`}
                choices={columnChoices}
                defaultValue={sort.key}
                error={errors[`sort.${i}.key`]}
                blank="—"
              />
              <SelectCell
                id={`sort.${i}.dir`}
                label={`Sort ${i + 1}: direction`}
                choices={[
                  { value: "asc", label: "Ascending" },
                  { value: "desc", label: "Descending" },
                ]}
                defaultValue={sort.dir}
              />
            </div>
          ))}
        </fieldset>
        <fieldset className="setup-group">
          <legend>Group by</legend>
          <span className="hint">Up to {REPORT_LIMITS.groups} columns; each group shows its count and money subtotals.</span>
          {values.groups.map((group, i) => (
            <div key={i} className="report-row">
              <SelectCell
                id={`group.${i}`}
                label={i === 0 ? "Group by" : "Then by"}
                visibleLabel
                choices={columnChoices}
                defaultValue={group}
                error={errors[`group.${i}`]}
                blank="—"
              />
            </div>
          ))}
        </fieldset>
        <p className="actions">
          <button type="submit" disabled={busy}>
            {busy ? "Saving…" : builder.editing ? "Save changes" : "Save report"}
          </button>
          {builder.editing ? (
            <Link to={base} className="button secondary">
              Cancel
            </Link>
          ) : null}
        </p>
      </Form>
    </section>
  );
}

function SelectCell(props: {
  id: string;
  label: string;
  visibleLabel?: boolean;
  choices: readonly { value: string; label: string }[];
  defaultValue: string;
  error?: string;
  blank?: string;
}) {
  return (
    <div className="cell-field">
      <label htmlFor={props.id} className={props.visibleLabel ? undefined : "visually-hidden"}>
        {props.label}
      </label>
      <select
        id={props.id}
        name={props.id}
        defaultValue={props.defaultValue}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${props.id}-error` : undefined}
      >
        {props.blank !== undefined ? <option value="">{props.blank}</option> : null}
        {props.choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      {props.error ? (
        <span id={`${props.id}-error`} className="form-error">
          {props.error}
        </span>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <ErrorPage
      page
      {...REGISTRATION_ADMIN_ERRORS}
      forbidden="Making and changing reports needs the Edit and View Report role for this form, or Registration Form Admin, All Registrations or Organization Admin."
      back={{ to: "/", label: "Home" }}
    />
  );
}
