/**
 * The generic entity API (docs/api/data-service.md): list, tree, create, change, delete and place for every
 * class of the registry, each call checked against the token's scopes, the user's roles and the tenant.
 */
import { missingScopes, scopeForArea } from "../../core/access/scopes";
import { listReach, reachesNothing, tokenItemKind } from "../../core/access/reach";
import type { FieldMtimes } from "../../core/entity/field-mtimes";
import { FilterError, parseFilters, type FilterFieldType } from "../../core/entity/filters";
import { childClassesOf } from "../../schema/entities/classes";
import { ownerField, type EntityClass } from "../../schema/entities/registry";
import { API_LIST_CONTENT_TYPE, encodeApiList } from "../../schema/wire/api-list";
import { json } from "../http";
import { badRequest, bodyRefused, forbidden, insufficientScope, methodNotAllowed, noSuch } from "./errors";
import type { RequestContext } from "../request-context";
import { DATA_API_BODY_LIMITS, readJsonObject as readLimitedJsonObject } from "../request-limits";
import { childrenOf, type EntityRow, type StoredEntity } from "./entity-store";
import { allowed, changeEntity, createEntity, listVisible, mayChange, readVisible, removeEntity, type Caller, type Refusal } from "../services/entity-service";
import { readRace } from "./race-store";

export type { Caller };
export { mayChange, readVisible };

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 10_000;
/** Children shown inside a tree; more are read through the child class's list with a parent filter. */
export const MAX_TREE_CHILDREN = 1000;

function siteOf(context: RequestContext): string | null {
  return context.tenant.kind === "site" ? context.tenant.siteId : null;
}

function tree(entity: EntityClass, stored: StoredEntity): Record<string, unknown> {
  return { classname: entity.classname, ...stored.row, field_mtimes: stored.mtimes };
}

// Parent params (`?registration=<uuid>`) must match the stored parent, so a wrong parent reads as not found.
function parentMatches(entity: EntityClass, row: EntityRow, params: URLSearchParams): boolean {
  const parent = entity.parent;
  if (!parent) return true;
  const given = params.get(parent.field);
  return given === null || given === row[parent.field];
}

function filterFields(entity: EntityClass): Map<string, FilterFieldType> {
  return new Map(entity.fields.filter((f) => f.type !== "json").map((f) => [f.api, f.type]));
}

async function list(request: Request, context: RequestContext, caller: Caller, entity: EntityClass): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const limitText = params.get("limit") ?? String(DEFAULT_LIST_LIMIT);
  const offsetText = params.get("offset") ?? "0";
  if (!/^\d{1,6}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > MAX_LIST_LIMIT) {
    return badRequest(`limit must be a whole number from 1 to ${MAX_LIST_LIMIT}`);
  }
  if (!/^\d{1,9}$/.test(offsetText)) return badRequest("offset must be a whole number of 0 or more");
  const fields = filterFields(entity);
  let conditions;
  try {
    conditions = parseFilters(params.get("filters") ?? "", fields);
  } catch (error) {
    if (error instanceof FilterError) return badRequest(error.message);
    throw error;
  }
  const sortText = params.get("sort");
  const sortField = sortText?.replace(/^-/, "") ?? null;
  if (sortField !== null && !fields.has(sortField)) return badRequest(`Unknown sort field '${sortField}'`);
  const limit = Number(limitText);
  const offset = Number(offsetText);
  const page = await listVisible(context, caller, entity, {
    conditions,
    limit,
    offset,
    sort: sortField ? { field: sortField, descending: sortText?.startsWith("-") ?? false } : null,
  });
  const rows = page.items.map((item) => item.row);
  const headers = { "X-Total-Count": String(page.total), "Cache-Control": "no-store" };
  if ((request.headers.get("Accept") ?? "").includes(API_LIST_CONTENT_TYPE)) {
    const columns = entity.fields.map((f) => ({ name: f.api, type: f.type }));
    return new Response(encodeApiList(columns, rows), { headers: { ...headers, "Content-Type": `${API_LIST_CONTENT_TYPE}; charset=utf-8` } });
  }
  return json(
    { classname: entity.classname, total: page.total, limit, offset, items: rows.map((row) => ({ classname: entity.classname, ...row })) },
    { headers },
  );
}

async function getTree(request: Request, context: RequestContext, caller: Caller, entity: EntityClass, id: string): Promise<Response> {
  const stored = await readVisible(context, caller, entity, id);
  if (!stored || !parentMatches(entity, stored.row, new URL(request.url).searchParams)) return noSuch(entity.classname);
  const body = tree(entity, entity.store === "race" ? await readRace(context, stored) : stored);
  for (const { collection, entity: child } of childClassesOf(entity.classname)) {
    const reach = listReach(caller.principal, "view", child.area);
    const children = reachesNothing(reach) ? [] : await childrenOf(context.db, child, id, reach, siteOf(context), MAX_TREE_CHILDREN);
    body[collection] = children.filter((c) => allowed(context, caller, child, c.row, "view")).map((c) => tree(child, c));
  }
  return json(body, { headers: { "Cache-Control": "no-store" } });
}

