/**
 * The super-admin areas built from the entity registry (issue 25, decision 0032): who may open an area, the
 * classes it holds, one page of a list with search, filters, sort and pages, and the labels of the objects
 * a row refers to. Every read and write goes through the entity service, as the data API's do.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { findAdminArea, type AdminAreaKey } from "../../core/access/admin-areas";
import { mayOpenAdminArea } from "../../core/access/policy";
import { FilterError, parseFilters, type FilterCondition, type FilterFieldType } from "../../core/entity/filters";
import { openDb, type Db } from "../../schema/d1";
import { entityClasses, findEntityClass } from "../../schema/entities/classes";
import { OWNER_CLASSES, type EntityClass, type OwnerFields } from "../../schema/entities/registry";
import { cellText, type AreaListData, type HistoryRow } from "./entity-views";
import type { HistoryEntry } from "../../workers/services/entity-history";
import { labelOf, type AdminField } from "./entity-form.server";
import { getEntities } from "../../workers/data-api/entity-store";
import { listVisible, type Caller, type EntityContext } from "../../workers/services/entity-service";
import { requireSession, rolesOf } from "../auth.server";

export const ADMIN_PAGE_SIZE = 50;
/** The most rows one CSV export writes; a larger set is narrowed with a search or filter first. */
export const ADMIN_EXPORT_LIMIT = 10_000;

export interface AreaAccess {
  area: { key: AdminAreaKey; label: string };
  caller: Caller;
  db: Db;
  entityContext: EntityContext;
}

/** The area's administrator on the admin host: 404 elsewhere or for an unknown area, 403 without the flag. */
export async function requireAreaAdmin(request: Request, context: AppLoadContext, areaKey: string): Promise<AreaAccess> {
  const area = context.tenant.kind === "admin" ? findAdminArea(areaKey) : null;
  if (!area) throw new Response("Not found", { status: 404 });
  const session = requireSession(request, context);
  const principal = { userId: session.user.id, roles: await rolesOf(context, session.user.id), activeRoleId: session.activeRoleId };
  if (!mayOpenAdminArea(principal, area.key)) throw new Response("Forbidden", { status: 403 });
  const db = openDb(context.env.DB);
  return {
    area: { key: area.key, label: area.label },
    caller: { principal, userId: session.user.id, appId: "" },
    db,
    entityContext: { env: context.env, tenant: context.tenant, ctx: context.ctx, now: context.now, db },
  };
}

/** The registry classes an area administers; the ones with a parent are reached from their parent too. */
export function areaClasses(area: AdminAreaKey): EntityClass[] {
  return entityClasses.filter((entity) => entity.area === area);
}

/** The class a page is about: `?class=` when it belongs to the area, else the area's first top-level class. */
export function classOf(area: AdminAreaKey, requested: string | null): EntityClass {
  const classes = areaClasses(area);
  const chosen = requested ? classes.find((entity) => entity.classname === requested) : undefined;
  const fallback = classes.find((entity) => !entity.parent) ?? classes[0];
  if (!chosen && requested) throw new Response("Not found", { status: 404 });
  if (!(chosen ?? fallback)) throw new Response("Not found", { status: 404 });
  return (chosen ?? fallback)!;
}

const NAME_FIELDS = ["name", "title", "subject", "holder_name", "hostname", "caption", "email", "key", "number"];

/** The field that names an object in a list or a link, or null (the uuid then stands for it). */
export function nameFieldOf(entity: EntityClass): string | null {
  return NAME_FIELDS.find((api) => entity.fields.some((f) => f.api === api)) ?? null;
}

