/**
 * Waitlists (issue 24, decision 0042). A registrant whose person wants a full option or field joins the form's
 * waitlist with the answers they gave. When places free up (a cancellation, a lapsed hold, a removal), the
 * sweep offers the front of the queue a cart with their person already in it and every capped place they need
 * held until the offer lapses; the offer link opens that cart. The places trigger decides each hold, in the
 * same batch that marks the entry offered, so an offer can never take a place someone else has.
 *
 * The sweep runs after a cancellation and an expired payment page, when the form or the organiser's list is
 * opened, and every five minutes (the cron), so a lapsed hold or offer is noticed without anyone acting.
 */
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import * as z from "zod";
import type { FormElement, StoredValue } from "../../core/forms/model";
import { parseIndividual } from "../../core/forms/validate";
import type { RawInput } from "../../core/forms/field-type";
import { personNameOf } from "../../core/registration/cart-names";
import { peopleLabelsIn } from "../../core/registration/people-labels";
import { placesOfPerson, poolLabel } from "../../core/registration/places";
import { formatDateTimeIn, RECEIPT_WORDS } from "../../core/registration/receipt-lines";
import { tierAt } from "../../core/registration/tiers";
import { isOpen } from "../../core/registration/status";
import {
  isFullPoolField,
  offerExpiry,
  planOffers,
  swapWithNeighbour,
  WAITLIST_WORDS,
  wishOf,
  type QueuedEntry,
  type WaitlistState,
} from "../../core/registration/waitlist";
import { labelIn, type Lang } from "../../core/forms/bilingual";
import { rawBatch, registrations, waitlistEntries, type Db } from "../../schema/d1";
import { hashToken, randomToken } from "../auth/crypto";
import { sendMail } from "../mail/mailer";
import { personElements, personLimits, type FormContext, type IndividualRow } from "./carts";
import { takenByOthers, isPlaceTaken } from "./places";
import { formOrigin } from "./receipts";
import { leaveUrl, verifyLeaveLink } from "./waitlist-links";
import { changeSweepStatements, mailChangeOffer, needsOfChange, offerChange, releaseChangeOffer } from "./change-waitlists";
import { listElements, type RegistrationRow } from "./registration-forms";

export type WaitlistEntryRow = typeof waitlistEntries.$inferSelect;
type Values = Record<string, StoredValue>;

/** The most people one form's sweep looks at in one go; the rest wait for the next sweep. */
const SWEEP_BATCH = 500;

export const waitlistEmail = z.email().max(254);

export type JoinResult =
  | { ok: true; entry: WaitlistEntryRow; position: number; wish: string; created: boolean }
  /** Nothing is full any more: add the person to the cart instead. */
  | { ok: "free" }
  /** wish: what is full, so the page can keep the waitlist box open while the registrant corrects the address. */
  | { ok: false; errors: Record<string, string>; wish: string | null };

/**
 * Puts a person on the waitlist for the full pools they want, with their answers. The join form's one-time key
 * makes a double click one entry; the same address waiting for the same thing again is the entry already there.
 */
