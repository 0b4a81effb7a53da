/**
 * The administration's generated views: an area's list (search, filters, sort by a column, pages, CSV), an
 * object's form from its fields, and its history. Plain links and forms, so every part works without
 * JavaScript; the loaders send plain data built by app/admin/entity-admin.server.ts.
 */
import { Form, Link } from "@remix-run/react";
import { CheckboxField, Field, SavedNotice, SelectField, SetupForm, TextAreaField, TextField, type FieldErrors } from "../components/form-kit";
import type { AdminField } from "./entity-form.server";

export interface AreaListData {
  area: { key: string; label: string };
  classname: string;
  classes: { classname: string; description: string }[];
  readOnly: boolean;
  columns: { api: string; label: string; type: string }[];
  rows: Record<string, unknown>[];
  labels: Record<string, string>;
  referenceColumns: string[];
  total: number;
  page: number;
  pageSize: number;
  params: { q: string; filters: string; sort: string };
  problem: string | null;
  notice: string | null;
}

/** An address of this list with some parameters changed (and the page reset unless given). */
function listHref(data: AreaListData, change: Record<string, string | number>): string {
  const params = new URLSearchParams();
  const merged: Record<string, string | number> = { class: data.classname, q: data.params.q, filters: data.params.filters, sort: data.params.sort, ...change };
  for (const [key, value] of Object.entries(merged)) if (value !== "" && !(key === "page" && value === 1)) params.set(key, String(value));
  const text = params.toString();
  return `/_admin/${data.area.key}${text ? `?${text}` : ""}`;
}

export function detailHref(area: string, classname: string, id: string): string {
  return `/_admin/${area}/${id}?class=${encodeURIComponent(classname)}`;
}

