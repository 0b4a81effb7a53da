/**
 * A change after checkout that waits for a place (decision 0066): joining the waitlist from the change form, and
 * accepting the offer when a place frees. Accepting applies the wanted answers over what the person holds now
 * through the same priced-change path as the change form (quoteChange), keyed by the entry's id, so a double
 * click, the webhook and the return page all make the change once.
 */
import { and, eq, sql } from "drizzle-orm";
import { CHANGE_WAITLIST_WORDS, wantedOf, withWanted, type WantedAnswers } from "../../core/registration/change-waitlist";
import type { FormElement, StoredValue } from "../../core/forms/model";
import { labelIn, type Lang } from "../../core/forms/bilingual";
import { personNameOf } from "../../core/registration/cart-names";
import { peopleLabelsIn } from "../../core/registration/people-labels";
import { changeRefusal } from "../../core/registration/person-changes";
import { formatDateTimeIn, RECEIPT_WORDS } from "../../core/registration/receipt-lines";
import { WAITLIST_WORDS } from "../../core/registration/waitlist";
import { cartChanges, carts, waitlistEntries, type Db } from "../../schema/d1";
import { sendMail } from "../mail/mailer";
import { peopleOf, personElements, type CartRow, type IndividualRow } from "./carts";
import { attemptOfChange } from "./change-payments";
import { wishOfEntry } from "./change-waitlists";
import { priceChange, quoteChange, type PersonChangeResult } from "./person-changes";
import { offerSwaps, type OfferDifference, type OfferSwap } from "../../core/registration/change-offer-quote";
import { stripeGateway } from "../payments/stripe";
import { paymentClubOf, takesCardsOnline } from "./payments";
import type { RegistrationRow } from "./registration-forms";
import { leaveUrl, verifyChangeOfferLink } from "./waitlist-links";
import { activeEntry, entryOfSubmission, positionOf, type WaitlistEntryRow } from "./waitlists";

export type ChangeJoin = { ok: true; message: string; created: boolean } | { ok: false };

/**
 * Puts a paid person's change on the waitlist of the full pools it asked for, mailed to the cart's address (the
 * receipt's holder, who made the change). The change form's request id makes a double click one entry; the same
 * change for the same person waiting already is that entry.
 */
export async function joinChangeWaitlist(
  env: Env,
  db: Db,
  registration: RegistrationRow,
  elements: readonly FormElement[],
  cart: CartRow,
  person: IndividualRow,
  full: { pools: string[]; values: Record<string, StoredValue>; fields: string[] },
  submission: string,
  lang: Lang,
  now: number,
): Promise<ChangeJoin> {
  const email = cart.email?.trim().toLowerCase();
  if (registration.waitlistOfferHours === null || !email) return { ok: false };
  const name = personNameOf(elements, registration, person.values, 0, peopleLabelsIn(registration.peopleLabels, lang));
  const id = crypto.randomUUID();
  await db.run(sql`
    INSERT INTO waitlist_entries (id, registration_id, club_id, pools, position, email, name, lang, "values", submission_key, state, change_individual_id, change_cart_id, created_at, updated_at)
    SELECT ${id}, ${registration.id}, ${registration.clubId}, ${JSON.stringify(full.pools)},
           COALESCE((SELECT MAX(position) FROM waitlist_entries WHERE registration_id = ${registration.id}), 0) + 1,
           ${email}, ${name}, ${lang}, ${JSON.stringify(wantedOf(full.values, full.fields))}, ${submission}, 'waiting', ${person.id}, ${cart.id}, ${now}, ${now}
    ON CONFLICT DO NOTHING`);
  const entry =
    (await entryOfSubmission(db, registration.id, submission)) ??
    (await activeEntry(db, registration.id, full.pools, eq(waitlistEntries.changeIndividualId, person.id)));
  if (!entry) return { ok: false };
  const position = await positionOf(db, entry);
  const wish = wishOfEntry(elements, entry, lang);
  const words = CHANGE_WAITLIST_WORDS[lang];
  const created = entry.id === id;
  if (created) {
    const formName = labelIn(registration.name, lang);
    await sendMail(env, db, {
      to: email,
      subject: `${WAITLIST_WORDS[lang].joinedSubject}${RECEIPT_WORDS[lang].colon}${formName}`,
      text: [words.joinedMail(name, position, wish, formName), "", WAITLIST_WORDS[lang].leaveLine, await leaveUrl(env, db, registration, entry.id, lang)].join(
        "\n",
      ),
    });
  }
  return { ok: true, message: words.joined(name, position, wish, email), created };
}

/** The change offer a signed link names, on this form. */
export async function changeOfferOf(env: Env, db: Db, registrationId: string, token: string | null): Promise<WaitlistEntryRow | null> {
  const id = token ? await verifyChangeOfferLink(env, token) : null;
  if (!id) return null;
  const [row] = await db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.id, id), eq(waitlistEntries.registrationId, registrationId)))
    .limit(1);
  return row?.changeIndividualId ? row : null;
}

export type OfferStanding = { ok: true; until: number } | { ok: false; status: 200 | 410; message: string };

