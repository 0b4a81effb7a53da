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
import { checkQuantity } from "../../core/registration/limits";
import { REGISTRATION_MESSAGES } from "../../core/registration/messages";
import { personChooser } from "../../core/registration/person";
import { isCartLevel, priceFormCart, type FormCartPricing } from "../../core/registration/price-form";
import { tierAt } from "../../core/registration/tiers";
import { carts, clubs, individuals, type Db } from "../../schema/d1";
import { constantTimeEqualText, hashToken, randomToken } from "../auth/crypto";
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

/** The cart a token opens, if it belongs to this registration and was not removed. */
export async function openCart(db: Db, registration: Pick<RegistrationRow, "id">, token: string | null): Promise<CartRow | null> {
  const parts = splitToken(token);
  if (!parts) return null;
  const [cart] = await db
    .select()
    .from(carts)
    .where(and(eq(carts.id, parts.cartId), eq(carts.registrationId, registration.id)))
    .limit(1);
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
): Promise<{ cart: CartRow; token: string }> {
  const id = crypto.randomUUID();
  const secret = randomToken();
  await db.run(sql`
    INSERT INTO carts (id, created_at, updated_at, registration_id, club_id, site_id, origin, resume_hash, cart_number)
    SELECT ${id}, ${now}, ${now}, ${registration.id}, ${registration.clubId}, ${registration.siteId}, ${origin}, ${hashToken(secret)},
           COALESCE(MAX(cart_number), 0) + 1 FROM carts WHERE registration_id = ${registration.id}`);
  const [cart] = await db.select().from(carts).where(eq(carts.id, id)).limit(1);
  return { cart: cart!, token: `${id}.${secret}` };
}

/** The complete cart a receipt token opens (the token emailed with a receipt), if it belongs to this registration. */
export async function openCartByReceipt(db: Db, registration: Pick<RegistrationRow, "id">, token: string | null): Promise<CartRow | null> {
  const parts = splitToken(token);
  if (!parts) return null;
  const [cart] = await db
    .select()
    .from(carts)
    .where(and(eq(carts.id, parts.cartId), eq(carts.registrationId, registration.id)))
    .limit(1);
  if (!cart || !cart.receiptHash || !cart.isComplete) return null;
  return constantTimeEqualText(cart.receiptHash, hashToken(parts.secret)) ? cart : null;
}

/** A fresh receipt token (the previous receipt link stops working). */
export async function renewReceiptToken(db: Db, cartId: string): Promise<string> {
  const secret = randomToken();
  await db
    .update(carts)
    .set({ receiptHash: hashToken(secret) })
    .where(eq(carts.id, cartId));
  return `${cartId}.${secret}`;
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

export type SavePersonResult = { ok: true; cart: CartRow; individual: IndividualRow } | { ok: false; errors: Record<string, string>; values: Values };

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
): Promise<SavePersonResult> {
  const people = openedCart ? await peopleOf(db, openedCart.id) : [];
  const existing = individualId ? people.find((p) => p.id === individualId) : undefined;
  if (individualId && !existing) return { ok: false, errors: { form: REGISTRATION_MESSAGES.personGone }, values: {} };
  if (!existing && people.length >= MAX_PEOPLE_PER_CART)
    return { ok: false, errors: { form: REGISTRATION_MESSAGES.cartFull(MAX_PEOPLE_PER_CART) }, values: {} };
  const tier = tierAt(form.now, { raise_price_1_time: form.registration.raisePrice1Time, raise_price_2_time: form.registration.raisePrice2Time });
  const elements = personElements(form.elements);
  const parsed: IndividualResult = parseIndividual(elements, posted, {
    lang: "en",
    tier,
    isAdmin: form.isAdmin,
    isKiosk: form.isKiosk,
    saved: existing?.values,
  });
  const errors = { ...parsed.errors, ...(await limitErrors(db, form, elements, parsed.values, openedCart?.id ?? "")) };
  if (Object.keys(errors).length > 0) return { ok: false, errors, values: parsed.values };
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
  };
  await db.batch([db.insert(individuals).values(row), db.update(carts).set({ updatedAt: now }).where(eq(carts.id, cart.id))]);
  const [stored] = await db.select().from(individuals).where(eq(individuals.id, row.id)).limit(1);
  return { ok: true, cart, individual: stored! };
}

/**
 * Options not offered to this person (hidden, or outside their age or gender), and quantity limits: an element's quantity_limit and each option's limit count the people of complete
 * carts who chose it.
 */
