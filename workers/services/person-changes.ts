/**
 * A registrant changes a paid person's details, or transfers the entry to someone else, from the receipt link
 * (issue 24; the rules are core/registration/person-changes.ts). The change is written in one batch with its
 * audit row, and only over the values the page was showing: a second tab's change is refused as stale, and a
 * resent form (same request id) finds its audit row and answers as the first did.
 */
import { eq, sql } from "drizzle-orm";
import type { RawInput } from "../../core/forms/field-type";
import type { Lang } from "../../core/forms/bilingual";
import { parseIndividual } from "../../core/forms/validate";
import { personNameOf } from "../../core/registration/cart-names";
import { REGISTRATION_MESSAGES } from "../../core/registration/messages";
import { VALIDATION_WORDS } from "../../core/registration/valid-numbers";
import { peopleLabelsIn } from "../../core/registration/people-labels";
import {
  CHANGE_MESSAGES,
  changedFields,
  changeRefusal,
  lockedFieldsAltered,
  lockedForChange,
  addressesOf,
  mayChange,
  NEW_HOLDER_WORDS,
  pricingAfterChange,
  type PersonChangeKind,
} from "../../core/registration/person-changes";
import { tierAt } from "../../core/registration/tiers";
import type { FormElement, StoredValue } from "../../core/forms/model";
import { cartChanges, carts, clubs, rawBatch, registrations, type Db, type PaidChange } from "../../schema/d1";
import { labelIn } from "../../core/forms/bilingual";
import { sendMail } from "../mail/mailer";
import { afterCartCompleted } from "../jobs";
import { offerFreedPlaces } from "./waitlists";
import { sendReceiptOfCart } from "./receipts";
import { listElements } from "./registration-forms";
import { attemptOfChange } from "./change-payments";
import { peopleOf, personElements, personLimits, priceOfCart, type CartRow, type IndividualRow } from "./carts";
import { placesOfPerson } from "../../core/registration/places";
import { placesMoved, withKeptFee } from "../../core/registration/priced-changes";
import { placeProblems } from "./places";
import { loweredChangeRefund } from "./priced-changes";
import { chargedPricingOf, RECEIPT_WORDS } from "../../core/registration/receipt-lines";
import type { RegistrationRow } from "./registration-forms";

/** What a change is refused for among the add-person limits: a place held stays held, so not a full option. */
const REFUSED_ON_CHANGE: ReadonlySet<string> = new Set([REGISTRATION_MESSAGES.notOffered, VALIDATION_WORDS.notOnList, VALIDATION_WORDS.noPattern]);

export type PersonChangeResult =
  /** written: the values moved from and to, when this call made the change (for telling a transfer's new holder). */
  | { ok: true; created: boolean; kind: PersonChangeKind; from: string; to: string; written?: Pick<PaidChange, "kind" | "from" | "to" | "fromName" | "toName"> }
  /** A transfer with a fee, or a change that costs more: nothing is written until it is paid (change-payments.ts). */
  | { ok: "pay"; change: PaidChange; fee: number }
  /** A change that costs less (refunded under the policy) or moves places: made now by applyChangeNow (priced-changes.ts). */
  | { ok: "now"; change: PaidChange; refund: number; kept: number; delta: number }
  /** full: the limited choices that are full, with the answers asked for, for joining their waitlist. */
  | { ok: false; errors: Record<string, string>; status: 400 | 409; full?: { pools: string[]; values: Record<string, StoredValue>; fields: string[] } };

/** A change priced and checked, nothing written: free, it moves neither money nor places. */
export type ChangeQuote =
  | Extract<PersonChangeResult, { ok: false } | { ok: "pay" } | { ok: "now" }>
  | { ok: "free"; change: Pick<PaidChange, "kind" | "from" | "to" | "fromName" | "toName" | "fields"> };

/** The fields the receipt page offers for a change, in form order: what may change, and for an edit what may be added. */
export function changeableElements(elements: readonly FormElement[], values: Record<string, { v: unknown; p: number }>, kind: PersonChangeKind): FormElement[] {
  return personElements(elements).filter((e) => mayChange(e, values, kind));
}

