import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { FieldMtimes } from "../../core/entity/field-mtimes";

/** The race a RaceRoom holds (one row). Race fields beyond the catalogue live in `settings`. */
export const raceSetup = sqliteTable("race_setup", {
  id: text("id").primaryKey(),
  clubId: text("club_id").notNull(),
  name: text("name").notNull(),
  startTime: integer("start_time").notNull(),
  timezone: text("timezone").notNull().default("UTC"),
  siteId: text("site_id"),
  sport: text("sport"),
  endTime: integer("end_time"),
  location: text("location"),
  visibility: text("visibility", { enum: ["public", "unlisted", "private"] })
    .notNull()
    .default("public"),
  createdAt: integer("created_at").notNull(),
  fieldMtimes: text("field_mtimes", { mode: "json" }).$type<FieldMtimes>().notNull().default({}),
  /** The other Race fields (schema/race/settings.ts), one JSON document. */
  settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
});
