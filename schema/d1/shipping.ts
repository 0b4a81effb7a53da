/**
 * A shipping depot's stock and shipments (issue 27, decision 0051). Tracked types are counted item by item
 * (inventory_items with their number and state); untracked types as counts per depot (depot_stock). A
 * shipment asks for types (shipment_requests); its tracked items are packed by number (shipment_items) and its
 * untracked lines are counted when it ships (shipment_counts).
 */
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { inventoryItems, inventoryTypes, shippingDepots } from "./admin";
import { clubs, races } from "./tables";

/** Untracked stock of one type at one depot; a count can never go below zero, so a short shipment fails whole. */
export const depotStock = sqliteTable(
  "depot_stock",
  {
    depotId: text("depot_id")
      .notNull()
      .references(() => shippingDepots.id),
    typeId: text("type_id")
      .notNull()
      .references(() => inventoryTypes.id),
    onHand: integer("on_hand").notNull().default(0),
    out: integer("out").notNull().default(0),
    missing: integer("missing").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.depotId, t.typeId] }), check("depot_stock_not_negative", sql`${t.onHand} >= 0 AND ${t.out} >= 0 AND ${t.missing} >= 0`)],
);

/** Stock received at a depot, one row per form sent: its id is the form's one-time id, so a resend adds nothing. */
export const stockReceipts = sqliteTable(
  "stock_receipts",
  {
    id: text("id").primaryKey(),
    depotId: text("depot_id")
      .notNull()
      .references(() => shippingDepots.id),
    typeId: text("type_id")
      .notNull()
      .references(() => inventoryTypes.id),
    quantity: integer("quantity").notNull(),
    numbers: text("numbers", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    userId: text("user_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("stock_receipts_depot").on(t.depotId)],
);

export const SHIPMENT_STATE_VALUES = ["draft", "packed", "shipped", "returned", "closed"] as const;

/** A shipment from a depot to a race or a club. */
export const shipments = sqliteTable(
  "shipments",
  {
    id: text("id").primaryKey(),
    depotId: text("depot_id")
      .notNull()
      .references(() => shippingDepots.id),
    state: text("state", { enum: SHIPMENT_STATE_VALUES }).notNull().default("draft"),
    raceId: text("race_id").references(() => races.id),
    clubId: text("club_id").references(() => clubs.id),
    /** The destination's name when created (the race's or club's), kept if it is renamed later. */
    destination: text("destination").notNull(),
    address: text("address"),
    contactName: text("contact_name"),
    contactEmail: text("contact_email"),
    contactPhone: text("contact_phone"),
    /** ISO dates (YYYY-MM-DD). */
    shipBy: text("ship_by"),
    useFrom: text("use_from"),
    returnBy: text("return_by"),
    notes: text("notes"),
    /** Changes on every state change; the statements of one change only write while it holds their token. */
    stepToken: text("step_token").notNull().default(""),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    shippedAt: integer("shipped_at"),
    closedAt: integer("closed_at"),
  },
  (t) => [index("shipments_depot").on(t.depotId, t.state)],
);

/** What a shipment asks for: a quantity of a type (the packing list adds what each includes). */
export const shipmentRequests = sqliteTable(
  "shipment_requests",
  {
    shipmentId: text("shipment_id")
      .notNull()
      .references(() => shipments.id, { onDelete: "cascade" }),
    typeId: text("type_id")
      .notNull()
      .references(() => inventoryTypes.id),
    quantity: integer("quantity").notNull(),
  },
  (t) => [primaryKey({ columns: [t.shipmentId, t.typeId] })],
);

export const SHIPMENT_ITEM_STATES = ["packed", "out", "back", "missing", "delivered"] as const;

/**
 * A tracked item packed into a shipment. While packed or out it belongs to that shipment alone: the partial
 * unique index refuses a second one inside the write, whatever two people do at once.
 */
export const shipmentItems = sqliteTable(
  "shipment_items",
  {
    shipmentId: text("shipment_id")
      .notNull()
      .references(() => shipments.id, { onDelete: "cascade" }),
    itemId: text("item_id")
      .notNull()
      .references(() => inventoryItems.id),
    typeId: text("type_id")
      .notNull()
      .references(() => inventoryTypes.id),
    state: text("state", { enum: SHIPMENT_ITEM_STATES }).notNull().default("packed"),
    packedAt: integer("packed_at").notNull(),
    returnedAt: integer("returned_at"),
  },
  (t) => [
    primaryKey({ columns: [t.shipmentId, t.itemId] }),
    uniqueIndex("shipment_items_item_held")
      .on(t.itemId)
      .where(sql`state IN ('packed', 'out')`),
  ],
);

/** An untracked line as shipped, and once back what returned and what is missing (rentable types only). */
export const shipmentCounts = sqliteTable(
  "shipment_counts",
  {
    shipmentId: text("shipment_id")
      .notNull()
      .references(() => shipments.id, { onDelete: "cascade" }),
    typeId: text("type_id")
      .notNull()
      .references(() => inventoryTypes.id),
    sent: integer("sent").notNull(),
    isRentable: integer("is_rentable", { mode: "boolean" }).notNull(),
    back: integer("back"),
    missing: integer("missing"),
  },
  (t) => [primaryKey({ columns: [t.shipmentId, t.typeId] })],
);
