/**
 * Queued mail rows (decision 0069): one row per mail to send, put on the mail queue as `{[key]: id}`. The
 * consumer claims a row (queued → sending) before sending, so a message delivered twice mails once; a
 * redelivered message (attempt 2 on) may take back its own unfinished claim; a failure puts the row back to
 * queued for the queue's retry, or marks it failed on the last attempt; the cron queues again a row whose
 * message was lost. Member-card mails (0063), membership reminders (0057) and newsletter deliveries (0049).
 */
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { membershipReminders, newsletterDeliveries, passMails, type Db } from "../../schema/d1";

/** The tables of queued mail: each has id, state, attempts and updated_at alike. */
export type MailTable = typeof passMails | typeof membershipReminders | typeof newsletterDeliveries;
export type MailState = "queued" | "sending" | "sent" | "failed";
export type MailOutcome = "sent" | "skipped" | "retry" | "failed";

/** Messages per Queue sendBatch call (Cloudflare's limit is 100). */
export const MESSAGES_PER_SEND = 100;
/** A row still queued this long after its last touch lost its message; the cron queues it again. */
export const LOST_AFTER_MS = 60 * 60_000;
/** Rows re-queued per sweep: one Queue batch, and the touch's ids stay under D1's 100 bound values. */
export const LOST_PER_SWEEP = 90;

export interface MailRows<T extends MailTable> {
  /** Puts these rows on the mail queue, a hundred messages a call. */
  queue(env: Env, ids: readonly string[]): Promise<void>;
  /** Claims a row for sending; undefined when another consumer has it or it is done. */
  claim(db: Db, id: string, attempt: number, now: number): Promise<T["$inferSelect"] | undefined>;
  /** Marks a row sent or failed. */
  finish(db: Db, id: string, state: "sent" | "failed", now: number): Promise<"sent" | "failed">;
  /**
   * Claims, then sends through `deliver` (which answers "sent", "failed" or "skipped", the row then its own
   * business); a throw puts the row back for the queue's retry, or fails it on the last attempt.
   */
  send(
    db: Db,
    id: string,
    attempt: number,
    lastAttempt: boolean,
    now: number,
    deliver: (row: T["$inferSelect"]) => Promise<"sent" | "failed" | "skipped">,
  ): Promise<MailOutcome>;
  /** The cron's catch-up: rows still queued an hour after their last touch go on the queue again, touched. */
  requeueLost(env: Env, db: Db, now: number): Promise<number>;
}

/**
 * The helper for one table. `what` names a mail in the logs ("A card mail"); `key` is the message's field.
 */
export function mailRows<T extends MailTable>(table: T, key: "passMail" | "membershipReminder" | "newsletterDelivery", what: string): MailRows<T> {
  // The three tables share these columns by name and type; one of them stands for all in drizzle's types.
  const t = table as unknown as typeof passMails;
  const finish = async (db: Db, id: string, state: "sent" | "failed", now: number) => {
    await db.update(t).set({ state, updatedAt: now }).where(eq(t.id, id));
    return state;
  };
  const rows: MailRows<T> = {
    async queue(env, ids) {
      for (let i = 0; i < ids.length; i += MESSAGES_PER_SEND) {
        await env.MAIL_QUEUE.sendBatch(ids.slice(i, i + MESSAGES_PER_SEND).map((id) => ({ body: { [key]: id } })));
      }
    },
    async claim(db, id, attempt, now) {
      const claimable = attempt > 1 ? inArray(t.state, ["queued", "sending"]) : eq(t.state, "queued");
      const [claimed] = await db
        .update(t)
        .set({ state: "sending", attempts: sql`${t.attempts} + 1`, updatedAt: now })
        .where(and(eq(t.id, id), claimable))
        .returning();
      return claimed as T["$inferSelect"] | undefined;
    },
    finish,
    async send(db, id, attempt, lastAttempt, now, deliver) {
      const claimed = await rows.claim(db, id, attempt, now);
      if (!claimed) return "skipped";
      try {
        const outcome = await deliver(claimed);
        return outcome === "skipped" ? "skipped" : await finish(db, id, outcome, now);
      } catch (error) {
        console.error(lastAttempt ? `${what} failed for the last time` : `${what} failed; will retry`, id, error);
        if (lastAttempt) return finish(db, id, "failed", now);
        await db.update(t).set({ state: "queued", updatedAt: now }).where(eq(t.id, id));
        return "retry";
      }
    },
    async requeueLost(env, db, now) {
      const lost = await db
        .select({ id: t.id })
        .from(t)
        .where(and(eq(t.state, "queued"), lt(t.updatedAt, now - LOST_AFTER_MS)))
        .limit(LOST_PER_SWEEP);
      if (lost.length === 0) return 0;
      const ids = lost.map((r) => r.id);
      await rows.queue(env, ids);
      // Touched, so the next sweep waits another hour for these.
      await db
        .update(t)
        .set({ updatedAt: now })
        .where(and(inArray(t.id, ids), eq(t.state, "queued")));
      return ids.length;
    },
  };
  return rows;
}

export const cardMailRows = mailRows(passMails, "passMail", "A card mail");
export const reminderRows = mailRows(membershipReminders, "membershipReminder", "A membership reminder");
export const deliveryRows = mailRows(newsletterDeliveries, "newsletterDelivery", "A newsletter mail");
