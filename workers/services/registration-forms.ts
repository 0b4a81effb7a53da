/**
 * The form builder's services: finding a registration form of this tenant, who may do what to it, creating
 * one, and adding, changing, reordering and deleting its elements. Writes go through the data service's
 * registry (field times, change broadcasts), so the builder and the data API never disagree.
 */
import { and, asc, desc, eq, inArray, or } from "drizzle-orm";
import { movedTo } from "../../core/lists/move";
import { can, type Action, type Principal } from "../../core/access/policy";
import { listReach, reachesNothing } from "../../core/access/reach";
import { initialMtimes } from "../../core/entity/field-mtimes";
import { fieldTypeOf } from "../../core/forms/registry";
import { formElementSchema } from "../../core/forms/element-schema";
import { nameFieldErrors, timeOrderErrors } from "../../core/registration/settings-rules";
import { FIELD_TYPES, newElement, type FieldType, type FormElement } from "../../core/forms/model";
import { clubs, formElements, registrations, type Db } from "../../schema/d1";
import { FormElement as FormElementClass, Registration } from "../../schema/entities/classes";
import type { Tenant } from "../../tenants/resolve";
import { changeFields, deleteStatement, getEntity, insertStatement } from "../data-api/entity-store";
import { changedHistory, createdHistory, deletedHistory, pageAuthor } from "./entity-history";
import { publishChange, publishFieldChanges, type PublishContext } from "../data-api/hub-client";
import { creatableClubs, type ClubChoice } from "./club-choices";
import { systemReferenceProblem } from "./validation-systems";
import { registrationLinkProblems } from "./race-links";
import { divisionReferenceProblem } from "./division-choices";

/** A registration form has at most this many elements (a long form has about 60). */
export const MAX_ELEMENTS = 300;
const LIST_LIMIT = 200;

export type RegistrationRow = typeof registrations.$inferSelect;
export type FormElementRow = typeof formElements.$inferSelect;
/** What a builder write needs: the request, the database, and who is writing (for the object's history). */
export type BuilderContext = PublishContext & { db: Db; userId?: string | null };

/** A form of this tenant: a site reaches only its own forms; the main and admin hosts reach every form. */
export async function getRegistration(db: Db, tenant: Tenant, id: string): Promise<(RegistrationRow & { clubName: string }) | null> {
  const scope = tenant.kind === "site" ? and(eq(registrations.id, id), eq(registrations.siteId, tenant.siteId)) : eq(registrations.id, id);
  const [row] = await db
    .select({ registration: registrations, clubName: clubs.name })
    .from(registrations)
    .innerJoin(clubs, eq(clubs.id, registrations.clubId))
    .where(scope)
    .limit(1);
  return row ? { ...row.registration, clubName: row.clubName } : null;
}

export function canOnRegistration(principal: Principal | null, action: Action, registration: Pick<RegistrationRow, "id" | "clubId" | "siteId">): boolean {
  return (
    principal !== null &&
    can(principal, action, {
      area: "registrations",
      id: registration.id,
      registrationId: registration.id,
      clubId: registration.clubId,
      siteId: registration.siteId,
    })
  );
}

export function creatableRegistrationClubs(db: Db, principal: Principal, tenant: Tenant): Promise<ClubChoice[]> {
  return creatableClubs(db, principal, tenant, "registrations");
}

export interface RegistrationSummary {
  id: string;
  name: string;
  clubName: string;
  isApproved: boolean;
  isPending: boolean;
  approvalStatus: string;
  openTime: number | null;
  closeTime: number | null;
}

