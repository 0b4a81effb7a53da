import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { entityColumns } from "./columns";
import { clubs, sites, users } from "./tables";

/**
 * APIApplication (spec: name, description, is_system, is_public, scopes): a third-party or system app.
 * `site_id` is the tenant it belongs to (null: the main host); its tokens work only on that tenant's host.
 */
export const apiApplications = sqliteTable("api_applications", {
  ...entityColumns(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  isSystem: integer("is_system", { mode: "boolean" }).notNull().default(false),
  isPublic: integer("is_public", { mode: "boolean" }).notNull().default(true),
  /** The scopes the app may ask for, in scope text form. */
  scopes: text("scopes").notNull().default(""),
  /** Redirect URIs, matched exactly. */
  redirectUris: text("redirect_uris", { mode: "json" }).$type<string[]>().notNull(),
  /** For a confidential (non-public) app only: SHA-256 of its client secret. */
  clientSecretHash: text("client_secret_hash"),
  siteId: text("site_id").references(() => sites.id),
  /** The club whose API Client Admins manage it; null for platform apps. */
  clubId: text("club_id").references(() => clubs.id),
  ownerUserId: text("owner_user_id").references(() => users.id),
});

/** What a user has approved for an app (spec: granted_scopes), in scope text form. */
export const oauthGrants = sqliteTable(
  "oauth_grants",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    appId: text("app_id")
      .notNull()
      .references(() => apiApplications.id, { onDelete: "cascade" }),
    scopes: text("scopes").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("oauth_grants_user_app").on(t.userId, t.appId)],
);

/** An authorisation code: single use, short-lived, bound to its app, redirect URI, host and PKCE challenge. */
export const oauthCodes = sqliteTable("oauth_codes", {
  codeHash: text("code_hash").primaryKey(),
  appId: text("app_id")
    .notNull()
    .references(() => apiApplications.id, { onDelete: "cascade" }),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  host: text("host").notNull(),
  redirectUri: text("redirect_uri").notNull(),
  scopes: text("scopes").notNull(),
  codeChallenge: text("code_challenge").notNull(),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
  /** The token family this grant starts; null only on codes made before families existed. */
  familyId: text("family_id"),
});

/**
 * An access and refresh token pair; only hashes are stored. A refresh rotates the pair. Every pair issued
 * from one code shares `family_id` (null on rows made before families existed: such a row's family is its own id).
 */
export const oauthTokens = sqliteTable(
  "oauth_tokens",
  {
    id: text("id").primaryKey(),
    accessTokenHash: text("access_token_hash").notNull(),
    refreshTokenHash: text("refresh_token_hash").notNull(),
    appId: text("app_id")
      .notNull()
      .references(() => apiApplications.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    host: text("host").notNull(),
    scopes: text("scopes").notNull(),
    accessExpiresAt: integer("access_expires_at").notNull(),
    refreshExpiresAt: integer("refresh_expires_at").notNull(),
    revokedAt: integer("revoked_at"),
    createdAt: integer("created_at").notNull(),
    familyId: text("family_id"),
  },
  (t) => [
    uniqueIndex("oauth_tokens_access").on(t.accessTokenHash),
    uniqueIndex("oauth_tokens_refresh").on(t.refreshTokenHash),
    index("oauth_tokens_user").on(t.userId),
    index("oauth_tokens_family").on(t.familyId),
  ],
);
