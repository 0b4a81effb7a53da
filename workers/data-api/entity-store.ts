/**
 * The D1 store behind the generic entity API: every query is built from the registry's columns, scoped by
 * the caller's reach and tenant, and parameterised (filter values are bound, never spliced into SQL).
 */
import type { BatchItem } from "drizzle-orm/batch";
import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, ne, or, sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { ReachKind } from "../../core/access/policy";
import type { ListReach } from "../../core/access/reach";
import { applyFieldChanges, type FieldMtimes } from "../../core/entity/field-mtimes";
import type { FilterCondition } from "../../core/entity/filters";
import type { Db } from "../../schema/d1";
import { ownerField, type EntityClass } from "../../schema/entities/registry";

export type EntityRow = Record<string, unknown> & { uuid: string };
export interface StoredEntity {
  row: EntityRow;
  mtimes: FieldMtimes;
  /** The stored field_mtimes text, compared on update to detect a concurrent write. */
  version: string;
}

export interface ListQuery {
  conditions: readonly FilterCondition[];
  limit: number;
  offset: number;
  sort: { field: string; descending: boolean } | null;
  /** Only rows of this site (a whitelabel tenant), or null on the main host. */
  siteId: string | null;
  /** Rows where any of these text fields contains the text (ASCII case ignored), for a search box. */
  search?: { fields: readonly string[]; text: string } | null;
}

export function columnOf(entity: EntityClass, api: string): AnySQLiteColumn | undefined {
  return entity.fields.find((f) => f.api === api)?.column;
}

function kindColumn(entity: EntityClass, kind: ReachKind): AnySQLiteColumn | undefined {
  const api = ownerField(entity, kind);
  return api ? columnOf(entity, api) : undefined;
}

const nothing = sql`0`;

/** The SQL form of a class's platform-wide rows (every row when the class names no owner field for it). */
function platformWideCondition(entity: EntityClass): SQL | undefined {
  if (!entity.platformWide) return undefined;
  const column = entity.platformWide.field ? columnOf(entity, entity.platformWide.field) : undefined;
  return column ? isNull(column) : sql`1`;
}

