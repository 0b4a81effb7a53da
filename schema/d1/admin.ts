/**
 * The entities of the super-admin areas that had no table yet (platform.md section 2 and 3, timing.md
 * section 3). A row that belongs to a club carries its club and the club's site, copied on create, so
 * every list is scoped by plain columns with no join.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { entityColumns } from "./columns";
import { clubs, sites } from "./tables";

/** The owning club (required) and its site. */
export function clubOwned() {
  return {
    clubId: text("club_id")
      .notNull()
      .references(() => clubs.id),
    siteId: text("site_id").references(() => sites.id),
  };
}

/** A club (or none for a platform-wide row) and its site. */
function optionalClub() {
  return {
    clubId: text("club_id").references(() => clubs.id),
    siteId: text("site_id").references(() => sites.id),
  };
}

/** Division (spec "Club and Division"): a membership organisation run under a club. */
export const divisions = sqliteTable(
  "divisions",
  {
    ...entityColumns(),
    ...clubOwned(),
    name: text("name").notNull(),
    sport: text("sport"),
    country: text("country"),
    email: text("email"),
    website: text("website"),
    logo: text("logo"),
    info: text("info"),
    programsList: text("programs_list", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    /** When the division's NQC membership status lapses; epoch milliseconds. */
    nqcExpireTime: integer("nqc_expire_time"),
    /** Whether members get a reminder mail before their membership ends (decision 0057). */
    isReminding: integer("is_reminding", { mode: "boolean" }).notNull().default(true),
    /** How many days before a membership ends its reminder goes out. */
    reminderDays: integer("reminder_days").notNull().default(30),
  },
  (t) => [index("divisions_club").on(t.clubId), index("divisions_site").on(t.siteId)],
);

/**
 * TimingDevice (timing.md section 3): a club's register of physical timing equipment. A race's own device
 * documents (connection, offset, grid columns) live in its RaceRoom; this is the catalogue they are drawn from.
 */
export const timingDevices = sqliteTable(
  "timing_devices",
  {
    ...entityColumns(),
    ...clubOwned(),
    name: text("name"),
    humanname: text("humanname"),
    /** A key of core/timing/devices.ts DEVICE_TYPE_KEYS (the spec's device type table). */
    deviceType: text("device_type").notNull(),
    deviceNumber: integer("device_number"),
    serial: text("serial"),
    /** Seconds. */
    accuracy: real("accuracy").notNull().default(0.5),
    /** Decimal places of a second. */
    precision: integer("precision").notNull().default(0),
    channels: integer("channels").notNull().default(1),
    notes: text("notes"),
  },
  (t) => [index("timing_devices_club").on(t.clubId), index("timing_devices_site").on(t.siteId)],
);

/** TimingServer (timing.md: Webserver, Serverbox, WebClient): a timing server a club runs. */
export const serverboxes = sqliteTable(
  "serverboxes",
  {
    ...entityColumns(),
    ...clubOwned(),
    name: text("name").notNull(),
    subtype: text("subtype", { enum: ["webserver", "serverbox", "webclient"] })
      .notNull()
      .default("serverbox"),
    serial: text("serial"),
    softwareVersion: text("software_version"),
    /** Set by the timing API when the server syncs; epoch milliseconds. */
    lastSeenTime: integer("last_seen_time"),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    /** The SHA-256 of the box's token (decision 0055); no entity field, so neither pages nor the data API show it. */
    tokenHash: text("token_hash"),
  },
  (t) => [index("serverboxes_club").on(t.clubId), index("serverboxes_site").on(t.siteId)],
);

/** A warehouse that ships and takes back the platform's rental equipment (/shipments/{depot}). */
export const shippingDepots = sqliteTable("shipping_depots", {
  ...entityColumns(),
  name: text("name").notNull(),
  email: text("email"),
  address: text("address"),
  country: text("country"),
  isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
});

/** A custom field an inventory type's items carry (a MAC address, a firmware date). */
export interface InventoryTypeField {
  key: string;
  label: string;
  type: "text" | "number" | "bool";
}

/** InventoryType (section 3): one kind of equipment in the platform-wide catalogue. Money is integer cents. */
export const inventoryTypes = sqliteTable(
  "inventory_types",
  {
    ...entityColumns(),
    key: text("key").notNull(),
    name: text("name").notNull(),
    image: text("image"),
    description: text("description"),
    unitCost: integer("unit_cost").notNull().default(0),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    swVersion: text("sw_version"),
    hwVersion: text("hw_version"),
    isRentable: integer("is_rentable", { mode: "boolean" }).notNull().default(false),
    isTracked: integer("is_tracked", { mode: "boolean" }).notNull().default(false),
    /** Harmonized Tariff Schedule code for customs. */
    hts: text("hts"),
    /** Country of origin, two letters. */
    origin: text("origin"),
    /** Kilograms. */
    weight: real("weight"),
    declaredValue: integer("declared_value"),
    category: text("category"),
    purchasePrice: integer("purchase_price"),
    tags: text("tags", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    /** The types shipped with each one of this (a charger with a reader): a key, or a key and how many per unit. */
    included: text("included", { mode: "json" })
      .$type<Array<string | { key: string; quantity: number }>>()
      .notNull()
      .default(sql`'[]'`),
    autoPackKey: text("auto_pack_key"),
    packingInstructions: text("packing_instructions"),
    ordinal: integer("ordinal").notNull().default(0),
    fields: text("fields", { mode: "json" })
      .$type<InventoryTypeField[]>()
      .notNull()
      .default(sql`'[]'`),
  },
  (t) => [uniqueIndex("inventory_types_key").on(t.key)],
);

/** InventoryItem (section 3): one piece of equipment held by a depot. */
export const inventoryItems = sqliteTable(
  "inventory_items",
  {
    ...entityColumns(),
    depotId: text("depot_id")
      .notNull()
      .references(() => shippingDepots.id),
    typeId: text("type_id")
      .notNull()
      .references(() => inventoryTypes.id),
    name: text("name"),
    /** The asset number written on the item. */
    number: text("number"),
    /** Where a tracked item is: at the depot, out on a rental, missing after one, or gone with a shipment (decision 0051). */
    state: text("state", { enum: ["available", "out", "missing", "gone"] })
      .notNull()
      .default("available"),
  },
  (t) => [index("inventory_items_depot").on(t.depotId), index("inventory_items_type").on(t.typeId), index("inventory_items_number").on(t.depotId, t.number)],
);

/** EventPage (section 3): a public page for an event that spans races and registrations. */
export const eventPages = sqliteTable(
  "event_pages",
  {
    ...entityColumns(),
    ...clubOwned(),
    name: text("name").notNull(),
    title: text("title"),
    year: integer("year"),
    /** ISO dates (YYYY-MM-DD). */
    startDate: text("start_date"),
    endDate: text("end_date"),
    /** The page's address under the site, a slug. */
    pageUrl: text("page_url"),
    description: text("description"),
    sport: text("sport"),
    bannerUrl: text("banner_url"),
    headerOption: text("header_option", { enum: ["banner", "title", "none"] })
      .notNull()
      .default("banner"),
    /** Shown on the club's site (its events list, page and calendar); a draft is not (decision 0046). */
    isPublic: integer("is_public", { mode: "boolean" }).notNull().default(true),
    /** schema.org's eventStatus, and the calendar's STATUS. */
    eventStatus: text("event_status", { enum: ["scheduled", "postponed", "cancelled"] })
      .notNull()
      .default("scheduled"),
    /** Where it happens, in words (a venue, a park); the races' own places when empty. */
    location: text("location"),
    /** The club's races and registration forms the page links to, in the order shown (decision 0046). */
    raceIds: text("race_ids", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    registrationIds: text("registration_ids", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
  },
  (t) => [
    index("event_pages_club").on(t.clubId),
    index("event_pages_site").on(t.siteId),
    // A page's address is unique on its site; the entity service turns a clash into a 409 naming page_url.
    uniqueIndex("event_pages_site_page_url").on(t.siteId, t.pageUrl),
  ],
);

/** PointsSeries (section 3, "Race Series"): races whose results add up to series points. */
export const pointsSeries = sqliteTable(
  "points_series",
  {
    ...entityColumns(),
    ...clubOwned(),
    name: text("name").notNull(),
    year: integer("year"),
    config: text("config", { mode: "json" })
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'`),
    isPublic: integer("is_public", { mode: "boolean" }).notNull().default(false),
    url: text("url"),
    /** The last points file the series computed; written by that job. */
    lastPointsFile: text("last_points_file"),
  },
  (t) => [index("points_series_club").on(t.clubId), index("points_series_site").on(t.siteId)],
);

/**
 * A series' standings as last computed (decision 0048): a cache, never the truth. `sourceKey` digests what
 * they came from (the config, the points file, each member race's results version), so a changed result
 * makes the next read recompute them; the row goes with its series.
 */
export const pointsSeriesStandings = sqliteTable("points_series_standings", {
  seriesId: text("series_id")
    .primaryKey()
    .references(() => pointsSeries.id, { onDelete: "cascade" }),
  clubId: text("club_id")
    .notNull()
    .references(() => clubs.id),
  sourceKey: text("source_key").notNull(),
  standings: text("standings", { mode: "json" }).$type<unknown>().notNull(),
  computedAt: integer("computed_at").notNull(),
});

/**
 * One member race's scored entries for a series (decision 0064): a cache keyed like the standings, per race, so
 * a changed result re-reads that race's results alone and the other races' entries come from here.
 */
export const pointsSeriesRaceEntries = sqliteTable(
  "points_series_race_entries",
  {
    seriesId: text("series_id")
      .notNull()
      .references(() => pointsSeries.id, { onDelete: "cascade" }),
    raceId: text("race_id").notNull(),
    clubId: text("club_id")
      .notNull()
      .references(() => clubs.id),
    sourceKey: text("source_key").notNull(),
    entries: text("entries", { mode: "json" }).$type<unknown>().notNull(),
    computedAt: integer("computed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.seriesId, t.raceId] })],
);

/** A rule a membership or licence number must meet: a list the club uploads, or a pattern. */
export const validationSystems = sqliteTable(
  "validation_systems",
  {
    ...entityColumns(),
    ...clubOwned(),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["list", "pattern"] }).notNull(),
    pattern: text("pattern"),
    description: text("description"),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [index("validation_systems_club").on(t.clubId), index("validation_systems_site").on(t.siteId)],
);

/** Spec CSVFile: an uploaded list's file, who sent it and its columns; the list's numbers point at it. */
export const csvFiles = sqliteTable(
  "csv_files",
  {
    id: text("id").primaryKey(),
    clubId: text("club_id")
      .notNull()
      .references(() => clubs.id),
    userId: text("user_id"),
    validationSystemId: text("validation_system_id")
      .notNull()
      .references(() => validationSystems.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    uploadedTime: integer("uploaded_time").notNull(),
    columnList: text("column_list", { mode: "json" }).$type<string[]>().notNull(),
    /** The column the numbers were read from, and how many there were. */
    numberColumn: text("number_column").notNull(),
    numberCount: integer("number_count").notNull(),
  },
  (t) => [index("csv_files_system").on(t.validationSystemId, t.uploadedTime), index("csv_files_club").on(t.clubId)],
);

/** The valid numbers of a list system, normalised (core/registration/valid-numbers.ts); the key is the lookup. */
export const validationNumbers = sqliteTable(
  "validation_numbers",
  {
    validationSystemId: text("validation_system_id")
      .notNull()
      .references(() => validationSystems.id, { onDelete: "cascade" }),
    number: text("number").notNull(),
  },
  (t) => [primaryKey({ columns: [t.validationSystemId, t.number] })],
);

/** An activity a club offers (a discipline or programme); no club means platform-wide. */
export const activities = sqliteTable(
  "activities",
  {
    ...entityColumns(),
    ...optionalClub(),
    name: text("name").notNull(),
    sport: text("sport"),
    description: text("description"),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [index("activities_club").on(t.clubId), index("activities_site").on(t.siteId)],
);

/** What an activity tags: a registration form, a race or an event page (decision 0052). */
export const ACTIVITY_SUBJECTS = ["registration", "race", "event_page"] as const;

/** An activity on a form, race or event page; a join so the race's own row (its RaceRoom's) is not written. */
export const activityTags = sqliteTable(
  "activity_tags",
  {
    subjectKind: text("subject_kind", { enum: ACTIVITY_SUBJECTS }).notNull(),
    subjectId: text("subject_id").notNull(),
    activityId: text("activity_id")
      .notNull()
      .references(() => activities.id, { onDelete: "cascade" }),
    clubId: text("club_id")
      .notNull()
      .references(() => clubs.id),
  },
  (t) => [primaryKey({ columns: [t.subjectKind, t.subjectId, t.activityId] }), index("activity_tags_activity").on(t.activityId, t.subjectKind)],
);

/** How racers are ranked for seeding over a season (FIS points, a points table or a custom rule). */
export const rankingSchemes = sqliteTable(
  "ranking_schemes",
  {
    ...entityColumns(),
    ...clubOwned(),
    name: text("name").notNull(),
    sport: text("sport"),
    season: text("season"),
    method: text("method", { enum: ["fis_points", "points_table", "custom"] }).notNull(),
    /** Whether the season lists are on the club's site for everyone (decision 0064). */
    isPublic: integer("is_public", { mode: "boolean" }).notNull().default(false),
    config: text("config", { mode: "json" })
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'`),
  },
  (t) => [index("ranking_schemes_club").on(t.clubId), index("ranking_schemes_site").on(t.siteId)],
);

/** A content page of a whitelabel site, served at its path. */
export const sitePages = sqliteTable(
  "site_pages",
  {
    ...entityColumns(),
    siteId: text("site_id")
      .notNull()
      .references(() => sites.id),
    clubId: text("club_id").references(() => clubs.id),
    title: text("title").notNull(),
    path: text("path").notNull(),
    body: text("body").notNull().default(""),
    /** The French version (decision 0053); empty falls back to the English one. */
    titleFr: text("title_fr"),
    bodyFr: text("body_fr"),
    isPublished: integer("is_published", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [uniqueIndex("site_pages_site_path").on(t.siteId, t.path), index("site_pages_club").on(t.clubId)],
);

/** How results turn into points: a table by place, or a formula; no club means platform-wide. */
export const pointsSystems = sqliteTable(
  "points_systems",
  {
    ...entityColumns(),
    ...optionalClub(),
    name: text("name").notNull(),
    method: text("method", { enum: ["table", "formula"] }).notNull(),
    /** Points for 1st, 2nd, … place. */
    pointsTable: text("points_table", { mode: "json" })
      .$type<number[]>()
      .notNull()
      .default(sql`'[]'`),
    formula: text("formula"),
    /** Only a racer's best N results count; null counts all. */
    bestOf: integer("best_of"),
    /** Tied racers each get the place's points (share) or split the tied places' points. */
    ties: text("ties", { enum: ["share", "split"] })
      .notNull()
      .default("share"),
    /** Scale each race's points by its own factor (from the series config). */
    scalePerRace: integer("scale_per_race", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("points_systems_club").on(t.clubId), index("points_systems_site").on(t.siteId)],
);
