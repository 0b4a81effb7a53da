import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { ChargedPricing } from "../../core/registration/receipt-lines";
import type { RaceOptionLink, RacerPlace } from "../../core/registration/race-links";
import { entityColumns } from "./columns";
import { clubs, sites } from "./tables";

/**
 * Registration (platform.md section 3): a club's registration form. `site_id` is copied from the club so
 * every tenant-scoped query filters on one column. Times are epoch milliseconds; money is integer cents.
 */
export const registrations = sqliteTable(
  "registrations",
  {
    ...entityColumns(),
    clubId: text("club_id")
      .notNull()
      .references(() => clubs.id),
    siteId: text("site_id").references(() => sites.id),
    name: text("name").notNull(),
    isApproved: integer("is_approved", { mode: "boolean" }).notNull().default(false),
    isPending: integer("is_pending", { mode: "boolean" }).notNull().default(false),
    approvalStatus: text("approval_status").notNull().default(""),
    openTime: integer("open_time"),
    closeTime: integer("close_time"),
    isAllEvents: integer("is_all_events", { mode: "boolean" }).notNull().default(false),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default([]),
    firstNameFieldId: text("first_name_field_id"),
    lastNameFieldId: text("last_name_field_id"),
    peopleLabels: text("people_labels", { mode: "json" }).$type<Record<string, string>>().notNull().default({}),
    /** YYYY-MM-DD; null means 31 December of the close year (section 9). */
    ageCalcDate: text("age_calc_date"),
    raisePrice1Time: integer("raise_price_1_time"),
    raisePrice2Time: integer("raise_price_2_time"),
    raisePrice3Time: integer("raise_price_3_time"),
    /** Percent. */
    gstRate: real("gst_rate").notNull().default(0),
    isBilingual: integer("is_bilingual", { mode: "boolean" }).notNull().default(false),
    event: text("event"),
    sport: text("sport"),
    legacyId: integer("legacy_id"),
    /** Season passes (issue 27, decision 0050): set, every person of a completed cart gets a pass of this season, valid these days. */
    passSeason: text("pass_season"),
    passValidFrom: text("pass_valid_from"),
    passValidUntil: text("pass_valid_until"),
    /** The race its registered people become racers of (issue 24), with the course and start group they are entered in; null: none. */
    raceId: text("race_id"),
    raceCourseId: text("race_course_id"),
    raceStartGroupId: text("race_start_group_id"),
    /** The choice field whose options each enter the person in their own race (decision 0058); null: none. */
    raceOptionField: text("race_option_field"),
    /** Each linked option's race, course and start group; an option not listed falls back to the form's race. */
    raceOptionLinks: text("race_option_links", { mode: "json" }).$type<RaceOptionLink[]>().notNull().default([]),
    /** Racer field → form field id the organiser chose over the default ("" leaves the racer field unfilled). */
    racerFieldMap: text("racer_field_map", { mode: "json" }).$type<Record<string, string>>().notNull().default({}),
    /** Self-service cancellation (issue 24): the percent of a person's share refunded; null: registrants cannot cancel themselves. */
    cancelRefundPercent: integer("cancel_refund_percent"),
    /** Kept from each refund (cents), never more than the refund. */
    cancelFee: integer("cancel_fee").notNull().default(0),
    /** Cancellations close at this time (epoch ms); null: until the form closes. */
    cancelDeadline: integer("cancel_deadline"),
    /** Waitlists (issue 24): how long a freed place is held for the next person waiting (hours); null: no waitlist. */
    waitlistOfferHours: integer("waitlist_offer_hours"),
    /** Self-service transfers (issue 24): null, registrants cannot transfer an entry; 0, they may, free. */
    transferFee: integer("transfer_fee"),
  },
  (t) => [index("registrations_club").on(t.clubId), index("registrations_site").on(t.siteId)],
);