/** The class a field's uuid refers to (a parent, a reference or an owner), or null. */
export function referencedClass(entity: EntityClass, api: string): EntityClass | null {
  const reference = entity.references.find((r) => r.field === api);
  if (reference) return findEntityClass(reference.classname) ?? null;
  const owner = (Object.entries(entity.owners) as [keyof OwnerFields, string][]).find(([, field]) => field === api && field !== "uuid");
  if (owner) return findEntityClass(OWNER_CLASSES[owner[0]]) ?? null;
  if (entity.classname === "Role" && api === "user") return findEntityClass("User") ?? null;
  return null;
}

/** The columns a list shows: the naming field first, then up to five short fields, then the creation time. */
export function listColumnsOf(entity: EntityClass): { api: string; type: FilterFieldType }[] {
  const name = nameFieldOf(entity);
  const rest = entity.fields.filter(
    (f) => f.api !== name && f.api !== "uuid" && f.api !== "created_time" && f.type !== "json" && !/^(info|description|body|formula|config)$/.test(f.api),
  );
  const picked = [...(name ? entity.fields.filter((f) => f.api === name) : []), ...rest.slice(0, name ? 5 : 6)];
  const created = entity.fields.find((f) => f.api === "created_time");
  return [...picked, ...(created ? [created] : [])].map((f) => ({ api: f.api, type: f.type }));
}

/** The text fields a search box looks in: every short text field that is not a uuid of another object. */
export function searchFieldsOf(entity: EntityClass): string[] {
  return entity.fields.filter((f) => f.type === "string" && f.api !== "uuid" && !referencedClass(entity, f.api)).map((f) => f.api);
}

export interface ListParams {
  classname: string;
  q: string;
  filters: string;
  sort: string;
  page: number;
}

export function listParamsOf(url: URL): ListParams {
  const page = Number(url.searchParams.get("page") ?? "1");
  return {
    classname: url.searchParams.get("class") ?? "",
    q: (url.searchParams.get("q") ?? "").trim().slice(0, 200),
    filters: (url.searchParams.get("filters") ?? "").slice(0, 2000),
    sort: url.searchParams.get("sort") ?? "",
    page: Number.isSafeInteger(page) && page >= 1 && page <= 1_000_000 ? page : 1,
  };
}

export type ListRead =
  | { ok: true; conditions: FilterCondition[]; sort: { field: string; descending: boolean } | null }
  | { ok: false; problem: string; sort: { field: string; descending: boolean } | null };

/** The filters and sort of a list request, checked against the class's fields; a bad filter is a message, not a 500. */
export function readListParams(entity: EntityClass, params: ListParams): ListRead {
  const fields = new Map(entity.fields.filter((f) => f.type !== "json").map((f) => [f.api, f.type] as const));
  const sortField = params.sort.replace(/^-/, "");
  const sort = sortField && fields.has(sortField) ? { field: sortField, descending: params.sort.startsWith("-") } : null;
  try {
    return { ok: true, conditions: parseFilters(params.filters, fields), sort };
  } catch (error) {
    if (error instanceof FilterError) return { ok: false, problem: error.message, sort };
    throw error;
  }
}

/** One page of the class's list (or, for an export, up to ADMIN_EXPORT_LIMIT rows from the first). */
export async function readList(access: AreaAccess, entity: EntityClass, params: ListParams, options: { export?: boolean } = {}) {
  const read = readListParams(entity, params);
  if (!read.ok) return { problem: read.problem, items: [], total: 0, sort: read.sort };
  const limit = options.export ? ADMIN_EXPORT_LIMIT : ADMIN_PAGE_SIZE;
  const page = await listVisible(access.entityContext, access.caller, entity, {
    conditions: read.conditions,
    limit,
    offset: options.export ? 0 : (params.page - 1) * ADMIN_PAGE_SIZE,
    sort: read.sort,
    search: params.q ? { fields: searchFieldsOf(entity), text: params.q } : null,
  });
  return { problem: null, items: page.items.map((item) => item.row), total: page.total, sort: read.sort };
}

