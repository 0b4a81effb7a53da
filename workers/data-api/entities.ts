/**
 * The generic entity API (docs/api/data-service.md): list, tree, create, change, delete and place for every
 * class of the registry, each call checked against the token's scopes, the user's roles and the tenant.
 */
import { can, type Action, type Principal } from "../../core/access/policy";
import { listReach, reachesNothing } from "../../core/access/reach";
import { missingScopes, scopeForArea } from "../../core/access/scopes";
import { tokenItemKind } from "../../core/access/reach";
import { initialMtimes, type FieldMtimes } from "../../core/entity/field-mtimes";
import { FilterError, parseFilters, type FilterFieldType } from "../../core/entity/filters";
import { childClassesOf, findEntityClass } from "../../schema/entities/classes";
import { ownerField, protectedObjectOf, type EntityClass } from "../../schema/entities/registry";
import { API_LIST_CONTENT_TYPE, encodeApiList } from "../../schema/wire/api-list";
import { json } from "../http";
import { badRequest, bodyRefused, forbidden, insufficientScope, methodNotAllowed, noSuch } from "./errors";
import type { RequestContext } from "../request-context";
import { DATA_API_BODY_LIMITS, readJsonObject as readLimitedJsonObject } from "../request-limits";
import { changeFields, childrenOf, deleteEntity, getEntity, insertEntity, listEntities, type EntityRow, type StoredEntity } from "./entity-store";
import { publishChange, publishFieldChanges } from "./hub-client";
import { writeRuleOf } from "../services/entity-rules";
import { changeRace, discardRace, ensureRaceOpen, raceDeletionBlocker, readRace } from "./race-store";

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 10_000;
/** Children shown inside a tree; more are read through the child class's list with a parent filter. */
export const MAX_TREE_CHILDREN = 1000;

export interface Caller {
  principal: Principal;
  userId: string;
  appId: string;
}

function siteOf(context: RequestContext): string | null {
  return context.tenant.kind === "site" ? context.tenant.siteId : null;
}

/** Whether the caller may act on one stored entity on this tenant (the same rule the list SQL applies). */
function allowed(context: RequestContext, caller: Caller, entity: EntityClass, row: EntityRow, action: Action): boolean {
  const object = protectedObjectOf(entity, row);
  const site = siteOf(context);
  if (site !== null && object.siteId !== site) return false;
  return can(caller.principal, action, object);
}

function tree(entity: EntityClass, stored: StoredEntity): Record<string, unknown> {
  return { classname: entity.classname, ...stored.row, field_mtimes: stored.mtimes };
}

/** Reads an entity the caller may see on this tenant, or null (which the API reports as not found). */
export async function readVisible(context: RequestContext, caller: Caller, entity: EntityClass, id: string): Promise<StoredEntity | null> {
  if (!/^[0-9A-Za-z-]{1,64}$/.test(id)) return null;
  const stored = await getEntity(context.db, entity, id);
  if (!stored || !allowed(context, caller, entity, stored.row, "view")) return null;
  return stored;
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
  const reach = listReach(caller.principal, "view", entity.area);
  const limit = Number(limitText);
  const offset = Number(offsetText);
  const page = reachesNothing(reach)
    ? { items: [], total: 0 }
    : await listEntities(context.db, entity, reach, {
        conditions,
        limit,
        offset,
        sort: sortField ? { field: sortField, descending: sortText?.startsWith("-") ?? false } : null,
        siteId: siteOf(context),
      });
  // The SQL scope and the policy are one rule; this check keeps a future mismatch from leaking a row.
  const rows = page.items.filter((item) => allowed(context, caller, entity, item.row, "view")).map((item) => item.row);
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

/** Validates client-sent fields: unknown and read-only names and values of the wrong shape are refused. */
function validateFields(entity: EntityClass, body: Record<string, unknown>, creating: boolean, ignore: readonly string[]): Record<string, unknown> | Response {
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (ignore.includes(key)) continue;
    const f = entity.fields.find((candidate) => candidate.api === key);
    if (!f) return badRequest(`Unknown field '${key}' for ${entity.classname}`);
    if (!(f.writable || (creating && f.createOnly))) return badRequest(`Field '${key}' of ${entity.classname} cannot be ${creating ? "set" : "changed"}`);
    const parsed = f.schema.safeParse(value);
    if (!parsed.success) return badRequest(`Invalid value for '${key}': ${parsed.error.issues[0]?.message ?? "wrong type"}`);
    values[key] = parsed.data;
  }
  if (creating) {
    const missing = entity.fields.find((f) => f.required && values[f.api] === undefined);
    if (missing) return badRequest(`Missing field '${missing.api}' for ${entity.classname}`);
  }
  return values;
}