export async function joinWaitlist(
  env: Env,
  db: Db,
  form: FormContext & { cart: { id: string } | null; people: IndividualRow[]; lang: Lang },
  posted: Record<string, RawInput>,
  email: string,
  submission: string,
): Promise<JoinResult> {
  const registration = form.registration;
  const words = WAITLIST_WORDS[form.lang];
  if (registration.waitlistOfferHours === null) return { ok: false, errors: { form: words.off }, wish: null };
  const address = waitlistEmail.safeParse(email.trim());
  const elements = personElements(form.elements);
  const tier = tierAt(form.now, { raise_price_1_time: registration.raisePrice1Time, raise_price_2_time: registration.raisePrice2Time });
  const parsed = parseIndividual(elements, posted, { lang: "en", tier, isAdmin: form.isAdmin, isKiosk: form.isKiosk });
  const limits = await personLimits(db, form, elements, parsed.values, form.cart?.id ?? "", form.people, null);
  const full = new Set(limits.fullPools);
  // Only a full pool may stand between this person and the cart; anything else is for them to correct.
  const otherErrors = Object.fromEntries(Object.entries({ ...parsed.errors, ...limits.errors }).filter(([id]) => !isFullPoolField(full, id)));
  if (!address.success) otherErrors.waitlist_email = words.badEmail;
  const pools = [...full].sort();
  if (Object.keys(otherErrors).length > 0)
    return { ok: false, errors: { ...limits.errors, ...otherErrors }, wish: pools.length > 0 ? wishOfPools(form.elements, pools, form.lang) : null };
  if (full.size === 0) return { ok: "free" };
  const now = form.now;
  const name = personNameOf(form.elements, registration, parsed.values, 0, peopleLabelsIn(registration.peopleLabels, form.lang));
  const id = crypto.randomUUID();
  await db.run(sql`
    INSERT INTO waitlist_entries (id, registration_id, club_id, pools, position, email, name, lang, "values", submission_key, state, created_at, updated_at)
    SELECT ${id}, ${registration.id}, ${registration.clubId}, ${JSON.stringify(pools)},
           COALESCE((SELECT MAX(position) FROM waitlist_entries WHERE registration_id = ${registration.id}), 0) + 1,
           ${address.data!.toLowerCase()}, ${name}, ${form.lang}, ${JSON.stringify(parsed.values)}, ${submission}, 'waiting', ${now}, ${now}
    ON CONFLICT DO NOTHING`);
  const entry = (await entryOfSubmission(db, registration.id, submission)) ?? (await activeWish(db, registration.id, address.data!.toLowerCase(), pools));
  const wish = wishOfPools(form.elements, pools, form.lang);
  if (!entry) return { ok: false, errors: { form: words.off }, wish };
  const position = await positionOf(db, entry);
  const created = entry.id === id;
  if (created) {
    const formName = labelIn(registration.name, form.lang);
    const leave = await leaveUrl(env, db, registration, entry.id, form.lang);
    await sendMail(env, db, {
      to: entry.email,
      subject: `${words.joinedSubject}${RECEIPT_WORDS[form.lang].colon}${formName}`,
      text: [words.joinedMail(position, wish, formName), "", words.leaveLine, leave].join("\n"),
    });
  }
  return { ok: true, entry, position, wish, created };
}

/** The entry a leave link names, on this form, while it is still on the list (waiting or offered). */
export async function entryToLeave(env: Env, db: Db, registrationId: string, token: string | null): Promise<WaitlistEntryRow | null> {
  const entryId = token ? await verifyLeaveLink(env, token) : null;
  if (!entryId) return null;
  const [entry] = await db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.id, entryId), eq(waitlistEntries.registrationId, registrationId)))
    .limit(1);
  return entry ?? null;
}

export async function entryOfSubmission(db: Db, registrationId: string, submission: string): Promise<WaitlistEntryRow | null> {
  const [row] = await db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.registrationId, registrationId), eq(waitlistEntries.submissionKey, submission)))
    .limit(1);
  return row ?? null;
}

async function activeWish(db: Db, registrationId: string, email: string, pools: string[]): Promise<WaitlistEntryRow | null> {
  return activeEntry(db, registrationId, pools, and(eq(waitlistEntries.email, email), sql`${waitlistEntries.changeIndividualId} IS NULL`)!);
}

/** The entry still on the list (waiting or offered) for these pools that `who` picks out (an address, a paid person). */
export async function activeEntry(db: Db, registrationId: string, pools: string[], who: SQL): Promise<WaitlistEntryRow | null> {
  const [row] = await db
    .select()
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.registrationId, registrationId),
        who,
        sql`${waitlistEntries.pools} = ${JSON.stringify(pools)}`,
        inArray(waitlistEntries.state, ["waiting", "offered"]),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Where an entry stands among the people waiting for the same thing: 1 is next. */
export async function positionOf(db: Db, entry: Pick<WaitlistEntryRow, "registrationId" | "pools" | "position">): Promise<number> {
  const [row] = await db.all<{ n: number }>(sql`
    SELECT COUNT(*) AS n FROM waitlist_entries
    WHERE registration_id = ${entry.registrationId} AND pools = ${JSON.stringify(entry.pools)} AND state IN ('waiting', 'offered') AND position <= ${entry.position}`);
  return Math.max(1, row?.n ?? 1);
}

/**
 * Brings a form's waitlist up to date: offers whose cart completed are accepted, offers past their time
 * (and not being paid) lapse, and the people at the front are offered the places that are free now.
 * Safe to run twice at once: an entry is offered only from 'waiting', in the batch that holds its places.
 */
