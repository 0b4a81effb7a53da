/**
 * Receipts and confirmations by email: what was registered, what was paid or is still due, and a link that
 * opens the cart's receipt (a fresh cart token; only its hash is stored, so the mail is the only copy).
 */
import { eq } from "drizzle-orm";
import { cartDisplayName, cartNumberOf, personNameOf } from "../../core/registration/cart-names";
import { peopleLabelsIn, type PeopleLabels } from "../../core/registration/people-labels";
import { cartBalance } from "../../core/payments/ledger";
import { formatMoneyWithSymbol } from "../../core/money/money";
import { carts, clubs, registrations, sites, type Db } from "../../schema/d1";
import { originOf } from "../auth/hosts";
import { sendMail } from "../mail/mailer";
import { peopleOf, renewReceiptToken, type CartRow } from "./carts";
import { ledgerOf, transactionsOfCart } from "./payment-ledger";
import { listElements, type RegistrationRow } from "./registration-forms";

/** paid: a card payment went through; registered: the club will take cash or a cheque; received: it did. */
export type ReceiptKind = "paid" | "registered" | "received" | "refunded";

const SUBJECTS: Record<ReceiptKind, (form: string) => string> = {
  paid: (form) => `Receipt: ${form}`,
  registered: (form) => `Registration confirmed: ${form}`,
  received: (form) => `Payment received: ${form}`,
  refunded: (form) => `Refund: ${form}`,
};

/** The address a registrant opens this form on: its club site, else the main host. */
async function formOrigin(env: Env, db: Db, siteId: string | null): Promise<string> {
  const [site] = siteId ? await db.select({ hostname: sites.hostname }).from(sites).where(eq(sites.id, siteId)).limit(1) : [];
  return originOf(env, site?.hostname ?? env.MAIN_HOST);
}

export interface ReceiptView {
  number: string;
  email: string | null;
  completedAt: number | null;
  people: { id: string; name: string; total: number }[];
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
  registration: Pick<RegistrationRow, "id" | "firstNameFieldId" | "lastNameFieldId" | "peopleLabels">,
  cart: CartRow,
): Promise<ReceiptView> {
  const [elements, people, ledger] = await Promise.all([listElements(db, registration.id), peopleOf(db, cart.id), transactionsOfCart(db, cart.id)]);
  const balance = cartBalance(cart.total ?? 0, ledger.map(ledgerOf));
  // Receipts are written in English (the mail has no language of its own).
  const labels = peopleLabelsIn(registration.peopleLabels, "en");
  return {
    number: cartNumberOf({ legacy_id: cart.legacyId, cart_number: cart.cartNumber, id: cart.id }),
    email: cart.email,
    completedAt: cart.completedAt,
    peopleLabels: labels,
    people: people.map((p, i) => ({ id: p.id, name: personNameOf(elements, registration, p.values, i, labels), total: p.priceTotal ?? 0 })),
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

export async function sendReceiptOfCart(env: Env, db: Db, cartId: string, kind: ReceiptKind): Promise<void> {
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
      clubName: clubs.name,
    })
    .from(registrations)
    .innerJoin(clubs, eq(clubs.id, registrations.clubId))
    .where(eq(registrations.id, cart.registrationId))
    .limit(1);
  if (!registration) return;
  const receipt = await receiptOfCart(db, registration, cart);
  const token = await renewReceiptToken(db, cart.id);
  const link = `${await formOrigin(env, db, registration.siteId)}/register/${registration.id}/receipt?receipt=${encodeURIComponent(token)}`;
  const lines = [
    kind === "refunded"
      ? `${registration.clubName} has refunded part or all of your registration for ${registration.name}.`
      : `Thank you for registering for ${registration.name} with ${registration.clubName}.`,
    "",
    `Cart No. ${receipt.number}: ${cartDisplayName(receipt.people.map((p) => p.name))}`,
    ...receipt.people.map((p) => `  ${p.name}: ${formatMoneyWithSymbol(p.total)}`),
    "",
    `Total: ${formatMoneyWithSymbol(receipt.total)}`,
    `Paid: ${formatMoneyWithSymbol(receipt.received)}`,
    ...(receipt.refunded > 0 ? [`Refunded: ${formatMoneyWithSymbol(receipt.refunded)}`, `Net paid: ${formatMoneyWithSymbol(receipt.netPaid)}`] : []),
    ...(receipt.pending > 0 ? [`To pay the club by cash or cheque: ${formatMoneyWithSymbol(receipt.pending)}`] : []),
    "",
    "Your receipt, at any time:",
    link,
    "",
    "The link opens this registration only; keep it to yourself.",
  ];
  await sendMail(env, db, { to: cart.email, subject: SUBJECTS[kind](registration.name), text: lines.join("\n") });
}
