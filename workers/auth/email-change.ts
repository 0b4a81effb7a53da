import { and, eq, gt, isNull } from "drizzle-orm";
import * as z from "zod";
import { EMAIL_CHANGE_VALID_MS } from "../../core/auth/constants";
import { ourAuthMessages } from "../../core/auth/messages";
import { emailChanges, users, type Db } from "../../schema/d1";
import { sendMail } from "../mail/mailer";
import type { AuthDeps, Failure } from "./attempts";
import { hashToken, randomToken } from "./crypto";
import { originOf } from "./hosts";
import { sendSecurityNotice } from "./notices";
import { requireFresh, type ReauthRequired, type SessionProof } from "./reauth";
import { findUserByEmail, findUserById, normaliseEmail } from "./users";

const fail = (status: number, message: string): Failure => ({ ok: false, status, message });
const emailSchema = z.email({ message: ourAuthMessages.emailInvalid }).max(320);

/** The page the new address's confirmation link opens. */
export const EMAIL_CONFIRM_PATH = "/manage/email";

/**
 * Asks to change the account's e-mail address (needs a fresh sign-in): the new address gets a link, and the
 * address changes only when it is opened. Whether the address is taken is told only then, to its owner.
 */
export async function requestEmailChange(
  deps: AuthDeps,
  session: SessionProof,
  input: string,
): Promise<{ ok: true; email: string } | Failure | ReauthRequired> {
  const stale = requireFresh(session, deps.now);
  if (stale) return stale;
  const parsed = emailSchema.safeParse(normaliseEmail(input));
  if (!parsed.success) return fail(400, ourAuthMessages.emailInvalid);
  const user = await findUserById(deps.db, session.userId);
  if (!user) return fail(404, ourAuthMessages.emailChangeInvalid);
  const newEmail = parsed.data;
  if (newEmail === user.email) return fail(400, ourAuthMessages.emailSame);
  const token = randomToken();
  // One pending change at a time: a new request replaces any earlier link.
  await deps.db.delete(emailChanges).where(eq(emailChanges.userId, user.id));
  await deps.db.insert(emailChanges).values({
    id: crypto.randomUUID(),
    userId: user.id,
    newEmail,
    tokenHash: hashToken(token),
    createdAt: deps.now,
    expiresAt: deps.now + EMAIL_CHANGE_VALID_MS,
  });
  const url = `${originOf(deps.env, deps.tenant.hostname)}${EMAIL_CONFIRM_PATH}?token=${encodeURIComponent(token)}`;
  const site = deps.tenant.theme.name;
  const text = `Hello ${user.name},\n\nTo make ${newEmail} the e-mail address of your ${site} account, open this link:\n\n${url}\n\nIt is valid for one hour and can be used only once. If you did not ask for this, ignore this message.\n`;
  await sendMail(deps.env, deps.db, { to: newEmail, subject: `Confirm your new ${site} e-mail address`, text });
  return { ok: true, email: newEmail };
}

/** Opens a confirmation link: used once, within the hour; the old address is told of the change. */
export async function confirmEmailChange(deps: AuthDeps, token: string): Promise<{ ok: true; email: string } | Failure> {
  const [change] = await deps.db
    .update(emailChanges)
    .set({ usedAt: deps.now })
    .where(and(eq(emailChanges.tokenHash, hashToken(token)), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, deps.now)))
    .returning();
  if (!change) return fail(400, ourAuthMessages.emailChangeInvalid);
  const user = await findUserById(deps.db, change.userId);
  if (!user) return fail(400, ourAuthMessages.emailChangeInvalid);
  const taken = await findUserByEmail(deps.db, change.newEmail);
  if (taken) return fail(409, ourAuthMessages.emailChangeTaken);
  await setUserEmail(deps.db, user, change.newEmail, deps.now);
  await sendSecurityNotice(deps, user, { kind: "email-changed", newEmail: change.newEmail });
  return { ok: true, email: change.newEmail };
}

async function setUserEmail(db: Db, user: { id: string; fieldMtimes: Record<string, number> }, email: string, now: number) {
  const mtimes = { ...user.fieldMtimes, email: Math.max(now, (user.fieldMtimes.email ?? 0) + 1) };
  await db.update(users).set({ email, fieldMtimes: mtimes }).where(eq(users.id, user.id));
}