export async function offerFreedPlaces(env: Env, db: Db, registrationId: string, now: number): Promise<number> {
  await rawBatch(db, [
    sql`
      UPDATE waitlist_entries SET state = 'accepted', updated_at = ${now}
      WHERE registration_id = ${registrationId} AND state = 'offered' AND offer_cart_id IN (SELECT id FROM carts WHERE is_complete = 1)`,
    sql`
      UPDATE waitlist_entries SET state = 'expired', updated_at = ${now}
      WHERE registration_id = ${registrationId} AND state = 'offered' AND offer_expires_at <= ${now}
        AND change_individual_id IS NULL
        AND NOT EXISTS (SELECT 1 FROM payment_attempts a WHERE a.cart_id = waitlist_entries.offer_cart_id AND a.status = 'open')`,
    ...changeSweepStatements(registrationId, now),
  ]);
  const [registration] = await db.select().from(registrations).where(eq(registrations.id, registrationId)).limit(1);
  if (!registration || registration.waitlistOfferHours === null) return 0;
  // A closed form offers nobody a place: the offer's cart could not be paid.
  if (!isOpen({ is_approved: registration.isApproved, open_time: registration.openTime, close_time: registration.closeTime }, now)) return 0;
  const waiting = await db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.registrationId, registrationId), eq(waitlistEntries.state, "waiting")))
    .orderBy(asc(waitlistEntries.position))
    .limit(SWEEP_BATCH);
  if (waiting.length === 0) return 0;
  const elements = await listElements(db, registrationId);
  const queue: QueuedEntry[] = waiting.map((entry) => ({
    id: entry.id,
    needs: entry.changeIndividualId ? needsOfChange(elements, entry) : needsOf(elements, entry.values),
  }));
  const pools = [...new Set(queue.flatMap((e) => e.needs.map((n) => n.pool)))];
  const live = await takenByOthers(db, registrationId, pools, "", now);
  let offered = 0;
  for (const id of planOffers(queue, live)) {
    const entry = waiting.find((e) => e.id === id)!;
    if (entry.changeIndividualId) {
      // A change request: the place is held on the paid person's own entry, and the mail's link applies the change.
      const made = await offerChange(db, registration, elements, entry, now);
      if (made.kind === "taken") break;
      if (made.kind === "offered") {
        offered++;
        await mailChangeOffer(env, db, registration, elements, entry, now).catch((error: unknown) => console.error("Waitlist offer mail failed", error));
      }
      continue;
    }
    const made = await offer(db, registration, elements, entry, now);
    if (made.kind === "taken") break; // the counts moved under us; the next sweep plans again
    if (made.kind === "offered") {
      offered++;
      await mailOffer(env, db, registration, elements, entry, made.token, now).catch((error: unknown) => console.error("Waitlist offer mail failed", error));
    }
  }
  return offered;
}

function needsOf(elements: readonly FormElement[], values: Values): { pool: string; cap: number }[] {
  return placesOfPerson(personElements(elements), "waiting", values).flatMap((claim) => (claim.cap === null ? [] : [{ pool: claim.pool, cap: claim.cap }]));
}

/** Every capped pool an offer holds for its person, not only the full ones it waited for: all of them stand to its end (decision 0078). */
const offeredPools = (holds: readonly { pool: string }[]) => [...new Set(holds.map((h) => h.pool))].sort();

