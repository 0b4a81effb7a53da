/**
 * A card's link by mail (decision 0063). Issuing a card writes its mail row in the issuing batch (passes.ts),
 * so a job run again finds the card and mails nothing; "Send the card again" writes one row per one-time id,
 * so a double click mails once. Rows go on the mail queue as `{passMail: id}` and the consumer claims each
 * (queued → sending) before sending, through the queued-mail helper (`mail-rows.ts`, decision 0069).
 */
import { and, desc, eq } from "drizzle-orm";
import * as z from "zod";
import { renderCardMail } from "../../core/passes/card-mail";
import { clubs, passes, passMails, type Db } from "../../schema/d1";
import { deliverMail } from "../mail/mailer";
import { cardMailRows, type MailOutcome } from "./mail-rows";
import { issuePass, passCardPath, type IssueInput, type PassRow } from "./passes";
import { formOrigin } from "./receipts";

export const CARD_MAIL_MESSAGES = {
  noAddress: "This card has no e-mail address; issue a new card with one",
  revoked: "A revoked card is not sent; issue a new card instead",
  unknown: "There is no such card, or it is not this club's.",
} as const;

/** Puts a pass's mails still waiting on the queue (again: the consumer's claim keeps each to one mail). */
export async function queueCardMails(env: Env, db: Db, passId: string): Promise<number> {
  const waiting = await db
    .select({ id: passMails.id })
    .from(passMails)
    .where(and(eq(passMails.passId, passId), eq(passMails.state, "queued")));
  await cardMailRows.queue(
    env,
    waiting.map((w) => w.id),
  );
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
  if (written.length === 1) await cardMailRows.queue(env, [input.submission]);
  return { ok: true };
}

export type CardMailOutcome = MailOutcome;

/** Sends one card mail from the queue, claimed first; a redelivered message may take back its own claim. */
export async function sendCardMail(env: Env, db: Db, id: string, attempt: number, lastAttempt: boolean, now: number): Promise<CardMailOutcome> {
  return cardMailRows.send(db, id, attempt, lastAttempt, now, async (claimed) => {
    const [found] = await db
      .select({ pass: passes, clubName: clubs.name })
      .from(passes)
      .innerJoin(clubs, eq(clubs.id, passes.clubId))
      .where(eq(passes.id, claimed.passId));
    // A card revoked since it was queued is not sent: its link would only say Revoked.
    if (!found || found.pass.revokedTime !== null) return "failed";
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
    return "sent";
  });
}

/** The cron's catch-up: card mails whose message was lost (still queued an hour on) go on the queue again. */
export async function requeueLostCardMails(env: Env, db: Db, now: number): Promise<number> {
  return cardMailRows.requeueLost(env, db, now);
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
