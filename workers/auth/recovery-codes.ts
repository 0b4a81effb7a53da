import { and, eq, isNull, sql } from "drizzle-orm";
import { RECOVERY_CODE_COUNT } from "../../core/auth/constants";
import { formatRecoveryCode, normaliseRecoveryCode } from "../../core/auth/recovery-code";
import { recoveryCodes, type Db } from "../../schema/d1";
import { hashToken } from "./crypto";

/** Salted with the user id, so one precomputed table cannot serve every account. */
function codeHash(userId: string, code: string): string {
  return hashToken(`recovery:${userId}:${code}`);
}

/** Replaces the user's recovery codes with ten new ones and returns them in plain text, to be shown once. */
export async function makeRecoveryCodes(db: Db, userId: string, now: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => formatRecoveryCode(crypto.getRandomValues(new Uint8Array(10))));
  await db.batch([
    db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)),
    db.insert(recoveryCodes).values(codes.map((code) => ({ id: crypto.randomUUID(), userId, codeHash: codeHash(userId, code), createdAt: now }))),
  ]);
  return codes;
}

/**
 * Uses up one recovery code: a single conditional UPDATE, so two requests racing with the same code cannot
 * both succeed. Returns the number of unused codes left, or null when the code is not a valid unused one.
 */
export async function consumeRecoveryCode(db: Db, userId: string, input: string, now: number): Promise<number | null> {
  const code = normaliseRecoveryCode(input);
  if (!code) return null;
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash(userId, code)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  if (used.length !== 1) return null;
  return countUnusedRecoveryCodes(db, userId);
}

export async function countUnusedRecoveryCodes(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

export async function deleteRecoveryCodes(db: Db, userId: string): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}
