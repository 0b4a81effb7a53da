/**
 * Receipts and confirmations by email: what was registered, what was paid or is still due, and a link that
 * opens the cart's receipt (a fresh cart token; only its hash is stored, so the mail is the only copy).
 */
import { eq } from "drizzle-orm";
import { labelIn } from "../../core/forms/bilingual";
import { cartDisplayName, cartNumberOf, personNameOf } from "../../core/registration/cart-names";
import { peopleLabelsIn, type PeopleLabels } from "../../core/registration/people-labels";
import { cartBalance } from "../../core/payments/ledger";
import type { Lang } from "../../core/forms/bilingual";
import { cartLines, formatDateIn, formatMoneyIn, personLines, RECEIPT_WORDS, type ReceiptLine } from "../../core/registration/receipt-lines";
import { carts, clubs, registrations, sites, type Db } from "../../schema/d1";
import { originOf } from "../auth/hosts";
import { sendMail } from "../mail/mailer";
import { paidPeopleOf, type CartRow } from "./carts";
import { signReceiptLink } from "./receipt-links";
import { ledgerOf, transactionsOfCart } from "./payment-ledger";
import { listElements, type RegistrationRow } from "./registration-forms";

/** paid: a card payment went through; registered: the club will take cash or a cheque; received: it did. */
export type ReceiptKind = "paid" | "registered" | "received" | "refunded" | "cancelled" | "changed" | "transferred";

/** The receipt's language: the one the registrant used, unless the form is no longer bilingual. */
export function receiptLang(cart: Pick<CartRow, "lang">, registration: { isBilingual: boolean }): Lang {
  return registration.isBilingual && cart.lang === "fr" ? "fr" : "en";
}

/** The address a registrant opens this form on: its club site, else the main host. */
export async function formOrigin(env: Env, db: Db, siteId: string | null): Promise<string> {
  const [site] = siteId ? await db.select({ hostname: sites.hostname }).from(sites).where(eq(sites.id, siteId)).limit(1) : [];
  return originOf(env, site?.hostname ?? env.MAIN_HOST);
}

export interface ReceiptView {
  lang: Lang;
  number: string;
  email: string | null;
  completedAt: number | null;
  /** Each person, their own lines as charged (empty for a cart completed before lines were recorded) and what they came to. */
  people: { id: string; name: string; total: number; lines: ReceiptLine[]; cancelled: boolean }[];
  /** Cart-level items, per-cart discounts, the tax and the processing fee. */
  cartLines: ReceiptLine[];
  total: number;
  /** Received, before refunds. */
  received: number;
  refunded: number;
  /** Received less refunded. */
  netPaid: number;
  /** Cash or cheque still to come. */
  pending: number;
  /** What the form calls registrants, for the receipt's headings. */
  peopleLabels: PeopleLabels;
  transactions: { id: string; type: string; amount: number; method: string | null; completed: boolean; isVoid: boolean; at: number }[];
}

/** What a receipt says, in the mail and on the page: the people, what each came to when paid, and the money. */
export async function receiptOfCart(
  db: Db,
  registration: Pick<RegistrationRow, "id" | "firstNameFieldId" | "lastNameFieldId" | "peopleLabels" | "isBilingual">,
  cart: CartRow,
  lang: Lang = receiptLang(cart, registration),
): Promise<ReceiptView> {
  const [elements, people, ledger, [club]] = await Promise.all([
    listElements(db, registration.id),
    paidPeopleOf(db, cart.id),
    transactionsOfCart(db, cart.id),
    db.select({ taxNumber: clubs.taxNumber, qstNumber: clubs.qstNumber }).from(clubs).where(eq(clubs.id, cart.clubId)).limit(1),
  ]);
  const balance = cartBalance(cart.total ?? 0, ledger.map(ledgerOf));
  const labels = peopleLabelsIn(registration.peopleLabels, lang);
  const charged = cart.pricing;
  return {
    lang,
    number: cartNumberOf({ legacy_id: cart.legacyId, cart_number: cart.cartNumber, id: cart.id }),
    email: cart.email,
    completedAt: cart.completedAt,
    peopleLabels: labels,
    people: people.map((p, i) => ({
      id: p.id,
      name: personNameOf(elements, registration, p.values, i, labels),
      total: p.priceTotal ?? 0,
      lines: charged ? personLines(charged, elements, p, lang) : [],
      cancelled: p.isRemoved,
    })),
    cartLines: charged ? cartLines(charged, elements, cart.values, lang, club?.taxNumber ?? null, club?.qstNumber ?? null) : [],
    total: cart.total ?? 0,
    received: balance.paid + balance.refunded,
    refunded: balance.refunded,
    netPaid: balance.paid,
    pending: balance.pending,
    transactions: ledger
      .filter((t) => t.type === "payment" || t.type === "refund")
      .map((t) => ({
        id: t.id,
        type: t.type,
        amount: t.amount,
        method: t.method,
        completed: t.completionTime !== null,
        isVoid: t.isVoid,
        at: t.completionTime ?? t.createdAt,
      })),
  };
}

