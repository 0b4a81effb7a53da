/**
 * The Membership System (platform.md: Club and Division, DivisionMember; the membership panel of section 3):
 * a division's seasons, the people who have ever been its members (one row each, with a member number that
 * stays theirs), and one membership per person and season, written when a cart with a membership is paid.
 */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { divisions } from "./admin";
import { entityColumns } from "./columns";
import { clubs, sites } from "./tables";

function divisionOwned() {
  return {
    divisionId: text("division_id")
      .notNull()
      .references(() => divisions.id),
    clubId: text("club_id")
      .notNull()
      .references(() => clubs.id),
    siteId: text("site_id").references(() => sites.id),
  };
}

/** A division's membership season: memberships sold in it end when it ends. */
export const divisionSeasons = sqliteTable(
  "division_seasons",
  {
    ...entityColumns(),
    ...divisionOwned(),
    name: text("name").notNull(),
    /** Epoch milliseconds, the first moment of the first day in the club's terms (UTC midnight of the date). */
    startsAt: integer("starts_at").notNull(),
    /** Epoch milliseconds, the end of the last day (exclusive). */
    endsAt: integer("ends_at").notNull(),
  },
  (t) => [
    uniqueIndex("division_seasons_name").on(t.divisionId, t.name),
    index("division_seasons_club").on(t.clubId),
    index("division_seasons_site").on(t.siteId),
  ],
);

/** A person as a division knows them across seasons (spec DivisionMember.person_id). */
export const divisionPeople = sqliteTable(
  "division_people",
  {
    ...entityColumns(),
    ...divisionOwned(),
    /** The member number, 1, 2, 3… per division, kept from season to season. */
    memberNumber: integer("member_number").notNull(),
    /** Lowercased last name, first name and birth date: the same person registering again is found by it. */
    personKey: text("person_key").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    birthDate: text("birth_date"),
    gender: text("gender"),
    email: text("email"),
    /** The language their mail is written in (en or fr): chosen when added by hand, else their registration's (decision 0063). */
    lang: text("lang", { enum: ["en", "fr"] })
      .notNull()
      .default("en"),
  },
  (t) => [
    uniqueIndex("division_people_key").on(t.divisionId, t.personKey),
    uniqueIndex("division_people_number").on(t.divisionId, t.memberNumber),
    index("division_people_club").on(t.clubId),
    index("division_people_site").on(t.siteId),
  ],
);

/** DivisionMember: one person's membership of one season (spec: person_id, season_id, attributes, programs, created_time). */
export const divisionMembers = sqliteTable(
  "division_members",
  {
    ...entityColumns(),
    ...divisionOwned(),
    personId: text("person_id")
      .notNull()
      .references(() => divisionPeople.id),
    seasonId: text("season_id")
      .notNull()
      .references(() => divisionSeasons.id),
    /** The membership panel's class of membership (racing, coach, official…). */
    memberClass: text("member_class").notNull(),
    /** Anything else the membership recorded: the form and person it came from, the division's fees. */
    attributes: text("attributes", { mode: "json" })
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'`),
    programs: text("programs", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    /** The season's end when written: a membership lapses then. */
    expiresAt: integer("expires_at").notNull(),
    /** The registered person it came from (null when added by hand). */
    individualId: text("individual_id"),
  },
  (t) => [
    uniqueIndex("division_members_season_person").on(t.seasonId, t.personId),
    index("division_members_division").on(t.divisionId, t.expiresAt),
    index("division_members_club").on(t.clubId),
    index("division_members_site").on(t.siteId),
  ],
);

/**
 * A membership's expiry reminder (decision 0057): one row per membership, so a member is reminded at most once a
 * season however often the cron runs. The mail consumer claims it (queued → sending) before sending.
 */
export const membershipReminders = sqliteTable(
  "membership_reminders",
  {
    id: text("id").primaryKey(),
    memberId: text("member_id")
      .notNull()
      .references(() => divisionMembers.id, { onDelete: "cascade" }),
    divisionId: text("division_id")
      .notNull()
      .references(() => divisions.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    /** The language of the registration the membership came from: "en" or "fr". */
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
  (t) => [uniqueIndex("membership_reminders_member").on(t.memberId), index("membership_reminders_division").on(t.divisionId, t.createdAt)],
);
