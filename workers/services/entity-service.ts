/**
 * The one service layer for every registry entity (issue 25): the data API and the administration pages both
 * call it, so they accept and refuse the same writes with the same messages. Each call checks, in order:
 * the class takes writes at all, the body's fields and shapes, the referenced parent or club is visible on
 * this tenant, the caller's roles allow the act, the class's cross-field rule (entity-rules.ts); then it
 * writes in one batch with the change's history, or writes nothing.
 */
import { can, type Action, type Principal } from "../../core/access/policy";
import { listReach, reachesNothing } from "../../core/access/reach";
import { initialMtimes, type FieldMtimes } from "../../core/entity/field-mtimes";
import type { Db } from "../../schema/d1";
import { findEntityClass } from "../../schema/entities/classes";
import { protectedObjectOf, type EntityClass } from "../../schema/entities/registry";
import {
  changeFields,
  deleteStatement,
  getEntity,
  insertStatement,
  listEntities,
  type EntityRow,
  type ListQuery,
  type StoredEntity,
} from "../data-api/entity-store";
import { publishChange, publishFieldChanges, type PublishContext } from "../data-api/hub-client";
import { changeRace, discardRace, ensureRaceOpen, raceDeletionBlocker } from "../data-api/race-store";
import { changedHistory, createdHistory, deletedHistory, type HistoryAuthor } from "./entity-history";
import { writeRuleOf } from "./entity-rules";
import { referencesTo } from "./entity-references";
import { uniqueConstraintOf } from "../../schema/d1/errors";
import { forgetSite } from "../../tenants/resolve";
import { siteVersionBump } from "./site-content";
import { personKeyFollows } from "./member-keys";
import type { FieldChange } from "./field-change";
import {
  cardOfMovedMembership,
  cardOfRemovedMembership,
  cardsFollowPerson,
  followsOnCards,
  issueMemberCard,
  needsMemberCard,
  queuePersonCardMails,
} from "./member-cards";

export type EntityContext = PublishContext & { db: Db };

/** Who acts: the principal the policy checks, and the user and app the history names. */
export interface Caller {
  principal: Principal;
  userId: string;
  /** The app the call came through; "" for the platform's own pages. */
  appId: string;
}

/** A refusal in the data service's error shape (docs/api/data-service.md); pages show `message` and `fields`. */
export interface Refusal {
  status: 400 | 403 | 404 | 405 | 409;
  body: { error: string; message: string; fields?: Record<string, string> | readonly string[]; [extra: string]: unknown };
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

const refuse = (status: Refusal["status"], error: string, message: string, extra: Record<string, unknown> = {}): { ok: false; refusal: Refusal } => ({
  ok: false,
  refusal: { status, body: { error, message, ...extra } },
});
const invalid = (message: string) => refuse(400, "invalid_request", message);
/** Unknown, missing and unreadable entities all read as not found, so ids cannot be probed. */
export const notFound = (classname: string) => refuse(404, "not_found", `No such ${classname}`);
const forbidden = (classname: string) => refuse(403, "forbidden", `Your roles do not allow this change to the ${classname}`);

function siteOf(context: Pick<EntityContext, "tenant">): string | null {
  return context.tenant.kind === "site" ? context.tenant.siteId : null;
}

function authorOf(caller: Caller, now: number): HistoryAuthor {
  return { userId: caller.userId, appId: caller.appId || null, at: now };
}

/** Whether the caller may act on one stored entity on this tenant (the same rule the list SQL applies). */
export function allowed(context: Pick<EntityContext, "tenant">, caller: Caller, entity: EntityClass, row: EntityRow, action: Action): boolean {
  const object = protectedObjectOf(entity, row);
  const site = siteOf(context);
  if (site !== null && object.siteId !== site) return false;
  return can(caller.principal, action, object);
}

/** Reads an entity the caller may see on this tenant, or null (which callers report as not found). */
export async function readVisible(context: EntityContext, caller: Caller, entity: EntityClass, id: string): Promise<StoredEntity | null> {
  if (!/^[0-9A-Za-z-]{1,64}$/.test(id)) return null;
  const stored = await getEntity(context.db, entity, id);
  if (!stored || !allowed(context, caller, entity, stored.row, "view")) return null;
  return stored;
}

/** One page of the entities the caller may see on this tenant, with the total that match. */
export async function listVisible(
  context: EntityContext,
  caller: Caller,
  entity: EntityClass,
  query: Omit<ListQuery, "siteId">,
): Promise<{ items: StoredEntity[]; total: number }> {
  const reach = listReach(caller.principal, "view", entity.area);
  if (reachesNothing(reach)) return { items: [], total: 0 };
  const page = await listEntities(context.db, entity, reach, { ...query, siteId: siteOf(context) });
  // The SQL scope and the policy are one rule; this check keeps a future mismatch from leaking a row.
  return { items: page.items.filter((item) => allowed(context, caller, entity, item.row, "view")), total: page.total };
}

// A child is changed under its parent's permission, as creating one is.
export async function mayChange(context: EntityContext, caller: Caller, entity: EntityClass, row: EntityRow, action: "edit" | "delete"): Promise<boolean> {
  if (entity.parent) {
    const parentEntity = findEntityClass(entity.parent.classname);
    const parentId = row[entity.parent.field];
    const parent = parentEntity && typeof parentId === "string" ? await getEntity(context.db, parentEntity, parentId) : null;
    return !!(parentEntity && parent && allowed(context, caller, parentEntity, parent.row, "edit"));
  }
  return allowed(context, caller, entity, row, action);
}

/** Validates client-sent fields: unknown and read-only names and values of the wrong shape are refused. */
function validateFields(entity: EntityClass, body: Record<string, unknown>, creating: boolean, ignore: readonly string[]): Outcome<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (ignore.includes(key)) continue;
    const f = entity.fields.find((candidate) => candidate.api === key);
    if (!f) return invalid(`Unknown field '${key}' for ${entity.classname}`);
    if (!(f.writable || (creating && f.createOnly))) return invalid(`Field '${key}' of ${entity.classname} cannot be ${creating ? "set" : "changed"}`);
    const parsed = f.schema.safeParse(value);
    if (!parsed.success) return invalid(`Invalid value for '${key}': ${parsed.error.issues[0]?.message ?? "wrong type"}`);
    values[key] = parsed.data;
  }
  if (creating) {
    const missing = entity.fields.find((f) => f.required && values[f.api] === undefined);
    if (missing) return invalid(`Missing field '${missing.api}' for ${entity.classname}`);
  }
  return { ok: true, value: values };
}

