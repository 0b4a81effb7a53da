/**
 * The history of entity writes (issue 25: who, when, which field, old and new value). The statements are
 * built here and run in the write's own batch, so a change and its history land together or not at all.
 */
import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import { entityChanges, type Db } from "../../schema/d1";
import type { EntityClass } from "../../schema/entities/registry";

export interface HistoryAuthor {
  userId: string | null;
  appId: string | null;
  at: number;
}

/** The author of a write made by a page for its signed-in user (the builder, race setup): no app. */
export function pageAuthor(context: { now: number; userId?: string | null }): HistoryAuthor {
  return { userId: context.userId ?? null, appId: null, at: context.now };
}

export interface HistoryEntry {
  id: string;
  field: string;
  kind: "created" | "changed" | "deleted";
  oldValue: unknown;
  newValue: unknown;
  userId: string | null;
  userName: string | null;
  appId: string | null;
  changedAt: number;
}

// Values are kept as JSON text so a number, a flag and a list read back as what they were.
const asJson = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));
const fromJson = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));

function row(entity: EntityClass, entityId: string, field: string, kind: HistoryEntry["kind"], oldValue: unknown, newValue: unknown, author: HistoryAuthor) {
  return {
    id: crypto.randomUUID(),
    classname: entity.classname,
    entityId,
    field,
    kind,
    oldValue: asJson(oldValue),
    newValue: asJson(newValue),
    userId: author.userId,
    appId: author.appId,
    changedAt: author.at,
  };
}

/** A create: one row holding the object's first values. */
export function createdHistory(db: Db, entity: EntityClass, id: string, values: Readonly<Record<string, unknown>>, author: HistoryAuthor) {
  const given = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null && value !== undefined));
  return [db.insert(entityChanges).values(row(entity, id, "*", "created", null, given, author))];
}

/**
 * A change: one row per changed field. With `readVersion` (the row's field times as the writer read them), each
 * row is written only while the row still has that version. changeFields puts these before its update, guarded
 * by the same version, so a writer that lost the race writes no history: even a double click whose two writes
 * carry the same field times (the same millisecond) is recorded once.
 */
export function changedHistory(
  db: Db,
  entity: EntityClass,
  id: string,
  before: Readonly<Record<string, unknown>>,
  changed: Readonly<Record<string, unknown>>,
  readVersion: string | null,
  author: HistoryAuthor,
) {
  return Object.entries(changed).map(([field, value]) => {
    const r = row(entity, id, field, "changed", before[field], value, author);
    const won =
      readVersion !== null
        ? sql`EXISTS (SELECT 1 FROM ${entity.table} WHERE ${entity.idColumn} = ${id} AND CAST(${entity.mtimesColumn} AS TEXT) = ${readVersion})`
        : sql`1`;
    return db
      .insert(entityChanges)
      .select(
        sql`SELECT ${r.id}, ${r.classname}, ${r.entityId}, ${r.field}, ${r.kind}, ${r.oldValue}, ${r.newValue}, ${r.userId}, ${r.appId}, ${r.changedAt} WHERE ${won}`,
      );
  });
}

/** A delete: the object's last values, so what was removed can be read back. */
export function deletedHistory(db: Db, entity: EntityClass, id: string, last: Readonly<Record<string, unknown>>, author: HistoryAuthor) {
  const kept = Object.fromEntries(Object.entries(last).filter(([field]) => field !== "uuid"));
  return [db.insert(entityChanges).values(row(entity, id, "*", "deleted", kept, null, author))];
}

export const HISTORY_PAGE = 200;

/** One object's history, newest first; `before` pages back through a long one. */
export async function historyOf(db: Db, entity: EntityClass, id: string, before?: { at: number; id: string }): Promise<HistoryEntry[]> {
  const rows = await db.query.entityChanges.findMany({
    where: and(
      eq(entityChanges.classname, entity.classname),
      eq(entityChanges.entityId, id),
      before ? or(lt(entityChanges.changedAt, before.at), and(eq(entityChanges.changedAt, before.at), lt(entityChanges.id, before.id))) : undefined,
    ),
    orderBy: [desc(entityChanges.changedAt), desc(entityChanges.id)],
    limit: HISTORY_PAGE,
  });
  const names = await userNames(
    db,
    rows.map((r) => r.userId),
  );
  return rows.map((r) => ({
    id: r.id,
    field: r.field,
    kind: r.kind,
    oldValue: fromJson(r.oldValue),
    newValue: fromJson(r.newValue),
    userId: r.userId,
    userName: r.userId ? (names.get(r.userId) ?? null) : null,
    appId: r.appId,
    changedAt: r.changedAt,
  }));
}

async function userNames(db: Db, ids: readonly (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const found = await db.query.users.findMany({ where: (u, { inArray }) => inArray(u.id, wanted), columns: { id: true, name: true, email: true } });
  return new Map(found.map((u) => [u.id, u.name || u.email]));
}
