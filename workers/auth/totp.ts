import { eq } from "drizzle-orm";
import { encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import { createTOTPKeyURI, verifyHOTP } from "@oslojs/otp";
import { renderSVG } from "uqr";
import { TOTP_DIGITS, TOTP_DRIFT_STEPS, TOTP_PERIOD_SECONDS } from "../../core/auth/constants";
import { userTotp, type Db } from "../../schema/d1";
import { decryptSecret, encryptSecret } from "./crypto";

const SECRET_BYTES = 20;

export interface TotpSetup {
  /** The secret to type into an authenticator, in groups of four. */
  typedSecret: string;
  uri: string;
  qrSvg: string;
}

function setupOf(secret: Uint8Array, user: { email: string }, issuer: string): TotpSetup {
  const uri = createTOTPKeyURI(issuer, user.email, secret, TOTP_PERIOD_SECONDS, TOTP_DIGITS);
  return {
    typedSecret: encodeBase32UpperCaseNoPadding(secret)
      .replace(/(.{4})/g, "$1 ")
      .trim(),
    uri,
    qrSvg: renderSVG(uri),
  };
}

/** The set-up waiting for its first code, shown again as it was (same key, same QR), or null. */
export async function pendingTotpSetup(env: Env, db: Db, user: { id: string; email: string }, issuer: string): Promise<TotpSetup | null> {
  const existing = await db.query.userTotp.findFirst({ where: eq(userTotp.userId, user.id) });
  if (!existing || existing.enabledAt) return null;
  return setupOf(await decryptSecret(env, existing.secretEncrypted), user, issuer);
}

/**
 * Starts two-factor set-up: a secret not required until a first code confirms it. A pending secret is kept
 * (the user may already have scanned it) unless `restart` asks for a new one.
 */
export async function beginTotpSetup(env: Env, db: Db, user: { id: string; email: string }, issuer: string, now: number, restart = false): Promise<TotpSetup> {
  const existing = await db.query.userTotp.findFirst({ where: eq(userTotp.userId, user.id) });
  if (existing?.enabledAt) throw new Error("Two-factor is already on");
  if (existing && !restart) return setupOf(await decryptSecret(env, existing.secretEncrypted), user, issuer);
  const secret = crypto.getRandomValues(new Uint8Array(SECRET_BYTES));
  const sealed = await encryptSecret(env, secret);
  await db
    .insert(userTotp)
    .values({ userId: user.id, secretEncrypted: sealed, createdAt: now })
    .onConflictDoUpdate({ target: userTotp.userId, set: { secretEncrypted: sealed, createdAt: now, lastUsedStep: 0 } });
  return setupOf(secret, user, issuer);
}

/** Whether the user must give a code to sign in. */
export async function isTotpEnabled(db: Db, userId: string): Promise<boolean> {
  const row = await db.query.userTotp.findFirst({ where: eq(userTotp.userId, userId), columns: { enabledAt: true } });
  return Boolean(row?.enabledAt);
}

/**
 * Checks a 6-digit code against the steps now-1, now and now+1 (one step of drift each way). A step at or
 * before the last one accepted is refused, so an overheard code cannot be replayed.
 */
export async function verifyTotpCode(env: Env, db: Db, userId: string, code: string, now: number, options: { enabling?: boolean } = {}): Promise<boolean> {
  const row = await db.query.userTotp.findFirst({ where: eq(userTotp.userId, userId) });
  if (!row || (!row.enabledAt && !options.enabling)) return false;
  const key = await decryptSecret(env, row.secretEncrypted);
  const current = Math.floor(now / 1000 / TOTP_PERIOD_SECONDS);
  for (let step = current - TOTP_DRIFT_STEPS; step <= current + TOTP_DRIFT_STEPS; step++) {
    if (step <= row.lastUsedStep) continue;
    if (verifyHOTP(key, BigInt(step), TOTP_DIGITS, code)) {
      await db
        .update(userTotp)
        .set({ lastUsedStep: step, enabledAt: row.enabledAt ?? now })
        .where(eq(userTotp.userId, userId));
      return true;
    }
  }
  return false;
}

export async function disableTotp(db: Db, userId: string): Promise<void> {
  await db.delete(userTotp).where(eq(userTotp.userId, userId));
}