/** The forms a principal may view on this tenant, newest first. */
export async function listRegistrations(db: Db, principal: Principal, tenant: Tenant, filter: { pendingOnly?: boolean } = {}): Promise<RegistrationSummary[]> {
  const reach = listReach(principal, "view", "registrations");
  if (reachesNothing(reach)) return [];
  const clubIds = reach.owners.get("clubs") ?? [];
  const siteIds = reach.owners.get("sites") ?? [];
  const formIds = reach.owners.get("registrations") ?? [];
  const rows = await db
    .select({ registration: registrations, clubName: clubs.name })
    .from(registrations)
    .innerJoin(clubs, eq(clubs.id, registrations.clubId))
    .where(
      and(
        tenant.kind === "site" ? eq(registrations.siteId, tenant.siteId) : undefined,
        filter.pendingOnly ? eq(registrations.isPending, true) : undefined,
        reach.all || (clubIds.length === 0 && siteIds.length === 0 && formIds.length === 0) ? undefined : ownedBy(clubIds, siteIds, formIds),
      ),
    )
    .orderBy(desc(registrations.createdAt))
    .limit(LIST_LIMIT);
  return rows
    .filter((r) => canOnRegistration(principal, "view", r.registration))
    .map(({ registration: r, clubName }) => ({
      id: r.id,
      name: r.name,
      clubName,
      isApproved: r.isApproved,
      isPending: r.isPending,
      approvalStatus: r.approvalStatus,
      openTime: r.openTime,
      closeTime: r.closeTime,
    }));
}

function ownedBy(clubIds: readonly string[], siteIds: readonly string[], formIds: readonly string[]) {
  const conditions = [
    clubIds.length > 0 ? inArray(registrations.clubId, [...clubIds]) : undefined,
    siteIds.length > 0 ? inArray(registrations.siteId, [...siteIds]) : undefined,
    formIds.length > 0 ? inArray(registrations.id, [...formIds]) : undefined,
  ];
  return or(...conditions);
}

export type SaveResult<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string> };

/** A new form starts in Test Mode (not approved, not pending), so nobody can pay before it is reviewed. */
export async function createRegistration(
  context: BuilderContext,
  principal: Principal,
  input: { club: string; name: string },
): Promise<SaveResult<{ id: string }>> {
  const choices = await creatableRegistrationClubs(context.db, principal, context.tenant);
  const club = choices.find((c) => c.id === input.club);
  if (!club) return { ok: false, errors: { club: "Choose one of the listed clubs" } };
  const name = input.name.trim();
  if (!name) return { ok: false, errors: { name: "Give the form a name" } };
  const values = { club: club.id, site: club.siteId, name };
  const id = crypto.randomUUID();
  await context.db.batch([
    insertStatement(context.db, Registration, id, values, initialMtimes(values, context.now), context.now),
    ...createdHistory(context.db, Registration, id, values, pageAuthor(context)),
  ]);
  return { ok: true, value: { id } };
}

/** Registration fields the builder's settings panel changes, API-named, already checked by its schema. */
export async function changeRegistration(context: BuilderContext, registration: RegistrationRow, changes: object): Promise<SaveResult<null>> {
  const result = await changeFields(context.db, Registration, registration.id, { ...changes }, undefined, context.now, (before, changed, version) =>
    changedHistory(context.db, Registration, registration.id, before, changed, version, pageAuthor(context)),
  );
  if (!result) return { ok: false, errors: { form: "This form no longer exists" } };
  if (!result.ok) return { ok: false, errors: { form: "Someone else changed this form; reload and try again" } };
  publishFieldChanges(context, Registration, registration.id, result.changed, result.mtimes, objectOf(registration));
  return { ok: true, value: null };
}

function objectOf(registration: Pick<RegistrationRow, "id" | "clubId" | "siteId">) {
  return { area: "registrations" as const, id: registration.id, registrationId: registration.id, clubId: registration.clubId, siteId: registration.siteId };
}

// ---------------------------------------------------------------------------------------------------------
// Elements

/** A stored element in the shape core/forms works with. */
export function elementOfRow(row: FormElementRow): FormElement {
  return {
    id: row.id,
    type: (FIELD_TYPES as readonly string[]).includes(row.type) ? (row.type as FieldType) : "text",
    caption: row.caption,
    title: row.title,
    column_header: row.columnHeader,
    price_1: row.price1,
    price_2: row.price2,
    price_3: row.price3,
    is_taxable: row.isTaxable,
    is_mandatory: row.isMandatory,
    is_admin_only: row.isAdminOnly,
    is_kiosk_mode: row.isKioskMode,
    is_admin_mandatory: row.isAdminMandatory,
    is_edit_forbidden: row.isEditForbidden,
    condition:
      row.conditionElement && row.conditionOperator
        ? {
            element: row.conditionElement,
            operator: row.conditionOperator as NonNullable<FormElement["condition"]>["operator"],
            value: row.conditionValue ?? "",
          }
        : null,
    logic_key: row.logicKey,
    ordinal: row.ordinal,
    quantity_limit: row.quantityLimit,
    all_discount: row.allDiscount,
    member_class: row.memberClass,
    is_fee: row.isFee,
    options_list: row.optionsList as unknown as FormElement["options_list"],
    display_type: row.displayType,
    config: row.config as FormElement["config"],
  };
}

