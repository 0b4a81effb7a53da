import { and, eq, sql } from "drizzle-orm";
import { initialMtimes } from "../../core/entity/field-mtimes";
import { passkeys, users, type Db } from "../../schema/d1";

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Db, email: string) {
  return db.query.users.findFirst({ where: eq(users.email, normaliseEmail(email)) });
}

export async function findUserById(db: Db, id: string) {
  return db.query.users.findFirst({ where: eq(users.id, id) });
}

export async function countPasskeys(db: Db, userId: string, domain: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.domain, domain)));
  return row?.n ?? 0;
}

/** A new administrator account (sign-up): email, name and an optional phone; no password until they set one. */
export async function createUser(db: Db, input: { email: string; name: string; phone?: string | null }, now: number) {
  const fields = { email: normaliseEmail(input.email), name: input.name.trim(), phone: input.phone?.trim() || null };
  const id = crypto.randomUUID();
  await db.insert(users).values({ id, ...fields, createdAt: now, fieldMtimes: initialMtimes(fields, now) });
  return { id, ...fields };
}

export async function setUserPassword(db: Db, userId: string, passwordHash: string, now: number): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user) return;
  await db
    .update(users)
    .set({ passwordHash, fieldMtimes: { ...user.fieldMtimes, password_hash: Math.max(now, (user.fieldMtimes.password_hash ?? 0) + 1) } })
    .where(eq(users.id, userId));
}
