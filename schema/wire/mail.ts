import * as z from "zod";

/** A message on the outgoing-mail queue. */
export const mailMessageSchema = z.object({
  to: z.string().email(),
  subject: z.string().min(1).max(300),
  text: z.string().min(1),
  html: z.string().optional(),
  /** What the mail is for, so its delivery (or its failure after every retry) is recorded where people see it. */
  track: z.object({ invitation: z.uuid() }).optional(),
  /** A newsletter's one-click unsubscribe address (RFC 8058), sent as List-Unsubscribe. */
  listUnsubscribe: z.url({ protocol: /^https?$/ }).optional(),
});
export type MailMessage = z.infer<typeof mailMessageSchema>;

/** A newsletter delivery on the same queue: rendered and sent by the consumer, which claims it first. */
export const newsletterDeliveryMessageSchema = z.strictObject({ newsletterDelivery: z.uuid() });

/** A membership's expiry reminder on the same queue: rendered and sent by the consumer, which claims it first. */
export const membershipReminderMessageSchema = z.strictObject({ membershipReminder: z.uuid() });

/** A card's link by mail (decision 0063) on the same queue: rendered and sent by the consumer, which claims it first. */
export const passMailMessageSchema = z.strictObject({ passMail: z.uuid() });