/** The class's cross-field rule on the entity as it would be stored: the first problem as the message, all by field. */
async function ruleRefusal(
  context: EntityContext,
  entity: EntityClass,
  id: string,
  next: Record<string, unknown>,
): Promise<{ ok: false; refusal: Refusal } | null> {
  const problems = await writeRuleOf(entity.classname)?.(context.db, id, next, context.env);
  if (!problems) return null;
  const [field, message] = Object.entries(problems)[0]!;
  return refuse(400, "invalid_request", `${field}: ${message}`, { fields: problems });
}

/**
 * A unique index that a write would break (a site's page path, an inventory key): 409 naming the fields, so
 * the page can show it next to them. Checking first would still race a concurrent write; the index decides.
 */
function uniqueRefusal(entity: EntityClass, error: unknown): { ok: false; refusal: Refusal } | null {
  const broken = uniqueConstraintOf(error);
  if (!broken) return null;
  const columns = broken.split(",").map((part) => part.trim().split(".").pop()!);
  // Two sends of one create (a double click) race to the same id: the second is told it exists, as the check says.
  if (columns.includes(entity.idColumn.name)) return refuse(409, "conflict", `A ${entity.classname} with that uuid exists`);
  const fields = entity.fields.filter((f) => columns.includes(f.column.name) && f.api !== "site" && f.api !== "club").map((f) => f.api);
  // A key of no field of its own (a person's matching key) broken by a write racing another: still a conflict, not a failure.
  if (fields.length === 0) return refuse(409, "conflict", `Another ${entity.classname} already has these details`);
  const message = `Another ${entity.classname} already has this ${fields.join(" and ")}`;
  return refuse(409, "conflict", message, { fields: Object.fromEntries(fields.map((f) => [f, message])) });
}

/** Writes a batch, turning a broken unique index into a refusal. */
async function writeOrRefuse<T>(entity: EntityClass, write: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await write() };
  } catch (error) {
    const refused = uniqueRefusal(entity, error);
    if (refused) return refused;
    throw error;
  }
}

/** A changed reference (an inventory item's type) must name an entity that exists on this tenant. */
async function missingReference(context: EntityContext, entity: EntityClass, values: Record<string, unknown>): Promise<{ ok: false; refusal: Refusal } | null> {
  for (const reference of entity.references) {
    const refId = values[reference.field];
    const target = findEntityClass(reference.classname);
    if (!target || typeof refId !== "string") continue;
    const stored = await getEntity(context.db, target, refId);
    const site = siteOf(context);
    if (!stored || (site !== null && protectedObjectOf(target, stored.row).siteId !== site)) return notFound(reference.classname);
  }
  return null;
}