export function cellText(type: string, value: unknown): string {
  if (value === null || value === undefined) return "";
  if (type === "time" && typeof value === "number") return new Date(value).toISOString().slice(0, 16).replace("T", " ") + " UTC";
  if (type === "bool") return value ? "Yes" : "No";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function AreaList({ data }: { data: AreaListData }) {
  const first = data.total === 0 ? 0 : (data.page - 1) * data.pageSize + 1;
  const last = Math.min(data.total, data.page * data.pageSize);
  const exportParams = new URLSearchParams({ class: data.classname, q: data.params.q, filters: data.params.filters, sort: data.params.sort });
  return (
    <section aria-labelledby="area-list-heading">
      {data.classes.length > 1 ? (
        <nav aria-label="Kinds of object" className="admin-tabs">
          {data.classes.map((c) => (
            <Link
              key={c.classname}
              to={`/_admin/${data.area.key}?class=${c.classname}`}
              aria-current={c.classname === data.classname ? "page" : undefined}
              title={c.description}
            >
              {c.classname}
            </Link>
          ))}
        </nav>
      ) : null}
      <h2 id="area-list-heading">{data.classname} list</h2>
      <Form method="get" className="admin-search" role="search">
        <input type="hidden" name="class" value={data.classname} />
        {data.params.sort ? <input type="hidden" name="sort" value={data.params.sort} /> : null}
        <label htmlFor="q">Search</label>
        <input id="q" name="q" type="search" defaultValue={data.params.q} maxLength={200} />
        <details open={data.params.filters !== "" || undefined}>
          <summary>Filters</summary>
          <label htmlFor="filters">Conditions, as the data API takes them (for example: is_active=true,name^Nor)</label>
          <input
            id="filters"
            name="filters"
            defaultValue={data.params.filters}
            maxLength={2000}
            aria-invalid={data.problem ? true : undefined}
            aria-describedby={data.problem ? "filters-error" : undefined}
          />
        </details>
        <button type="submit" className="small">
          Search
        </button>
      </Form>
      {data.problem ? (
        <p id="filters-error" className="form-error" role="alert">
          {data.problem}
        </p>
      ) : null}
      {data.notice ? <SavedNotice message={data.notice} /> : null}
      <p className="actions">
        <span aria-live="polite">{data.total === 0 ? `No ${data.classname} found` : `${first}–${last} of ${data.total.toLocaleString("en-CA")}`}</span>
        <a href={`/_admin/${data.area.key}/export?${exportParams.toString()}`} download>
          Export CSV
        </a>
        {data.readOnly ? null : (
          <Link to={`/_admin/${data.area.key}/new?class=${data.classname}`} className="button small">
            New {data.classname}
          </Link>
        )}
      </p>
      <div className="table-scroll">
        <table className="data-table">
          <thead>
            <tr>
              {data.columns.map((column) => {
                const sorted = data.params.sort === column.api ? "ascending" : data.params.sort === `-${column.api}` ? "descending" : undefined;
                const next = sorted === "ascending" ? `-${column.api}` : column.api;
                return (
                  <th key={column.api} scope="col" aria-sort={sorted}>
                    <Link to={listHref(data, { sort: next, page: 1 })}>
                      {column.label}
                      {sorted === "ascending" ? " ▲" : sorted === "descending" ? " ▼" : ""}
                    </Link>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {data.rows.map((row) => (
              <tr key={String(row.uuid)}>
                {data.columns.map((column, i) => {
                  const raw = row[column.api];
                  const text = data.referenceColumns.includes(column.api) && typeof raw === "string" ? (data.labels[raw] ?? raw) : cellText(column.type, raw);
                  return (
                    <td key={column.api}>
                      {i === 0 ? <Link to={detailHref(data.area.key, data.classname, String(row.uuid))}>{text || String(row.uuid)}</Link> : text}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav aria-label="Pages" className="actions">
        {data.page > 1 ? <Link to={listHref(data, { page: data.page - 1 })}>← Previous</Link> : null}
        {last < data.total ? <Link to={listHref(data, { page: data.page + 1 })}>Next →</Link> : null}
      </nav>
    </section>
  );
}

function shownValue(field: AdminField, labels: Record<string, string>): string {
  if (field.reference && field.value) return labels[field.value] ?? field.value;
  if (field.input === "checkbox") return field.value ? "Yes" : "No";
  if (field.input === "datetime" && field.value) return `${field.value.replace("T", " ")} UTC`;
  return field.value || "—";
}

/** One generated field: its control by kind, with its error; a field the administrator may not set is shown, not offered. */
function AdminFieldControl({ field, error, typed, labels }: { field: AdminField; error?: string; typed?: string; labels: Record<string, string> }) {
  const value = typed ?? field.value;
  const hint = field.reference && field.value ? `${labels[field.value] ?? field.reference} (${field.api})` : field.api;
  if (!field.editable) {
    return (
      <div className="field">
        <span className="label">{field.label}</span>
        <span className="hint">{field.api}</span>
        <output>{shownValue(field, labels)}</output>
      </div>
    );
  }
  if (field.choices) {
    const choices = [{ value: "", label: field.required ? "Choose…" : "(none)" }, ...field.choices];
    return <SelectField name={field.api} label={field.label} hint={field.api} error={error} defaultValue={value} choices={choices} />;
  }
  switch (field.input) {
    case "checkbox":
      return <CheckboxField name={field.api} label={field.label} hint={field.api} defaultChecked={value === "on"} />;
    case "select":
      return (
        <SelectField
          name={field.api}
          label={field.label}
          hint={hint}
          error={error}
          defaultValue={value}
          choices={field.options.map((o) => ({ value: o, label: o === "" ? "(none)" : o }))}
        />
      );
    case "textarea":
    case "json":
      return (
        <TextAreaField
          name={field.api}
          label={field.label}
          hint={field.input === "json" ? `${field.api} · JSON` : hint}
          error={error}
          defaultValue={value}
          rows={field.input === "json" ? 6 : 4}
        />
      );
    case "datetime":
      return <TextField name={field.api} label={`${field.label} (UTC)`} hint={hint} error={error} defaultValue={value} type="datetime-local" />;
    case "number":
      return (
        <Field id={field.api} label={field.label} hint={hint} error={error}>
          {(describedBy) => (
            <input
              id={field.api}
              name={field.api}
              type="text"
              inputMode="decimal"
              defaultValue={value}
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy}
            />
          )}
        </Field>
      );
    default:
      return <TextField name={field.api} label={field.label} hint={hint} error={error} defaultValue={value} required={field.required} />;
  }
}

export function EntityForm(props: {
  intent: "create" | "save";
  fields: AdminField[];
  errors: FieldErrors;
  typed: Record<string, string> | null;
  labels: Record<string, string>;
  hidden: Record<string, string>;
  label: string;
  busyLabel: string;
}) {
  return (
    <SetupForm intent={props.intent} label={props.label} busyLabel={props.busyLabel} errors={props.errors}>
      {Object.entries(props.hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {props.fields.map((field) => (
        <AdminFieldControl key={field.api} field={field} error={props.errors[field.api]} typed={props.typed?.[field.api]} labels={props.labels} />
      ))}
    </SetupForm>
  );
}

export interface HistoryRow {
  id: string;
  at: number;
  who: string;
  /** What happened, in words: "created", or "Changed Course “10 km”" on a race's setup history. */
  kind: string;
  field: string;
  before: string;
  after: string;
}

const NO_HISTORY = "No changes recorded yet. Changes made through the administration and the data API appear here.";

export function HistoryTable({ rows, empty = NO_HISTORY }: { rows: HistoryRow[]; empty?: string }) {
  if (rows.length === 0) return <p>{empty}</p>;
  return (
    <div className="table-scroll">
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">When (UTC)</th>
            <th scope="col">Who</th>
            <th scope="col">Change</th>
            <th scope="col">Field</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td>{new Date(row.at).toISOString().slice(0, 19).replace("T", " ")}</td>
              <td>{row.who}</td>
              <td>{row.kind}</td>
              <td>{row.field === "*" ? "(all)" : row.field}</td>
              <td>
                <code>{row.before}</code>
              </td>
              <td>
                <code>{row.after}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