/** The API-named fields of an element, for the registry's writes. */
function apiValuesOf(element: FormElement): Record<string, unknown> {
  return {
    type: element.type,
    caption: element.caption,
    title: element.title ?? null,
    column_header: element.column_header ?? null,
    price_1: element.price_1 ?? null,
    price_2: element.price_2 ?? null,
    price_3: element.price_3 ?? null,
    is_taxable: element.is_taxable,
    is_mandatory: element.is_mandatory,
    is_admin_only: element.is_admin_only,
    is_kiosk_mode: element.is_kiosk_mode,
    is_admin_mandatory: element.is_admin_mandatory,
    is_edit_forbidden: element.is_edit_forbidden,
    condition_element: element.condition?.element ?? null,
    condition_operator: element.condition?.operator ?? null,
    condition_value: element.condition?.value ?? null,
    logic_key: element.logic_key ?? null,
    ordinal: element.ordinal,
    quantity_limit: element.quantity_limit ?? null,
    all_discount: element.all_discount,
    member_class: element.member_class ?? null,
    is_fee: element.is_fee,
    options_list: element.options_list,
    display_type: element.display_type ?? null,
    config: element.config,
  };
}

export async function listElements(db: Db, registrationId: string): Promise<FormElement[]> {
  const rows = await db
    .select()
    .from(formElements)
    .where(eq(formElements.registrationId, registrationId))
    .orderBy(asc(formElements.ordinal), asc(formElements.createdAt))
    .limit(MAX_ELEMENTS);
  return rows.map(elementOfRow);
}

/** Adds an element at the end of the form. */
export async function addElement(
  context: BuilderContext,
  registration: RegistrationRow,
  input: { type: FieldType; caption: string },
): Promise<SaveResult<FormElement>> {
  const existing = await listElements(context.db, registration.id);
  if (existing.length >= MAX_ELEMENTS) return { ok: false, errors: { type: `A form can have at most ${MAX_ELEMENTS} fields` } };
  const caption = input.caption.trim() || defaultCaption(input.type);
  const element = newElement(crypto.randomUUID(), input.type, { caption, ordinal: (existing.at(-1)?.ordinal ?? 0) + 1 });
  const values = { ...apiValuesOf(element), registration: registration.id, club: registration.clubId, site: registration.siteId };
  await context.db.batch([
    insertStatement(context.db, FormElementClass, element.id, values, initialMtimes(values, context.now), context.now),
    ...createdHistory(context.db, FormElementClass, element.id, values, pageAuthor(context)),
  ]);
  publishChange(context, FormElementClass, element.id, { fields: values, field_mtimes: initialMtimes(values, context.now) }, objectOf(registration));
  return { ok: true, value: element };
}

function defaultCaption(type: FieldType): string {
  return fieldTypeOf(type).isInput ? "Untitled field" : "";
}

/**
 * The data API's check of a registration form write (workers/services/entity-rules.ts): the settings page's
 * cross-field rules (core/registration/settings-rules.ts) on the form as it would be stored.
 */
export async function registrationWriteProblems(db: Db, id: string, next: Readonly<Record<string, unknown>>, env: Env): Promise<Record<string, string> | null> {
  const time = (key: string) => (typeof next[key] === "number" ? (next[key] as number) : null);
  const text = (key: string) => (typeof next[key] === "string" && next[key] !== "" ? (next[key] as string) : null);
  const chosen = { first_name_field_id: text("first_name_field_id"), last_name_field_id: text("last_name_field_id") };
  const elements = await listElements(db, id);
  const errors = {
    ...timeOrderErrors({
      open_time: time("open_time"),
      close_time: time("close_time"),
      raise_price_1_time: time("raise_price_1_time"),
      raise_price_2_time: time("raise_price_2_time"),
    }),
    ...(chosen.first_name_field_id || chosen.last_name_field_id ? nameFieldErrors(chosen, elements) : {}),
    ...(await registrationLinkProblems(env, db, next, elements)),
  };
  return Object.keys(errors).length > 0 ? errors : null;
}

