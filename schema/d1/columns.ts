import { sql } from "drizzle-orm";
import { integer, text } from "drizzle-orm/sqlite-core";
import type { FieldMtimes } from "../../core/entity/field-mtimes";

/** Columns every entity row carries: uuid id, creation time and the per-field modification times. */
export function entityColumns() {
  return {
    id: text("id").primaryKey(),
    createdAt: integer("created_at").notNull().default(sql`(unixepoch('subsec') * 1000)`),
    fieldMtimes: text("field_mtimes", { mode: "json" }).$type<FieldMtimes>().notNull().default(sql`'{}'`),
  };
}
