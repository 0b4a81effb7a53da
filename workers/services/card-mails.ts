/**
 * A card's link by mail (decision 0063). Issuing a card writes its mail row in the issuing batch (passes.ts),
 * so a job run again finds the card and mails nothing; "Send the card again" writes one row per one-time id,
 * so a double click mails once. Rows go on the mail queue as `{passMail: id}` and the consumer claims each
 * (queued → sending) before sending, as membership reminders do (decision 0057).
 */
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import * as z from "zod";
import { renderCardMail } from "../../core/passes/card-mail";
import { clubs, passes, passMails, type Db } from "../../schema/d1";
import { deliverMail } from "../mail/mailer";
import { issuePass, passCardPath, type IssueInput, type PassRow } from "./passes";
import { formOrigin } from "./receipts";

export const CARD_MAIL_MESSAGES = {
  noAddress: "This card has no e-mail address; issue a new card with one",
  revoked: "A revoked card is not sent; issue a new card instead",
  unknown: "There is no such card, or it is not this club's.",
} as const;

/** A mail row still queued this long after its last touch lost its message; the cron queues it again. */
const LOST_AFTER_MS = 60 * 60_000;
/** Rows re-queued per sweep: one Queue batch, and the touch's ids stay under D1's 100 bound values. */
const LOST_PER_SWEEP = 90;

/** Puts a pass's mails still waiting on the queue (again: the consumer's claim keeps each to one mail). */
export async function queueCardMails(env: Env, db: Db, passId: string): Promise<number> {
  const waiting = await db
    .select({ id: passMails.id })
    .from(passMails)
    .where(and(eq(passMails.passId, passId), eq(passMails.state, "queued")));
  if (waiting.length > 0) await env.MAIL_QUEUE.sendBatch(waiting.map((w) => ({ body: { passMail: w.id } })));
  return waiting.length;
}

/** Issues a card (or finds the one its source issued) and sends its link to the holder once. */
export async function issueCard(env: Env, db: Db, input: IssueInput, now: number): Promise<{ pass: PassRow; created: boolean }> {
  const issued = await issuePass(db, input, now);
  // A retry whose first run stopped before the queue finds the row still queued and sends its message now.
  await queueCardMails(env, db, issued.pass.id);
  return issued;
}

export const sendAgainSchema = z.object({ submission: z.uuid(), pass: z.uuid() });

/** "Send the card again": one mail per one-time id, to the card's address, in the holder's language. */
export async function sendCardAgain(
  env: Env,
  db: Db,
  clubId: string,
  input: z.output<typeof sendAgainSchema>,
  now: number,
): Promise<{ ok: true } | { ok: false; status: 400 | 404; message: string }> {
  const [pass] = await db
    .select()
    .from(passes)
    .where(and(eq(passes.id, input.pass), eq(passes.clubId, clubId)))
    .limit(1);
  if (!pass) return { ok: false, status: 404, message: CARD_MAIL_MESSAGES.unknown };
  if (!pass.holderEmail) return { ok: false, status: 400, message: CARD_MAIL_MESSAGES.noAddress };
  if (pass.revokedTime !== null) return { ok: false, status: 400, message: CARD_MAIL_MESSAGES.revoked };
  // Sent twice, the one-time id is taken already: nothing more is written or queued.
  const written = await db
    .insert(passMails)
    .values({ id: input.submission, passId: pass.id, clubId, email: pass.holderEmail, lang: pass.lang, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning({ id: passMails.id });
  if (written.length === 1) await env.MAIL_QUEUE.send({ passMail: input.submission });
  return { ok: true };
}

export type CardMailOutcome = "sent" | "skipped" | "retry" | "failed";

/** Sends one card mail from the queue, claimed first; a redelivered message may take back its own claim. */
export async function sendCardMail(env: Env, db: Db, id: string, attempt: number, lastAttempt: boolean, now: number): Promise<CardMailOutcome> {
  const claimable = attempt > 1 ? inArray(passMails.state, ["queued", "sending"]) : eq(passMails.state, "queued");
  const [claimed] = await db
    .update(passMails)
    .set({ state: "sending", attempts: sql`${passMails.attempts} + 1`, updatedAt: now })
    .where(and(eq(passMails.id, id), claimable))
    .returning();
  if (!claimed) return "skipped";
  try {
    const [found] = await db
      .select({ pass: passes, clubName: clubs.name })
      .from(passes)
      .innerJoin(clubs, eq(clubs.id, passes.clubId))
      .where(eq(passes.id, claimed.passId));
    // A card revoked since it was queued is not sent: its link would only say Revoked.
    if (!found || found.pass.revokedTime !== null) return finish(db, id, "failed", now);
    const cardUrl = `${await formOrigin(env, db, found.pass.siteId)}${await passCardPath(env, found.pass.id)}`;
    const mail = renderCardMail({
      lang: claimed.lang,
      clubName: found.clubName,
      kind: found.pass.kind,
      holderName: found.pass.holderName,
      season: found.pass.season,
      validUntil: found.pass.validUntil,
      cardUrl,
    });
    await deliverMail(env, db, { to: claimed.email, subject: mail.subject, text: mail.text, html: mail.html });
    return finish(db, id, "sent", now);
  } catch (error) {
    console.error(lastAttempt ? "A card mail failed for the last time" : "A card mail failed; will retry", id, error);
    if (lastAttempt) return finish(db, id, "failed", now);
    await db.update(passMails).set({ state: "queued", updatedAt: now }).where(eq(passMails.id, id));
    return "retry";
  }
}

async function finish(db: Db, id: string, state: "sent" | "failed", now: number): Promise<CardMailOutcome> {
  await db.update(passMails).set({ state, updatedAt: now }).where(eq(passMails.id, id));
  return state;
}

/** The cron's catch-up: card mails whose message was lost (still queued an hour on) go on the queue again. */
export async function requeueLostCardMails(env: Env, db: Db, now: number): Promise<number> {
  const lost = await db
    .select({ id: passMails.id })
    .from(passMails)
    .where(and(eq(passMails.state, "queued"), lt(passMails.updatedAt, now - LOST_AFTER_MS)))
    .limit(LOST_PER_SWEEP);
  if (lost.length === 0) return 0;
  const ids = lost.map((r) => r.id);
  await env.MAIL_QUEUE.sendBatch(ids.map((id) => ({ body: { passMail: id } })));
  // Touched, so the next sweep waits another hour for these.
  await db
    .update(passMails)
    .set({ updatedAt: now })
    .where(and(inArray(passMails.id, ids), eq(passMails.state, "queued")));
  return lost.length;
}

export interface CardMailLine {
  state: "queued" | "sending" | "sent" | "failed";
  at: number;
}

/** Each of the club's cards' latest mail, for the Passes page. */
export async function lastCardMails(db: Db, clubId: string): Promise<Map<string, CardMailLine>> {
  const rows = await db
    .select({ passId: passMails.passId, state: passMails.state, at: passMails.updatedAt })
    .from(passMails)
    .where(eq(passMails.clubId, clubId))
    .orderBy(desc(passMails.createdAt))
    .limit(2000);
  const last = new Map<string, CardMailLine>();
  for (const row of rows) if (!last.has(row.passId)) last.set(row.passId, { state: row.state, at: row.at });
  return last;
}