/** FormElement: one field of a registration form; owner columns are copied from its registration. */
export const formElements = sqliteTable(
  "form_elements",
  {
    ...entityColumns(),
    registrationId: text("registration_id")
      .notNull()
      .references(() => registrations.id, { onDelete: "cascade" }),
    clubId: text("club_id").notNull(),
    siteId: text("site_id"),
    type: text("type").notNull(),
    caption: text("caption").notNull().default(""),
    title: text("title"),
    columnHeader: text("column_header"),
    price1: integer("price_1"),
    price2: integer("price_2"),
    price3: integer("price_3"),
    isTaxable: integer("is_taxable", { mode: "boolean" }).notNull().default(false),
    isMandatory: integer("is_mandatory", { mode: "boolean" }).notNull().default(false),
    isAdminOnly: integer("is_admin_only", { mode: "boolean" }).notNull().default(false),
    isKioskMode: integer("is_kiosk_mode", { mode: "boolean" }).notNull().default(false),
    /** Mandatory only when an administrator fills the form in. */
    isAdminMandatory: integer("is_admin_mandatory", { mode: "boolean" }).notNull().default(false),
    /** A registrant cannot change it once saved. */
    isEditForbidden: integer("is_edit_forbidden", { mode: "boolean" }).notNull().default(false),
    conditionElement: text("condition_element"),
    conditionOperator: text("condition_operator"),
    conditionValue: text("condition_value"),
    logicKey: text("logic_key"),
    ordinal: integer("ordinal").notNull().default(0),
    quantityLimit: integer("quantity_limit"),
    allDiscount: integer("all_discount", { mode: "boolean" }).notNull().default(false),
    memberClass: text("member_class"),
    isFee: integer("is_fee", { mode: "boolean" }).notNull().default(false),
    optionsList: text("options_list", { mode: "json" }).$type<Record<string, unknown>[]>().notNull().default([]),
    displayType: text("display_type"),
    /** The settings of one field type (discounts_list, is_disable_optin, min_fee, …): core/forms/model.ts. */
    config: text("config", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index("form_elements_registration").on(t.registrationId, t.ordinal)],
);

/**
 * Cart (platform.md section 3): the people one registrant signs up together, and cart-level values.
 * A registrant has no account: the cart is reached by its id in a cookie or by an emailed resume link,
 * whose token is stored only as a SHA-256 hash.
 */
export const carts = sqliteTable(
  "carts",
  {
    ...entityColumns(),
    registrationId: text("registration_id")
      .notNull()
      .references(() => registrations.id, { onDelete: "cascade" }),
    clubId: text("club_id").notNull(),
    siteId: text("site_id"),
    email: text("email"),
    isRemoved: integer("is_removed", { mode: "boolean" }).notNull().default(false),
    /** Set when the cart is paid (issue 7); only complete carts count in reports and limits. */
    isComplete: integer("is_complete", { mode: "boolean" }).notNull().default(false),
    /** Per registration, 1, 2, 3, … in the order carts are made. */
    cartNumber: integer("cart_number"),
    legacyId: integer("legacy_id"),
    /** web, kiosk or admin. */
    origin: text("origin").notNull().default("web"),
    values: text("values", { mode: "json" }).$type<Record<string, { v: unknown; p: number }>>().notNull().default({}),
    /** Discount codes the registrant entered, normalised (upper case, space separated). */
    discountCodes: text("discount_codes").notNull().default(""),
    resumeHash: text("resume_hash"),
    /** The priced total when the cart was completed (cents); what was charged, whatever the tiers do later. */
    total: integer("total"),
    completedAt: integer("completed_at"),
    /** Uses of each discount code this cart took when it was completed (one per person a per-person code applied to); null on carts completed before uses were recorded. */
    discountUses: text("discount_uses", { mode: "json" }).$type<Record<string, number>>(),
    /** Opens the receipt only (emailed after payment), separate from the resume token so neither voids the other. */
    receiptHash: text("receipt_hash"),
    /** Receipt links are signed with this number; raising it revokes every link sent before (workers/services/receipt-links.ts). */
    receiptVersion: integer("receipt_version").notNull().default(0),
    /** The language the registrant used (en or fr): receipts and mail are written in it. */
    lang: text("lang").notNull().default("en"),
    /** The price as charged when the cart completed: every line (items, discounts, tax, fee) and the totals, for the itemised receipt. */
    pricing: text("pricing", { mode: "json" }).$type<ChargedPricing>(),
    updatedAt: integer("updated_at")
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [index("carts_registration").on(t.registrationId, t.isComplete), uniqueIndex("carts_number").on(t.registrationId, t.cartNumber)],
);

/** Individual: one person in a cart, with their values per form element. */
export const individuals = sqliteTable(
  "individuals",
  {
    ...entityColumns(),
    cartId: text("cart_id")
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    registrationId: text("registration_id").notNull(),
    clubId: text("club_id").notNull(),
    siteId: text("site_id"),
    isRemoved: integer("is_removed", { mode: "boolean" }).notNull().default(false),
    isComplete: integer("is_complete", { mode: "boolean" }).notNull().default(false),
    /** A person record (membership); null for a registrant without one. */
    person: text("person"),
    ordinal: integer("ordinal").notNull().default(0),
    values: text("values", { mode: "json" }).$type<Record<string, { v: unknown; p: number }>>().notNull().default({}),
    /** Set once this person has been paid for; the system fee is charged only for people not yet paid for. */
    paidAt: integer("paid_at"),
    /** What this person's lines came to when the cart was completed, with their share of tax and discounts (cents). */
    priceTotal: integer("price_total"),
    /** The add-person form's one-time key: a double click or a resent form finds the person it already added. */
    submissionKey: text("submission_key"),
    /** The race, course and start group this person was last entered in as a racer, so a changed option moves them (decision 0058). */
    racerPlace: text("racer_place", { mode: "json" }).$type<RacerPlace | RacerPlace[]>(),
  },
  (t) => [
    index("individuals_cart").on(t.cartId, t.ordinal),
    index("individuals_registration").on(t.registrationId),
    uniqueIndex("individuals_submission").on(t.registrationId, t.submissionKey),
  ],
);

/**
 * A place counted against a limit (core/registration/places.ts): an option or a field taken by one person, or
 * one use of a discount code. A cart holds its places while its payment is open and takes them when it
 * completes; the places_within_cap trigger (migration 0013) refuses a row that would pass its cap, so the
 * check and the write are one step in D1 and no two payments can share the last place.
 */
export const places = sqliteTable(
  "places",
  {
    id: text("id").primaryKey(),
    registrationId: text("registration_id").notNull(),
    /** opt:<element>:<option>, el:<element> or code:<CODE>. */
    pool: text("pool").notNull(),
    /** The person (individual id) or, for a code use, <cartId>#<n>. */
    unit: text("unit").notNull(),
    cartId: text("cart_id").notNull(),
    individualId: text("individual_id"),
    /** held (a payment is open) or taken (the cart completed). */
    state: text("state").notNull(),
    /** When a hold lapses; null once taken. */
    expiresAt: integer("expires_at"),
    /** The limit when the row was written; null is unlimited (recorded so a limit set later counts it). */
    cap: integer("cap"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("places_unit").on(t.registrationId, t.pool, t.unit, t.state), index("places_cart").on(t.cartId, t.state)],
);

/** What changed in a registration after checkout, and who changed it: the organiser's audit trail. */
export const cartChanges = sqliteTable(
  "cart_changes",
  {
    /** The change's request id: a resent change finds its row and does nothing more. */
    id: text("id").primaryKey(),
    cartId: text("cart_id").notNull(),
    registrationId: text("registration_id").notNull(),
    individualId: text("individual_id"),
    /** cancel, edit (details changed) or transfer (the entry given to someone else). */
    kind: text("kind").notNull(),
    /** Refunded (positive) or charged, in cents. */
    amount: integer("amount").notNull().default(0),
    /** registrant, or the user id of the organiser who made it. */
    actor: text("actor").notNull(),
    detail: text("detail").notNull().default(""),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("cart_changes_registration").on(t.registrationId, t.createdAt), index("cart_changes_cart").on(t.cartId)],
);

/**
 * A person waiting for a place in a full option or field (issue 24, decision 0042). The answers they gave are
 * kept, so an offer is a cart with them already in it and their places held until `offer_expires_at`.
 */
export const waitlistEntries = sqliteTable(
  "waitlist_entries",
  {
    id: text("id").primaryKey(),
    registrationId: text("registration_id")
      .notNull()
      .references(() => registrations.id, { onDelete: "cascade" }),
    clubId: text("club_id").notNull(),
    /** The full pools (core/registration/places.ts) the person waits for: an offer needs a place in each. */
    pools: text("pools", { mode: "json" }).$type<string[]>().notNull(),
    /** Their order in the list; the organiser reorders by moving an entry between two others. */
    position: real("position").notNull(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    lang: text("lang").notNull().default("en"),
    values: text("values", { mode: "json" }).$type<Record<string, { v: unknown; p: number }>>().notNull(),
    /** The join form's one-time key: a double click joins once. */
    submissionKey: text("submission_key").notNull(),
    /** waiting, offered, accepted, expired or removed. */
    state: text("state").notNull().default("waiting"),
    offerCartId: text("offer_cart_id"),
    offeredAt: integer("offered_at"),
    offerExpiresAt: integer("offer_expires_at"),
    /** The capped pools a new entry's offer held for its person when made (every capped choice, decision 0078); null: `pools`. */
    offerPools: text("offer_pools", { mode: "json" }).$type<string[]>(),
    /** A change request (decision 0066): the paid person whose answers the offer changes, and their cart; null for a new entry. */
    changeIndividualId: text("change_individual_id"),
    changeCartId: text("change_cart_id"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("waitlist_submission").on(t.registrationId, t.submissionKey),
    index("waitlist_change_person").on(t.changeIndividualId),
    index("waitlist_queue").on(t.registrationId, t.state, t.position),
    index("waitlist_offer_cart").on(t.offerCartId),
  ],
);
