import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The history of every entity write made through the entity service (issue 25): one row per changed field,
 * written in the same batch as the change, so a change and its history land together or not at all.
 */
export const entityChanges = sqliteTable(
  "entity_changes",
  {
    id: text("id").primaryKey(),
    /** The registry class name (Club, Registration, …). */
    classname: text("classname").notNull(),
    entityId: text("entity_id").notNull(),
    /** The API field name; "*" for a create or delete of the whole object. */
    field: text("field").notNull(),
    /** created, changed or deleted. */
    kind: text("kind", { enum: ["created", "changed", "deleted"] }).notNull(),
    /** JSON text of the value before and after (null when there was none). */
    oldValue: text("old_value"),
    newValue: text("new_value"),
    /** Who made it: a user, and the app when it came through the data API. */
    userId: text("user_id"),
    appId: text("app_id"),
    changedAt: integer("changed_at").notNull(),
  },
  (t) => [index("entity_changes_entity").on(t.classname, t.entityId, t.changedAt)],
);
