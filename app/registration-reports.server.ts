/**
 * Server code of the registration report pages (/registration/:id/reports/*): the guard, finding a report
 * (saved or built in), running it, the builder form as a definition, and the CSV download.
 *
 * These pages are not under the builder layout, which needs "view" on the form: View Report and Edit and
 * View Report users see a form only through its reports.
 *
 * Sensitive columns (section 9) are shown only to principals who may see the form's carts, take payments
 * on them or administer the form (reportPermissions). A saved report naming sensitive columns shows them
 * only to such users; for others they are dropped from the page, the CSV and the builder, its sorts and
 * groups on them are dropped too, and its filters on them still apply (unnamed), so the report never shows
 * rows its author excluded. Saving it again keeps those hidden parts.
 */
import { data, type AppLoadContext } from "@remix-run/cloudflare";
import * as z from "zod";
import type { Principal } from "../core/access/policy";
import { fieldErrorsOf } from "../core/entity/field-errors";
import { defaultLayout } from "../core/registration/report-checks";
import { reportColumns, type ReportForm } from "../core/registration/report-columns";
import { reportCsv, runReport, type ReportTable } from "../core/registration/report";
import { reportDefinitionSchema, type ReportDefinition, type ReportLayout, type ReportType } from "../core/registration/report-definition";
import { openDb, type Db } from "../schema/d1";
import { principalOf } from "../workers/services/race-access";
import { canOnRegistration, getRegistration, type RegistrationRow } from "../workers/services/registration-forms";
import {
  getReport,
  loadReportCarts,
  loadReportForm,
  mayChangeReport,
  reportPermissions,
  type ReportPermissions,
} from "../workers/services/registration-reports";
import { requireSession } from "./auth.server";

export type ReportRegistration = RegistrationRow & { clubName: string };

export interface ReportAccess {
  db: Db;
  registration: ReportRegistration;
  principal: Principal;
  may: ReportPermissions;
  /** The caller may also open the form builder (for the way back). */
  mayViewForm: boolean;
}

/**
 * The guard of every report page and action: a form of this tenant whose reports the caller may see (404
 * otherwise, as if it did not exist), and edit_reports for changing them (403).
 */
export async function requireReportAccess(
  request: Request,
  context: AppLoadContext,
  rawId: string | undefined,
  need: "view_reports" | "edit_reports",
): Promise<ReportAccess> {
  const session = requireSession(request, context);
  const db = openDb(context.env.DB);
  const id = z.uuid().safeParse(rawId);
  const registration = id.success ? await getRegistration(db, context.tenant, id.data) : null;
  const principal = (await principalOf(db, session))!;
  const may = registration ? reportPermissions(principal, registration) : null;
  if (!registration || !may?.view) throw new Response("Not found", { status: 404 });
  if (need === "edit_reports" && !may.edit) throw new Response("Forbidden", { status: 403 });
  return { db, registration, principal, may, mayViewForm: canOnRegistration(principal, "view", registration) };
}

export function reportsPath(registrationId: string): string {
  return `/registration/${registrationId}/reports`;
}

// ---------------------------------------------------------------------------------------------------------
// Finding and running a report

/** Reports everyone who may see a form's reports has, with no saved report needed. */
export const BUILT_IN_REPORTS: Readonly<Record<string, { name: string; type: ReportType; description: string }>> = {
  "all-individuals": { name: "All individuals", type: "individuals", description: "Every person in a completed cart, with every column." },
  "all-carts": { name: "All carts", type: "carts", description: "Every completed cart: its number, totals, what was paid and who is in it." },
};

export interface ResolvedReport {
  id: string;
  name: string;
  isBuiltIn: boolean;
  isShared: boolean;
  isOwn: boolean;
  authorName: string | null;
  createdAt: number | null;
  layout: ReportLayout;
  /** The caller may edit and delete it. */
  mayChange: boolean;
}

