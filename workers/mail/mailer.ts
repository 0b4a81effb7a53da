import { EmailMessage } from "cloudflare:email";
import { eq } from "drizzle-orm";
import { capturedMail, invitations, type Db } from "../../schema/d1";
import type { MailMessage } from "../../schema/wire/mail";
import { buildMime } from "./mime";

/**
 * Delivers one message. In local development (MAIL_MODE=capture) it is stored in D1 for the dev mail page,
 * so a person can read it and click its links; otherwise it goes out through the send_email binding.
 */
export async function deliverMail(env: Env, db: Db, message: MailMessage): Promise<void> {
  const id = crypto.randomUUID();
  if (env.MAIL_MODE === "capture") {
    await db.insert(capturedMail).values({
      id,
      to: message.to,
      from: env.MAIL_FROM,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      createdAt: Date.now(),
    });
    return;
  }
  await env.MAIL.send(new EmailMessage(env.MAIL_FROM, message.to, buildMime(env.MAIL_FROM, message, id, new Date())));
}

/** Queues a message for delivery by the queue consumer, so a page never waits on mail. */
export async function enqueueMail(env: Env, message: MailMessage): Promise<void> {
  await env.MAIL_QUEUE.send(message);
}

/** Sends now when mail is captured locally (so a link is readable at once), through the queue otherwise. */
export async function sendMail(env: Env, db: Db, message: MailMessage): Promise<void> {
  if (env.MAIL_MODE !== "capture") return enqueueMail(env, message);
  await deliverMail(env, db, message);
  await recordDelivery(db, message, "sent");
}

/** The mail queue's retries for one message (wrangler.toml `max_retries` of startline-mail). */
export const MAIL_MAX_RETRIES = 5;

/** Records a tracked message's delivery, or its failure once no retry is left, where the people who sent it look. */
export async function recordDelivery(db: Db, message: MailMessage, state: "sent" | "failed"): Promise<void> {
  if (message.track?.invitation) await db.update(invitations).set({ mailState: state }).where(eq(invitations.id, message.track.invitation));
}
