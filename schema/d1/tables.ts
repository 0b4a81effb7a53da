import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { SiteConfig } from "../wire/site-config";
import { cityColumns, entityColumns } from "./columns";

/** WhitelabelSite (spec: config, hostname): a club site served on its own hostname. */
export const sites = sqliteTable(
  "whitelabel_sites",
  {
    ...entityColumns(),
    hostname: text("hostname").notNull(),
    config: text("config", { mode: "json" }).$type<SiteConfig>().notNull(),
    /** Bumped in the batch of any change to the site's config, pages or event pages: names its cached public pages. */
    version: integer("version").notNull().default(0),
  },
  (t) => [uniqueIndex("whitelabel_sites_hostname").on(t.hostname)],
);

/** A DNS record a club creates for its domain, as Cloudflare asks for it (ownership or certificate validation). */
export interface DomainRecord {
  type: "TXT";
  name: string;
  value: string;
}

/**
 * A club's own domain for its site (decision 0047), registered with Cloudflare for SaaS as a custom hostname.
 * A hostname belongs to one site across all tenants (the unique index); the Worker serves it once `status`
 * is active. One primary per site: its www or bare partner redirects to it.
 */
export const siteDomains = sqliteTable(
  "site_domains",
  {
    id: text("id").primaryKey(),
    siteId: text("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    /** Lowercase ASCII (punycode), no trailing dot: the form core/sites/hostnames.ts gives. */
    hostname: text("hostname").notNull(),
    /** Cloudflare's custom hostname id; null while the claim is being registered. */
    cloudflareId: text("cloudflare_id"),
    /** Cloudflare's hostname status (pending, active, moved, deleted …). */
    status: text("status").notNull().default("pending"),
    /** Cloudflare's certificate status (initializing, pending_validation … active). */
    sslStatus: text("ssl_status"),
    /** The TXT records Cloudflare asks for: ownership first, then any certificate validation records. */
    records: text("records", { mode: "json" })
      .$type<DomainRecord[]>()
      .notNull()
      .default(sql`'[]'`),
    /** Cloudflare's verification and validation errors, as it words them. */
    errors: text("errors", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    isPrimary: integer("is_primary", { mode: "boolean" }).notNull().default(false),
    /** When Cloudflare was last asked (ms); the cron asks again for the longest-unchecked first. */
    checkedAt: integer("checked_at"),
    createdAt: integer("created_at").notNull(),
    createdBy: text("created_by"),
  },
  (t) => [
    uniqueIndex("site_domains_hostname").on(t.hostname),
    index("site_domains_site").on(t.siteId),
    uniqueIndex("site_domains_primary")
      .on(t.siteId)
      .where(sql`is_primary = 1`),
    index("site_domains_checked").on(t.checkedAt),
  ],
);

/** Club (Organization): the tenant whose content a site shows; `site` links it to its whitelabel site. */
export const clubs = sqliteTable(
  "clubs",
  {
    ...entityColumns(),
    name: text("name").notNull(),
    sport: text("sport"),
    country: text("country"),
    email: text("email"),
    website: text("website"),
    logo: text("logo"),
    info: text("info"),
    publicUrl: text("public_url"),
    siteId: text("site_id").references(() => sites.id),
    /** Takes card payments through Stripe (section 3); registrations then charge the system fee. */
    isStripe: integer("is_stripe", { mode: "boolean" }).notNull().default(false),
    /** The platform collects this club's card payments and remits them (rather than a connected account). */
    isMerchant: integer("is_merchant", { mode: "boolean" }).notNull().default(false),
    paymentPublishableKey: text("payment_publishable_key"),
    /** The club's Stripe connected account (acct_…): charges are made on it. */
    stripeAccountId: text("stripe_account_id"),
    /**
     * The idempotency key its account is being created under, claimed once by a conditional update, so a
     * double click or a second tab asks Stripe with the same key and one account is made (decision 0041).
     */
    stripeAccountClaim: text("stripe_account_claim"),
    /** The connected account may take charges (Stripe's charges_enabled): only then are cards offered. */
    stripeChargesEnabled: integer("stripe_charges_enabled", { mode: "boolean" }).notNull().default(false),
    stripePayoutsEnabled: integer("stripe_payouts_enabled", { mode: "boolean" }).notNull().default(false),
    stripeDetailsSubmitted: integer("stripe_details_submitted", { mode: "boolean" }).notNull().default(false),
    /** What Stripe still needs from the club (requirements.currently_due and past_due), as last heard. */
    stripeRequirements: text("stripe_requirements", { mode: "json" }).$type<string[]>(),
    /** When the flags were last heard from Stripe (ms): an older account.updated event changes nothing. */
    stripeStatusAt: integer("stripe_status_at"),
    bankaccountId: text("bankaccount_id"),
    /** The club's GST/HST registration number, printed on receipts' tax line (decision 0058); null: none. */
    taxNumber: text("tax_number"),
    /** A Quebec club's QST number, a second line under the tax line (decision 0061); null: none. */
    qstNumber: text("qst_number"),
    ...cityColumns(),
  },
  (t) => [index("clubs_site").on(t.siteId), index("clubs_stripe_account").on(t.stripeAccountId)],
);

/** User (spec: name, email, password_age_ignore_days_num). Email is stored lowercased. */
export const users = sqliteTable(
  "users",
  {
    ...entityColumns(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    phone: text("phone"),
    emoji: text("emoji"),
    /** `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`, or null for link- or passkey-only accounts. */
    passwordHash: text("password_hash"),
    passwordAgeIgnoreDaysNum: integer("password_age_ignore_days_num"),
  },
  (t) => [uniqueIndex("users_email").on(t.email)],
);

/** Role (spec: club, scope, config), held by one user. `type` names the role of platform.md section 6. */
export const roles = sqliteTable(
  "roles",
  {
    ...entityColumns(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    clubId: text("club_id").references(() => clubs.id),
    siteId: text("site_id").references(() => sites.id),
    /** The object a scoped role applies to (a registration or race id), or null for club- or system-wide roles. */
    scope: text("scope"),
    config: text("config", { mode: "json" })
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'`),
  },
  (t) => [index("roles_user").on(t.userId)],
);

/**
 * A role offered to someone by e-mail (issue 25, decision 0031): accepted by the account with that address,
 * through a link whose token is stored only as its hash. At most one open invitation per address and role.
 */
export const invitations = sqliteTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    createdAt: integer("created_at").notNull(),
    invitedBy: text("invited_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    roleType: text("role_type").notNull(),
    clubId: text("club_id").references(() => clubs.id),
    /** The race, form or depot the role applies to (the role row's scope). */
    scope: text("scope"),
    /** The site of a Site Administrator role. */
    siteId: text("site_id"),
    /** The id of what the role is bound to (club, site, form, race or depot): one open invitation per address, role and target. */
    target: text("target").notNull().default(""),
    /** Its name when invited, for the link's page and the mail. */
    targetName: text("target_name").notNull().default(""),
    /** A Site Administrator's area flags: the inviter's own, never more. */
    config: text("config", { mode: "json" })
      .$type<Record<string, boolean>>()
      .notNull()
      .default(sql`'{}'`),
    /** The invitation mail: queued, sent, or failed after every retry (shown to the people who invite). */
    mailState: text("mail_state", { enum: ["queued", "sent", "failed"] })
      .notNull()
      .default("queued"),
    tokenHash: text("token_hash").notNull(),
    expiresAt: integer("expires_at").notNull(),
    acceptedAt: integer("accepted_at"),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: integer("revoked_at"),
  },
  (t) => [
    uniqueIndex("invitations_token").on(t.tokenHash),
    index("invitations_target").on(t.target),
    index("invitations_inviter").on(t.invitedBy, t.createdAt),
    uniqueIndex("invitations_open_target")
      .on(t.email, t.roleType, t.target)
      .where(sql`accepted_at IS NULL AND revoked_at IS NULL`),
  ],
);

/**
 * Race catalogue row: the D1 copy of what lists and searches need. The race itself (setup, racers,
 * crossings, results) lives in its RaceRoom Durable Object, which writes this row back when it changes.
 */
export const races = sqliteTable(
  "races",
  {
    ...entityColumns(),
    clubId: text("club_id")
      .notNull()
      .references(() => clubs.id),
    siteId: text("site_id").references(() => sites.id),
    name: text("name").notNull(),
    sport: text("sport"),
    /** Epoch milliseconds. */
    startTime: integer("start_time").notNull(),
    endTime: integer("end_time"),
    timezone: text("timezone").notNull().default("UTC"),
    location: text("location"),
    visibility: text("visibility", { enum: ["public", "unlisted", "private"] })
      .notNull()
      .default("public"),
    /** Spectator fan-out shards the race publishes to; set by its RaceRoom as the audience grows (decision 0023). */
    spectatorShards: integer("spectator_shards").notNull().default(1),
  },
  (t) => [index("races_site_start").on(t.siteId, t.startTime), index("races_club_start").on(t.clubId, t.startTime)],
);

/** Outgoing mail captured in local development (MAIL_MODE=capture) so a person can read and click it. */
export const capturedMail = sqliteTable("captured_mail", {
  id: text("id").primaryKey(),
  to: text("to").notNull(),
  from: text("from").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  html: text("html"),
  createdAt: integer("created_at").notNull(),
});
