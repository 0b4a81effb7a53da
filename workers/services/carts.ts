/**
 * The public registration flow's services: a registrant's cart (no account needed), the people in it,
 * its discount codes and email, and its price. A cart is reached with a token `<cartId>.<secret>` held in a
 * cookie or sent in a resume link; only the secret's SHA-256 is stored.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { isOptionOffered } from "../../core/forms/options";
import type { FormElement, StoredValue } from "../../core/forms/model";
import { MAX_CODES, normaliseCodes } from "../../core/forms/discount";
import { FORM_MESSAGES } from "../../core/forms/messages";
import { parseIndividual, type IndividualResult } from "../../core/forms/validate";
import type { RawInput } from "../../core/forms/field-type";
import { ageCalcDate } from "../../core/registration/age";
import { cappedPools, chosenOptions, codePool, elementOfPool, placeProblem, placesOfPerson } from "../../core/registration/places";
import { REGISTRATION_MESSAGES } from "../../core/registration/messages";
import { personChooser } from "../../core/registration/person";
import { isCartLevel, priceFormCart, type FormCartPricing } from "../../core/registration/price-form";
import { tierAt } from "../../core/registration/tiers";
import { carts, clubs, individuals, type Db } from "../../schema/d1";
import { constantTimeEqualText, hashToken, randomToken } from "../auth/crypto";
import { takenByOthers } from "./places";
import { verifyReceiptLink } from "./receipt-links";
import { validationErrors } from "./validation-systems";
import type { RegistrationRow } from "./registration-forms";

/** A cart holds at most this many people; a family or a team, not a club's whole membership. */
export const MAX_PEOPLE_PER_CART = 50;
/** How long a cart cookie lasts: long enough to come back after a weekend. */
export const CART_COOKIE_MAX_AGE_S = 30 * 24 * 60 * 60;

export type CartRow = typeof carts.$inferSelect;
export type IndividualRow = typeof individuals.$inferSelect;
type Values = Record<string, StoredValue>;

export function cartCookieName(registrationId: string): string {
  return `sl_cart_${registrationId.replaceAll("-", "")}`;
}

/** Splits `<cartId>.<secret>`; null for anything else. */
function splitToken(token: string | null): { cartId: string; secret: string } | null {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{20,64})$/.exec(token ?? "");
  return match ? { cartId: match[1]!, secret: match[2]! } : null;
}

/** A cart by id, only if it belongs to this registration: a token made for one form never opens another's cart. */
async function cartOfRegistration(db: Db, registrationId: string, cartId: string): Promise<CartRow | undefined> {
  const [cart] = await db
    .select()
    .from(carts)
    .where(and(eq(carts.id, cartId), eq(carts.registrationId, registrationId)))
    .limit(1);
  return cart;
}

/** The cart a token opens, if it belongs to this registration and was not removed. */
export async function openCart(db: Db, registration: Pick<RegistrationRow, "id">, token: string | null): Promise<CartRow | null> {
  const parts = splitToken(token);
  if (!parts) return null;
  const cart = await cartOfRegistration(db, registration.id, parts.cartId);
  if (!cart || cart.isRemoved || !cart.resumeHash) return null;
  return constantTimeEqualText(cart.resumeHash, hashToken(parts.secret)) ? cart : null;
}

/**
 * A new cart with the next cart number of its registration. The number is taken in the INSERT itself, so
 * two carts made at once cannot share one; the unique index is the backstop.
 */
export async function createCart(
  db: Db,
  registration: Pick<RegistrationRow, "id" | "clubId" | "siteId">,
  origin: "web" | "kiosk" | "admin",
  now: number,
  submission: string | null = null,
  lang: "en" | "fr" = "en",
): Promise<{ cart: CartRow; token: string }> {
  const { id, secret } = submission ? cartOfSubmission(submission) : { id: crypto.randomUUID(), secret: randomToken() };
  // A resent first form makes the same cart (same id), so the second insert is a no-op.
  await db.run(sql`
    INSERT INTO carts (id, created_at, updated_at, registration_id, club_id, site_id, origin, resume_hash, lang, cart_number)
    SELECT ${id}, ${now}, ${now}, ${registration.id}, ${registration.clubId}, ${registration.siteId}, ${origin}, ${hashToken(secret)}, ${lang},
           COALESCE(MAX(cart_number), 0) + 1 FROM carts WHERE registration_id = ${registration.id}
    ON CONFLICT (id) DO NOTHING`);
  const [cart] = await db.select().from(carts).where(eq(carts.id, id)).limit(1);
  // An id made from someone else's submission key on another form: not this visitor's cart.
  if (!cart || cart.registrationId !== registration.id || !cart.resumeHash || !constantTimeEqualText(cart.resumeHash, hashToken(secret)))
    throw new Response("This form was already sent", { status: 409 });
  return { cart, token: `${id}.${secret}` };
}

