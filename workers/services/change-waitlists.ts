/**
 * The sweep's part for change requests on a waitlist (decision 0066): a paid person waits for a full limited
 * choice. When a place frees, their offer is the place held for the person's own unit in their own cart (no new
 * cart: the offer changes the paid person), in one batch with the entry's claim, for the form's offer time; the
 * offer link (signed, nothing stored) opens the page that applies the change through the priced-change path.
 * An offer is accepted when the change's audit row (keyed by the entry's id) exists, and lapses at its time
 * unless its change is being paid right now.
 */
import { sql, type SQL } from "drizzle-orm";
import { CHANGE_WAITLIST_WORDS, presentWanted, type WantedAnswers } from "../../core/registration/change-waitlist";
import type { FormElement } from "../../core/forms/model";
import { labelIn, type Lang } from "../../core/forms/bilingual";
import { placesOfPerson, poolLabel } from "../../core/registration/places";
import { formatDateTimeIn, RECEIPT_WORDS } from "../../core/registration/receipt-lines";
import { offerExpiry, WAITLIST_WORDS, wishOf } from "../../core/registration/waitlist";
import { rawBatch, type Db, type waitlistEntries } from "../../schema/d1";
import { sendMail } from "../mail/mailer";
import { personElements } from "./carts";
import { changeAttemptKeyIs } from "./change-payments";
import { isPlaceTaken } from "./places";
import { formOrigin } from "./receipts";
import type { RegistrationRow } from "./registration-forms";
import { leaveUrl, signChangeOfferLink } from "./waitlist-links";

type EntryRow = typeof waitlistEntries.$inferSelect;

/** The capped places a change request needs: those of the wanted answers in the pools it waits for. */
export function needsOfChange(elements: readonly FormElement[], entry: Pick<EntryRow, "values" | "pools">): { pool: string; cap: number }[] {
  const wanted = presentWanted(entry.values as WantedAnswers);
  return placesOfPerson(personElements(elements), "waiting", wanted).flatMap((claim) =>
    claim.cap === null || !entry.pools.includes(claim.pool) ? [] : [{ pool: claim.pool, cap: claim.cap }],
  );
}

/** The sweep's bookkeeping for change offers, before it plans: accepted, lapsed, and withdrawn for a person no longer there. */
export function changeSweepStatements(registrationId: string, now: number): SQL[] {
  return [
    sql`
      UPDATE waitlist_entries SET state = 'accepted', updated_at = ${now}
      WHERE registration_id = ${registrationId} AND state = 'offered' AND change_individual_id IS NOT NULL
        AND EXISTS (SELECT 1 FROM cart_changes c WHERE c.id = waitlist_entries.id)`,
    sql`
      UPDATE waitlist_entries SET state = 'expired', updated_at = ${now}
      WHERE registration_id = ${registrationId} AND state = 'offered' AND change_individual_id IS NOT NULL AND offer_expires_at <= ${now}
        AND NOT EXISTS (SELECT 1 FROM payment_attempts a WHERE a.status = 'open'
                        AND (a.idempotency_key = 'change-' || waitlist_entries.id OR substr(a.idempotency_key, 1, length(waitlist_entries.id) + 8) = 'change-' || waitlist_entries.id || '-'))`,
    // A person cancelled (or their cart removed) since joining has nothing left to change.
    sql`
      UPDATE waitlist_entries SET state = 'removed', updated_at = ${now}
      WHERE registration_id = ${registrationId} AND state IN ('waiting', 'offered') AND change_individual_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM individuals i JOIN carts c ON c.id = i.cart_id
                        WHERE i.id = waitlist_entries.change_individual_id AND i.is_removed = 0 AND c.is_removed = 0)`,
  ];
}

