/**
 * The guard and shared loading of the public registration pages (/register/:id…): the form of this tenant,
 * whether this visitor may fill it in now, and their cart from its cookie. Registrants need no account;
 * staff may preview a form that is not live, fill in admin-only fields (?admin=1) and run a kiosk (?kiosk=1).
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import * as z from "zod";
import { labelIn, type Lang } from "../core/forms/bilingual";
import type { FormElement, StoredValue } from "../core/forms/model";
import { FIELD_TYPE_MODULES } from "../core/forms/registry";
import { cartDisplayName, personNameOf } from "../core/registration/cart-names";
import { peopleLabelsIn, type PeopleLabels } from "../core/registration/people-labels";
import { isClosed, isOpen, registrationStatus, type RegistrationStatus } from "../core/registration/status";
import { openDb, type Db } from "../schema/d1";
import { clearCookie, readCookie, serializeCookie } from "../workers/auth/cookies";
import {
  cartCookieName,
  CART_COOKIE_MAX_AGE_S,
  openCart,
  openCartByReceipt,
  peopleOf,
  type CartRow,
  type FormContext,
  type IndividualRow,
} from "../workers/services/carts";
import { principalOf } from "../workers/services/race-access";
import { canOnRegistration, getRegistration, listElements, type RegistrationRow } from "../workers/services/registration-forms";

/** open: anyone may register; preview: staff see a form that is not open to the public. */
export type FormMode = "open" | "preview";

export interface PublicForm extends FormContext {
  registration: RegistrationRow & { clubName: string };
  db: Db;
  mode: FormMode;
  status: RegistrationStatus;
  lang: Lang;
  /** What the form calls one registrant and several, in `lang`. */
  peopleLabels: PeopleLabels;
  /** The cart of this visitor, or null before they add anyone. */
  cart: CartRow | null;
  people: IndividualRow[];
}

/** Why a form cannot be filled in now, in words a registrant understands. */
export class FormUnavailable extends Response {}

export async function requirePublicForm(request: Request, context: AppLoadContext, rawId: string | undefined): Promise<PublicForm> {
  const db = openDb(context.env.DB);
  const id = z.uuid().safeParse(rawId);
  const registration = id.success ? await getRegistration(db, context.tenant, id.data) : null;
  if (!registration) throw new Response("Not found", { status: 404 });
  const principal = await principalOf(db, context.session);
  const staff = canOnRegistration(principal, "edit", registration);
  const now = context.now;
  const window = { is_approved: registration.isApproved, open_time: registration.openTime, close_time: registration.closeTime };
  const url = new URL(request.url);
  let mode: FormMode = "open";
  if (!isOpen(window, now)) {
    if (!staff) throw unavailable(registration, now);
    mode = "preview";
  }
  const elements = await listElements(db, registration.id);
  const opened = await openCart(db, registration, readCookie(request, cartCookieName(registration.id)));
  // A paid cart is closed for changes: the form starts a new one, and the receipt page shows the old.
  const cart = opened && !opened.isComplete ? opened : null;
  const lang: Lang = registration.isBilingual && url.searchParams.get("lang") === "fr" ? "fr" : "en";
  return {
    db,
    registration,
    elements,
    now,
    isAdmin: staff && url.searchParams.get("admin") === "1",
    isKiosk: staff && url.searchParams.get("kiosk") === "1",
    mode,
    status: registrationStatus({ is_approved: registration.isApproved, is_pending: registration.isPending, approval_status: registration.approvalStatus }),
    lang,
    peopleLabels: peopleLabelsIn(registration.peopleLabels, lang),
    cart,
    people: cart ? await peopleOf(db, cart.id) : [],
  };
}

