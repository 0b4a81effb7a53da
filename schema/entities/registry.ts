/**
 * The entity registry (architecture.md): for every data-service class, its table, parent, fields, access
 * area and the store that holds it. The generic entity API in workers/data-api reads only this.
 */
import type { AnySQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as z from "zod";
import type { ProtectedObject, ReachKind } from "../../core/access/policy";
import type { ProtectedArea } from "../../core/access/scopes";
import type { FilterFieldType } from "../../core/entity/filters";
import type { ListColumnType } from "../wire/api-list";

export type FieldType = ListColumnType & FilterFieldType;

export interface EntityField {
  /** The API name (snake_case), also the key in field_mtimes. */
  readonly api: string;
  readonly column: AnySQLiteColumn;
  readonly type: FieldType;
  /** Clients may set it on create and change it later. */
  readonly writable: boolean;
  /** Clients may set it on create only (a parent or owning club). */
  readonly createOnly: boolean;
  /** Validates a value a client sends (null allowed when the column is nullable). */
  readonly schema: z.ZodType;
  /** Must be given on create. */
  readonly required: boolean;
}

/** Which ProtectedObject owner each API field fills, so the access policy sees the row's owners. */
export type OwnerFields = Partial<Record<"clubId" | "siteId" | "registrationId" | "raceId" | "depotId", string>>;

/** The class whose uuid each owner field holds. */
export const OWNER_CLASSES: Readonly<Record<keyof OwnerFields, string>> = {
  clubId: "Club",
  siteId: "WhitelabelSite",
  registrationId: "Registration",
  raceId: "Race",
  depotId: "ShippingDepot",
};

/**
 * The API field that holds an entity's owner of one kind ("uuid" when the entity is that kind itself), or
 * undefined when it has none. "item" is always the entity's own id.
 */
export function ownerField(entity: Pick<EntityClass, "owners">, kind: ReachKind): string | undefined {
  const key: Record<Exclude<ReachKind, "item">, keyof OwnerFields> = {
    clubs: "clubId",
    sites: "siteId",
    registrations: "registrationId",
    races: "raceId",
    depots: "depotId",
  };
  return kind === "item" ? "uuid" : entity.owners[key[kind]];
}

export interface EntityReference {
  /** API field holding the referenced entity's uuid. */
  readonly field: string;
  readonly classname: string;
  /** Fields copied from the referenced entity on create (this class's field -> the referenced class's field). */
  readonly copy: Readonly<Record<string, string>>;
}

export interface EntityClass {
  readonly classname: string;
  readonly area: ProtectedArea;
  /** d1: the platform database; race: the race's RaceRoom Durable Object. */
  readonly store: "d1" | "race";
  readonly table: SQLiteTable;
  readonly idColumn: AnySQLiteColumn;
  readonly createdColumn: AnySQLiteColumn;
  readonly mtimesColumn: AnySQLiteColumn;
  readonly fields: readonly EntityField[];
  readonly owners: OwnerFields;
  /** The parent, whose child collection this class forms (`{classname lowercased}s`). */
  readonly parent?: EntityReference;
  /** Other entities a create must name and may copy owners from (e.g. the club of a registration). */
  readonly references: readonly EntityReference[];
  /** server: ids are generated here; client: an item without a uuid is refused. */
  readonly ids: "server" | "client";
  /** Reads only: the API never writes this class (it is managed by its own flows). */
  readonly readOnly: boolean;
  /** Changes only: creating and deleting are refused (405) as on a read-only class. */
  readonly changeOnly: boolean;
  /** Carries a place settable by geoname id (city_name, timezone, geoname, …). */
  readonly hasCity: boolean;
  /**
   * Rows every role reaching the area may read (decision 0057): those whose `field` is null (an activity with no
   * club), or every row when `field` is null (the inventory catalogue). Writes still need the area's own reach.
   */
  readonly platformWide?: { readonly field: string | null };
  /** Fields a list shows by default when a class is wide; all fields otherwise. */
  readonly description: string;
}

type ColumnLike = AnySQLiteColumn & { notNull: boolean; hasDefault: boolean };

const jsonValue: z.ZodType = z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]);