export async function changePerson(
  db: Db,
  registration: RegistrationRow,
  elements: readonly FormElement[],
  cart: CartRow,
  individualId: string,
  posted: Record<string, RawInput>,
  kind: PersonChangeKind,
  requestId: string,
  lang: Lang,
  now: number,
): Promise<PersonChangeResult> {
  const words = CHANGE_MESSAGES[lang];
  const [done] = await db.select().from(cartChanges).where(eq(cartChanges.id, requestId)).limit(1);
  if (done) {
    if (done.cartId !== cart.id || done.individualId !== individualId) return { ok: false, errors: { form: words.notPaid }, status: 409 };
    const detail = JSON.parse(done.detail || "{}") as { from?: string; to?: string };
    return { ok: true, created: false, kind, from: detail.from ?? "", to: detail.to ?? "" };
  }
  const started = await attemptOfChange(db, requestId);
  if (started?.change) {
    // The same change form sent again: its payment is done (the change with it), or its page is still open.
    if (started.status === "paid") return { ok: true, created: false, kind, from: started.change.fromName, to: started.change.toName };
    if (started.status === "open") return { ok: "pay", change: started.change, fee: started.amount };
  }
  const refusal = changeRefusal({ transferFee: registration.transferFee, closeTime: registration.closeTime }, kind, now, lang);
  if (refusal) return { ok: false, errors: { form: refusal }, status: 409 };
  const people = await peopleOf(db, cart.id);
  const person = people.find((p) => p.id === individualId);
  if (!cart.isComplete || !person?.isComplete || person.paidAt === null) return { ok: false, errors: { form: words.notPaid }, status: 409 };

  const personEls = personElements(elements);
  const tier = tierAt(now, { raise_price_1_time: registration.raisePrice1Time, raise_price_2_time: registration.raisePrice2Time });
  const parsed = parseIndividual(lockedForChange(personEls, person.values, kind), posted, { lang, tier, isAdmin: false, isKiosk: false, saved: person.values });
  if (Object.keys(parsed.errors).length > 0) return { ok: false, errors: parsed.errors, status: 400 };
  // Priced values keep the price they were paid at, whatever the tier is now.
  const values = Object.fromEntries(Object.entries(parsed.values).map(([id, value]) => [id, person.values[id] ?? value]));
  for (const id of changedFields(personEls, person.values, parsed.values)) {
    if (parsed.values[id]) values[id] = parsed.values[id];
    else delete values[id];
  }
  return quoteChange(db, registration, elements, cart, people, person, values, kind, requestId, lang, now);
}

/**
 * A change to these new values of a paid person, priced and checked: what paying or refunding it takes, or, when
 * it moves neither money nor places, `free` (quoteChange writes it). Reads only: a waitlist offer's page quotes its
 * difference with this before Accept, and Accept (through quoteChange) makes the change at the figure it gives then
 * (decision 0072). A limited choice that is full is refused, naming the full pools so the page can offer the
 * waitlist (decision 0066).
 */
