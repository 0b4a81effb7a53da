/**
 * Membership expiry reminders (issue 25, decision 0057). The cron writes one reminder row per membership whose
 * end is within its division's days (unique per membership, so a retried cron adds none) and puts it on the
 * mail queue; the consumer claims the row (queued → sending) before sending, so a message delivered twice
 * mails once (the queued-mail helper, `mail-rows.ts`, decision 0069). Reminders are about the member's own
 * membership, so an address unsubscribed from the club's newsletters still gets one; the mail carries the
 * unsubscribe link all the same.
 */
import { aliasedTable, and, getTableColumns, asc, desc, eq, gt, isNotNull, isNull, lte, notExists, sql } from "drizzle-orm";
import { reminderWindow, renderReminder } from "../../core/memberships/reminders";
import {
  carts,
  clubs,
  divisionMembers,
  divisionPeople,
  divisionSeasons,
  divisions,
  formElements,
  individuals,
  membershipReminders,
  registrations,
  type Db,
} from "../../schema/d1";
import { deliverMail } from "../mail/mailer";
import { reminderRows, type MailOutcome } from "./mail-rows";
import { unsubscribePath } from "./newsletter-links";
import { newsletterLook } from "./newsletters";
import { formOrigin, receiptLang } from "./receipts";

/** Reminders written per division per sweep; the next sweep takes the rest. */
const SWEEP_LIMIT = 500;
/**
 * Rows per insert: drizzle binds every column of every row (defaults too) and D1 takes at most 100 values a
 * statement, so the count follows the table's columns (a column added later cannot break the sweep).
 */
const REMINDERS_PER_INSERT = Math.floor(100 / Object.keys(getTableColumns(membershipReminders)).length);

const later = aliasedTable(divisionMembers, "later_member");

/**
 * The cron's sweep: for every division with reminders on, the memberships ending within its days whose person
 * has an address and has not renewed for a later season get one reminder row each, then go on the mail queue.
 */
export async function queueDueReminders(env: Env, db: Db, now: number): Promise<number> {
  const on = await db.select({ id: divisions.id, days: divisions.reminderDays }).from(divisions).where(eq(divisions.isReminding, true));
  let queued = 0;
  for (const division of on) {
    const window = reminderWindow(now, division.days);
    const due = await db
      .select({
        memberId: divisionMembers.id,
        email: divisionPeople.email,
        personLang: divisionPeople.lang,
        cartLang: carts.lang,
        bilingual: registrations.isBilingual,
      })
      .from(divisionMembers)
      .innerJoin(divisionPeople, eq(divisionPeople.id, divisionMembers.personId))
      .leftJoin(membershipReminders, eq(membershipReminders.memberId, divisionMembers.id))
      .leftJoin(individuals, eq(individuals.id, divisionMembers.individualId))
      .leftJoin(carts, eq(carts.id, individuals.cartId))
      .leftJoin(registrations, eq(registrations.id, individuals.registrationId))
      .where(
        and(
          eq(divisionMembers.divisionId, division.id),
          gt(divisionMembers.expiresAt, window.after),
          lte(divisionMembers.expiresAt, window.until),
          isNotNull(divisionPeople.email),
          isNull(membershipReminders.id),
          // Someone who already bought a later season's membership has nothing to renew.
          notExists(
            db
              .select({ one: sql`1` })
              .from(later)
              .where(and(eq(later.personId, divisionMembers.personId), gt(later.expiresAt, divisionMembers.expiresAt))),
          ),
        ),
      )
      .limit(SWEEP_LIMIT);
    if (due.length === 0) continue;
    const rows = due.map((d) => ({
      id: crypto.randomUUID(),
      memberId: d.memberId,
      divisionId: division.id,
      email: d.email!,
      // A paid membership's registration language; a member added by hand has their own (decision 0063).
      lang: d.cartLang === null ? d.personLang : receiptLang({ lang: d.cartLang }, { isBilingual: d.bilingual ?? false }),
      createdAt: now,
      updatedAt: now,
    }));
    // A row a racing sweep wrote is kept as it is, and is not queued again here.
    const inserts = [];
    for (let i = 0; i < rows.length; i += REMINDERS_PER_INSERT)
      inserts.push(
        db
          .insert(membershipReminders)
          .values(rows.slice(i, i + REMINDERS_PER_INSERT))
          .onConflictDoNothing()
          .returning({ id: membershipReminders.id }),
      );
    const written = await db.batch(inserts as [(typeof inserts)[number], ...typeof inserts]);
    await reminderRows.queue(
      env,
      written.flat().map((r) => r.id),
    );
    queued += due.length;
  }
  // Any reminder whose message was lost goes on the queue again; the claim keeps it to one mail.
  await reminderRows.requeueLost(env, db, now);
  return queued;
}