/**
 * The checks every element write passes, from the builder or the data API: core/forms' schema, then the rest
 * of the form (a condition names another element of this form, a discount lists only this form's elements,
 * one logic key names one field). Errors are keyed by the element's own paths ("price_1", "config.max").
 */
export function checkElement(candidate: unknown, form: readonly FormElement[]): SaveResult<FormElement> {
  const parsed = formElementSchema.safeParse(candidate);
  if (!parsed.success) return { ok: false, errors: Object.fromEntries(parsed.error.issues.map((i) => [i.path.join(".") || "form", i.message])) };
  const next = parsed.data;
  const ids = new Set([...form.map((e) => e.id), next.id]);
  if (next.condition && !ids.has(next.condition.element)) return { ok: false, errors: { "condition.element": "Choose a field of this form" } };
  const stray = (next.config.discounts_list ?? []).flatMap((d) => d.elts_list).find((id) => !ids.has(id));
  if (stray) return { ok: false, errors: { "config.discounts_list": "A discount can only apply to fields of this form" } };
  // Exports and apps find a field by its key, so one key names one field.
  if (next.logic_key && form.some((e) => e.id !== next.id && e.logic_key === next.logic_key))
    return { ok: false, errors: { logic_key: "Another field of this form has this key" } };
  return { ok: true, value: next };
}

/** An element from its data-API fields (the condition is three columns there, one object in core/forms). */
function elementOfApiValues(id: string, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { condition_element, condition_operator, condition_value, registration: _r, club: _c, site: _s, uuid: _u, created_time: _t, ...rest } = values;
  const condition = condition_element || condition_operator ? { element: condition_element, operator: condition_operator, value: condition_value ?? "" } : null;
  return { ...rest, id, condition };
}

/**
 * The data API's check of an element write (workers/services/entity-rules.ts): the element as it would be
 * stored, checked exactly as the builder's save is, so both accept and refuse the same things.
 */
export async function elementWriteProblems(db: Db, id: string, stored: Readonly<Record<string, unknown>>): Promise<Record<string, string> | null> {
  const registrationId = stored.registration;
  if (typeof registrationId !== "string") return { registration: "Choose a registration form" };
  const form = await listElements(db, registrationId);
  // A new element gets the defaults its columns have for what the call left out.
  const type = (FIELD_TYPES as readonly unknown[]).includes(stored.type) ? (stored.type as FieldType) : "text";
  const checked = checkElement(elementOfApiValues(id, { ...apiValuesOf(newElement(id, type, {})), ...stored }), form);
  if (!checked.ok) return checked.errors;
  const [owner] = await db.select({ clubId: registrations.clubId }).from(registrations).where(eq(registrations.id, registrationId)).limit(1);
  if (!owner) return null;
  return (await systemReferenceProblem(db, owner.clubId, checked.value)) ?? divisionReferenceProblem(db, owner.clubId, checked.value);
}

/**
 * Saves an element whole, checked by core/forms' schema and against the rest of the form: a condition must
 * name another element of this form, and a discount may only list this form's elements.
 */
/**
 * The latest change to an element's own fields (its position aside), as its editor opens: saving with it
 * refuses the fields someone changed since, instead of silently putting back what this editor showed.
 */
export async function elementEditedAt(db: Db, elementId: string): Promise<number> {
  const stored = await getEntity(db, FormElementClass, elementId);
  return Math.max(
    0,
    ...Object.entries(stored?.mtimes ?? {})
      .filter(([key]) => key !== "ordinal")
      .map(([, at]) => at),
  );
}