function baseSchema(type: FieldType): z.ZodType {
  switch (type) {
    case "string":
      return z.string().max(20_000);
    case "int":
      return z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
    case "time":
      return z.number().int().min(0).max(8_640_000_000_000_000);
    case "float":
      return z.number().finite();
    case "bool":
      return z.boolean();
    case "json":
      return jsonValue;
  }
}

export interface FieldOptions {
  writable?: boolean;
  createOnly?: boolean;
  schema?: z.ZodType;
}

/** Declares a field; nullability and whether create needs it come from the column. */
export function field(api: string, column: AnySQLiteColumn, type: FieldType, options: FieldOptions = {}): EntityField {
  const col = column as ColumnLike;
  const base = options.schema ?? baseSchema(type);
  const writable = options.writable ?? true;
  const createOnly = options.createOnly ?? false;
  return {
    api,
    column,
    type,
    writable: writable && !createOnly,
    createOnly,
    schema: col.notNull ? base : base.nullable(),
    required: (writable || createOnly) && col.notNull && !col.hasDefault,
  };
}

/** The id every class has, set by the server (or sent once by the client for client-id classes). */
export const uuidField = (column: AnySQLiteColumn) => field("uuid", column, "string", { writable: false });
/** The creation time every class has, epoch milliseconds. */
export const createdField = (column: AnySQLiteColumn) => field("created_time", column, "time", { writable: false });

export interface ClassOptions {
  classname: string;
  area: ProtectedArea;
  store?: "d1" | "race";
  table: SQLiteTable & { id: AnySQLiteColumn; createdAt: AnySQLiteColumn; fieldMtimes: AnySQLiteColumn };
  fields: EntityField[];
  owners: OwnerFields;
  parent?: EntityReference;
  references?: EntityReference[];
  ids?: "server" | "client";
  readOnly?: boolean;
  /** Existing objects may be changed, but none created or deleted through the data service (a site: its hostname routes requests). */
  changeOnly?: boolean;
  hasCity?: boolean;
  platformWide?: { field: string | null };
  description: string;
}

export function entityClass(options: ClassOptions): EntityClass {
  return {
    classname: options.classname,
    area: options.area,
    store: options.store ?? "d1",
    table: options.table,
    idColumn: options.table.id,
    createdColumn: options.table.createdAt,
    mtimesColumn: options.table.fieldMtimes,
    // A read-only class takes no writes at all, so none of its fields says it may be set.
    fields: options.readOnly ? options.fields.map((f) => ({ ...f, writable: false, createOnly: false, required: false })) : options.fields,
    owners: options.owners,
    parent: options.parent,
    references: [...(options.parent ? [options.parent] : []), ...(options.references ?? [])],
    ids: options.ids ?? "server",
    readOnly: options.readOnly ?? false,
    changeOnly: options.changeOnly ?? false,
    hasCity: options.hasCity ?? false,
    platformWide: options.platformWide,
    description: options.description,
  };
}

/** Child collections are named after the child class in lowercase with an s (spec section 3). */
export function collectionName(classname: string): string {
  return `${classname.toLowerCase()}s`;
}

/** The ProtectedObject a row stands for, read from its API fields through the class's owner map. */
export function protectedObjectOf(entity: EntityClass, row: Readonly<Record<string, unknown>>): ProtectedObject {
  const owner = (key: keyof OwnerFields): string | undefined => {
    const api = entity.owners[key];
    const value = api ? row[api] : undefined;
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const shared = entity.platformWide;
  return {
    area: entity.area,
    platformWide: shared ? (shared.field === null ? true : row[shared.field] === null || row[shared.field] === undefined) : undefined,
    id: typeof row.uuid === "string" ? row.uuid : undefined,
    clubId: owner("clubId") ?? null,
    siteId: owner("siteId") ?? null,
    registrationId: owner("registrationId"),
    raceId: owner("raceId"),
    depotId: owner("depotId"),
  };
}