/** The division's membership form: the newest of its club's forms whose membership panel sells for it. */
export async function renewalForm(db: Db, division: { id: string; clubId: string }): Promise<{ id: string; siteId: string | null } | null> {
  const [first] = await db.select({ id: divisions.id }).from(divisions).where(eq(divisions.clubId, division.clubId)).orderBy(asc(divisions.createdAt)).limit(1);
  const panels = await db
    .select({ id: registrations.id, siteId: registrations.siteId, config: formElements.config })
    .from(registrations)
    .innerJoin(formElements, and(eq(formElements.registrationId, registrations.id), eq(formElements.type, "membership")))
    .where(eq(registrations.clubId, division.clubId))
    .orderBy(desc(registrations.createdAt))
    .limit(50);
  // A panel naming no division sells for the club's first (decision 0036).
  const sells = (config: Record<string, unknown>) =>
    typeof config.division_id === "string" && config.division_id !== "" ? config.division_id === division.id : first?.id === division.id;
  const found = panels.find((p) => sells(p.config));
  return found ? { id: found.id, siteId: found.siteId } : null;
}

export type ReminderOutcome = MailOutcome;

/** Sends one reminder from the mail queue, claimed first; a redelivered message may take back its own claim. */
export async function sendMembershipReminder(env: Env, db: Db, id: string, attempt: number, lastAttempt: boolean, now: number): Promise<ReminderOutcome> {
  return reminderRows.send(db, id, attempt, lastAttempt, now, async (claimed) => {
    const [found] = await db
      .select({ member: divisionMembers, person: divisionPeople, season: divisionSeasons, division: divisions, clubName: clubs.name })
      .from(divisionMembers)
      .innerJoin(divisionPeople, eq(divisionPeople.id, divisionMembers.personId))
      .innerJoin(divisionSeasons, eq(divisionSeasons.id, divisionMembers.seasonId))
      .innerJoin(divisions, eq(divisions.id, divisionMembers.divisionId))
      .innerJoin(clubs, eq(clubs.id, divisionMembers.clubId))
      .where(eq(divisionMembers.id, claimed.memberId));
    if (!found) return "failed";
    const form = await renewalForm(db, found.division);
    const renewUrl = form ? `${await formOrigin(env, db, form.siteId)}/register/${form.id}${claimed.lang === "fr" ? "?lang=fr" : ""}` : null;
    const { origin, look } = await newsletterLook(env, db, found.division.clubId);
    const unsubscribeUrl = `${origin}${await unsubscribePath(env, found.division.clubId, claimed.email)}`;
    const mail = renderReminder({
      lang: claimed.lang,
      clubName: look.clubName || found.clubName,
      divisionName: found.division.name,
      seasonName: found.season.name,
      firstName: found.person.firstName,
      expiresAt: found.member.expiresAt,
      renewUrl,
      unsubscribeUrl,
    });
    await deliverMail(env, db, { to: claimed.email, subject: mail.subject, text: mail.text, html: mail.html, listUnsubscribe: unsubscribeUrl });
    return "sent";
  });
}

export interface ReminderLine {
  memberNumber: number;
  name: string;
  email: string;
  season: string;
  state: "queued" | "sending" | "sent" | "failed";
  at: number;
}

/** Who was reminded and when, newest first, for the division's page. */
export async function remindersOf(db: Db, divisionId: string, limit = 200): Promise<ReminderLine[]> {
  const rows = await db
    .select({ reminder: membershipReminders, person: divisionPeople, season: divisionSeasons.name })
    .from(membershipReminders)
    .innerJoin(divisionMembers, eq(divisionMembers.id, membershipReminders.memberId))
    .innerJoin(divisionPeople, eq(divisionPeople.id, divisionMembers.personId))
    .innerJoin(divisionSeasons, eq(divisionSeasons.id, divisionMembers.seasonId))
    .where(eq(membershipReminders.divisionId, divisionId))
    .orderBy(desc(membershipReminders.createdAt))
    .limit(limit);
  return rows.map((r) => ({
    memberNumber: r.person.memberNumber,
    name: `${r.person.firstName} ${r.person.lastName}`,
    email: r.reminder.email,
    season: r.season,
    state: r.reminder.state,
    at: r.reminder.updatedAt,
  }));
}