/** The SQL form of a reach: rows some role reaches, narrowed to a token's items and to the tenant's site. */
export function reachCondition(entity: EntityClass, reach: ListReach, siteId: string | null): SQL | undefined {
  const parts: SQL[] = [];
  if (!reach.all) {
    const any: SQL[] = [];
    for (const [kind, ids] of reach.owners) {
      const column = kindColumn(entity, kind);
      if (column && ids.length > 0) any.push(inArray(column, [...ids]));
    }
    // Platform-wide rows are readable by anyone who reaches some of the area, as `can` decides (decision 0057).
    const shared = reach.action === "view" && any.length > 0 ? platformWideCondition(entity) : undefined;
    if (shared) any.push(shared);
    parts.push(any.length > 0 ? (or(...any) as SQL) : nothing);
  }
  if (reach.tokenItems !== null) {
    const column = kindColumn(entity, reach.tokenKind);
    parts.push(column && reach.tokenItems.length > 0 ? inArray(column, [...reach.tokenItems]) : nothing);
  }
  if (siteId !== null) {
    const column = kindColumn(entity, "sites");
    parts.push(column ? eq(column, siteId) : nothing);
  }
  return parts.length > 0 ? and(...parts) : undefined;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function filterCondition(entity: EntityClass, condition: FilterCondition): SQL {
  const column = columnOf(entity, condition.field);
  if (!column) throw new Error(`No column for ${condition.field}`);
  const { op, value } = condition;
  if (value === null) return op === "=" ? isNull(column) : isNotNull(column);
  if (Array.isArray(value)) return inArray(column, value);
  switch (op) {
    case "=":
      return eq(column, value);
    case "!=":
      return ne(column, value);
    case "<":
      return lt(column, value);
    case "<=":
      return lte(column, value);
    case ">":
      return gt(column, value);
    case ">=":
      return gte(column, value);
    // SQLite's LIKE already ignores ASCII case.
    case "~":
      return sql`${column} LIKE ${`%${escapeLike(String(value))}%`} ESCAPE '\\'`;
    case "^":
      return sql`${column} LIKE ${`${escapeLike(String(value))}%`} ESCAPE '\\'`;
    case "@":
      return inArray(column, [value]);
  }
}

function searchCondition(entity: EntityClass, search: { fields: readonly string[]; text: string }): SQL {
  const pattern = `%${escapeLike(search.text)}%`;
  const columns = search.fields.map((api) => columnOf(entity, api)).filter((c): c is AnySQLiteColumn => c !== undefined);
  return columns.length > 0 ? (or(...columns.map((c) => sql`${c} LIKE ${pattern} ESCAPE '\\'`)) as SQL) : nothing;
}

function selection(entity: EntityClass) {
  const columns: Record<string, AnySQLiteColumn | SQL> = { __mtimes: entity.mtimesColumn, __version: sql<string>`CAST(${entity.mtimesColumn} AS TEXT)` };
  for (const f of entity.fields) columns[f.api] = f.column;
  return columns;
}

function split(raw: Record<string, unknown>): StoredEntity {
  const { __mtimes, __version, ...row } = raw;
  return { row: row as EntityRow, mtimes: (__mtimes ?? {}) as FieldMtimes, version: String(__version) };
}

export async function listEntities(db: Db, entity: EntityClass, reach: ListReach, query: ListQuery): Promise<{ items: StoredEntity[]; total: number }> {
  const where = and(
    reachCondition(entity, reach, query.siteId),
    ...query.conditions.map((c) => filterCondition(entity, c)),
    query.search ? searchCondition(entity, query.search) : undefined,
  );
  const sortColumn = query.sort ? columnOf(entity, query.sort.field) : undefined;
  const order = sortColumn
    ? [query.sort?.descending ? desc(sortColumn) : asc(sortColumn), asc(entity.idColumn)]
    : [asc(entity.createdColumn), asc(entity.idColumn)];
  const [rows, totals] = await db.batch([
    db
      .select(selection(entity))
      .from(entity.table)
      .where(where)
      .orderBy(...order)
      .limit(query.limit)
      .offset(query.offset),
    db.select({ total: count() }).from(entity.table).where(where),
  ]);
  return { items: rows.map((r) => split(r as Record<string, unknown>)), total: totals[0]?.total ?? 0 };
}

export async function getEntity(db: Db, entity: EntityClass, id: string): Promise<StoredEntity | null> {
  const [row] = await db.select(selection(entity)).from(entity.table).where(eq(entity.idColumn, id)).limit(1);
  return row ? split(row as Record<string, unknown>) : null;
}

/** Several entities of one class by id, in one query (ids not found are left out). */
export async function getEntities(db: Db, entity: EntityClass, ids: readonly string[]): Promise<StoredEntity[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(selection(entity))
    .from(entity.table)
    .where(inArray(entity.idColumn, [...ids]));
  return rows.map((r) => split(r as Record<string, unknown>));
}

/** Column-keyed values for an insert or update, from API-keyed ones. */
function toColumns(entity: EntityClass, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of entity.fields) {
    if (f.api in values) out[columnKey(entity, f.column)] = values[f.api];
  }
  return out;
}

// drizzle's insert and update take the table's property names, so map each column back to its key.
function columnKey(entity: EntityClass, column: AnySQLiteColumn): string {
  const table = entity.table as unknown as Record<string, unknown>;
  const key = Object.keys(table).find((k) => table[k] === column);
  if (!key) throw new Error(`Column ${column.name} is not on ${entity.classname}'s table`);
  return key;
}

/** The insert of one new entity, for a batch that also writes its history. */
export function insertStatement(db: Db, entity: EntityClass, id: string, values: Record<string, unknown>, mtimes: FieldMtimes, now: number) {
  return db.insert(entity.table).values({
    ...toColumns(entity, values),
    [columnKey(entity, entity.idColumn)]: id,
    [columnKey(entity, entity.createdColumn)]: now,
    [columnKey(entity, entity.mtimesColumn)]: mtimes,
  });
}

