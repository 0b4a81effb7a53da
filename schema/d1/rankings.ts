/**
 * A ranking scheme's computed lists (decision 0054): every season's list in one row, with a digest of what
 * they came from (the config and each member race's results version), so the list page is one query while
 * nothing changed and is recomputed at the read after a member race's results change.
 */
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { rankingSchemes } from "./admin";
import { clubs } from "./tables";

export const rankingLists = sqliteTable("ranking_lists", {
  schemeId: text("scheme_id")
    .primaryKey()
    .references(() => rankingSchemes.id, { onDelete: "cascade" }),
  clubId: text("club_id")
    .notNull()
    .references(() => clubs.id),
  sourceKey: text("source_key").notNull(),
  lists: text("lists", { mode: "json" }).$type<unknown>().notNull(),
  computedAt: integer("computed_at").notNull(),
});