/** transfer: the names on both sides, for the mail's first line. */
export async function sendReceiptOfCart(
  env: Env,
  db: Db,
  cartId: string,
  kind: ReceiptKind,
  refund = 0,
  transfer: { from: string; to: string } | null = null,
): Promise<void> {
  const [cart] = await db.select().from(carts).where(eq(carts.id, cartId)).limit(1);
  if (!cart?.email) return;
  const [registration] = await db
    .select({
      id: registrations.id,
      name: registrations.name,
      siteId: registrations.siteId,
      firstNameFieldId: registrations.firstNameFieldId,
      lastNameFieldId: registrations.lastNameFieldId,
      peopleLabels: registrations.peopleLabels,
      isBilingual: registrations.isBilingual,
      clubName: clubs.name,
    })
    .from(registrations)
    .innerJoin(clubs, eq(clubs.id, registrations.clubId))
    .where(eq(registrations.id, cart.registrationId))
    .limit(1);
  if (!registration) return;
  const receipt = await receiptOfCart(db, registration, cart);
  const token = await signReceiptLink(env, cart, Date.now());
  const link = `${await formOrigin(env, db, registration.siteId)}/register/${registration.id}/receipt?receipt=${encodeURIComponent(token)}${receipt.lang === "fr" ? "&lang=fr" : ""}`;
  const words = RECEIPT_WORDS[receipt.lang];
  const money = (cents: number) => formatMoneyIn(cents, receipt.lang);
  const colon = words.colon;
  const lines = [
    kind === "cancelled"
      ? words.cancelledIntro(registration.name, refund > 0 ? money(refund) : null)
      : kind === "changed"
        ? words.changedIntro(labelIn(registration.name, receipt.lang))
        : kind === "transferred" && transfer
          ? words.transferredIntro(labelIn(registration.name, receipt.lang), transfer.from, transfer.to)
          : kind === "refunded"
            ? words.refundedIntro(registration.name, registration.clubName)
            : words.thanks(registration.name, registration.clubName),
    "",
    words.cartOf(receipt.number, cartDisplayName(receipt.people.map((p) => p.name))),
    ...receipt.people.flatMap((p) => [
      `  ${p.name}${p.cancelled ? ` (${words.cancelledPerson})` : ""}${colon}${money(p.total)}`,
      ...p.lines.map((line) => `    ${line.label}${line.amount === null ? "" : `${colon}${money(line.amount)}`}`),
    ]),
    ...receipt.cartLines.map((line) => `  ${line.label}${line.amount === null ? "" : `${colon}${money(line.amount)}`}`),
    "",
    `${words.total}${colon}${money(receipt.total)}`,
    `${words.paid}${colon}${money(receipt.received)}`,
    ...(receipt.refunded > 0 ? [`${words.refunded}${colon}${money(receipt.refunded)}`, `${words.netPaid}${colon}${money(receipt.netPaid)}`] : []),
    ...(receipt.pending > 0 ? [`${words.toPay}${colon}${money(receipt.pending)}`] : []),
    ...(receipt.completedAt ? ["", formatDateIn(receipt.completedAt, receipt.lang)] : []),
    "",
    words.receiptLink,
    link,
    "",
    words.keepPrivate,
  ];
  const subject = `${words.subjects[kind]}${colon}${labelIn(registration.name, receipt.lang)}`;
  await sendMail(env, db, { to: cart.email, subject, text: lines.join("\n") });
}