/** The add-person form's one-time key: random, made when the form is shown. */
export function newSubmissionKey(): string {
  return randomToken(24);
}

export const SUBMISSION_KEY = /^[A-Za-z0-9_-]{24,64}$/;

/**
 * The cart a first form makes, from its one-time key: a double click or a resend makes the same cart and
 * gets the same cookie, even when the first response never reached the browser. The key is known only to
 * the page it was sent in, as the cookie would be.
 */
function cartOfSubmission(submission: string): { id: string; secret: string } {
  const hex = hashToken(`cart-id:${submission}`);
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  return { id, secret: hashToken(`cart-secret:${submission}`).slice(0, 40) };
}

/**
 * The complete cart a receipt link opens (the link mailed with a receipt), if it belongs to this registration:
 * a signed link (receipt-links.ts) of the cart's current receipt version that has not expired, or a link from
 * before signing whose secret's hash the cart holds.
 */
export async function openCartByReceipt(
  env: Env,
  db: Db,
  registration: Pick<RegistrationRow, "id">,
  token: string | null,
  now: number,
): Promise<CartRow | null> {
  if (token?.startsWith("r1.")) {
    const link = await verifyReceiptLink(env, token, now);
    if (!link.ok) return null;
    const cart = await cartOfRegistration(db, registration.id, link.cartId);
    return cart?.isComplete && cart.receiptVersion === link.version ? cart : null;
  }
  const parts = splitToken(token);
  if (!parts) return null;
  const cart = await cartOfRegistration(db, registration.id, parts.cartId);
  if (!cart || !cart.receiptHash || !cart.isComplete) return null;
  return constantTimeEqualText(cart.receiptHash, hashToken(parts.secret)) ? cart : null;
}

/** A fresh resume token for a cart (the old one stops working): for the emailed link. */
export async function renewCartToken(db: Db, cart: CartRow): Promise<string> {
  const secret = randomToken();
  await db
    .update(carts)
    .set({ resumeHash: hashToken(secret) })
    .where(eq(carts.id, cart.id));
  return `${cart.id}.${secret}`;
}

export async function peopleOf(db: Db, cartId: string): Promise<IndividualRow[]> {
  return db
    .select()
    .from(individuals)
    .where(and(eq(individuals.cartId, cartId), eq(individuals.isRemoved, false)))
    .orderBy(asc(individuals.ordinal), asc(individuals.createdAt));
}

/** Everyone a complete cart was paid for, cancelled people too (the receipt lists them as cancelled). */
export async function paidPeopleOf(db: Db, cartId: string): Promise<IndividualRow[]> {
  return db
    .select()
    .from(individuals)
    .where(and(eq(individuals.cartId, cartId), eq(individuals.isComplete, true), sql`${individuals.paidAt} IS NOT NULL`))
    .orderBy(asc(individuals.ordinal), asc(individuals.createdAt));
}

export interface FormContext {
  registration: RegistrationRow;
  elements: FormElement[];
  now: number;
  isAdmin: boolean;
  isKiosk: boolean;
}

/** Per-person elements (discount fields are answered once per cart). */
export function personElements(elements: readonly FormElement[]): FormElement[] {
  return elements.filter((e) => !isCartLevel(e));
}

/** fullPools: the capped pools this person wants that have no place left (what a waitlist can wait for). */
export type SavePersonResult =
  | { ok: true; cart: CartRow; individual: IndividualRow }
  | { ok: false; errors: Record<string, string>; values: Values; fullPools: string[] };

/**
 * Saves one person's answers: parsed and priced by core/forms, options checked against who may choose
 * them and what is left, then written whole. With any error nothing is written.
 */