function unavailable(registration: RegistrationRow, now: number): Response {
  const window = { is_approved: registration.isApproved, open_time: registration.openTime, close_time: registration.closeTime };
  if (isClosed(window, now)) return new FormUnavailable("Registration is closed", { status: 410, statusText: "closed" });
  if (registration.isApproved && registration.openTime !== null && now < registration.openTime) {
    return new FormUnavailable(`Registration opens ${new Date(registration.openTime).toISOString()}`, { status: 403, statusText: "not-yet-open" });
  }
  // A form in Test Mode or under review is not public yet; say nothing more about it.
  return new Response("Not found", { status: 404 });
}

export function cartCookie(registrationId: string, token: string): string {
  return serializeCookie(cartCookieName(registrationId), token, CART_COOKIE_MAX_AGE_S);
}

export function forgetCartCookie(registrationId: string): string {
  return clearCookie(cartCookieName(registrationId));
}

/** Query parameters that keep staff modes and the language across the flow's pages. */
export function flowQuery(form: Pick<PublicForm, "isAdmin" | "isKiosk" | "lang" | "mode">): string {
  const params = new URLSearchParams();
  if (form.mode === "preview") params.set("preview", "1");
  if (form.isAdmin) params.set("admin", "1");
  if (form.isKiosk) params.set("kiosk", "1");
  if (form.lang === "fr") params.set("lang", "fr");
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** What every page of the flow shows about the form: its header, language and what it calls registrants. */
export function flowView(form: PublicForm) {
  return {
    id: form.registration.id,
    name: form.registration.name,
    clubName: form.registration.clubName,
    status: form.status,
    mode: form.mode,
    isBilingual: form.registration.isBilingual,
    lang: form.lang,
    query: flowQuery(form),
    peopleLabels: form.peopleLabels,
  };
}

export type FlowView = ReturnType<typeof flowView>;

/** A person's name for the cart (core/registration/cart-names.ts personNameOf), "Racer 2" when they have none yet. */
export function personName(form: Pick<PublicForm, "elements" | "registration" | "peopleLabels">, values: Record<string, StoredValue>, index: number): string {
  return personNameOf(form.elements, form.registration, values, index, form.peopleLabels);
}

export function cartNameOf(form: Pick<PublicForm, "elements" | "registration" | "people" | "peopleLabels">): string {
  return cartDisplayName(form.people.map((p, i) => personName(form, p.values, i)));
}

/** Each answer as text, for the cart review. */
export function answersOf(elements: readonly FormElement[], values: Record<string, StoredValue>, lang: Lang): { caption: string; text: string }[] {
  return elements
    .filter((e) => FIELD_TYPE_MODULES[e.type].isInput && values[e.id])
    .map((e) => ({ caption: labelIn(e.column_header || e.caption, lang), text: FIELD_TYPE_MODULES[e.type].display(e, values[e.id]!.v as never, lang) }))
    .filter((a) => a.text !== "");
}

/** Posted form fields as core/forms reads them: repeated names (checkbox groups) become lists. */
export function rawFieldsOf(formData: FormData): Record<string, string | string[]> {
  const raw: Record<string, string | string[]> = {};
  for (const key of new Set(formData.keys())) {
    const all = formData.getAll(key).filter((v): v is string => typeof v === "string");
    raw[key] = all.length === 1 ? all[0]! : all;
  }
  return raw;
}

/**
 * The form and the complete cart a visitor may see the receipt of: by the emailed link (?receipt=), even after
 * the form has closed, or by the cart's cookie right after paying.
 */
export async function receiptCart(request: Request, context: AppLoadContext, registrationId: string | undefined) {
  const db = openDb(context.env.DB);
  const registration = registrationId ? await getRegistration(db, context.tenant, registrationId).catch(() => null) : null;
  if (!registration) throw new Response("Not found", { status: 404 });
  const token = new URL(request.url).searchParams.get("receipt");
  const fromCookie = await openCart(db, registration, readCookie(request, cartCookieName(registration.id)));
  const cart = token ? await openCartByReceipt(context.env, db, registration, token, context.now) : fromCookie?.isComplete ? fromCookie : null;
  if (!cart) throw new Response("This link no longer opens a receipt. The newest email about this registration has a working link.", { status: 404 });
  return { db, registration, cart };
}