/** The held places of a change offer, freed when the organiser or the person takes the entry off (unless being paid). */
export function releaseChangeOffer(entry: Pick<EntryRow, "id" | "registrationId" | "changeIndividualId" | "pools">): SQL {
  return sql`
    DELETE FROM places WHERE registration_id = ${entry.registrationId} AND state = 'held' AND unit = ${entry.changeIndividualId ?? ""}
      AND pool IN (SELECT value FROM json_each(${JSON.stringify(entry.pools)}))
      AND NOT EXISTS (SELECT 1 FROM payment_attempts a WHERE ${changeAttemptKeyIs(sql`a.idempotency_key`, entry.id)} AND a.status = 'open')`;
}

/**
 * One change offer, all or nothing: the entry claimed from 'waiting' and a 'held' place in each capped pool it
 * waits for, on the person's own unit and cart (the places trigger decides each), expiring with the offer.
 */
export async function offerChange(
  db: Db,
  registration: RegistrationRow,
  elements: readonly FormElement[],
  entry: EntryRow,
  now: number,
): Promise<{ kind: "offered" } | { kind: "gone" | "taken" }> {
  const individualId = entry.changeIndividualId!;
  const expires = offerExpiry(now, registration.waitlistOfferHours ?? 48);
  const claimed = sql`EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.id = ${entry.id} AND w.state = 'offered' AND w.offered_at = ${now})`;
  let results;
  try {
    results = await rawBatch(db, [
      sql`
        UPDATE waitlist_entries SET state = 'offered', offered_at = ${now}, offer_expires_at = ${expires}, updated_at = ${now}
        WHERE id = ${entry.id} AND state = 'waiting'`,
      ...needsOfChange(elements, entry).map(
        (need) =>
          sql`
          INSERT INTO places (id, registration_id, pool, unit, cart_id, individual_id, state, expires_at, cap, created_at)
          SELECT ${crypto.randomUUID()}, ${registration.id}, ${need.pool}, ${individualId}, ${entry.changeCartId}, ${individualId}, 'held', ${expires}, ${need.cap}, ${now}
          WHERE ${claimed}
          ON CONFLICT (registration_id, pool, unit, state) DO UPDATE SET expires_at = MAX(expires_at, excluded.expires_at)`,
      ),
    ]);
  } catch (error) {
    if (isPlaceTaken(error)) return { kind: "taken" };
    throw error;
  }
  return (results[0]?.meta.changes ?? 0) === 1 ? { kind: "offered" } : { kind: "gone" };
}

/** The words naming what an entry waits for. */
export const wishOfEntry = (elements: readonly FormElement[], entry: Pick<EntryRow, "pools">, lang: Lang) =>
  wishOf(
    entry.pools.map((p) => poolLabel(elements, p, lang)),
    lang,
  );

/** The offer mail of a change: the signed link to accept it, and the link to leave the list. */
export async function mailChangeOffer(env: Env, db: Db, registration: RegistrationRow, elements: readonly FormElement[], entry: EntryRow, now: number) {
  const lang: Lang = registration.isBilingual && entry.lang === "fr" ? "fr" : "en";
  const words = CHANGE_WAITLIST_WORDS[lang];
  const until = formatDateTimeIn(offerExpiry(now, registration.waitlistOfferHours ?? 48), lang);
  const formName = labelIn(registration.name, lang);
  const token = await signChangeOfferLink(env, entry.id);
  const link = `${await formOrigin(env, db, registration.siteId)}/register/${registration.id}/change-offer?offer=${encodeURIComponent(token)}${lang === "fr" ? "&lang=fr" : ""}`;
  await sendMail(env, db, {
    to: entry.email,
    subject: `${WAITLIST_WORDS[lang].offerSubject}${RECEIPT_WORDS[lang].colon}${formName}`,
    text: [
      words.offerMail(entry.name, wishOfEntry(elements, entry, lang), formName, until),
      link,
      "",
      WAITLIST_WORDS[lang].offerIgnore,
      "",
      WAITLIST_WORDS[lang].leaveLine,
      await leaveUrl(env, db, registration, entry.id, lang),
    ].join("\n"),
  });
}