/** Whether an offer may be accepted now, and if not, what became of it in the registrant's words. */
export async function offerStanding(db: Db, entry: WaitlistEntryRow, lang: Lang, now: number): Promise<OfferStanding> {
  const words = WAITLIST_WORDS[lang];
  const [applied] = await db.select({ id: cartChanges.id }).from(cartChanges).where(eq(cartChanges.id, entry.id)).limit(1);
  if (applied || entry.state === "accepted") return { ok: false, status: 200, message: CHANGE_WAITLIST_WORDS[lang].accepted };
  if (entry.state === "offered" && (entry.offerExpiresAt ?? 0) > now) return { ok: true, until: entry.offerExpiresAt! };
  // Past its time but its change's card page is open: that payment may still complete it.
  if (entry.state === "offered" && (await attemptOfChange(db, entry.id))?.status === "open") return { ok: true, until: entry.offerExpiresAt! };
  if (entry.state === "expired" || entry.state === "offered")
    return { ok: false, status: 410, message: CHANGE_WAITLIST_WORDS[lang].expired(formatDateTimeIn(entry.offerExpiresAt ?? now, lang)) };
  return { ok: false, status: 410, message: words.offerGone };
}

export interface OfferPerson {
  cart: CartRow;
  person: IndividualRow;
  people: IndividualRow[];
}

/** The paid person an offer changes, with their cart; null when they are gone (cancelled, removed). */
export async function personOfOffer(db: Db, entry: WaitlistEntryRow): Promise<OfferPerson | null> {
  const [cart] = await db
    .select()
    .from(carts)
    .where(and(eq(carts.id, entry.changeCartId ?? ""), eq(carts.registrationId, entry.registrationId)))
    .limit(1);
  if (!cart || cart.isRemoved) return null;
  const people = await peopleOf(db, cart.id);
  const person = people.find((p) => p.id === entry.changeIndividualId && p.paidAt !== null && p.isComplete);
  return person ? { cart, person, people } : null;
}

/** The person's answers an offer would give them now, or why the form refuses a change now (the change form's words). */
function offerValues(registration: RegistrationRow, entry: WaitlistEntryRow, found: OfferPerson, lang: Lang, now: number) {
  const refusal = changeRefusal({ transferFee: registration.transferFee, closeTime: registration.closeTime }, "edit", now, lang);
  if (refusal) return { ok: false as const, errors: { form: refusal }, status: 409 as const };
  return { ok: true as const, values: withWanted(found.person.values, entry.values as WantedAnswers) };
}

/** An offer as its page reads it: the form, the entry, the person it changes, in the page's language, now. */
export interface OfferCall {
  db: Db;
  registration: RegistrationRow;
  elements: readonly FormElement[];
  entry: WaitlistEntryRow;
  found: OfferPerson;
  lang: Lang;
  now: number;
}

export type OfferQuote = { ok: true; swaps: OfferSwap[]; difference: OfferDifference } | { ok: false; message: string };

/**
 * What accepting would do now, for the offer page before Accept (decision 0072): the answers it changes and the
 * difference, priced by priceChange as Accept prices it (so a price the organiser changed since the offer shows,
 * and is charged, as it is now). Writes nothing.
 */
export async function quoteOffer(env: Env, offer: OfferCall): Promise<OfferQuote> {
  const { db, registration, elements, entry, found, lang, now } = offer;
  const wanted = offerValues(registration, entry, found, lang, now);
  if (!wanted.ok) return { ok: false, message: wanted.errors.form };
  const swaps = offerSwaps(personElements(elements), found.person.values, entry.values as WantedAnswers, lang);
  const started = await attemptOfChange(db, entry.id);
  // Its card page is open: Accept goes back to that page, for the figure it shows.
  if (started?.change && started.status === "open") return { ok: true, swaps, difference: { kind: "pay", amount: started.amount, byCard: true } };
  const priced = await priceChange(db, registration, elements, found.cart, found.people, found.person, wanted.values, "edit", entry.id, lang, now);
  if (priced.ok === false) return { ok: false, message: Object.values(priced.errors).join(" ") };
  if (priced.ok === "pay") {
    const byCard = takesCardsOnline(await paymentClubOf(db, registration.clubId), stripeGateway(env));
    return { ok: true, swaps, difference: { kind: "pay", amount: priced.fee, byCard } };
  }
  if (priced.ok === "now" && priced.refund > 0) return { ok: true, swaps, difference: { kind: "refund", amount: priced.refund, kept: priced.kept } };
  return { ok: true, swaps, difference: { kind: "none", kept: priced.ok === "now" ? priced.kept : 0 } };
}

/**
 * Accepting an offer: the wanted answers over what the person holds now, priced and checked as the change form's
 * (quoteChange, through the same priceChange the page quoted with), under the entry's id. Refused after the form
 * closed to changes, as the change form is.
 */
export async function acceptChangeOffer(offer: OfferCall): Promise<PersonChangeResult> {
  const { db, registration, elements, entry, found, lang, now } = offer;
  const started = await attemptOfChange(db, entry.id);
  // Accepted twice while its card page is open: back to that page.
  if (started?.change && started.status === "open") return { ok: "pay", change: started.change, fee: started.amount };
  const wanted = offerValues(registration, entry, found, lang, now);
  if (!wanted.ok) return wanted;
  return quoteChange(db, registration, elements, found.cart, found.people, found.person, wanted.values, "edit", entry.id, lang, now);
}

/** Marks an offer accepted once its change is made (the sweep would find it too). */
export async function markOfferAccepted(db: Db, entryId: string, now: number): Promise<void> {
  await db
    .update(waitlistEntries)
    .set({ state: "accepted", updatedAt: now })
    .where(and(eq(waitlistEntries.id, entryId), sql`${waitlistEntries.state} IN ('offered', 'expired')`));
}
