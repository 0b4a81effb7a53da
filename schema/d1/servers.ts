/**
 * Serverboxes' pairing (issue 27, decision 0055): ServerboxAuthRequest (section 3: server_id, club_id,
 * site_id, role_id, user_id, created, completed, cancelled) with what the device grant needs beside it.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";

/** A box's request to be paired; a person approves it for a club by its user code, or cancels it. */
export const serverboxAuthRequests = sqliteTable(
  "serverbox_auth_requests",
  {
    id: text("id").primaryKey(),
    /** SHA-256 of the secret half of the box's device code (`<id>.<secret>`), which only the box holds. */
    secretHash: text("secret_hash").notNull(),
    /** Eight letters of core/servers/pairing.ts's alphabet, canonical (no dash). */
    userCode: text("user_code").notNull(),
    /** What the box said it is. */
    serial: text("serial").notNull(),
    name: text("name").notNull(),
    softwareVersion: text("software_version"),
    /** The Serverbox the approval made or paired anew. */
    serverId: text("server_id"),
    clubId: text("club_id"),
    siteId: text("site_id"),
    /** The approver's role grant that allowed it (null for a System Administrator's configuration). */
    roleId: text("role_id"),
    userId: text("user_id"),
    created: integer("created").notNull(),
    expires: integer("expires").notNull(),
    completed: integer("completed"),
    cancelled: integer("cancelled"),
    /** When the box received its token: a request hands one out once. */
    delivered: integer("delivered"),
    /** The polling interval in seconds, raised by each slow_down, and the last poll's time. */
    interval: integer("interval").notNull(),
    lastPoll: integer("last_poll"),
  },
  (t) => [
    // Two open requests never share a code; closed and expired ones may (a code is looked up newest first).
    uniqueIndex("serverbox_auth_requests_open_code")
      .on(t.userCode)
      .where(sql`completed IS NULL AND cancelled IS NULL`),
    index("serverbox_auth_requests_code").on(t.userCode, t.created),
    index("serverbox_auth_requests_expires").on(t.expires),
  ],
);