/** One offer, all or nothing: the entry claimed from 'waiting', a cart with the person in it, and their places held. */
async function offer(
  db: Db,
  registration: RegistrationRow,
  elements: readonly FormElement[],
  entry: WaitlistEntryRow,
  now: number,
): Promise<{ kind: "offered"; token: string } | { kind: "gone" | "taken" }> {
  const cartId = crypto.randomUUID();
  const individualId = crypto.randomUUID();
  const secret = randomToken();
  const expires = offerExpiry(now, registration.waitlistOfferHours ?? 48);
  const claimed = sql`EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.id = ${entry.id} AND w.offer_cart_id = ${cartId})`;
  const holds = placesOfPerson(personElements(elements), individualId, entry.values).filter((claim) => claim.cap !== null);
  try {
    await rawBatch(db, [
      sql`
        UPDATE waitlist_entries SET state = 'offered', offer_cart_id = ${cartId}, offered_at = ${now}, offer_expires_at = ${expires},
          offer_pools = ${JSON.stringify(offeredPools(holds))}, updated_at = ${now}
        WHERE id = ${entry.id} AND state = 'waiting'`,
      sql`
        INSERT INTO carts (id, created_at, updated_at, registration_id, club_id, site_id, origin, resume_hash, lang, email, cart_number)
        SELECT ${cartId}, ${now}, ${now}, r.id, r.club_id, r.site_id, 'web', ${hashToken(secret)}, ${entry.lang}, ${entry.email},
               (SELECT COALESCE(MAX(cart_number), 0) + 1 FROM carts WHERE registration_id = r.id)
        FROM registrations r WHERE r.id = ${registration.id} AND ${claimed}`,
      sql`
        INSERT INTO individuals (id, created_at, cart_id, registration_id, club_id, site_id, is_complete, ordinal, "values")
        SELECT ${individualId}, ${now}, c.id, c.registration_id, c.club_id, c.site_id, 1, 1, ${JSON.stringify(entry.values)}
        FROM carts c WHERE c.id = ${cartId}`,
      ...holds.map(
        (claim) =>
          sql`
          INSERT INTO places (id, registration_id, pool, unit, cart_id, individual_id, state, expires_at, cap, created_at)
          SELECT ${crypto.randomUUID()}, ${registration.id}, ${claim.pool}, ${individualId}, ${cartId}, ${individualId}, 'held', ${expires}, ${claim.cap}, ${now}
          WHERE EXISTS (SELECT 1 FROM individuals WHERE id = ${individualId})`,
      ),
    ]);
  } catch (error) {
    if (isPlaceTaken(error)) return { kind: "taken" };
    throw error;
  }
  const [after] = await db.select({ cart: waitlistEntries.offerCartId }).from(waitlistEntries).where(eq(waitlistEntries.id, entry.id)).limit(1);
  if (after?.cart !== cartId) return { kind: "gone" }; // another sweep offered it first
  // The cart's resume token: the mail is its only copy (the cart stores its hash).
  return { kind: "offered", token: `${cartId}.${secret}` };
}

async function mailOffer(
  env: Env,
  db: Db,
  registration: RegistrationRow,
  elements: readonly FormElement[],
  entry: WaitlistEntryRow,
  token: string,
  now: number,
): Promise<void> {
  const lang: Lang = registration.isBilingual && entry.lang === "fr" ? "fr" : "en";
  const words = WAITLIST_WORDS[lang];
  const wish = wishOf(
    entry.pools.map((p) => poolLabel(elements, p, lang)),
    lang,
  );
  const until = formatDateTimeIn(offerExpiry(now, registration.waitlistOfferHours ?? 48), lang);
  const formName = labelIn(registration.name, lang);
  const link = `${await formOrigin(env, db, registration.siteId)}/register/${registration.id}/offer?cart=${encodeURIComponent(token)}${lang === "fr" ? "&lang=fr" : ""}`;
  await sendMail(env, db, {
    to: entry.email,
    subject: `${words.offerSubject}${RECEIPT_WORDS[lang].colon}${formName}`,
    text: [
      words.offerMail(wish, formName, until),
      link,
      "",
      words.offerIgnore,
      "",
      words.leaveLine,
      await leaveUrl(env, db, registration, entry.id, lang),
    ].join("\n"),
  });
}

/** The offer a cart was made for, if any: the cart page says until when its place is held. */
export async function offerOfCart(db: Db, cartId: string): Promise<WaitlistEntryRow | null> {
  const [row] = await db.select().from(waitlistEntries).where(eq(waitlistEntries.offerCartId, cartId)).limit(1);
  return row ?? null;
}

/** The words naming what a person would wait for, from the pools that are full for them. */
export function wishOfPools(elements: readonly FormElement[], pools: readonly string[], lang: Lang): string {
  return wishOf(
    pools.map((p) => poolLabel(elements, p, lang)),
    lang,
  );
}

/** Sweeps every form with someone waiting or offered: the cron's part, for holds and offers that lapse unseen. */
export async function sweepAllWaitlists(env: Env, db: Db, now: number): Promise<void> {
  const rows = await db.all<{ id: string }>(sql`SELECT DISTINCT registration_id AS id FROM waitlist_entries WHERE state IN ('waiting', 'offered') LIMIT 1000`);
  for (const { id } of rows) await offerFreedPlaces(env, db, id, now).catch((error: unknown) => console.error("Waitlist sweep failed", id, error));
}

/** Whether a form has anyone waiting or offered: the form page sweeps only then. */
export async function hasActiveWaitlist(db: Db, registrationId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: waitlistEntries.id })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.registrationId, registrationId), inArray(waitlistEntries.state, ["waiting", "offered"])))
    .limit(1);
  return row !== undefined;
}