/** An entity write's body: one JSON object within the data API's limits, or the refusal in its error format. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown> | Response> {
  const body = await readLimitedJsonObject(request, DATA_API_BODY_LIMITS);
  return body.ok ? body.value : bodyRefused(body);
}

function reply(refusal: Refusal): Response {
  return json(refusal.body, { status: refusal.status });
}

async function create(request: Request, context: RequestContext, caller: Caller, entity: EntityClass): Promise<Response> {
  if (entity.readOnly || entity.changeOnly)
    return reply({ status: 405, body: { error: "method_not_allowed", message: `${entity.classname} cannot be created through the data service` } });
  const body = await readJsonObject(request);
  if (body instanceof Response) return body;
  const created = await createEntity(context, caller, entity, body);
  if (!created.ok) return reply(created.refusal);
  const id = created.value.row.uuid;
  return json(tree(entity, created.value), { status: 201, headers: { Location: `/data-api/${entity.classname}/${id}` } });
}

const mtimesSchema = (value: unknown): FieldMtimes | null => {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const out: FieldMtimes = {};
  for (const [key, time] of Object.entries(value)) {
    if (typeof time !== "number" || !Number.isInteger(time) || time < 0) return null;
    out[key] = time;
  }
  return out;
};

async function update(request: Request, context: RequestContext, caller: Caller, entity: EntityClass, id: string): Promise<Response> {
  if (entity.readOnly)
    return reply({ status: 405, body: { error: "method_not_allowed", message: `${entity.classname} cannot be changed through the data service` } });
  const stored = await readVisible(context, caller, entity, id);
  if (!stored || !parentMatches(entity, stored.row, new URL(request.url).searchParams)) return noSuch(entity.classname);
  if (!(await mayChange(context, caller, entity, stored.row, "edit"))) return forbidden(entity.classname);
  const body = await readJsonObject(request);
  if (body instanceof Response) return body;
  const base = mtimesSchema(body.field_mtimes);
  if (base === null) return badRequest("field_mtimes must map field names to epoch milliseconds");
  const changed = await changeEntity(context, caller, entity, stored, body, body.field_mtimes === undefined ? undefined : base);
  if (!changed.ok) return reply(changed.refusal);
  return json({ classname: entity.classname, uuid: id, changed: changed.value.changed, field_mtimes: changed.value.mtimes });
}

async function remove(request: Request, context: RequestContext, caller: Caller, entity: EntityClass, id: string): Promise<Response> {
  if (entity.readOnly || entity.changeOnly)
    return reply({ status: 405, body: { error: "method_not_allowed", message: `${entity.classname} cannot be deleted through the data service` } });
  const stored = await readVisible(context, caller, entity, id);
  if (!stored || !parentMatches(entity, stored.row, new URL(request.url).searchParams)) return noSuch(entity.classname);
  const removed = await removeEntity(context, caller, entity, stored);
  if (!removed.ok) return reply(removed.refusal);
  return new Response(null, { status: 204 });
}

// True for a class that is itself the item a token grant names (a Registration, a Race, an APIApplication).
function ownsItself(entity: EntityClass): boolean {
  return ownerField(entity, tokenItemKind(entity.area)) === "uuid";
}

/**
 * The token-scope gate every entity call passes first: 403 insufficient_scope when the token has no grant
 * for the class's area, or (for a class that is itself the item a grant names) not for this id.
 */
export function scopeDenied(caller: Caller, entity: EntityClass, id: string | undefined): Response | null {
  const scope = scopeForArea(entity.area);
  // An item-limited grant lets a list through; the reach then narrows it to those items.
  if (!caller.principal.tokenScopes?.some((grant) => grant.scope === scope)) return insufficientScope([scope]);
  if (id !== undefined && ownsItself(entity) && missingScopes([scope], caller.principal.tokenScopes, id).length > 0) return insufficientScope([scope]);
  return null;
}

/** Routes `/data-api/{Class}/…` once the caller is known. `rest` is the path after the class name. */
export async function handleEntity(request: Request, context: RequestContext, caller: Caller, entity: EntityClass, rest: string[]): Promise<Response> {
  const [id, action, ...extra] = rest;
  if (extra.length > 0) return noSuch(entity.classname);
  if (id === undefined) {
    if (request.method === "GET") return list(request, context, caller, entity);
    if (request.method === "PUT") return create(request, context, caller, entity);
    return methodNotAllowed("GET, PUT");
  }
  if (action === undefined) {
    if (request.method === "GET") return getTree(request, context, caller, entity, id);
    if (request.method === "POST") return update(request, context, caller, entity, id);
    if (request.method === "DELETE") return remove(request, context, caller, entity, id);
    return methodNotAllowed("GET, POST, DELETE");
  }
  return json({ error: "not_found", message: `No such endpoint: ${action}` }, { status: 404 });
}