export async function savePerson(
  db: Db,
  form: FormContext,
  openedCart: CartRow | null,
  individualId: string | null,
  posted: Record<string, RawInput>,
  makeCart: () => Promise<CartRow>,
  submission: string | null = null,
): Promise<SavePersonResult> {
  const people = openedCart ? await peopleOf(db, openedCart.id) : [];
  const existing = individualId ? people.find((p) => p.id === individualId) : undefined;
  if (individualId && !existing) return { ok: false, errors: { form: REGISTRATION_MESSAGES.personGone }, values: {}, fullPools: [] };
  if (!existing && people.length >= MAX_PEOPLE_PER_CART)
    return { ok: false, errors: { form: REGISTRATION_MESSAGES.cartFull(MAX_PEOPLE_PER_CART) }, values: {}, fullPools: [] };
  const tier = tierAt(form.now, { raise_price_1_time: form.registration.raisePrice1Time, raise_price_2_time: form.registration.raisePrice2Time });
  const elements = personElements(form.elements);
  const parsed: IndividualResult = parseIndividual(elements, posted, {
    lang: "en",
    tier,
    isAdmin: form.isAdmin,
    isKiosk: form.isKiosk,
    saved: existing?.values,
  });
  // The same add-person form sent again with the same answers (a double click, a resend): the person it added.
  const already = !individualId && submission ? await personOfSubmission(db, form.registration.id, submission) : null;
  if (already && JSON.stringify(already.values) === JSON.stringify(parsed.values))
    return { ok: true, cart: openedCart?.id === already.cartId ? openedCart : await makeCart(), individual: already };
  // Sent again with other answers (back, change, send): that is another person.
  if (already) submission = null;
  const limits = await personLimits(db, form, elements, parsed.values, openedCart?.id ?? "", people, existing?.id ?? null);
  const errors = { ...parsed.errors, ...limits.errors };
  if (Object.keys(errors).length > 0) return { ok: false, errors, values: parsed.values, fullPools: limits.fullPools };
  // The cart is made only once the first person is valid, so a refused form leaves nothing behind.
  const cart = openedCart ?? (await makeCart());
  const now = form.now;
  if (existing) {
    await db.batch([
      db.update(individuals).set({ values: parsed.values, isComplete: true }).where(eq(individuals.id, existing.id)),
      db.update(carts).set({ updatedAt: now }).where(eq(carts.id, cart.id)),
    ]);
    return { ok: true, cart, individual: { ...existing, values: parsed.values, isComplete: true } };
  }
  const row = {
    id: crypto.randomUUID(),
    createdAt: now,
    cartId: cart.id,
    registrationId: cart.registrationId,
    clubId: cart.clubId,
    siteId: cart.siteId,
    isComplete: true,
    ordinal: (people.at(-1)?.ordinal ?? 0) + 1,
    values: parsed.values,
    submissionKey: submission,
  };
  // Two sends of one form racing here: the unique key keeps one person, and both answer with it.
  await db.batch([db.insert(individuals).values(row).onConflictDoNothing(), db.update(carts).set({ updatedAt: now }).where(eq(carts.id, cart.id))]);
  const stored = submission
    ? await personOfSubmission(db, form.registration.id, submission)
    : (await db.select().from(individuals).where(eq(individuals.id, row.id)).limit(1))[0];
  return { ok: true, cart, individual: stored! };
}

async function personOfSubmission(db: Db, registrationId: string, submission: string): Promise<IndividualRow | null> {
  const [row] = await db
    .select()
    .from(individuals)
    .where(and(eq(individuals.registrationId, registrationId), eq(individuals.submissionKey, submission)))
    .limit(1);
  return row ?? null;
}

/**
 * Options not offered to this person (hidden, or outside their age or gender), and limits: each capped place
 * this person would take, against the places other carts hold or took and the others in this cart who chose
 * the same. The final word is the database's, when the cart pays (services/places.ts).
 */
export async function personLimits(
  db: Db,
  form: FormContext,
  elements: readonly FormElement[],
  values: Values,
  cartId: string,
  people: readonly IndividualRow[],
  individualId: string | null,
): Promise<{ errors: Record<string, string>; fullPools: string[] }> {
  const errors: Record<string, string> = {};
  const fullPools: string[] = [];
  const chooser = personChooser(elements, values, ageDateOf(form.registration, form.now), form.isAdmin);
  for (const element of elements) {
    if (element.type !== "option" && element.type !== "multioption" && element.type !== "membership") continue;
    for (const id of chosenOptions(values[element.id])) {
      const option = element.options_list.find((o) => o.id === id);
      if (option && !isOptionOffered(option, chooser)) errors[element.id] = REGISTRATION_MESSAGES.notOffered;
    }
  }
  // A number a club's validation system refuses (decision 0052); the field's own rules ran first.
  Object.assign(errors, await validationErrors(db, form.registration.clubId, elements, values), errors);
  const mine = placesOfPerson(elements, individualId ?? "new-person", values);
  const pools = cappedPools(mine);
  if (pools.size === 0) return { errors, fullPools };
  const sameCart = people.filter((p) => p.id !== individualId && p.isComplete).flatMap((p) => placesOfPerson(elements, p.id, p.values));
  const taken = await takenByOthers(db, form.registration.id, [...pools.keys()], cartId, form.now);
  for (const [pool, { cap }] of pools) {
    const inCart = sameCart.filter((claim) => claim.pool === pool).length;
    const problem = placeProblem(cap, (taken.get(pool) ?? 0) + inCart, 1);
    if (problem) fullPools.push(pool);
    const elementId = elementOfPool(pool);
    if (problem && elementId && !errors[elementId]) errors[elementId] = problem;
  }
  return { errors, fullPools };
}