async function limitErrors(db: Db, form: FormContext, elements: readonly FormElement[], values: Values, cartId: string): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  const chooser = personChooser(elements, values, ageDateOf(form.registration, form.now), form.isAdmin);
  for (const element of elements) {
    const value = values[element.id];
    if (!value) continue;
    const chosen = Array.isArray(value.v) ? (value.v as string[]) : typeof value.v === "string" ? [value.v] : [];
    if (element.type === "option" || element.type === "multioption" || element.type === "membership") {
      const ids = element.type === "membership" ? [(value.v as { option: string }).option] : chosen;
      for (const id of ids) {
        const option = element.options_list.find((o) => o.id === id);
        if (option && !isOptionOffered(option, chooser)) errors[element.id] = REGISTRATION_MESSAGES.notOffered;
        if (option?.limit != null) {
          const problem = checkQuantity(option.limit, await takenCount(db, form.registration.id, element.id, id, cartId));
          if (problem) errors[element.id] = problem;
        }
      }
    }
    if (element.quantity_limit != null) {
      const problem = checkQuantity(element.quantity_limit, await takenCount(db, form.registration.id, element.id, null, cartId));
      if (problem) errors[element.id] = problem;
    }
  }
  return errors;
}

/** People of other complete carts holding a value for the element (and option). */
async function takenCount(db: Db, registrationId: string, elementId: string, optionId: string | null, ownCartId: string): Promise<number> {
  const path = `$."${elementId}".v`;
  const optionClause =
    optionId === null
      ? sql`json_extract(i."values", ${path}) IS NOT NULL`
      : sql`(json_extract(i."values", ${path}) = ${optionId} OR json_extract(i."values", ${path + ".option"}) = ${optionId} OR EXISTS (SELECT 1 FROM json_each(i."values", ${path}) WHERE json_each.value = ${optionId}))`;
  const [row] = await db.all<{ n: number }>(sql`
    SELECT COUNT(*) AS n FROM individuals i JOIN carts c ON c.id = i.cart_id
    WHERE i.registration_id = ${registrationId} AND c.is_complete = 1 AND c.is_removed = 0 AND i.is_removed = 0 AND i.is_complete = 1 AND c.id != ${ownCartId} AND ${optionClause}`);
  return row?.n ?? 0;
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

export async function setCartEmail(db: Db, cart: CartRow, email: string, now: number): Promise<void> {
  await db.update(carts).set({ email, updatedAt: now }).where(eq(carts.id, cart.id));
}

/**
 * The uses each code has taken across the registration's complete, kept carts: what each cart recorded
 * when it completed (one per person a per-person code reduced). A cart completed before uses were
 * recorded counts one use for each code it entered.
 */
export async function discountUsesOf(db: Db, registrationId: string, codes: readonly string[]): Promise<Record<string, number>> {
  const uses: Record<string, number> = {};
  for (const code of codes) {
    const [row] = await db.all<{ n: number | null }>(sql`
      SELECT SUM(CASE
        WHEN discount_uses IS NULL THEN instr(' ' || discount_codes || ' ', ${` ${code} `}) > 0
        ELSE COALESCE((SELECT value FROM json_each(carts.discount_uses) WHERE key = ${code}), 0)
      END) AS n
      FROM carts WHERE registration_id = ${registrationId} AND is_complete = 1 AND is_removed = 0`);
    uses[code] = row?.n ?? 0;
  }
  return uses;
}

export async function clubTakesCards(db: Db, clubId: string): Promise<boolean> {
  const [club] = await db.select({ isStripe: clubs.isStripe }).from(clubs).where(eq(clubs.id, clubId)).limit(1);
  return club?.isStripe ?? false;
}

/** The cart's price now, from the people in it as saved. */
export async function priceOfCart(db: Db, form: FormContext, cart: CartRow, people: readonly IndividualRow[]): Promise<FormCartPricing> {
  const codes = cart.discountCodes.split(" ").filter(Boolean);
  return priceFormCart({
    elements: form.elements,
    tier: tierAt(form.now, { raise_price_1_time: form.registration.raisePrice1Time, raise_price_2_time: form.registration.raisePrice2Time }),
    gstRatePercent: form.registration.gstRate,
    clubTakesCards: await clubTakesCards(db, form.registration.clubId),
    isRemoved: cart.isRemoved,
    cartValues: cart.values,
    individuals: people.map((p) => ({ id: p.id, isRemoved: p.isRemoved, isComplete: p.isComplete, isNew: p.paidAt === null, values: p.values })),
    discountUses: await discountUsesOf(db, cart.registrationId, codes),
  });
}

/** The date ages are counted on for this registration. */
export function ageDateOf(registration: Pick<RegistrationRow, "ageCalcDate" | "closeTime">, now: number): string {
  return ageCalcDate({ age_calc_date: registration.ageCalcDate, close_time: registration.closeTime }, now);
}