export interface WaitlistView {
  id: string;
  name: string;
  email: string;
  wish: string;
  state: WaitlistState;
  joinedAt: number;
  offerExpiresAt: number | null;
  /** A change request's paid person (decision 0066); null for a new entry. */
  changeFor: string | null;
}

/** The organiser's list: everyone still waiting or offered in queue order, then the last 100 who left it. */
export async function waitlistOf(db: Db, registrationId: string, lang: Lang = "en"): Promise<{ active: WaitlistView[]; past: WaitlistView[] }> {
  const elements = await listElements(db, registrationId);
  const view = (e: WaitlistEntryRow): WaitlistView => ({
    id: e.id,
    name: e.name,
    email: e.email,
    wish: wishOf(
      e.pools.map((p) => poolLabel(elements, p, lang)),
      lang,
    ),
    state: e.state as WaitlistState,
    joinedAt: e.createdAt,
    offerExpiresAt: e.state === "offered" ? e.offerExpiresAt : null,
    changeFor: e.changeIndividualId ? e.name : null,
  });
  const active = await db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.registrationId, registrationId), inArray(waitlistEntries.state, ["waiting", "offered"])))
    .orderBy(asc(waitlistEntries.position))
    .limit(2000);
  const past = await db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.registrationId, registrationId), inArray(waitlistEntries.state, ["accepted", "expired", "removed"])))
    .orderBy(sql`${waitlistEntries.updatedAt} DESC`)
    .limit(100);
  return { active: active.map(view), past: past.map(view) };
}

/** Moves a waiting person one step up or down the queue (a swap with the waiting neighbour). */
export async function moveWaitlistEntry(db: Db, registrationId: string, id: string, direction: "up" | "down", now: number): Promise<boolean> {
  const queue = await db
    .select({ id: waitlistEntries.id, position: waitlistEntries.position })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.registrationId, registrationId), eq(waitlistEntries.state, "waiting")))
    .orderBy(asc(waitlistEntries.position))
    .limit(2000);
  const moves = swapWithNeighbour(queue, id, direction);
  if (!moves) return false;
  const [first, second] = moves;
  // Each update keeps to its old position, so two organisers moving at once cannot leave two entries on one spot.
  const before = new Map(queue.map((e) => [e.id, e.position]));
  const results = await rawBatch(db, [
    sql`UPDATE waitlist_entries SET position = ${first!.position}, updated_at = ${now} WHERE id = ${first!.id} AND position = ${before.get(first!.id)!} AND state = 'waiting'`,
    sql`UPDATE waitlist_entries SET position = ${second!.position}, updated_at = ${now} WHERE id = ${second!.id} AND position = ${before.get(second!.id)!} AND state = 'waiting'`,
  ]);
  return results.every((r) => (r.meta.changes ?? 0) === 1);
}

/** Takes someone off the list; an open offer is withdrawn and its held places freed for the next person. */
export async function removeWaitlistEntry(db: Db, registrationId: string, id: string, now: number): Promise<boolean> {
  const [entry] = await db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.id, id), eq(waitlistEntries.registrationId, registrationId)))
    .limit(1);
  if (!entry || (entry.state !== "waiting" && entry.state !== "offered")) return false;
  const cartId = entry.offerCartId ?? "";
  const [removed] = await rawBatch(db, [
    sql`UPDATE waitlist_entries SET state = 'removed', updated_at = ${now} WHERE id = ${id} AND state IN ('waiting', 'offered')`,
    // The offer's cart goes too unless it was paid for or is being paid for right now.
    sql`
      UPDATE carts SET is_removed = 1, updated_at = ${now} WHERE id = ${cartId} AND is_complete = 0
        AND NOT EXISTS (SELECT 1 FROM payment_attempts a WHERE a.cart_id = ${cartId} AND a.status = 'open')`,
    sql`DELETE FROM places WHERE cart_id = ${cartId} AND state = 'held'
        AND NOT EXISTS (SELECT 1 FROM payment_attempts a WHERE a.cart_id = ${cartId} AND a.status = 'open')`,
    ...(entry.changeIndividualId && entry.state === "offered" ? [releaseChangeOffer(entry)] : []),
  ]);
  return (removed?.meta.changes ?? 0) > 0;
}

/** The form's offer time in hours; null turns the waitlist off (people already on it stay, but are not offered). */
export async function setWaitlistHours(db: Db, registrationId: string, hours: number | null): Promise<void> {
  await db.update(registrations).set({ waitlistOfferHours: hours }).where(eq(registrations.id, registrationId));
}

export type { WaitlistState };
