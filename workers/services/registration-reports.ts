/**
 * Saved registration reports (RegistrationReport, platform.md section 3) and the rows they read: who may
 * see, make and change them, listing, saving and deleting them, and loading a form's complete carts with
 * their people and what each cart has paid. The registration passed in was found for this tenant
 * (getRegistration), so every query here is scoped through it.
 */
import { and, desc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Principal } from "../../core/access/policy";
import { applyFieldChanges, initialMtimes } from "../../core/entity/field-mtimes";
import { checkDefinition, keepHiddenParts } from "../../core/registration/report-checks";
import { reportColumns, type ReportCartData, type ReportForm } from "../../core/registration/report-columns";
import {
  reportFilterSchema,
  reportPermissions,
  reportSortSchema,
  REPORT_LIMITS,
  REPORT_TYPES,
  type ReportDefinition,
  type ReportLayout,
  type ReportPermissions,
  type ReportType,
} from "../../core/registration/report-definition";
import { carts, clubs, individuals, registrationReports, transactions, users, type Db } from "../../schema/d1";
import { listElements, type RegistrationRow, type SaveResult } from "./registration-forms";

type FormRef = Pick<RegistrationRow, "id" | "clubId" | "siteId">;

export { reportPermissions, type ReportPermissions };

// ---------------------------------------------------------------------------------------------------------
// Saved reports

export type ReportRow = typeof registrationReports.$inferSelect;

export interface SavedReport {
  id: string;
  name: string;
  isShared: boolean;
  createdAt: number;
  createdBy: string | null;
  authorName: string | null;
  layout: ReportLayout;
}

const MAX_SAVED = 200;

/** A stored row as a report; list entries that no longer parse are dropped rather than failing the page. */
export function savedReportOf(row: ReportRow, authorName: string | null = null): SavedReport {
  const type: ReportType = (REPORT_TYPES as readonly string[]).includes(row.type) ? (row.type as ReportType) : "individuals";
  const strings = (list: unknown) => (Array.isArray(list) ? list.filter((item): item is string => typeof item === "string") : []);
  const parsedEach = <T>(list: unknown, parse: (item: unknown) => { success: true; data: T } | { success: false }) =>
    (Array.isArray(list) ? list : []).flatMap((item) => {
      const parsed = parse(item);
      return parsed.success ? [parsed.data] : [];
    });
  return {
    id: row.id,
    name: row.name,
    isShared: row.isShared,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    authorName,
    layout: {
      type,
      fields_list: strings(row.fieldsList),
      sorts_list: parsedEach(row.sortsList, (item) => reportSortSchema.safeParse(item)),
      groups_list: strings(row.groupsList).slice(0, REPORT_LIMITS.groups),
      filters_list: parsedEach(row.filtersList, (item) => reportFilterSchema.safeParse(item)),
    },
  };
}

/** Shared reports, and the user's own. */
function visibleTo(userId: string) {
  return or(eq(registrationReports.isShared, true), eq(registrationReports.createdBy, userId));
}

function ofForm(registration: FormRef) {
  return and(eq(registrationReports.registrationId, registration.id), eq(registrationReports.clubId, registration.clubId));
}

/** The form's reports this user sees: shared ones and their own, newest first. */
export async function listReports(db: Db, registration: FormRef, userId: string): Promise<SavedReport[]> {
  const rows = await db
    .select({ report: registrationReports, authorName: users.name })
    .from(registrationReports)
    .leftJoin(users, eq(users.id, registrationReports.createdBy))
    .where(and(ofForm(registration), visibleTo(userId)))
    .orderBy(desc(registrationReports.createdAt))
    .limit(MAX_SAVED);
  return rows.map((r) => savedReportOf(r.report, r.authorName));
}

/** One report of the form, if this user sees it; another's unshared report is as absent as a missing one. */
export async function getReport(db: Db, registration: FormRef, userId: string, reportId: string): Promise<SavedReport | null> {
  const [row] = await db
    .select({ report: registrationReports, authorName: users.name })
    .from(registrationReports)
    .leftJoin(users, eq(users.id, registrationReports.createdBy))
    .where(and(eq(registrationReports.id, reportId), ofForm(registration), visibleTo(userId)))
    .limit(1);
  return row ? savedReportOf(row.report, row.authorName) : null;
}

