/**
 * Newsletters (issue 26; spec: Communication / EmailNewsletter, "sent when sent_time is earlier than now").
 * The page and the data API schedule one through the entity service (its rules: newsletterRule). Once its
 * time has come, a dispatch draws up its mailing list as one delivery row per address, unique per newsletter,
 * and puts each on the mail queue; the mail consumer claims a delivery before sending it, so a dispatch or a
 * queue message that runs twice mails nobody twice. Decision 0049.
 */
import { and, asc, count, desc, eq, gt, inArray, isNull, lte, sql } from "drizzle-orm";
import {
  categoriesOf,
  entrantIndividuals,
  mailingList,
  newsletterState,
  type DeliveryCounts,
  type NewsletterAudience,
  type NewsletterState,
} from "../../core/newsletters/mailing";
import { renderNewsletter, type NewsletterBlock, type NewsletterLook } from "../../core/newsletters/render";
import {
  carts,
  clubs,
  divisionMembers,
  divisionPeople,
  emailNewsletters,
  individuals,
  newsletterDeliveries,
  newsletterUnsubscribes,
  races,
  registrations,
  sites,
  type Db,
} from "../../schema/d1";
import { selectByName } from "../../schema/d1/insert-select";
import { themeFromSiteConfig } from "../../tenants/theme";
import { originOf } from "../auth/hosts";
import { deliverMail } from "../mail/mailer";
import { deliveryRows, type MailOutcome } from "./mail-rows";
import { unsubscribePath } from "./newsletter-links";
import { getClubRaceCatalogues, roomOf } from "./race-access";
import { everyRacer } from "./race-racers";

export type NewsletterRow = typeof emailNewsletters.$inferSelect;

export interface NewsletterSummary {
  id: string;
  subject: string;
  state: NewsletterState;
  createdAt: number;
}

/**
 * Deliveries per insert. They travel as one JSON parameter (D1 binds at most 100 parameters to a statement,
 * and drizzle binds every column of every row, defaults included), a few hundred kilobytes each.
 */
const DELIVERIES_PER_INSERT = 5_000;
/** Statements per D1 batch while writing a long mailing list. */
const STATEMENTS_PER_BATCH = 50;

async function deliveryCounts(db: Db, ids: readonly string[]): Promise<Map<string, DeliveryCounts>> {
  const counts = new Map<string, DeliveryCounts>();
  if (ids.length === 0) return counts;
  const rows = await db
    .select({ id: newsletterDeliveries.newsletterId, state: newsletterDeliveries.state, n: count() })
    .from(newsletterDeliveries)
    .where(inArray(newsletterDeliveries.newsletterId, [...ids]))
    .groupBy(newsletterDeliveries.newsletterId, newsletterDeliveries.state);
  for (const row of rows) {
    const c = counts.get(row.id) ?? { total: 0, sent: 0, failed: 0 };
    c.total += row.n;
    if (row.state === "sent") c.sent += row.n;
    if (row.state === "failed") c.failed += row.n;
    counts.set(row.id, c);
  }
  return counts;
}

const stateOf = (row: NewsletterRow, counts: DeliveryCounts | undefined, now: number) =>
  newsletterState(row.sentTime, row.dispatchedTime !== null, counts ?? { total: 0, sent: 0, failed: 0 }, now);

/** A club's newsletters, newest first, each with where it stands. */
export async function clubNewsletters(db: Db, clubId: string, now: number): Promise<NewsletterSummary[]> {
  const rows = await db.select().from(emailNewsletters).where(eq(emailNewsletters.clubId, clubId)).orderBy(desc(emailNewsletters.createdAt)).limit(200);
  const counts = await deliveryCounts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ id: row.id, subject: row.subject, state: stateOf(row, counts.get(row.id), now), createdAt: row.createdAt }));
}

/** One newsletter of a club with its state, or null when the club has no such newsletter. */
export async function clubNewsletter(db: Db, clubId: string, id: string, now: number): Promise<{ row: NewsletterRow; state: NewsletterState } | null> {
  const [row] = await db
    .select()
    .from(emailNewsletters)
    .where(and(eq(emailNewsletters.id, id), eq(emailNewsletters.clubId, clubId)));
  if (!row) return null;
  const counts = await deliveryCounts(db, [row.id]);
  return { row, state: stateOf(row, counts.get(row.id), now) };
}

/** The club's forms a newsletter may go to the registrants of. */
export async function audienceForms(db: Db, clubId: string): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: registrations.id, name: registrations.name })
    .from(registrations)
    .where(eq(registrations.clubId, clubId))
    .orderBy(asc(registrations.name))
    .limit(500);
}

/** The club's races a newsletter may go to the entrants of, the latest first. */
export async function audienceRaces(db: Db, clubId: string): Promise<{ id: string; name: string }[]> {
  return db.select({ id: races.id, name: races.name }).from(races).where(eq(races.clubId, clubId)).orderBy(desc(races.startTime)).limit(200);
}

/** Individual ids per query: one JSON parameter, so a race of any size costs a few statements. */
const IDS_PER_QUERY = 5_000;