export async function insertEntity(db: Db, entity: EntityClass, id: string, values: Record<string, unknown>, mtimes: FieldMtimes, now: number): Promise<void> {
  await insertStatement(db, entity, id, values, mtimes, now);
}

/**
 * Writes changed fields only if the row's field times are still the ones the change was computed from, so two
 * concurrent writers cannot interleave a read and a write. False means someone wrote first: read again.
 */
export async function updateEntity(
  db: Db,
  entity: EntityClass,
  id: string,
  changes: Record<string, unknown>,
  version: string,
  mtimes: FieldMtimes,
  alongside: readonly BatchItem<"sqlite">[] = [],
): Promise<boolean> {
  const update = db
    .update(entity.table)
    .set({ ...toColumns(entity, changes), [columnKey(entity, entity.mtimesColumn)]: mtimes })
    .where(and(eq(entity.idColumn, id), sql`CAST(${entity.mtimesColumn} AS TEXT) = ${version}`));
  // The statements alongside go first, each guarded by the same read version: batches run one after another, so
  // they see the row exactly as the update does, and a writer that lost the race writes none of them.
  const statements: BatchItem<"sqlite">[] = [...alongside, update];
  const results: unknown[] = await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  return ((results.at(-1) as D1Result).meta.changes ?? 0) > 0;
}

/** The delete of one entity, for a batch that also writes its history. */
export function deleteStatement(db: Db, entity: EntityClass, id: string) {
  return db.delete(entity.table).where(eq(entity.idColumn, id));
}

export async function deleteEntity(db: Db, entity: EntityClass, id: string): Promise<boolean> {
  const result = await db.delete(entity.table).where(eq(entity.idColumn, id));
  return (result.meta.changes ?? 0) > 0;
}

export async function childrenOf(
  db: Db,
  child: EntityClass,
  parentId: string,
  reach: ListReach,
  siteId: string | null,
  limit: number,
): Promise<StoredEntity[]> {
  const parentColumn = child.parent ? columnOf(child, child.parent.field) : undefined;
  if (!parentColumn) return [];
  const ordinal = columnOf(child, "ordinal");
  const rows = await db
    .select(selection(child))
    .from(child.table)
    .where(and(eq(parentColumn, parentId), reachCondition(child, reach, siteId)))
    .orderBy(...(ordinal ? [asc(ordinal)] : []), asc(child.createdColumn), asc(child.idColumn))
    .limit(limit);
  return rows.map((r) => split(r as Record<string, unknown>));
}

/** Applies field changes with optimistic concurrency: a write that lost a race is recomputed, at most 3 times. */
export async function changeFields(
  db: Db,
  entity: EntityClass,
  id: string,
  changes: Record<string, unknown>,
  base: FieldMtimes | undefined,
  now: number,
  /**
   * Statements written in the same batch as the update (its history), given the row before, the change and the
   * version read; each must be guarded by that version (changedHistory does), since it runs before the update.
   */
  alongside?: (before: EntityRow, changed: Record<string, unknown>, version: string) => readonly BatchItem<"sqlite">[],
): Promise<
  { ok: true; stored: StoredEntity; changed: Record<string, unknown>; mtimes: FieldMtimes } | { ok: false; stale: string[]; stored: StoredEntity } | null
> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const stored = await getEntity(db, entity, id);
    if (!stored) return null;
    const result = applyFieldChanges(stored.row, stored.mtimes, changes, now, base);
    if (result.stale.length > 0) return { ok: false, stale: result.stale, stored };
    if (Object.keys(result.changed).length === 0) return { ok: true, stored, changed: {}, mtimes: stored.mtimes };
    if (await updateEntity(db, entity, id, result.changed, stored.version, result.mtimes, alongside?.(stored.row, result.changed, stored.version))) {
      return { ok: true, stored, changed: result.changed, mtimes: result.mtimes };
    }
  }
  throw new Error(`Could not write ${entity.classname} ${id}: it kept changing`);
}
