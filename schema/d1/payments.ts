import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { PlaceClaim } from "../../core/registration/places";
import type { ChargedPricing } from "../../core/registration/receipt-lines";
import { entityColumns } from "./columns";

/**
 * Transaction (platform.md section 3): money moving between a payer and a payee. Amounts are positive
 * integer cents; the type says which way it goes. Completed once completion_time is set (section 4);
 * a refund is a child of the payment it returns (parent_transaction).
 */
export const transactions = sqliteTable(
  "transactions",
  {
    ...entityColumns(),
    /** payment, refund, z4fee, remittance or division (core/payments/model.ts). */
    type: text("type").notNull(),
    amount: integer("amount").notNull(),
    /** Who pays: a cart's email for payments, a club id for fees, the system payee for remittances. */
    payer: text("payer").notNull().default(""),
    /** Who is paid: a club id, the system payee, or the cart's email for refunds. */
    payee: text("payee").notNull().default(""),
    surcharge: integer("surcharge").notNull().default(0),
    batchFromTime: integer("batch_from_time"),
    batchToTime: integer("batch_to_time"),
    completionTime: integer("completion_time"),
    isVoid: integer("is_void", { mode: "boolean" }).notNull().default(false),
    parentTransaction: text("parent_transaction"),
    cartId: text("cart_id"),
    registrationId: text("registration_id"),
    /** The club whose books the row is in; every finance query is scoped by it. */
    clubId: text("club_id").notNull(),
    siteId: text("site_id"),
    /** stripe, manual or system. */
    provider: text("provider").notNull(),
    /** card, cash or cheque; null for fees and remittances. */
    method: text("method"),
    /** The provider's id (Stripe PaymentIntent or Refund); unique per provider, so a replay cannot write twice. */
    externalId: text("external_id"),
    attemptId: text("attempt_id"),
    note: text("note").notNull().default(""),
    /** The signed-in user who recorded, refunded or voided it; null for webhooks and registrants. */
    createdBy: text("created_by"),
    /** When the registrant was told of this refund: set once, by whichever path told them (decision 0028). */
    notifiedAt: integer("notified_at"),
  },
  (t) => [
    index("transactions_club").on(t.clubId, t.createdAt),
    index("transactions_cart").on(t.cartId),
    index("transactions_registration").on(t.registrationId, t.type),
    index("transactions_parent").on(t.parentTransaction),
    uniqueIndex("transactions_external").on(t.provider, t.externalId),
  ],
);

/**
 * One try at paying a cart. Its idempotency key is made from the cart and what is being charged, so a
 * retried click reuses the attempt (and Stripe's idempotency returns the same Checkout Session).
 */