/** The report at this address that the caller sees, or a 404. */
export async function requireReport(access: ReportAccess, form: ReportForm, rawReportId: string | undefined): Promise<ResolvedReport> {
  const builtIn = rawReportId ? BUILT_IN_REPORTS[rawReportId] : undefined;
  if (rawReportId && builtIn) {
    const layout = defaultLayout(builtIn.type, reportColumns(form, builtIn.type), access.may.sensitive);
    return { id: rawReportId, name: builtIn.name, isBuiltIn: true, isShared: true, isOwn: false, authorName: null, createdAt: null, layout, mayChange: false };
  }
  const id = z.uuid().safeParse(rawReportId);
  const saved = id.success ? await getReport(access.db, access.registration, access.principal.userId, id.data) : null;
  if (!saved) throw new Response("Not found", { status: 404 });
  return {
    id: saved.id,
    name: saved.name,
    isBuiltIn: false,
    isShared: saved.isShared,
    isOwn: saved.createdBy === access.principal.userId,
    authorName: saved.authorName,
    createdAt: saved.createdAt,
    layout: saved.layout,
    mayChange: mayChangeReport(access.may, access.principal, saved),
  };
}

export function loadFormOf(access: ReportAccess): Promise<ReportForm> {
  return loadReportForm(access.db, access.registration);
}

/** The whole report over the form's complete carts, as this viewer may see it. */
export async function runForViewer(access: ReportAccess, form: ReportForm, layout: ReportLayout): Promise<ReportTable> {
  return runReport(layout, form, await loadReportCarts(access.db, access.registration), { allowSensitive: access.may.sensitive });
}

/** The CSV as a download named after the form and report, in ASCII letters, digits and dashes only. */
export function csvDownload(table: ReportTable, registrationName: string, reportName: string): Response {
  const slug = `${registrationName}-${reportName}`
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 80)
    .replace(/-$/, "");
  return new Response(reportCsv(table), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${slug || "registration-report"}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

/** ?page= as a page number; anything else is page 1 (the engine clamps it to the last page). */
export function pageParam(request: Request): number {
  const raw = new URL(request.url).searchParams.get("page") ?? "";
  return /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
}

// ---------------------------------------------------------------------------------------------------------
// The builder form

/** Rows of filters, sorts and groups the builder shows; an empty row is not used. */
export const BUILDER_SLOTS = { filters: 5, sorts: 3, groups: 2 } as const;

export interface BuilderValues {
  name: string;
  type: ReportType;
  is_shared: boolean;
  fields: string[];
  filters: { key: string; op: string; value: string }[];
  sorts: { key: string; dir: string }[];
  groups: string[];
}

const pad = <T>(list: readonly T[], size: number, blank: T): T[] => [
  ...list.slice(0, size),
  ...Array.from({ length: Math.max(0, size - list.length) }, () => blank),
];

/** What the builder shows: a saved report's values (when it is of this type), or a new report's: nothing ticked, empty rows. */
export function builderValuesOf(type: ReportType, report: { name: string; isShared: boolean; layout: ReportLayout } | null): BuilderValues {
  const layout = report && report.layout.type === type ? report.layout : null;
  return {
    name: report?.name ?? "",
    type,
    is_shared: report?.isShared ?? false,
    fields: layout?.fields_list ?? [],
    filters: pad(layout?.filters_list ?? [], BUILDER_SLOTS.filters, { key: "", op: "", value: "" }),
    sorts: pad(layout?.sorts_list ?? [], BUILDER_SLOTS.sorts, { key: "", dir: "asc" }),
    groups: pad(layout?.groups_list ?? [], BUILDER_SLOTS.groups, ""),
  };
}

/** The posted builder form as typed, for showing it again. */
export function readBuilderForm(form: FormData): BuilderValues {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const type = text("type") === "carts" ? "carts" : "individuals";
  return {
    name: text("name"),
    type,
    is_shared: text("is_shared") === "on",
    fields: form.getAll("fields").filter((v): v is string => typeof v === "string"),
    filters: Array.from({ length: BUILDER_SLOTS.filters }, (_, i) => ({
      key: text(`filter.${i}.key`),
      op: text(`filter.${i}.op`),
      value: text(`filter.${i}.value`),
    })),
    sorts: Array.from({ length: BUILDER_SLOTS.sorts }, (_, i) => ({ key: text(`sort.${i}.key`), dir: text(`sort.${i}.dir`) || "asc" })),
    groups: Array.from({ length: BUILDER_SLOTS.groups }, (_, i) => text(`group.${i}`)),
  };
}

export type BuilderErrors = Record<string, string>;

/** Which builder rows the used (non-empty) filters, sorts and groups came from. */
export interface BuilderSlots {
  filter: number[];
  sort: number[];
  group: number[];
}

export function slotsOf(values: BuilderValues): BuilderSlots {
  return {
    filter: values.filters.flatMap((f, i) => (f.key ? [i] : [])),
    sort: values.sorts.flatMap((s, i) => (s.key ? [i] : [])),
    group: values.groups.flatMap((g, i) => (g ? [i] : [])),
  };
}

/**
 * The builder's values as a definition (rows left empty are skipped), or errors keyed by the builder's
 * field names: an error about the second filter row is filter.1.*, whichever rows were empty.
 */
export function definitionOfBuilder(values: BuilderValues): { ok: true; value: ReportDefinition } | { ok: false; errors: BuilderErrors } {
  const slots = slotsOf(values);
  const parsed = reportDefinitionSchema.safeParse({
    name: values.name,
    type: values.type,
    is_shared: values.is_shared,
    fields_list: values.fields,
    filters_list: slots.filter.map((i) => values.filters[i]),
    sorts_list: slots.sort.map((i) => values.sorts[i]),
    groups_list: slots.group.map((i) => values.groups[i]),
  });
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, errors: builderErrorsOf(fieldErrorsOf(parsed.error.issues, { fullPath: true }), slots) };
}

