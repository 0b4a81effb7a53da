/**
 * GoChips (platform.md section 3 names racks, lots, tests and replacement sessions; decision 0068): reusable
 * timing chips a shipping depot owns and lends. A lot is a manufacturing batch, a rack a numbered holder of
 * chips by slot (shipped with a shipment), a test a GoChip Activator's session over a rack, and a replacement
 * session a racer's lost or faulty chip swapped at a race. Every row names its depot (the replacement its race).
 */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { GOCHIP_STATUSES, REPLACEMENT_REASONS } from "../../core/gochips/chips";
import { shippingDepots } from "./admin";
import { entityColumns } from "./columns";
import { shipments } from "./shipping";
import { clubs, races } from "./tables";

const depotColumn = () =>
  text("depot_id")
    .notNull()
    .references(() => shippingDepots.id);

/** A manufacturing batch of chips as the depot received it. */
export const gochipLots = sqliteTable(
  "gochip_lots",
  {
    ...entityColumns(),
    depotId: depotColumn(),
    lotNumber: text("lot_number").notNull(),
    /** ISO date (YYYY-MM-DD). */
    receivedOn: text("received_on"),
    /** How many chips the maker says the lot holds. */
    chipCount: integer("chip_count").notNull().default(0),
    notes: text("notes"),
  },
  (t) => [uniqueIndex("gochip_lots_depot_number").on(t.depotId, t.lotNumber)],
);

/** A numbered rack of chip slots at a depot; while shipped it names its shipment. */
export const gochipRacks = sqliteTable(
  "gochip_racks",
  {
    ...entityColumns(),
    depotId: depotColumn(),
    number: text("number").notNull(),
    slotCount: integer("slot_count").notNull().default(100),
    shipmentId: text("shipment_id").references(() => shipments.id, { onDelete: "set null" }),
    notes: text("notes"),
  },
  (t) => [uniqueIndex("gochip_racks_depot_number").on(t.depotId, t.number), index("gochip_racks_shipment").on(t.shipmentId)],
);

/** One chip by its hex code, in a slot of a rack (or loose), with what its tests said. */
export const gochips = sqliteTable(
  "gochips",
  {
    ...entityColumns(),
    depotId: depotColumn(),
    hexCode: text("hex_code").notNull(),
    lotId: text("lot_id").references(() => gochipLots.id),
    rackId: text("rack_id").references(() => gochipRacks.id),
    slot: integer("slot"),
    status: text("status", { enum: GOCHIP_STATUSES }).notNull().default("untested"),
    /** Tests it did not answer; the second makes it faulty. */
    failures: integer("failures").notNull().default(0),
    lastTestedAt: integer("last_tested_at"),
    /** Given to a racer at a race (decision 0073): out of its slot until "Load chips" puts it back. */
    issuedRaceId: text("issued_race_id").references(() => races.id, { onDelete: "set null" }),
    issuedRacerId: text("issued_racer_id"),
    /** The racer's bib then, for the depot to chase the chip. */
    issuedBib: integer("issued_bib"),
    issuedAt: integer("issued_at"),
    /** The rack it left and the shipment that rack travelled with (back: the chip is not returned). */
    issuedRackId: text("issued_rack_id").references(() => gochipRacks.id, { onDelete: "set null" }),
    issuedShipmentId: text("issued_shipment_id").references(() => shipments.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("gochips_depot_hex").on(t.depotId, t.hexCode),
    index("gochips_issued_race").on(t.issuedRaceId),
    // One chip per slot, decided by the database when two people load the same rack at once.
    uniqueIndex("gochips_rack_slot")
      .on(t.rackId, t.slot)
      .where(sql`rack_id IS NOT NULL`),
    index("gochips_lot").on(t.lotId),
  ],
);

/** A GoChip Activator's test session over a rack: the chips that answered and those that did not. */
export const gochipTests = sqliteTable(
  "gochip_tests",
  {
    ...entityColumns(),
    depotId: depotColumn(),
    rackId: text("rack_id").references(() => gochipRacks.id, { onDelete: "set null" }),
    /** The Activator used (its name or serial), as typed. */
    activator: text("activator"),
    userId: text("user_id").notNull(),
    answered: text("answered", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    silent: text("silent", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    /** Codes that answered but are none of this rack's chips. */
    unknown: text("unknown", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
  },
  (t) => [index("gochip_tests_depot").on(t.depotId, t.createdAt)],
);

/** At a race, a racer's lost or faulty chip replaced by another; the id is the form's one-time id. */
export const gochipReplacements = sqliteTable(
  "gochip_replacements",
  {
    ...entityColumns(),
    clubId: text("club_id")
      .notNull()
      .references(() => clubs.id),
    raceId: text("race_id")
      .notNull()
      .references(() => races.id),
    racerId: text("racer_id").notNull(),
    oldChip: text("old_chip"),
    newChip: text("new_chip").notNull(),
    reason: text("reason", { enum: REPLACEMENT_REASONS }).notNull(),
    /** The depot whose chip was lost or faulty, when the old chip came in one of its racks shipped to the race. */
    depotId: text("depot_id").references(() => shippingDepots.id),
    userId: text("user_id").notNull(),
  },
  (t) => [index("gochip_replacements_race").on(t.raceId, t.createdAt), index("gochip_replacements_club").on(t.clubId)],
);