/** Takes a person out of the cart; kept as removed, so nothing is lost. */
export async function removePerson(db: Db, cart: CartRow, individualId: string, now: number): Promise<boolean> {
  const result = await db
    .update(individuals)
    .set({ isRemoved: true })
    .where(and(eq(individuals.id, individualId), eq(individuals.cartId, cart.id)));
  await db.update(carts).set({ updatedAt: now }).where(eq(carts.id, cart.id));
  return (result.meta.changes ?? 0) > 0;
}

/**
 * Sets the cart's discount codes on the form's discount fields, each field keeping the codes it knows. A
 * code no field knows is refused with the discount field's own message; nothing is written then.
 */
export async function setCartCodes(
  db: Db,
  form: FormContext,
  cart: CartRow,
  codesText: string,
  now: number,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const codes = normaliseCodes(codesText);
  if (codes.length > MAX_CODES) return { ok: false, error: FORM_MESSAGES.tooManyCodes };
  const discountFields = form.elements.filter((e) => e.type === "discount");
  const values: Values = { ...cart.values };
  const known = new Set<string>();
  for (const element of discountFields) {
    const own = (element.config.discounts_list ?? []).map((d) => d.code.toUpperCase());
    const mine = codes.filter((code) => own.includes(code));
    mine.forEach((code) => known.add(code));
    if (mine.length > 0) values[element.id] = { v: mine.join(" "), p: 0 };
    else delete values[element.id];
  }
  const unknown = codes.filter((code) => !known.has(code));
  if (unknown.length > 0) return { ok: false, error: FORM_MESSAGES.unknownDiscount(unknown) };
  await db
    .update(carts)
    .set({ values, discountCodes: codes.join(" "), updatedAt: now })
    .where(eq(carts.id, cart.id));
  return { ok: true };
}

/** The receipt's address, and the language the registrant is using as they go to pay: receipts and mail are written in it. */
export async function setCartEmail(db: Db, cart: CartRow, email: string, now: number, lang: "en" | "fr" = "en"): Promise<void> {
  await db.update(carts).set({ email, lang, updatedAt: now }).where(eq(carts.id, cart.id));
}

/**
 * The uses each code has taken or holds in other carts of the registration: one place per use
 * (services/places.ts), taken when a cart completed and held while a card payment is open.
 */
export async function discountUsesOf(
  db: Db,
  registrationId: string,
  codes: readonly string[],
  ownCartId: string,
  now: number,
): Promise<Record<string, number>> {
  const counts = await takenByOthers(db, registrationId, codes.map(codePool), ownCartId, now);
  return Object.fromEntries(codes.map((code) => [code, counts.get(codePool(code)) ?? 0]));
}

export async function clubTakesCards(db: Db, clubId: string): Promise<boolean> {
  const [club] = await db.select({ isStripe: clubs.isStripe }).from(clubs).where(eq(clubs.id, clubId)).limit(1);
  return club?.isStripe ?? false;
}

/** The cart's price now, from the people in it as saved. */
/**
 * The cart priced now, `change` (a paid person's new answers) applied. A paid person's answers kept since are priced
 * at what the cart was charged for them, so a change's difference and its receipt start from what was paid, never
 * from a list price changed since (decision 0078).
 */
export async function priceOfCart(
  db: Db,
  form: FormContext,
  cart: CartRow,
  people: readonly IndividualRow[],
  change?: { individualId: string; values: IndividualRow["values"] },
): Promise<FormCartPricing> {
  const codes = cart.discountCodes.split(" ").filter(Boolean);
  const charged = cart.pricing?.lines ?? null;
  const paidOf = (p: IndividualRow) =>
    charged && p.paidAt !== null ? { values: p.values, lines: charged.filter((line) => line.individualId === p.id) } : undefined;
  return priceFormCart({
    elements: form.elements,
    tier: tierAt(form.now, { raise_price_1_time: form.registration.raisePrice1Time, raise_price_2_time: form.registration.raisePrice2Time }),
    gstRatePercent: form.registration.gstRate,
    clubTakesCards: await clubTakesCards(db, form.registration.clubId),
    isRemoved: cart.isRemoved,
    cartValues: cart.values,
    individuals: people.map((p) => ({
      id: p.id,
      isRemoved: p.isRemoved,
      isComplete: p.isComplete,
      isNew: p.paidAt === null,
      values: change?.individualId === p.id ? change.values : p.values,
      paid: paidOf(p),
    })),
    discountUses: await discountUsesOf(db, cart.registrationId, codes, cart.id, form.now),
  });
}

/** The date ages are counted on for this registration. */
export function ageDateOf(registration: Pick<RegistrationRow, "ageCalcDate" | "closeTime">, now: number): string {
  return ageCalcDate({ age_calc_date: registration.ageCalcDate, close_time: registration.closeTime }, now);
}