export async function priceChange(
  db: Db,
  registration: RegistrationRow,
  elements: readonly FormElement[],
  cart: CartRow,
  people: IndividualRow[],
  person: IndividualRow,
  values: Record<string, StoredValue>,
  kind: PersonChangeKind,
  requestId: string,
  lang: Lang,
  now: number,
): Promise<ChangeQuote> {
  const words = CHANGE_MESSAGES[lang];
  const personEls = personElements(elements);
  const nameOf = (v: Record<string, StoredValue>) => personNameOf(elements, registration, v, 0, peopleLabelsIn(registration.peopleLabels, lang));
  if (lockedFieldsAltered(personEls, person.values, values, kind).length > 0) return { ok: false, errors: { form: words.lockedAltered }, status: 409 };
  const changed = changedFields(personEls, person.values, values);
  if (changed.length === 0) return { ok: false, errors: { form: words.nothingChanged }, status: 400 };
  // A new birth date or gender may put an option they hold out of bounds (an age group).
  const form = { registration, elements: [...elements], now, isAdmin: false, isKiosk: false };
  const limits = await personLimits(db, form, personEls, values, cart.id, people, person.id);
  const notOffered = Object.fromEntries(Object.entries(limits.errors).filter(([, message]) => REFUSED_ON_CHANGE.has(message)));
  if (Object.keys(notOffered).length > 0) return { ok: false, errors: notOffered, status: 400 };

  const base = {
    requestId,
    individualId: person.id,
    from: person.values,
    to: values,
    fromName: nameOf(person.values),
    toName: nameOf(values),
    fields: changed,
  };
  const fee = kind === "transfer" ? (registration.transferFee ?? 0) : 0;
  if (fee > 0) return { ok: "pay", fee, change: { kind: "transfer", ...base } };
  // A priced or limited answer changed: the cart as paid, and with the new answer at today's price; the difference is paid, or refunded.
  const before = await priceOfCart(db, form, cart, people);
  const after = await priceOfCart(db, form, cart, people, { individualId: person.id, values });
  const { pricing, amount } = pricingAfterChange(cart.pricing ?? chargedPricingOf(before, registration.gstRate), before, after);
  const moved = placesMoved(placesOfPerson(personEls, person.id, person.values), placesOfPerson(personEls, person.id, values));
  // A limited choice that is full now is refused before any money moves, in the pay page's words.
  const full = await placeProblems(db, cart.registrationId, cart.id, moved.taken, elements, now, lang);
  if (Object.keys(full).length > 0)
    return { ok: false, errors: { form: Object.values(full).join(" ") }, status: 409, full: { pools: Object.keys(full).sort(), values, fields: changed } };
  const personDelta = (after.individualTotals[person.id] ?? 0) - (before.individualTotals[person.id] ?? 0);
  const priced = { kind: "edit" as const, ...base, pricing, personDelta, places: moved.taken, released: moved.released };
  if (amount > 0) return { ok: "pay", fee: amount, change: priced };
  if (amount < 0 || moved.taken.length > 0 || moved.released.length > 0) {
    const refund = amount < 0 ? await loweredChangeRefund(db, registration, cart, -amount, now, lang) : { ok: true as const, refund: 0, kept: 0 };
    if (!refund.ok) return { ok: false, errors: { form: refund.error }, status: 409 };
    const change = { ...priced, pricing: withKeptFee(pricing, person.id, refund.kept), personDelta: personDelta + refund.kept };
    return { ok: "now", change, refund: refund.refund, kept: refund.kept, delta: amount + refund.kept };
  }
  return { ok: "free", change: { kind, ...base } };
}

/**
 * A change to these new values, priced by priceChange; one that moves neither money nor places is written at
 * once, in one batch with its audit row, only over the values it was made from.
 */
export async function quoteChange(...args: Parameters<typeof priceChange>): Promise<PersonChangeResult> {
  const [db, , , cart, , person, values, kind, requestId, lang, now] = args;
  const quoted = await priceChange(...args);
  if (quoted.ok !== "free") return quoted;
  const { fromName: from, toName: to, fields } = quoted.change;
  const detail = JSON.stringify({ from, to, fields });
  const [updated] = await rawBatch(db, [
    // Written only over the values this change was made from: another tab's change in between is not lost.
    sql`UPDATE individuals SET "values" = ${JSON.stringify(values)} WHERE id = ${person.id} AND "values" = ${JSON.stringify(person.values)} AND is_removed = 0`,
    sql`INSERT INTO cart_changes (id, cart_id, registration_id, individual_id, kind, amount, actor, detail, created_at)
        SELECT ${requestId}, ${cart.id}, ${cart.registrationId}, ${person.id}, ${kind}, 0, 'registrant', ${detail}, ${now} WHERE changes() = 1
        ON CONFLICT DO NOTHING`,
  ]);
  if ((updated?.meta.changes ?? 0) === 0) {
    const [again] = await db.select().from(cartChanges).where(eq(cartChanges.id, requestId)).limit(1);
    // The same form sent twice at once: the other send made the change.
    if (again) return { ok: true, created: false, kind, from, to };
    return { ok: false, errors: { form: CHANGE_MESSAGES[lang].stale }, status: 409 };
  }
  return { ok: true, created: true, kind, from, to, written: { kind, from: person.values, to: values, fromName: from, toName: to } };
}