/**
 * The addresses of the listed races' entrants: each race's racers that came from a registration (their cart's
 * address), only the finishers when the audience says so. A race's racers live in its RaceRoom, asked once.
 */
async function raceEntrantAddresses(env: Env, db: Db, clubId: string, audience: NewsletterAudience): Promise<(string | null)[]> {
  const ids: string[] = [];
  for (const race of await getClubRaceCatalogues(db, clubId, audience.races ?? [])) {
    const racers = await everyRacer(await roomOf(env, race));
    ids.push(
      ...entrantIndividuals(
        racers.map((r) => ({ importedFrom: r.data.imported_from, status: r.status, course: r.data.course, category: r.data.category })),
        { entrants: audience.entrants ?? "entered", courses: audience.courses, categories: audience.categories },
      ),
    );
  }
  const addresses: (string | null)[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    const rows = await db
      .select({ email: carts.email })
      .from(individuals)
      .innerJoin(carts, eq(carts.id, individuals.cartId))
      .where(
        and(
          sql`${individuals.id} IN (SELECT value FROM json_each(${JSON.stringify(ids.slice(i, i + IDS_PER_QUERY))}))`,
          eq(individuals.clubId, clubId),
          eq(individuals.isRemoved, false),
          eq(carts.isComplete, true),
        ),
      );
    addresses.push(...rows.map((r) => r.email));
  }
  return addresses;
}

/** Every address the audience names today: current members, paid registrants and race entrants, before unsubscribes. */
async function audienceAddresses(env: Env, db: Db, clubId: string, audience: NewsletterAudience, now: number): Promise<(string | null)[]> {
  const addresses: (string | null)[] = [];
  if (audience.members) {
    const members = await db
      .select({ email: divisionPeople.email })
      .from(divisionMembers)
      .innerJoin(divisionPeople, eq(divisionPeople.id, divisionMembers.personId))
      .where(and(eq(divisionMembers.clubId, clubId), gt(divisionMembers.expiresAt, now)));
    addresses.push(...members.map((m) => m.email));
  }
  if (audience.registrations.length > 0) {
    const registrants = await db
      .select({ email: carts.email })
      .from(carts)
      .where(and(inArray(carts.registrationId, audience.registrations), eq(carts.clubId, clubId), eq(carts.isComplete, true), eq(carts.isRemoved, false)));
    addresses.push(...registrants.map((r) => r.email));
  }
  if ((audience.races ?? []).length > 0) addresses.push(...(await raceEntrantAddresses(env, db, clubId, audience)));
  return addresses;
}

/** What the chosen races of the club offer to filter their entrants by: their courses (with the race's name) and their racers' categories. */
export async function audienceRaceChoices(env: Env, db: Db, clubId: string, raceIds: readonly string[]) {
  const courses: { id: string; name: string; race: string }[] = [];
  const racers: { category?: string | null }[] = [];
  for (const race of await getClubRaceCatalogues(db, clubId, raceIds)) {
    const room = await roomOf(env, race);
    const [documents, entrants] = await Promise.all([room.documents("Course"), everyRacer(room)]);
    courses.push(...documents.map((c) => ({ id: c.id, name: c.data.name, race: race.name })));
    racers.push(...entrants.map((r) => ({ category: r.data.category })));
  }
  return { courses, categories: categoriesOf(racers) };
}

/** How many readers the audience reaches today: each address once, without those who unsubscribed (as a dispatch now would draw it). */
export async function audienceReach(env: Env, db: Db, clubId: string, audience: NewsletterAudience, now: number): Promise<number> {
  return mailingList(await audienceAddresses(env, db, clubId, audience, now), await unsubscribedFrom(db, clubId)).to.length;
}

async function unsubscribedFrom(db: Db, clubId: string): Promise<Set<string>> {
  const rows = await db.select({ email: newsletterUnsubscribes.email }).from(newsletterUnsubscribes).where(eq(newsletterUnsubscribes.clubId, clubId));
  return new Set(rows.map((r) => r.email));
}

export type DispatchOutcome = { kind: "not-due" } | { kind: "dispatched"; queued: number; unsubscribed: number };

/**
 * Draws up a due newsletter's mailing list and queues its mail. Safe to run twice or at once: the deliveries
 * are unique per address, and only deliveries still queued are put on the mail queue (their consumer claims
 * each before sending). The list is drawn once: a newsletter already dispatched only has its queued mail sent.
 */