/** Names for the objects the rows refer to (a club's name for its uuid), read once per referenced class. */
export async function labelsFor(db: Db, entity: EntityClass, rows: readonly Record<string, unknown>[], fields: readonly string[]) {
  const labels: Record<string, string> = {};
  const wanted = new Map<EntityClass, Set<string>>();
  for (const api of fields) {
    const target = referencedClass(entity, api);
    if (!target) continue;
    const ids = wanted.get(target) ?? new Set<string>();
    for (const row of rows) if (typeof row[api] === "string") ids.add(row[api] as string);
    wanted.set(target, ids);
  }
  for (const [target, ids] of wanted) {
    const name = nameFieldOf(target);
    if (!name) continue;
    // At most one page of distinct ids per class, read in one query by primary key.
    const found = await getEntities(db, target, [...ids].slice(0, ADMIN_PAGE_SIZE));
    for (const stored of found) if (typeof stored.row[name] === "string") labels[stored.row.uuid] = stored.row[name] as string;
  }
  return labels;
}

/** Everything an area's list page shows, for the request's class, search, filters, sort and page. */
export async function loadAreaList(request: Request, access: AreaAccess): Promise<AreaListData> {
  const params = listParamsOf(new URL(request.url));
  const entity = classOf(access.area.key, params.classname || null);
  const list = await readList(access, entity, params);
  const columns = listColumnsOf(entity);
  const referenceColumns = columns.filter((c) => referencedClass(entity, c.api)).map((c) => c.api);
  return {
    area: access.area,
    classname: entity.classname,
    classes: areaClasses(access.area.key).map((c) => ({ classname: c.classname, description: c.description })),
    readOnly: entity.readOnly,
    columns: columns.map((c) => ({ ...c, label: labelOf(c.api) })),
    rows: list.items.map((row) => Object.fromEntries(["uuid", ...columns.map((c) => c.api)].map((api) => [api, row[api] ?? null]))),
    labels: await labelsFor(access.db, entity, list.items, referenceColumns),
    referenceColumns,
    total: list.total,
    page: params.page,
    pageSize: ADMIN_PAGE_SIZE,
    params: { q: params.q, filters: params.filters, sort: list.sort ? `${list.sort.descending ? "-" : ""}${list.sort.field}` : "" },
    problem: list.problem,
    notice: new URL(request.url).searchParams.get("deleted") === "1" ? `${entity.classname} deleted.` : null,
  };
}

/** The most objects a reference offers as a list; beyond it the field takes a uuid typed or pasted in. */
export const REFERENCE_CHOICES = 200;

/** Fills each editable reference field's choices with the objects this administrator may see, by name. */
export async function withReferenceChoices(access: AreaAccess, entity: EntityClass, fields: AdminField[]): Promise<AdminField[]> {
  return Promise.all(
    fields.map(async (field) => {
      const target = field.editable ? referencedClass(entity, field.api) : null;
      if (!target) return field;
      const name = nameFieldOf(target);
      const page = await listVisible(access.entityContext, access.caller, target, {
        conditions: [],
        limit: REFERENCE_CHOICES + 1,
        offset: 0,
        sort: name ? { field: name, descending: false } : null,
      });
      if (page.items.length > REFERENCE_CHOICES) return field;
      const choices = page.items.map((item) => ({
        value: item.row.uuid,
        label: name && typeof item.row[name] === "string" ? (item.row[name] as string) : item.row.uuid,
      }));
      return { ...field, choices };
    }),
  );
}

/** An object's history as the pages show it: JSON text for values, a name (or the app) for who. */
export function historyRowsOf(history: readonly HistoryEntry[]): HistoryRow[] {
  return history.map((h) => ({
    id: h.id,
    at: h.changedAt,
    who: h.userName ?? (h.appId ? `app ${h.appId}` : "the platform"),
    kind: h.kind,
    field: h.field,
    before: h.oldValue === null ? "" : cellText("json", h.oldValue),
    after: h.newValue === null ? "" : cellText("json", h.newValue),
  }));
}