/** Whether any person of the cart could be changed now: the receipt offers the forms only then. */
export function changesOffered(registration: Pick<RegistrationRow, "closeTime" | "transferFee">, now: number): { edit: boolean; transfer: boolean } {
  const window = { transferFee: registration.transferFee, closeTime: registration.closeTime };
  return { edit: changeRefusal(window, "edit", now, "en") === null, transfer: changeRefusal(window, "transfer", now, "en") === null };
}

/** The organiser's setting: null, no transfers; 0, free transfers. */
export async function setTransferFee(db: Db, registrationId: string, fee: number | null): Promise<void> {
  await db.update(registrations).set({ transferFee: fee }).where(eq(registrations.id, registrationId));
}

/**
 * After a transfer, the new holder hears of it at the address they were given, if it is a new one: the mail
 * names the entry and the club, and carries no link (the receipt and its link stay the buyer's).
 */
export async function tellNewHolder(
  env: Env,
  db: Db,
  cartId: string,
  change: { from: Record<string, { v: unknown; p: number }>; to: Record<string, { v: unknown; p: number }>; fromName: string; toName: string },
): Promise<void> {
  const [cart] = await db.select().from(carts).where(eq(carts.id, cartId)).limit(1);
  const [registration] = cart ? await db.select().from(registrations).where(eq(registrations.id, cart.registrationId)).limit(1) : [];
  if (!cart || !registration) return;
  const elements = personElements(await listElements(db, registration.id));
  const before = new Set(addressesOf(elements, change.from));
  const fresh = addressesOf(elements, change.to).filter((a) => !before.has(a) && a !== cart.email?.toLowerCase());
  if (fresh.length === 0) return;
  const [club] = await db.select({ name: clubs.name }).from(clubs).where(eq(clubs.id, registration.clubId)).limit(1);
  const lang: Lang = registration.isBilingual && cart.lang === "fr" ? "fr" : "en";
  const words = NEW_HOLDER_WORDS[lang];
  const formName = labelIn(registration.name, lang);
  for (const to of fresh)
    await sendMail(env, db, {
      to,
      subject: `${words.subject}${RECEIPT_WORDS[lang].colon}${formName}`,
      text: words.text(change.fromName, change.toName, formName, club?.name ?? ""),
    });
}

/**
 * What follows a change once it is made, whichever way it was paid: the registrant's mail (one, by the call that
 * made it), the new holder's for a transfer, and the race's racers brought up to date through the jobs queue.
 */
export function afterPersonChanged(
  env: Env,
  db: Db,
  waitUntil: (promise: Promise<unknown>) => void,
  registrationId: string,
  cartId: string,
  change: Pick<PaidChange, "kind" | "from" | "to" | "fromName" | "toName" | "released">,
): void {
  afterCartCompleted(env, db, waitUntil, registrationId, cartId);
  // A place the old answer held goes to whoever waits for it (decision 0061).
  if (change.released?.length)
    waitUntil(offerFreedPlaces(env, db, registrationId, Date.now()).catch((error: unknown) => console.error("Waitlist sweep failed", error)));
  const mail =
    change.kind === "transfer"
      ? sendReceiptOfCart(env, db, cartId, "transferred", 0, { from: change.fromName, to: change.toName })
      : sendReceiptOfCart(env, db, cartId, "changed");
  waitUntil(mail.catch((error: unknown) => console.error("Change mail failed", error)));
  if (change.kind === "transfer") waitUntil(tellNewHolder(env, db, cartId, change).catch((error: unknown) => console.error("New holder mail failed", error)));
}
