import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { roles, users } from "./tables";

/**
 * A signed-in browser on one host. The cookie holds `<id>.<secret>`; only the SHA-256 of the secret is
 * stored, so a database leak yields no usable session.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    secretHash: text("secret_hash").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The tenant hostname the session is valid on; the cookie is host-only. */
    host: text("host").notNull(),
    activeRoleId: text("active_role_id").references(() => roles.id, { onDelete: "set null" }),
    /** False until the target host's /_auth/login has turned the handed-over token into its cookie. */
    isClaimed: integer("is_claimed", { mode: "boolean" }).notNull().default(false),
    /** Creation time; the absolute lifetime (SESSION_ABSOLUTE_MS) counts from here, however often it is used. */
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    lastUsedAt: integer("last_used_at").notNull(),
    /** When this session last completed a full sign-in or re-authentication; null (older rows) counts as stale. */
    verifiedAt: integer("verified_at"),
    /** A short label of the browser that claimed it ("Chrome on Linux"), for the session list. */
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user").on(t.userId)],
);

/** A sign-in attempt (spec section 3): created for a user and a method, then verified step by step. */
export const signInAttempts = sqliteTable(
  "sign_in_attempts",
  {
    id: text("id").primaryKey(),
    /** Hash of the attempt token the browser keeps to remember the returning user ("Welcome Back"). */
    tokenHash: text("token_hash").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    method: text("method", { enum: ["password", "link", "reset", "switch"] }).notNull(),
    status: text("status", { enum: ["pending", "partial", "verified", "failed"] }).notNull(),
    /** The verifications already passed: password, link, totp, passkey, session. */
    verifiedBy: text("verified_by", { mode: "json" }).$type<string[]>().notNull(),
    host: text("host").notNull(),
    goto: text("goto"),
    roleId: text("role_id"),
    /** Hash of the emailed link's token, its send time and when it was used (single use, 10 minutes). */
    linkTokenHash: text("link_token_hash"),
    linkSentAt: integer("link_sent_at"),
    linkUsedAt: integer("link_used_at"),
    /** A re-authentication: when verified, this session's verified_at is refreshed instead of a new session made. */
    reauthSessionId: text("reauth_session_id"),
    /** A reset's new password, saved only when the attempt's second factor is verified. */
    pendingPasswordHash: text("pending_password_hash"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("sign_in_attempts_user").on(t.userId, t.method), index("sign_in_attempts_link").on(t.linkTokenHash)],
);

/** A user's time-based two-factor secret, AES-GCM encrypted because it must be read back to check codes. */
export const userTotp = sqliteTable("user_totp", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretEncrypted: text("secret_encrypted").notNull(),
  /** Null while being set up: two-factor is required only once a first code confirmed it. */
  enabledAt: integer("enabled_at"),
  /** The last 30-second step accepted, so one code cannot be used twice. */
  lastUsedStep: integer("last_used_step").notNull().default(0),
  createdAt: integer("created_at").notNull(),
});

/** Single-use recovery codes for a two-factor account; only a salted SHA-256 of each is stored. */
export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    createdAt: integer("created_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("recovery_codes_user").on(t.userId, t.codeHash)],
);

/** A requested change of e-mail address, waiting for the link sent to the new address. */
export const emailChanges = sqliteTable(
  "email_changes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    newEmail: text("new_email").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("email_changes_token").on(t.tokenHash)],
);

/** A WebAuthn credential (spec Passkey: id, domain, created_at, last_used). */
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The relying party ID (tenant hostname) the credential is bound to. */
    domain: text("domain").notNull(),
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull(),
    transports: text("transports", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [index("passkeys_user").on(t.userId, t.domain)],
);

/** A WebAuthn challenge waiting for its response; single use, short-lived. */
export const webauthnChallenges = sqliteTable("webauthn_challenges", {
  id: text("id").primaryKey(),
  challenge: text("challenge").notNull(),
  kind: text("kind", { enum: ["register", "authenticate"] }).notNull(),
  userId: text("user_id"),
  attemptId: text("attempt_id"),
  domain: text("domain").notNull(),
  expiresAt: integer("expires_at").notNull(),
});

/**
 * Guesses of a secret per key in a fixed window: reserved before the secret is checked, given back when it
 * was right, so a row counts failures plus guesses in flight (workers/auth/failures.ts lists the keys).
 */
export const authFailures = sqliteTable(
  "auth_failures",
  {
    key: text("key").notNull(),
    windowStart: integer("window_start").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/** Throttled requests per key (`<rule>:<subject>`, subjects hashed) in a fixed window; see workers/auth/throttle.ts. */
export const throttleCounts = sqliteTable(
  "throttle_counts",
  {
    key: text("key").notNull(),
    windowStart: integer("window_start").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/**
 * A browser a user has completed a sign-in from. The `sl_device` cookie holds a random id; only its SHA-256
 * is stored. A known device's password guesses are counted apart from strangers' (workers/auth/devices.ts).
 */
export const knownDevices = sqliteTable(
  "known_devices",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceHash: text("device_hash").notNull(),
    /** Browser and system from the User-Agent ("Chrome on Linux"), for notices; never the full header. */
    label: text("label").notNull(),
    firstSeenAt: integer("first_seen_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceHash] }), index("known_devices_last_seen").on(t.lastSeenAt)],
);