export async function dispatchNewsletter(env: Env, db: Db, id: string, now: number): Promise<DispatchOutcome> {
  const [row] = await db.select().from(emailNewsletters).where(eq(emailNewsletters.id, id));
  if (!row || row.sentTime === null || row.sentTime > now) return { kind: "not-due" };
  let unsubscribed = 0;
  if (row.dispatchedTime === null) {
    const list = mailingList(await audienceAddresses(env, db, row.clubId, row.audience, now), await unsubscribedFrom(db, row.clubId));
    unsubscribed = list.unsubscribed;
    const inserts = [];
    for (let i = 0; i < list.to.length; i += DELIVERIES_PER_INSERT) {
      const rows = JSON.stringify(list.to.slice(i, i + DELIVERIES_PER_INSERT).map((email) => [crypto.randomUUID(), email]));
      inserts.push(
        db
          .insert(newsletterDeliveries)
          .select(
            selectByName(
              newsletterDeliveries,
              { id: sql`value ->> 0`, newsletterId: id, email: sql`value ->> 1`, updatedAt: now },
              sql`FROM json_each(${rows}) WHERE true`,
            ),
          )
          .onConflictDoNothing(),
      );
    }
    const claim = db
      .update(emailNewsletters)
      .set({ dispatchedTime: now })
      .where(and(eq(emailNewsletters.id, id), isNull(emailNewsletters.dispatchedTime)));
    const statements = [...inserts, claim];
    for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) {
      const part = statements.slice(i, i + STATEMENTS_PER_BATCH);
      await db.batch(part as [(typeof part)[number], ...typeof part]);
    }
  }
  const queued = await db
    .select({ id: newsletterDeliveries.id })
    .from(newsletterDeliveries)
    .where(and(eq(newsletterDeliveries.newsletterId, id), eq(newsletterDeliveries.state, "queued")));
  await deliveryRows.queue(
    env,
    queued.map((d) => d.id),
  );
  return { kind: "dispatched", queued: queued.length, unsubscribed };
}

/** The cron's sweep: every newsletter whose time has come and whose list is not drawn up yet. */
export async function dispatchDueNewsletters(env: Env, db: Db, now: number): Promise<number> {
  const due = await db
    .select({ id: emailNewsletters.id })
    .from(emailNewsletters)
    .where(and(isNull(emailNewsletters.dispatchedTime), lte(emailNewsletters.sentTime, now)))
    .limit(50);
  for (const { id } of due) {
    try {
      await dispatchNewsletter(env, db, id, now);
    } catch (error) {
      // One newsletter's failure must not hold up the others; the next sweep tries it again.
      console.error("Dispatching a newsletter failed; the next sweep retries", id, error);
    }
  }
  return due.length;
}

export type DeliveryOutcome = MailOutcome;

/**
 * Sends one delivery from the mail queue. It is claimed first (queued → sending), so a second copy of the
 * message does nothing; a redelivered message (attempt 2 on) may take back its own unfinished claim.
 */
export async function sendNewsletterDelivery(
  env: Env,
  db: Db,
  deliveryId: string,
  attempt: number,
  lastAttempt: boolean,
  now: number,
): Promise<DeliveryOutcome> {
  return deliveryRows.send(db, deliveryId, attempt, lastAttempt, now, async (delivery) => {
    const [found] = await db.select().from(emailNewsletters).where(eq(emailNewsletters.id, delivery.newsletterId));
    if (!found) return "failed";
    const unsubscribed = await db
      .select({ email: newsletterUnsubscribes.email })
      .from(newsletterUnsubscribes)
      .where(and(eq(newsletterUnsubscribes.clubId, found.clubId), eq(newsletterUnsubscribes.email, delivery.email)));
    // Someone who left between the dispatch and their turn in the queue gets nothing more, and is off the list.
    if (unsubscribed.length > 0) {
      await db.delete(newsletterDeliveries).where(eq(newsletterDeliveries.id, deliveryId));
      return "skipped";
    }
    const { look, origin } = await newsletterLook(env, db, found.clubId);
    const unsubscribeUrl = `${origin}${await unsubscribePath(env, found.clubId, delivery.email)}`;
    const mail = renderNewsletter(found.elements as NewsletterBlock[], look, unsubscribeUrl);
    await deliverMail(env, db, { to: delivery.email, subject: found.subject, text: mail.text, html: mail.html, listUnsubscribe: unsubscribeUrl });
    return "sent";
  });
}

/** How the club's newsletters look (its site's name, logo and colour) and the site their links open on. */
export async function newsletterLook(env: Env, db: Db, clubId: string): Promise<{ look: NewsletterLook; origin: string }> {
  const [club] = await db
    .select({ name: clubs.name, logo: clubs.logo, hostname: sites.hostname, config: sites.config })
    .from(clubs)
    .leftJoin(sites, eq(sites.id, clubs.siteId))
    .where(eq(clubs.id, clubId));
  const origin = originOf(env, club?.hostname ?? env.MAIN_HOST);
  const theme = club?.hostname ? themeFromSiteConfig(club.config, club.hostname) : null;
  const logo = theme?.logoUrl ? new URL(theme.logoUrl, origin).href : (club?.logo ?? null);
  return { look: { clubName: theme?.name ?? club?.name ?? "", logoUrl: logo, primary: theme?.colours.primary ?? "#1e3a8a" }, origin };
}

/** Records that an address wants no more of the club's newsletters; saying so twice is the same. */
export async function unsubscribe(db: Db, clubId: string, email: string, now: number): Promise<void> {
  await db.insert(newsletterUnsubscribes).values({ clubId, email, createdAt: now }).onConflictDoNothing();
}

/** The club's name for the unsubscribe page. */
export async function clubName(db: Db, clubId: string): Promise<string | null> {
  const [club] = await db.select({ name: clubs.name }).from(clubs).where(eq(clubs.id, clubId));
  return club?.name ?? null;
}