/** A report someone may change or delete: they may edit reports, and it is shared or theirs. */
export function mayChangeReport(permissions: ReportPermissions, principal: Principal, report: Pick<SavedReport, "isShared" | "createdBy">): boolean {
  return permissions.edit && (report.isShared || report.createdBy === principal.userId);
}

/** The form as the report engine reads it: its elements, name fields and its club's time zone. */
export async function loadReportForm(db: Db, registration: FormRef & Pick<RegistrationRow, "firstNameFieldId" | "lastNameFieldId">): Promise<ReportForm> {
  const [elements, [club]] = await Promise.all([
    listElements(db, registration.id),
    db.select({ timezone: clubs.timezone }).from(clubs).where(eq(clubs.id, registration.clubId)).limit(1),
  ]);
  return { elements, firstNameFieldId: registration.firstNameFieldId, lastNameFieldId: registration.lastNameFieldId, timeZone: club?.timezone || "UTC" };
}

const FORBIDDEN = { form: "You may not change this report." };

/**
 * The definition as it may be saved by this principal: checked against the form's columns (sensitive
 * ones only for those who may see them); an edit by someone who may not keeps the hidden parts.
 */
function prepare(definition: ReportDefinition, form: ReportForm, permissions: ReportPermissions, saved: SavedReport | null): SaveResult<ReportDefinition> {
  const columns = reportColumns(form, definition.type);
  const checked = checkDefinition(definition, columns, permissions.sensitive);
  if (!checked.ok) return { ok: false, errors: checked.errors };
  return { ok: true, value: saved && !permissions.sensitive ? keepHiddenParts(saved.layout, checked.value, columns) : checked.value };
}

function fieldsOf(definition: ReportDefinition) {
  return {
    name: definition.name,
    type: definition.type,
    is_shared: definition.is_shared,
    fields_list: definition.fields_list,
    sorts_list: definition.sorts_list,
    groups_list: definition.groups_list,
    filters_list: definition.filters_list,
  };
}

export async function createReport(
  db: Db,
  registration: FormRef,
  form: ReportForm,
  principal: Principal,
  definition: ReportDefinition,
  now: number,
): Promise<SaveResult<{ id: string }>> {
  const permissions = reportPermissions(principal, registration);
  if (!permissions.edit) return { ok: false, errors: FORBIDDEN };
  const prepared = prepare(definition, form, permissions, null);
  if (!prepared.ok) return prepared;
  const id = crypto.randomUUID();
  const fields = fieldsOf(prepared.value);
  await db.insert(registrationReports).values({
    id,
    createdAt: now,
    fieldMtimes: initialMtimes(fields, now),
    registrationId: registration.id,
    clubId: registration.clubId,
    siteId: registration.siteId,
    name: fields.name,
    type: fields.type,
    isShared: fields.is_shared,
    fieldsList: fields.fields_list,
    sortsList: fields.sorts_list,
    groupsList: fields.groups_list,
    filtersList: fields.filters_list,
    createdBy: principal.userId,
  });
  return { ok: true, value: { id } };
}

export async function updateReport(
  db: Db,
  registration: FormRef,
  form: ReportForm,
  principal: Principal,
  reportId: string,
  definition: ReportDefinition,
  now: number,
): Promise<SaveResult<null>> {
  const permissions = reportPermissions(principal, registration);
  const saved = await getReport(db, registration, principal.userId, reportId);
  if (!saved) return { ok: false, errors: { form: "This report no longer exists." } };
  if (!mayChangeReport(permissions, principal, saved)) return { ok: false, errors: FORBIDDEN };
  const prepared = prepare(definition, form, permissions, saved);
  if (!prepared.ok) return prepared;
  // Only the author may share or unshare: otherwise an editor could hide someone's shared report from everyone.
  const next = saved.createdBy === principal.userId ? prepared.value : { ...prepared.value, is_shared: saved.isShared };
  const [row] = await db.select().from(registrationReports).where(eq(registrationReports.id, reportId)).limit(1);
  if (!row) return { ok: false, errors: { form: "This report no longer exists." } };
  const current = {
    name: row.name,
    type: row.type,
    is_shared: row.isShared,
    fields_list: row.fieldsList,
    sorts_list: row.sortsList,
    groups_list: row.groupsList,
    filters_list: row.filtersList,
  };
  const { changed, mtimes } = applyFieldChanges<Record<string, unknown>>(current, row.fieldMtimes, fieldsOf(next), now);
  if (Object.keys(changed).length === 0) return { ok: true, value: null };
  await db
    .update(registrationReports)
    .set({
      name: next.name,
      type: next.type,
      isShared: next.is_shared,
      fieldsList: next.fields_list,
      sortsList: next.sorts_list,
      groupsList: next.groups_list,
      filtersList: next.filters_list,
      fieldMtimes: mtimes,
    })
    .where(and(eq(registrationReports.id, reportId), ofForm(registration)));
  return { ok: true, value: null };
}