export const paymentAttempts = sqliteTable(
  "payment_attempts",
  {
    id: text("id").primaryKey(),
    cartId: text("cart_id").notNull(),
    registrationId: text("registration_id").notNull(),
    clubId: text("club_id").notNull(),
    provider: text("provider").notNull(),
    amount: integer("amount").notNull(),
    systemFee: integer("system_fee").notNull().default(0),
    idempotencyKey: text("idempotency_key").notNull(),
    /** open, paid, failed or expired; paid is final, whatever arrives after it. */
    status: text("status").notNull().default("open"),
    checkoutSessionId: text("checkout_session_id"),
    paymentIntentId: text("payment_intent_id"),
    checkoutUrl: text("checkout_url"),
    failureMessage: text("failure_message"),
    /** The connected account the charge is made on (Stripe-Account). */
    stripeAccount: text("stripe_account"),
    /** The cart's total and each person's share when the attempt began: what completing it writes. */
    individualTotals: text("individual_totals", { mode: "json" })
      .$type<Record<string, number>>()
      .notNull()
      .default(sql`'{}'`),
    /** The discount code uses the cart took when the attempt began, recorded on the cart when it completes; null on attempts begun before uses were recorded. */
    discountUses: text("discount_uses", { mode: "json" }).$type<Record<string, number>>(),
    /** The places the cart held when the attempt began (core/registration/places.ts): what completing it takes. */
    places: text("places", { mode: "json" }).$type<PlaceClaim[]>(),
    /** The price lines and totals when the attempt began: what completing it records on the cart for the receipt. */
    pricing: text("pricing", { mode: "json" }).$type<ChargedPricing>(),
    /** A paid change to a complete cart (a transfer's fee), applied when the payment completes; null for a cart's own payment. */
    change: text("change", { mode: "json" }).$type<PaidChange>(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("payment_attempts_key").on(t.idempotencyKey),
    index("payment_attempts_cart").on(t.cartId, t.status),
    index("payment_attempts_session").on(t.checkoutSessionId),
  ],
);

/** What a paid change does once its payment completes: the person's values from and to, and who became whom. */
export interface PaidChange {
  /** transfer: the entry to someone else, for the form's fee; edit: priced items added, for what they cost. */
  kind: "transfer" | "edit";
  requestId: string;
  individualId: string;
  from: Record<string, { v: unknown; p: number }>;
  to: Record<string, { v: unknown; p: number }>;
  fromName: string;
  toName: string;
  fields: string[];
  /** An edit's cart price after it (the charged lines plus what it added), and what it adds to the person's share. */
  pricing?: ChargedPricing;
  personDelta?: number;
  /** The places the new answers take (a capped one is held while the payment is open, decision 0061). */
  places?: PlaceClaim[];
  /** The pools the old answers leave: their places are freed when the change is made. */
  released?: string[];
}

/** Webhook events already applied, by the provider's event id: a replay finds its row and does nothing. */
export const paymentEvents = sqliteTable("payment_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: integer("received_at").notNull(),
});

/** BankAccount (section 3): where a club is paid (remittance) or the merchant account it charges through. */
export const bankAccounts = sqliteTable(
  "bank_accounts",
  {
    ...entityColumns(),
    name: text("name").notNull(),
    displayName: text("display_name").notNull().default(""),
    userId: text("user_id"),
    clubId: text("club_id").notNull(),
    /** remittance or merchant. */
    kind: text("kind").notNull().default("remittance"),
    /** Only the last four digits are kept; the full number stays with the bank. */
    accountLast4: text("account_last4").notNull().default(""),
  },
  (t) => [index("bank_accounts_club").on(t.clubId)],
);

/** PendingBankAccount (section 3): a club's request for a bank account, approved or denied by a System Administrator. */
export const pendingBankAccounts = sqliteTable(
  "pending_bank_accounts",
  {
    ...entityColumns(),
    /** The BankAccount made on approval. */
    accountId: text("account_id"),
    clubId: text("club_id").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    kind: text("kind").notNull().default("remittance"),
    accountLast4: text("account_last4").notNull().default(""),
    requestedBy: text("requested_by"),
    approvedTime: integer("approved_time"),
    deniedTime: integer("denied_time"),
  },
  (t) => [index("pending_bank_accounts_club").on(t.clubId)],
);

/**
 * RegistrationReport (section 3): a saved view of a form's carts or individuals. The lists hold column
 * keys, sorts, groups and filters as core/registration/report.ts defines them.
 */
export const registrationReports = sqliteTable(
  "registration_reports",
  {
    ...entityColumns(),
    registrationId: text("registration_id").notNull(),
    clubId: text("club_id").notNull(),
    siteId: text("site_id"),
    name: text("name").notNull(),
    /** carts or individuals. */
    type: text("type").notNull().default("individuals"),
    /** Shared reports are seen by everyone who may see the form's reports; others only by their author. */
    isShared: integer("is_shared", { mode: "boolean" }).notNull().default(false),
    fieldsList: text("fields_list", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    sortsList: text("sorts_list", { mode: "json" })
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'`),
    groupsList: text("groups_list", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    filtersList: text("filters_list", { mode: "json" })
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'`),
    createdBy: text("created_by"),
  },
  (t) => [index("registration_reports_registration").on(t.registrationId)],
);