/**
 * The service layer's rule for the class (entity-rules.ts), on the entity as it would be stored: 400 with the
 * first problem as the message and every problem by field, the same words the pages show. Nothing is written.
 */
async function ruleRefusal(context: RequestContext, entity: EntityClass, id: string, next: Record<string, unknown>): Promise<Response | null> {
  const problems = await writeRuleOf(entity.classname)?.(context.db, id, next);
  if (!problems) return null;
  const [field, message] = Object.entries(problems)[0]!;
  return json({ error: "invalid_request", message: `${field}: ${message}`, fields: problems }, { status: 400 });
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function create(request: Request, context: RequestContext, caller: Caller, entity: EntityClass): Promise<Response> {
  if (entity.readOnly) return json({ error: "method_not_allowed", message: `${entity.classname} cannot be created through the data service` }, { status: 405 });
  const body = await readJsonObject(request);
  if (body instanceof Response) return body;
  const values = validateFields(entity, body, true, ["uuid", "classname"]);
  if (values instanceof Response) return values;
  let id: string;
  if (body.uuid === undefined || body.uuid === null) {
    if (entity.ids === "client") return badRequest(`A ${entity.classname} must be sent with its uuid`);
    id = crypto.randomUUID();
  } else {
    if (typeof body.uuid !== "string" || !uuidPattern.test(body.uuid)) return badRequest("uuid must be a lowercase UUID");
    id = body.uuid;
  }
  // Referenced entities must be visible to the caller; their owners are copied so scoping needs no joins.
  let parentStored: StoredEntity | null = null;
  for (const reference of entity.references) {
    const target = findEntityClass(reference.classname);
    const refId = values[reference.field];
    if (!target || typeof refId !== "string") continue;
    // A parent must be readable by the caller; another reference (a registration's club) is only looked up
    // here, since the create check below decides whether the caller may create under it.
    const isParent = entity.parent?.field === reference.field;
    const stored = isParent ? await readVisible(context, caller, target, refId) : await getEntity(context.db, target, refId);
    const site = siteOf(context);
    if (!stored || (site !== null && protectedObjectOf(target, stored.row).siteId !== site)) return noSuch(reference.classname);
    for (const [mine, theirs] of Object.entries(reference.copy)) values[mine] = stored.row[theirs] ?? null;
    if (isParent) parentStored = stored;
  }
  if (siteOf(context) !== null && entity.owners.siteId && values[entity.owners.siteId] === undefined) values[entity.owners.siteId] = siteOf(context);
  const row = { ...values, uuid: id } as EntityRow;
  const parentEntity = entity.parent ? findEntityClass(entity.parent.classname) : undefined;
  const permitted =
    parentEntity && parentStored ? allowed(context, caller, parentEntity, parentStored.row, "edit") : allowed(context, caller, entity, row, "create");
  if (!permitted) return forbidden(entity.classname);
  if (await getEntity(context.db, entity, id)) return json({ error: "conflict", message: `A ${entity.classname} with that uuid exists` }, { status: 409 });
  const refused = await ruleRefusal(context, entity, id, values);
  if (refused) return refused;
  await insertEntity(context.db, entity, id, values, initialMtimes(values, context.now), context.now);
  const stored = await getEntity(context.db, entity, id);
  if (!stored) return noSuch(entity.classname);
  if (entity.store === "race") await ensureRaceOpen(context, stored);
  return json(tree(entity, stored), { status: 201, headers: { Location: `/data-api/${entity.classname}/${id}` } });
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

// A child is changed under its parent's permission, as creating one is.
export async function mayChange(context: RequestContext, caller: Caller, entity: EntityClass, row: EntityRow, action: "edit" | "delete"): Promise<boolean> {
  if (entity.parent) {
    const parentEntity = findEntityClass(entity.parent.classname);
    const parentId = row[entity.parent.field];
    const parent = parentEntity && typeof parentId === "string" ? await getEntity(context.db, parentEntity, parentId) : null;
    return !!(parentEntity && parent && allowed(context, caller, parentEntity, parent.row, "edit"));
  }
  return allowed(context, caller, entity, row, action);
}

async function update(request: Request, context: RequestContext, caller: Caller, entity: EntityClass, id: string): Promise<Response> {
  if (entity.readOnly) return json({ error: "method_not_allowed", message: `${entity.classname} cannot be changed through the data service` }, { status: 405 });
  const stored = await readVisible(context, caller, entity, id);
  if (!stored || !parentMatches(entity, stored.row, new URL(request.url).searchParams)) return noSuch(entity.classname);
  if (!(await mayChange(context, caller, entity, stored.row, "edit"))) return forbidden(entity.classname);
  const body = await readJsonObject(request);
  if (body instanceof Response) return body;
  const base = mtimesSchema(body.field_mtimes);
  if (base === null) return badRequest("field_mtimes must map field names to epoch milliseconds");
  const values = validateFields(entity, body, false, ["uuid", "classname", "field_mtimes"]);
  if (values instanceof Response) return values;
  const refused = await ruleRefusal(context, entity, id, { ...stored.row, ...values });
  if (refused) return refused;
  const baseTimes = body.field_mtimes === undefined ? undefined : base;
  const result =
    entity.store === "race" ? await changeRace(context, stored, values, baseTimes) : await changeFields(context.db, entity, id, values, baseTimes, context.now);
  if (!result) return noSuch(entity.classname);
  if (!result.ok) {
    const row = "stored" in result ? result.stored.row : result.row;
    const current = Object.fromEntries(result.stale.map((f) => [f, row[f]]));
    return json(
      {
        error: "stale",
        message: `These fields changed since you read them: ${result.stale.join(", ")}`,
        fields: result.stale,
        current,
        field_mtimes: "stored" in result ? result.stored.mtimes : result.mtimes,
      },
      { status: 409 },
    );
  }
  publishFieldChanges(context, entity, id, result.changed, result.mtimes, protectedObjectOf(entity, { ...stored.row, ...result.changed }));
  return json({ classname: entity.classname, uuid: id, changed: result.changed, field_mtimes: result.mtimes });
}

async function remove(request: Request, context: RequestContext, caller: Caller, entity: EntityClass, id: string): Promise<Response> {
  if (entity.readOnly) return json({ error: "method_not_allowed", message: `${entity.classname} cannot be deleted through the data service` }, { status: 405 });
  const stored = await readVisible(context, caller, entity, id);
  if (!stored || !parentMatches(entity, stored.row, new URL(request.url).searchParams)) return noSuch(entity.classname);
  if (!(await mayChange(context, caller, entity, stored.row, "delete"))) return forbidden(entity.classname);
  // timing.md section 4: a race with a public result format or a visible start list may not be deleted.
  const blocker = entity.store === "race" ? await raceDeletionBlocker(context, stored) : null;
  if (blocker) return json({ error: "conflict", message: blocker }, { status: 409 });
  try {
    await deleteEntity(context.db, entity, id);
  } catch (error) {
    if (String(error).includes("FOREIGN KEY"))
      return json({ error: "conflict", message: `This ${entity.classname} is still used by other entities` }, { status: 409 });
    throw error;
  }
  if (entity.store === "race") await discardRace(context, id);
  publishChange(context, entity, id, { fields: {}, field_mtimes: {}, deleted: true }, protectedObjectOf(entity, stored.row));
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