export async function deleteReport(db: Db, registration: FormRef, principal: Principal, reportId: string): Promise<SaveResult<null>> {
  const permissions = reportPermissions(principal, registration);
  const saved = await getReport(db, registration, principal.userId, reportId);
  if (!saved) return { ok: false, errors: { form: "This report no longer exists." } };
  if (!mayChangeReport(permissions, principal, saved)) return { ok: false, errors: FORBIDDEN };
  await db.delete(registrationReports).where(and(eq(registrationReports.id, reportId), ofForm(registration)));
  return { ok: true, value: null };
}

// ---------------------------------------------------------------------------------------------------------
// The rows

/**
 * The form's complete, non-removed carts with their non-removed people and net paid, in one round trip of
 * three statements (none binds more than a few parameters, whatever the number of carts). Net paid is
 * completed, not void payments less completed, not void refunds, summed per cart in SQL.
 */
export async function loadReportCarts(db: Db, registration: FormRef): Promise<ReportCartData[]> {
  const included = and(
    eq(carts.registrationId, registration.id),
    eq(carts.clubId, registration.clubId),
    eq(carts.isComplete, true),
    eq(carts.isRemoved, false),
  );
  const [cartRows, personRows, paidRows] = await db.batch([
    db.select().from(carts).where(included).orderBy(carts.cartNumber, carts.createdAt),
    db
      .select({
        id: individuals.id,
        cartId: individuals.cartId,
        ordinal: individuals.ordinal,
        isRemoved: individuals.isRemoved,
        isComplete: individuals.isComplete,
        priceTotal: individuals.priceTotal,
        values: individuals.values,
      })
      .from(individuals)
      .innerJoin(carts, eq(carts.id, individuals.cartId))
      .where(and(included, eq(individuals.isRemoved, false)))
      .orderBy(individuals.cartId, individuals.ordinal, individuals.createdAt),
    db
      .select({
        cartId: transactions.cartId,
        net: sql<number>`coalesce(sum(case when ${transactions.type} = 'payment' then ${transactions.amount} else -${transactions.amount} end), 0)`,
      })
      .from(transactions)
      .innerJoin(carts, eq(carts.id, transactions.cartId))
      .where(and(included, inArray(transactions.type, ["payment", "refund"]), isNotNull(transactions.completionTime), eq(transactions.isVoid, false)))
      .groupBy(transactions.cartId),
  ]);
  const paid = new Map(paidRows.map((r) => [r.cartId, Number(r.net)]));
  const people = new Map<string, ReportCartData["individuals"][number][]>();
  for (const p of personRows) {
    const list = people.get(p.cartId) ?? [];
    list.push({ id: p.id, ordinal: p.ordinal, isRemoved: p.isRemoved, isComplete: p.isComplete, priceTotal: p.priceTotal, values: p.values });
    people.set(p.cartId, list);
  }
  return cartRows.map((c) => ({
    id: c.id,
    legacyId: c.legacyId,
    cartNumber: c.cartNumber,
    email: c.email,
    isComplete: c.isComplete,
    isRemoved: c.isRemoved,
    completedAt: c.completedAt,
    total: c.total,
    paid: paid.get(c.id) ?? 0,
    values: c.values,
    individuals: people.get(c.id) ?? [],
  }));
}