/** Decision 0057: the words for a sent owner field that its reference decides otherwise. */
export const ownerMismatch = (classname: string, reference: string, field: string) =>
  `A ${classname} of this ${reference} goes on the ${reference}'s ${field}; send the ${reference}'s own ${field}`;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Creates one entity from API-keyed fields (`uuid` optional unless the class wants client ids). */
export async function createEntity(context: EntityContext, caller: Caller, entity: EntityClass, body: Record<string, unknown>): Promise<Outcome<StoredEntity>> {
  if (entity.readOnly || entity.changeOnly) return refuse(405, "method_not_allowed", `${entity.classname} cannot be created through the data service`);
  const checked = validateFields(entity, body, true, ["uuid", "classname"]);
  if (!checked.ok) return checked;
  const values = checked.value;
  let id: string;
  if (body.uuid === undefined || body.uuid === null) {
    if (entity.ids === "client") return invalid(`A ${entity.classname} must be sent with its uuid`);
    id = crypto.randomUUID();
  } else {
    if (typeof body.uuid !== "string" || !uuidPattern.test(body.uuid)) return invalid("uuid must be a lowercase UUID");
    id = body.uuid;
  }
  // Referenced entities must exist on this tenant; their owners are copied so scoping needs no joins.
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
    if (!stored || (site !== null && protectedObjectOf(target, stored.row).siteId !== site)) return notFound(reference.classname);
    for (const [mine, theirs] of Object.entries(reference.copy)) {
      // A field the reference decides (a club's page's site) is refused when sent otherwise, never silently moved.
      const sent = values[mine];
      if (sent !== undefined && sent !== null && sent !== (stored.row[theirs] ?? null)) {
        const message = ownerMismatch(entity.classname, reference.classname, mine);
        return refuse(400, "invalid_request", `${mine}: ${message}`, { fields: { [mine]: message } });
      }
      values[mine] = stored.row[theirs] ?? null;
    }
    if (isParent) parentStored = stored;
  }
  if (siteOf(context) !== null && entity.owners.siteId && values[entity.owners.siteId] === undefined) values[entity.owners.siteId] = siteOf(context);
  const row = { ...values, uuid: id } as EntityRow;
  const parentEntity = entity.parent ? findEntityClass(entity.parent.classname) : undefined;
  const permitted =
    parentEntity && parentStored ? allowed(context, caller, parentEntity, parentStored.row, "edit") : allowed(context, caller, entity, row, "create");
  if (!permitted) return forbidden(entity.classname);
  if (await getEntity(context.db, entity, id)) return refuse(409, "conflict", `A ${entity.classname} with that uuid exists`);
  const refused = await ruleRefusal(context, entity, id, values);
  if (refused) return refused;
  const written = await writeOrRefuse(entity, () =>
    context.db.batch([
      insertStatement(context.db, entity, id, values, initialMtimes(values, context.now), context.now),
      ...createdHistory(context.db, entity, id, values, authorOf(caller, context.now)),
      ...siteVersionBump(context.db, entity.classname, id, values),
    ]),
  );
  if (!written.ok) return written;
  const stored = await getEntity(context.db, entity, id);
  if (!stored) return notFound(entity.classname);
  if (entity.store === "race") await ensureRaceOpen(context, stored);
  // A membership made through the API or an admin area gets its season's card, as a paid or hand-added one does.
  if (needsMemberCard(entity.classname, null)) await issueMemberCard(context.env, context.db, id, context.now);
  return { ok: true, value: stored };
}

export interface Changed {
  changed: Record<string, unknown>;
  mtimes: FieldMtimes;
}

/**
 * Changes fields of one entity. `base` is the field times the caller read (the data API's field_mtimes): a
 * field someone else changed since is refused as stale (409) with its current value, never overwritten.
 */
