/**
 * Passes and member cards a club issues (platform.md: Pass & Member Card), their numbering, their mails and the
 * check-in scans. Split from admin.ts, whose other tables are the registry's own.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { clubOwned } from "./admin";
import { entityColumns } from "./columns";
import { clubs } from "./tables";

/** A season pass or member card a club issues to one holder. */
export const passes = sqliteTable(
  "passes",
  {
    ...entityColumns(),
    ...clubOwned(),
    kind: text("kind", { enum: ["pass", "member_card"] })
      .notNull()
      .default("pass"),
    holderName: text("holder_name").notNull(),
    holderEmail: text("holder_email"),
    season: text("season"),
    /** The number printed on the card. */
    number: text("number"),
    /** ISO dates (YYYY-MM-DD), inclusive. */
    validFrom: text("valid_from"),
    validUntil: text("valid_until"),
    /** Set when the club revokes it; epoch milliseconds. */
    revokedTime: integer("revoked_time"),
    revokeReason: text("revoke_reason"),
    /** What issued it ("member:<division member id>", "individual:<id>", "hand:<one-time id>"): issuing again finds it. */
    source: text("source"),
    /** The holder's language (en or fr): the card's mail is written in it (decision 0063). */
    lang: text("lang", { enum: ["en", "fr"] })
      .notNull()
      .default("en"),
  },
  (t) => [
    uniqueIndex("passes_club_number").on(t.clubId, t.number),
    uniqueIndex("passes_club_source").on(t.clubId, t.source),
    index("passes_site").on(t.siteId),
  ],
);

/** The last pass number a club issued: numbers only go up, so a deleted pass's number is never given again. */
export const passCounters = sqliteTable("pass_counters", {
  clubId: text("club_id")
    .primaryKey()
    .references(() => clubs.id),
  lastNumber: integer("last_number").notNull().default(0),
});

/**
 * A card's link sent by mail (decision 0063): the mail on issue (its id is the pass's, written in the issuing
 * batch, so a job run again sends none) and each "Send the card again" (its id is the form's one-time id). The
 * mail consumer claims it (queued → sending) before sending, as membership reminders do.
 */
export const passMails = sqliteTable(
  "pass_mails",
  {
    id: text("id").primaryKey(),
    passId: text("pass_id")
      .notNull()
      .references(() => passes.id, { onDelete: "cascade" }),
    clubId: text("club_id")
      .notNull()
      .references(() => clubs.id),
    email: text("email").notNull(),
    lang: text("lang", { enum: ["en", "fr"] })
      .notNull()
      .default("en"),
    state: text("state", { enum: ["queued", "sending", "sent", "failed"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("pass_mails_pass").on(t.passId, t.createdAt), index("pass_mails_state").on(t.state, t.updatedAt)],
);

/** One scan at a club's check-in: when, who, what it said (the pass when the code named one of ours). */
export const passChecks = sqliteTable(
  "pass_checks",
  {
    id: text("id").primaryKey(),
    clubId: text("club_id")
      .notNull()
      .references(() => clubs.id),
    passId: text("pass_id"),
    userId: text("user_id").notNull(),
    result: text("result", { enum: ["valid", "not_yet_valid", "expired", "revoked", "other_club", "unknown"] }).notNull(),
    checkedAt: integer("checked_at").notNull(),
  },
  (t) => [index("pass_checks_pass").on(t.passId, t.checkedAt), index("pass_checks_club").on(t.clubId, t.checkedAt)],
);
