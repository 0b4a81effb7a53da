/**
 * Which queued-mail row a mail queue message names, and who sends it (decision 0069): the consumer treats the
 * three kinds alike and only the sending differs.
 */
import type { Db } from "../../schema/d1";
import { membershipReminderMessageSchema, newsletterDeliveryMessageSchema, passMailMessageSchema } from "../../schema/wire/mail";
import { sendCardMail } from "./card-mails";
import type { MailOutcome } from "./mail-rows";
import { sendMembershipReminder } from "./membership-reminders";
import { sendNewsletterDelivery } from "./newsletters";

type Send = (env: Env, db: Db, id: string, attempt: number, lastAttempt: boolean, now: number) => Promise<MailOutcome>;

export interface QueuedMail {
  id: string;
  /** The mail in the logs: "A card mail could not be claimed; will retry". */
  what: string;
  send: Send;
}

/** The row a message names, or null when it is not a queued-mail message (a plain mail, or malformed). */
export function queuedMailOf(body: unknown): QueuedMail | null {
  const newsletter = newsletterDeliveryMessageSchema.safeParse(body);
  if (newsletter.success) return { id: newsletter.data.newsletterDelivery, what: "A newsletter delivery", send: sendNewsletterDelivery };
  const reminder = membershipReminderMessageSchema.safeParse(body);
  if (reminder.success) return { id: reminder.data.membershipReminder, what: "A membership reminder", send: sendMembershipReminder };
  const cardMail = passMailMessageSchema.safeParse(body);
  if (cardMail.success) return { id: cardMail.data.passMail, what: "A card mail", send: sendCardMail };
  return null;
}
