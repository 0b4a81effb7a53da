import * as z from "zod";

/** A message on the outgoing-mail queue. */
export const mailMessageSchema = z.object({
  to: z.string().email(),
  subject: z.string().min(1).max(300),
  text: z.string().min(1),
  html: z.string().optional(),
  /** What the mail is for, so its delivery (or its failure after every retry) is recorded where people see it. */
  track: z.object({ invitation: z.uuid() }).optional(),
});
export type MailMessage = z.infer<typeof mailMessageSchema>;