/** Saves an edited element; with `openedAt` (elementEditedAt when the editor opened), a field changed since is refused. */
export async function saveElement(
  context: BuilderContext,
  registration: RegistrationRow,
  element: unknown,
  openedAt: number | null = null,
): Promise<SaveResult<FormElement>> {
  const elements = await listElements(context.db, registration.id);
  const current = elements.find((e) => e.id === (element as { id?: unknown } | null)?.id);
  if (!current) return { ok: false, errors: { form: "This field no longer exists" } };
  const checked = checkElement(element, elements);
  if (!checked.ok) return checked;
  const next = checked.value;
  const foreign =
    (await systemReferenceProblem(context.db, registration.clubId, next)) ?? (await divisionReferenceProblem(context.db, registration.clubId, next));
  if (foreign) return { ok: false, errors: foreign };
  const values = apiValuesOf({ ...next, ordinal: current.ordinal });
  // The position is the list's business (moveElement): a move since opening is no conflict.
  const base =
    openedAt === null
      ? undefined
      : Object.fromEntries(
          Object.keys(values)
            .filter((key) => key !== "ordinal")
            .map((key) => [key, openedAt]),
        );
  const result = await changeFields(context.db, FormElementClass, next.id, values, base, context.now, (before, changed, version) =>
    changedHistory(context.db, FormElementClass, next.id, before, changed, version, pageAuthor(context)),
  );
  if (!result) return { ok: false, errors: { form: "This field no longer exists" } };
  if (!result.ok) return { ok: false, errors: { form: "Someone else changed this field; reload and try again" } };
  publishFieldChanges(context, FormElementClass, next.id, result.changed, result.mtimes, objectOf(registration));
  return { ok: true, value: { ...next, ordinal: current.ordinal } };
}

/**
 * Moves an element to a new position (0-based) and renumbers the form 1, 2, 3, … in one batch, so a
 * reorder is never half-written.
 */
export async function moveElement(context: BuilderContext, registration: RegistrationRow, elementId: string, toIndex: number): Promise<SaveResult<null>> {
  const elements = await listElements(context.db, registration.id);
  if (!elements.some((e) => e.id === elementId)) return { ok: false, errors: { form: "This field no longer exists" } };
  const order = movedTo(elements, elementId, toIndex);
  const changed = order.map((e, index) => ({ element: e, ordinal: index + 1 })).filter(({ element, ordinal }) => element.ordinal !== ordinal);
  if (changed.length === 0) return { ok: true, value: null };
  const now = context.now;
  const stored = await context.db
    .select({ id: formElements.id, fieldMtimes: formElements.fieldMtimes })
    .from(formElements)
    .where(eq(formElements.registrationId, registration.id));
  const mtimesById = new Map(stored.map((r) => [r.id, { ...r.fieldMtimes, ordinal: now }]));
  const [first, ...rest] = changed.map(({ element, ordinal }) =>
    context.db
      .update(formElements)
      .set({ ordinal, fieldMtimes: mtimesById.get(element.id) ?? { ordinal: now } })
      .where(and(eq(formElements.id, element.id), eq(formElements.registrationId, registration.id))),
  );
  // The new positions, with each moved field's old and new place in its history, in the same batch.
  const history = changed.flatMap(({ element, ordinal }) =>
    changedHistory(context.db, FormElementClass, element.id, { ordinal: element.ordinal }, { ordinal }, null, pageAuthor(context)),
  );
  await context.db.batch([first!, ...rest, ...history]);
  for (const { element, ordinal } of changed)
    publishFieldChanges(context, FormElementClass, element.id, { ordinal }, mtimesById.get(element.id) ?? { ordinal: now }, objectOf(registration));
  return { ok: true, value: null };
}

/** Deletes an element; refused while another element's condition or a discount depends on it. */
export async function deleteElement(context: BuilderContext, registration: RegistrationRow, elementId: string): Promise<SaveResult<null>> {
  const elements = await listElements(context.db, registration.id);
  const element = elements.find((e) => e.id === elementId);
  if (!element) return { ok: false, errors: { form: "This field no longer exists" } };
  const dependent = elements.find((e) => e.condition?.element === elementId || (e.config.discounts_list ?? []).some((d) => d.elts_list.includes(elementId)));
  if (dependent) return { ok: false, errors: { form: `“${dependent.caption || dependent.type}” depends on this field; change it first` } };
  await context.db.batch([
    deleteStatement(context.db, FormElementClass, elementId),
    ...deletedHistory(context.db, FormElementClass, elementId, { ...apiValuesOf(element), registration: registration.id }, pageAuthor(context)),
  ]);
  publishChange(context, FormElementClass, elementId, { fields: {}, field_mtimes: {}, deleted: true }, objectOf(registration));
  return { ok: true, value: null };
}
