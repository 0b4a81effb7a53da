/**
 * A registration report as saved (RegistrationReport, timing.md section 3 and platform.md section 5): its
 * type, columns, sorts, groups and filters with their limits, and who may see and change a form's reports.
 */
import * as z from "zod";
import { can, type Principal } from "../access/policy";
import { OPERATOR_LABELS, REPORT_LIMITS, REPORT_TYPES, type FilterOperator } from "./report-options";

// ---------------------------------------------------------------------------------------------------------
// Definitions (report-options.ts, without zod for the browser's sake)

export {
  COLUMN_KINDS,
  OPERATOR_LABELS,
  OPERATORS_BY_KIND,
  operatorNeedsValue,
  REPORT_LIMITS,
  REPORT_TYPES,
  type ColumnKind,
  type FilterOperator,
  type ReportType,
} from "./report-options";

const OPERATOR_IDS = Object.keys(OPERATOR_LABELS) as [FilterOperator, ...FilterOperator[]];

const columnKey = z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, "Unknown column");
const unique = (keys: string[]) => [...new Set(keys)];

export const reportSortSchema = z.object({ key: columnKey, dir: z.enum(["asc", "desc"]) });
export const reportFilterSchema = z.object({
  key: columnKey,
  op: z.enum(OPERATOR_IDS, "Choose an operator"),
  value: z.string().trim().max(REPORT_LIMITS.filterValue, `At most ${REPORT_LIMITS.filterValue} characters`).default(""),
});

/** RegistrationReport (section 3) as saved: fields_list holds column keys (reportColumns). */
export const reportDefinitionSchema = z.object({
  name: z.string().trim().min(1, "Give the report a name").max(REPORT_LIMITS.name, `At most ${REPORT_LIMITS.name} characters`),
  type: z.enum(REPORT_TYPES, "Choose individuals or carts"),
  is_shared: z.boolean(),
  fields_list: z.array(columnKey).min(1, "Choose at least one column").max(REPORT_LIMITS.fields, `At most ${REPORT_LIMITS.fields} columns`).transform(unique),
  sorts_list: z.array(reportSortSchema).max(REPORT_LIMITS.sorts, `Sort by at most ${REPORT_LIMITS.sorts} columns`),
  groups_list: z.array(columnKey).max(REPORT_LIMITS.groups, `Group by at most ${REPORT_LIMITS.groups} columns`).transform(unique),
  filters_list: z.array(reportFilterSchema).max(REPORT_LIMITS.filters, `At most ${REPORT_LIMITS.filters} filters`),
});

export type ReportDefinition = z.output<typeof reportDefinitionSchema>;
export type ReportSort = z.output<typeof reportSortSchema>;
export type ReportFilter = z.output<typeof reportFilterSchema>;
/** What the engine needs of a definition: the layout, not the name or sharing. */
export type ReportLayout = Pick<ReportDefinition, "type" | "fields_list" | "sorts_list" | "groups_list" | "filters_list">;

// ---------------------------------------------------------------------------------------------------------
// Who may see and change a form's reports

/** What a principal may do with a form's reports. */
export interface ReportPermissions {
  /** See the form's reports (its own and shared ones). */
  view: boolean;
  /** Make reports, and change or delete shared ones and their own. */
  edit: boolean;
  /** See sensitive columns (section 9). */
  sensitive: boolean;
}

/**
 * Who may do what with a form's reports, from the policy's roles (section 6):
 * - view: view_reports on the form (View Report, Edit and View Report, All Registrations, Organization
 *   Admin, super and site admins with the registrations flag), or anyone who may see the carts or
 *   administer the form, since a report only shows them what they can already see.
 * - edit: edit_reports on the form (Edit and View Report, All Registrations, Organization Admin), or edit
 *   on its reports (Registration Form Admin).
 * - sensitive: those who may view the form's carts (Registration Form Admin, finance and read-only,
 *   Organization Admin), take payments on them (Financial Admin), or administer the form (All
 *   Registrations); never the two report roles, whose holders see the form only through reports.
 */
export function reportPermissions(principal: Principal | null, registration: { id: string; clubId: string; siteId: string | null }): ReportPermissions {
  if (!principal) return { view: false, edit: false, sensitive: false };
  const owners = { registrationId: registration.id, clubId: registration.clubId, siteId: registration.siteId };
  const form = { area: "registrations" as const, id: registration.id, ...owners };
  const cartsOf = { area: "carts" as const, ...owners };
  const reports = { area: "reports" as const, ...owners };
  const sensitive = can(principal, "view", cartsOf) || can(principal, "finance", cartsOf) || can(principal, "administer", form);
  const edit = can(principal, "edit_reports", form) || can(principal, "edit", reports);
  const view = edit || sensitive || can(principal, "view_reports", form) || can(principal, "view", reports);
  return { view, edit, sensitive };
}
