/**
 * Newsletters (spec: Communication / EmailNewsletter; issue 26, decision 0049): the newsletter itself, one
 * delivery row per address it goes to, and the addresses that left a club's newsletters.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { clubOwned } from "./admin";
import { entityColumns } from "./columns";
import { clubs } from "./tables";

/** One block of a newsletter's body, in order (spec: header, image, text, action button, logo). */
export type NewsletterElement =
  | { type: "header" | "text"; text: string }
  | { type: "image"; image_url: string; url?: string; text?: string }
  | { type: "button"; text: string; url: string }
  | { type: "logo"; image_url?: string; url?: string };

/** Communication / EmailNewsletter (section 3): a club's mail to its members, sent once. */
export const emailNewsletters = sqliteTable(
  "email_newsletters",
  {
    ...entityColumns(),
    ...clubOwned(),
    subject: text("subject").notNull(),
    communicationType: text("communication_type").notNull().default("newsletter"),
    elements: text("elements", { mode: "json" })
      .$type<NewsletterElement[]>()
      .notNull()
      .default(sql`'[]'`),
    /** When it goes out, epoch milliseconds: scheduled while in the future, sent once it has passed (the spec). */
    sentTime: integer("sent_time"),
    /** Who receives it: the club's current members, the paid registrants of the listed forms, the entrants of the listed races. */
    audience: text("audience", { mode: "json" })
      .$type<{ members: boolean; registrations: string[]; races?: string[]; entrants?: "entered" | "finished"; courses?: string[]; categories?: string[] }>()
      .notNull()
      .default(sql`'{"members":false,"registrations":[]}'`),
    /** When its mailing list was drawn up and its mail queued; set once, by whichever dispatch claims it. */
    dispatchedTime: integer("dispatched_time"),
  },
  (t) => [
    index("email_newsletters_club").on(t.clubId),
    index("email_newsletters_site").on(t.siteId),
    // The dispatch sweep: newsletters whose time has come and whose mail is not yet queued.
    index("email_newsletters_due").on(t.dispatchedTime, t.sentTime),
  ],
);

/** One address a newsletter goes to: unique per newsletter, so a dispatch run twice mails nobody twice. */
export const newsletterDeliveries = sqliteTable(
  "newsletter_deliveries",
  {
    id: text("id").primaryKey(),
    newsletterId: text("newsletter_id")
      .notNull()
      .references(() => emailNewsletters.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    /** queued, then sending (claimed by one queue consumer), then sent or failed. */
    state: text("state", { enum: ["queued", "sending", "sent", "failed"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("newsletter_deliveries_address").on(t.newsletterId, t.email), index("newsletter_deliveries_state").on(t.newsletterId, t.state)],
);

/** Someone who asked for no more of a club's newsletters (the link in every newsletter's footer). */
export const newsletterUnsubscribes = sqliteTable(
  "newsletter_unsubscribes",
  {
    clubId: text("club_id")
      .notNull()
      .references(() => clubs.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.email] })],
);