const ROWS: Record<string, keyof BuilderSlots> = {
  filters_list: "filter",
  sorts_list: "sort",
  groups_list: "group",
  filter: "filter",
  sort: "sort",
  group: "group",
};

/**
 * Errors about the definition's lists, whether the schema's (filters_list.0.value) or the column check's
 * (filter.0.value), under the builder's row names (filter.3.value); an error about a whole list goes above the form.
 */
export function builderErrorsOf(errors: Record<string, string>, slots: BuilderSlots): BuilderErrors {
  const out: BuilderErrors = {};
  for (const [path, message] of Object.entries(errors)) {
    const [head = "form", index, field] = path.split(".");
    const row = ROWS[head];
    let name = head;
    if (row && index !== undefined && /^\d+$/.test(index)) {
      const slot = slots[row][Number(index)] ?? Number(index);
      name = row === "group" ? `group.${slot}` : `${row}.${slot}.${field ?? "key"}`;
    } else if (row) name = "form";
    out[name] ??= message;
  }
  return out;
}

/** What the save action answers when it does not redirect: the errors and the form as it was sent. */
export interface BuilderReply {
  intent: string;
  target: string | null;
  errors: BuilderErrors;
  values: BuilderValues | null;
}

export function refuseBuilder(intent: string, target: string | null, errors: BuilderErrors, values: BuilderValues | null, status: 400 | 403 | 404 | 409 = 400) {
  return data<BuilderReply>({ intent, target, errors, values }, { status });
}

// ---------------------------------------------------------------------------------------------------------
// Notices carried in the address after a change (?saved=…), shown once

const NOTICES = { created: "Report saved.", saved: "Your changes are saved.", deleted: "Report deleted." } as const;

export function reportNoticeOf(request: Request): string | null {
  const key = new URL(request.url).searchParams.get("saved");
  return key && key in NOTICES ? NOTICES[key as keyof typeof NOTICES] : null;
}
