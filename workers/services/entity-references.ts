/**
 * What still refers to an entity, read from the registry: every class whose parent, reference or owner field
 * names the entity's class. A delete is refused while any remain, with a count per class, so an administrator
 * sees what to move or remove first; the tables' foreign keys stay as the guard inside the write itself.
 */
import { count, eq } from "drizzle-orm";
import { getTableConfig, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "../../schema/d1";
import { entityClasses } from "../../schema/entities/classes";
import { OWNER_CLASSES, type EntityClass, type OwnerFields } from "../../schema/entities/registry";
import { columnOf } from "../data-api/entity-store";

function cascades(entity: EntityClass, column: AnySQLiteColumn): boolean {
  const keys = getTableConfig(entity.table).foreignKeys;
  return keys.some((key) => key.reference().columns.includes(column) && (key.onDelete === "cascade" || key.onDelete === "set null"));
}

/** The (class, field) pairs that hold a uuid of `classname`. */
export function referringFields(classname: string): { entity: EntityClass; field: string }[] {
  const out: { entity: EntityClass; field: string }[] = [];
  for (const entity of entityClasses) {
    const fields = new Set<string>();
    for (const reference of entity.references) if (reference.classname === classname) fields.add(reference.field);
    for (const [key, field] of Object.entries(entity.owners) as [keyof OwnerFields, string][]) {
      if (OWNER_CLASSES[key] === classname && field !== "uuid") fields.add(field);
    }
    for (const field of fields) {
      const column = columnOf(entity, field);
      // A part the owner's delete takes with it (a form's fields) does not block it; a record made by the
      // product's own flows (a cart, a person in it) does, even where the table would cascade.
      if (column && (entity.readOnly || entity.changeOnly || !cascades(entity, column))) out.push({ entity, field });
    }
  }
  // A part of another referring object (a form's fields, under a form of the club) is covered by its parent.
  const classes = new Set(out.map((pair) => pair.entity.classname));
  return out.filter((pair) => !(pair.entity.parent && classes.has(pair.entity.parent.classname)));
}

export interface ReferenceCount {
  classname: string;
  field: string;
  count: number;
}

export async function referencesTo(db: Db, entity: EntityClass, id: string): Promise<ReferenceCount[]> {
  const pairs = referringFields(entity.classname);
  if (pairs.length === 0) return [];
  const counts = await db.batch(
    pairs.map(({ entity: other, field }) =>
      db
        .select({ n: count() })
        .from(other.table)
        .where(eq(columnOf(other, field)!, id)),
    ) as never,
  );
  return pairs
    .map(({ entity: other, field }, i) => ({ classname: other.classname, field, count: (counts as { n: number }[][])[i]?.[0]?.n ?? 0 }))
    .filter((r) => r.count > 0);
}