export async function changeEntity(
  context: EntityContext,
  caller: Caller,
  entity: EntityClass,
  stored: StoredEntity,
  body: Record<string, unknown>,
  base: FieldMtimes | undefined,
): Promise<Outcome<Changed>> {
  if (entity.readOnly) return refuse(405, "method_not_allowed", `${entity.classname} cannot be changed through the data service`);
  const id = stored.row.uuid;
  if (!(await mayChange(context, caller, entity, stored.row, "edit"))) return forbidden(entity.classname);
  const checked = validateFields(entity, body, false, ["uuid", "classname", "field_mtimes"]);
  if (!checked.ok) return checked;
  const values = checked.value;
  const refused = (await missingReference(context, entity, values)) ?? (await ruleRefusal(context, entity, id, { ...stored.row, ...values }));
  if (refused) return refused;
  const author = authorOf(caller, context.now);
  type Result = Awaited<ReturnType<typeof changeFields>> | Awaited<ReturnType<typeof changeRace>>;
  const written = await writeOrRefuse<Result>(entity, () =>
    entity.store === "race"
      ? changeRace(context, stored, values, base)
      : changeFields(context.db, entity, id, values, base, context.now, (before, changed, version) => {
          const change: FieldChange = { db: context.db, classname: entity.classname, id, changed, merged: { ...before, ...changed }, version, author };
          return [
            ...changedHistory(context.db, entity, id, before, changed, version, author),
            ...siteVersionBump(context.db, entity.classname, id, change.merged),
            ...personKeyFollows(change),
            ...cardOfMovedMembership(change),
            ...cardsFollowPerson(change),
          ];
        }),
  );
  if (!written.ok) return written;
  const result = written.value;
  if (!result) return notFound(entity.classname);
  if (!result.ok) {
    const row = "stored" in result ? result.stored.row : result.row;
    const current = Object.fromEntries(result.stale.map((f) => [f, row[f]]));
    return refuse(409, "stale", `These fields changed since you read them: ${result.stale.join(", ")}`, {
      fields: result.stale,
      current,
      field_mtimes: "stored" in result ? result.stored.mtimes : result.mtimes,
    });
  }
  // The RaceRoom is the race's writer, so its history is written after its change rather than in the same batch.
  if (entity.store === "race" && Object.keys(result.changed).length > 0) {
    const statements = changedHistory(context.db, entity, id, stored.row, result.changed, null, author);
    if (statements.length > 0) await context.db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  }
  publishFieldChanges(context, entity, id, result.changed, result.mtimes, protectedObjectOf(entity, { ...stored.row, ...result.changed }));
  // A membership moved to another season gets that season's card (the old one was revoked in the change's batch).
  if (needsMemberCard(entity.classname, result.changed)) await issueMemberCard(context.env, context.db, id, context.now);
  // A corrected address's card mails were written in the batch; they go on the queue now.
  if (followsOnCards(entity.classname, result.changed)) await queuePersonCardMails(context.env, context.db, id);
  // A site's look shows on its hosts at once: this isolate forgets the hosts it remembers for the site.
  if (entity.classname === "WhitelabelSite") forgetSite(id);
  return { ok: true, value: { changed: result.changed, mtimes: result.mtimes } };
}

/** Deletes one entity, refused while anything still refers to it; the object's last values stay in its history. */
export async function removeEntity(context: EntityContext, caller: Caller, entity: EntityClass, stored: StoredEntity): Promise<Outcome<null>> {
  if (entity.readOnly || entity.changeOnly) return refuse(405, "method_not_allowed", `${entity.classname} cannot be deleted through the data service`);
  const id = stored.row.uuid;
  if (!(await mayChange(context, caller, entity, stored.row, "delete"))) return forbidden(entity.classname);
  // timing.md section 4: a race with a public result format or a visible start list may not be deleted.
  const blocker = entity.store === "race" ? await raceDeletionBlocker(context, stored) : null;
  if (blocker) return refuse(409, "conflict", blocker);
  const users = await referencesTo(context.db, entity, id);
  if (users.length > 0) {
    const list = users.map((u) => `${u.count} ${u.classname}${u.count === 1 ? "" : "s"}`).join(", ");
    return refuse(409, "conflict", `This ${entity.classname} is still used by ${list}`, { used_by: users });
  }
  try {
    await context.db.batch([
      deleteStatement(context.db, entity, id),
      ...deletedHistory(context.db, entity, id, stored.row, authorOf(caller, context.now)),
      ...siteVersionBump(context.db, entity.classname, id, stored.row),
      ...cardOfRemovedMembership(context.db, entity.classname, id, stored.row, authorOf(caller, context.now)),
    ]);
  } catch (error) {
    // A reference the registry does not list (a cart's transactions) is still guarded by its foreign key.
    if (String(error).includes("FOREIGN KEY")) return refuse(409, "conflict", `This ${entity.classname} is still used by other entities`);
    throw error;
  }
  if (entity.store === "race") await discardRace(context, id);
  publishChange(context, entity, id, { fields: {}, field_mtimes: {}, deleted: true }, protectedObjectOf(entity, stored.row));
  return { ok: true, value: null };
}
