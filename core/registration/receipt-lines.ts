/**
 * An itemised receipt in the registrant's language (issue 24): the price lines as charged when the cart
 * completed, named for a reader (the field and the choice, the code, the tax rate, the processing fee), and
 * money and dates written the way the language writes them (Intl, en-CA and fr-CA: "$46.20", "46,20 $").
 */
import type { Lang } from "../forms/bilingual";
import { labelIn } from "../forms/bilingual";
import type { FormElement, StoredValue } from "../forms/model";
import { FIELD_TYPE_MODULES } from "../forms/registry";
import type { Cents } from "../money/money";
import type { CartPricing, PriceLine } from "./model";
import { capitalised } from "./people-labels";

/** What a cart was charged, as stored on it when it completed. */
export type ChargedPricing = Pick<CartPricing, "lines" | "subtotal" | "discount" | "tax" | "donations" | "systemFee" | "total"> & { gstRatePercent: number };

export function chargedPricingOf(pricing: CartPricing, gstRatePercent: number): ChargedPricing {
  const { lines, subtotal, discount, tax, donations, systemFee, total } = pricing;
  return { lines, subtotal, discount, tax, donations, systemFee, total, gstRatePercent };
}

const LOCALES: Record<Lang, string> = { en: "en-CA", fr: "fr-CA" };

export function formatMoneyIn(cents: Cents, lang: Lang, currency = "CAD"): string {
  return new Intl.NumberFormat(LOCALES[lang], { style: "currency", currency }).format(cents / 100);
}

export function formatDateIn(epochMs: number, lang: Lang, timeZone = "America/Toronto"): string {
  return new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: "long", timeZone }).format(new Date(epochMs));
}

/** A moment a registrant must act by (an offer's end): the date and the time of day. */
export function formatDateTimeIn(epochMs: number, lang: Lang, timeZone = "America/Toronto"): string {
  return new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: "long", timeStyle: "short", timeZone }).format(new Date(epochMs));
}

export interface ReceiptLine {
  label: string;
  /** Null: a line that only names something (the QST number under the tax line), with no amount. */
  amount: Cents | null;
}

export const RECEIPT_WORDS = {
  en: {
    /** Between a label and its value: French sets a space before the colon. */
    colon: ": ",
    complete: "Registration complete",
    due: "Registration confirmed: payment due",
    cartLine: (number: string, email: string | null) => `Cart No. ${number}.${email ? ` A receipt was sent to ${email}.` : ""}`,
    cartOf: (number: string, names: string) => `Cart No. ${number}: ${names}`,
    amount: "Amount",
    registered: (plural: string) => `${capitalised(plural)} registered`,
    subtotal: "Subtotal",
    discount: (code: string) => `Discount (${code})`,
    familyCap: "Family maximum",
    tax: (rate: number) => `Tax (${rate}%)`,
    /** The club's GST/HST registration number, after the tax line's rate (decision 0058). */
    taxNumber: "GST/HST no.",
    /** A Quebec club's QST number, a line of its own under the tax line (decision 0061). */
    qstNumber: "QST no.",
    donations: "Donations",
    fee: "Processing fee",
    total: "Total",
    paid: "Paid",
    refunded: "Refunded",
    netPaid: "Net paid",
    toPay: "To pay the club by cash or cheque",
    payments: "Payments",
    payment: "Payment",
    refund: "Refund",
    methods: { card: "card", cash: "cash", cheque: "cheque", other: "other" } as Record<string, string>,
    cashOrCheque: "cash or cheque",
    transaction: (type: string, method: string, amount: string, when: string | null) =>
      `${type} by ${method}: ${amount}${when ? ` on ${when}` : " (waiting to be received)"}`,
    registerAnother: "Register someone else",
    downloadPdf: "Download as PDF",
    subjects: {
      paid: "Receipt",
      registered: "Registration confirmed",
      received: "Payment received",
      refunded: "Refund",
      cancelled: "Cancellation",
      changed: "Registration changed",
      transferred: "Registration transferred",
    },
    changedIntro: (form: string) => `The details of your registration for ${form} were changed. This is the registration as it stands now.`,
    transferredIntro: (form: string, from: string, to: string) => `The entry of ${from} in ${form} was transferred to ${to}.`,
    editPerson: "Change these details",
    transferFee: "Transfer fee",
    changeFee: "Change fee (refund policy)",
    addNote: "A change that costs more is paid by card before it is saved; one that costs less is refunded under the cancellation policy.",
    transferFeeQuote: (fee: string) => `Transferring costs ${fee}, paid by card before the entry changes hands.`,
    transferPerson: "Transfer to someone else",
    transferHint: "Enter the details of the person who takes this entry. What was paid for stays the same.",
    saveChange: "Save the change",
    saveTransfer: "Transfer the entry",
    changedNotice: "The change is saved.",
    cancelledIntro: (form: string, refund: string | null) => `Your cancellation for ${form} is done.${refund ? ` ${refund} is being refunded.` : ""}`,
    cancel: "Cancel this registration",
    cancelledPerson: "cancelled",
    cancelQuote: (refund: string) => `Cancelling refunds ${refund}.`,
    cancelConfirm: "Yes, cancel it",
    cancelled: (refund: string | null) => `The registration is cancelled.${refund ? ` ${refund} is being refunded.` : ""}`,
    thanks: (form: string, club: string) => `Thank you for registering for ${form} with ${club}.`,
    refundedIntro: (form: string, club: string) => `${club} has refunded part or all of your registration for ${form}.`,
    receiptLink: "Your receipt, at any time:",
    keepPrivate: "The link opens this registration only; keep it to yourself.",
  },
  fr: {
    colon: " : ",
    complete: "Inscription terminée",
    due: "Inscription confirmée : paiement à faire",
    cartLine: (number: string, email: string | null) => `Panier no ${number}.${email ? ` Un reçu a été envoyé à ${email}.` : ""}`,
    cartOf: (number: string, names: string) => `Panier no ${number} : ${names}`,
    amount: "Montant",
    registered: (plural: string) => `Inscriptions (${plural})`,
    subtotal: "Sous-total",
    discount: (code: string) => `Rabais (${code})`,
    familyCap: "Maximum familial",
    tax: (rate: number) => `Taxe (${String(rate).replace(".", ",")} %)`,
    taxNumber: "No de TPS/TVH",
    qstNumber: "No de TVQ",
    donations: "Dons",
    fee: "Frais de traitement",
    total: "Total",
    paid: "Payé",
    refunded: "Remboursé",
    netPaid: "Net payé",
    toPay: "À payer au club en argent comptant ou par chèque",
    payments: "Paiements",
    payment: "Paiement",
    refund: "Remboursement",
    methods: { card: "carte", cash: "argent comptant", cheque: "chèque", other: "autre" } as Record<string, string>,
    cashOrCheque: "argent comptant ou chèque",
    transaction: (type: string, method: string, amount: string, when: string | null) =>
      `${type} par ${method} : ${amount}${when ? ` le ${when}` : " (en attente de réception)"}`,
    registerAnother: "Inscrire une autre personne",
    downloadPdf: "Télécharger en PDF",
    subjects: {
      paid: "Reçu",
      registered: "Inscription confirmée",
      received: "Paiement reçu",
      refunded: "Remboursement",
      cancelled: "Annulation",
      changed: "Inscription modifiée",
      transferred: "Inscription transférée",
    },
    changedIntro: (form: string) => `Les renseignements de votre inscription à ${form} ont été modifiés. Voici l'inscription telle qu'elle est maintenant.`,
    transferredIntro: (form: string, from: string, to: string) => `L'inscription de ${from} à ${form} a été transférée à ${to}.`,
    editPerson: "Modifier ces renseignements",
    transferFee: "Frais de transfert",
    changeFee: "Frais de modification (politique de remboursement)",
    addNote:
      "Une modification qui coûte plus se paie par carte avant d'être enregistrée; celle qui coûte moins est remboursée selon la politique d'annulation.",
    transferFeeQuote: (fee: string) => `Le transfert coûte ${fee}, payé par carte avant que l'inscription change de mains.`,
    transferPerson: "Transférer à quelqu'un d'autre",
    transferHint: "Entrez les renseignements de la personne qui prend cette inscription. Ce qui a été payé reste pareil.",
    saveChange: "Enregistrer la modification",
    saveTransfer: "Transférer l'inscription",
    changedNotice: "La modification est enregistrée.",
    cancelledIntro: (form: string, refund: string | null) => `Votre annulation pour ${form} est faite.${refund ? ` ${refund} vous sera remboursé.` : ""}`,
    cancel: "Annuler cette inscription",
    cancelledPerson: "annulée",
    cancelQuote: (refund: string) => `L'annulation rembourse ${refund}.`,
    cancelConfirm: "Oui, annuler",
    cancelled: (refund: string | null) => `L'inscription est annulée.${refund ? ` ${refund} vous sera remboursé.` : ""}`,
    thanks: (form: string, club: string) => `Merci de vous être inscrit à ${form} auprès de ${club}.`,
    refundedIntro: (form: string, club: string) => `${club} vous a remboursé une partie ou la totalité de votre inscription à ${form}.`,
    receiptLink: "Votre reçu, en tout temps :",
    keepPrivate: "Ce lien n'ouvre que cette inscription; gardez-le pour vous.",
  },
} as const;

export type ReceiptWords = (typeof RECEIPT_WORDS)["en"];

/** What one priced field says on a receipt: its caption, and the choice when there is one ("Distance: 10 km"). */
function itemLabel(element: FormElement | undefined, value: StoredValue | undefined, lang: Lang): string {
  if (!element) return "";
  const caption = labelIn(element.caption, lang);
  const module = FIELD_TYPE_MODULES[element.type];
  const shown = value ? module.display(element, value.v as never, lang) : "";
  // A checkbox or a yes/no says its caption alone; a choice adds what was chosen.
  return shown && !["true", "yes", "Yes", "Oui"].includes(shown) && shown !== caption ? `${caption}${RECEIPT_WORDS[lang].colon}${shown}` : caption;
}

/** Each person's own lines (items, fees, their per-person discounts), named for the reader. */
export function personLines(
  pricing: ChargedPricing,
  elements: readonly FormElement[],
  person: { id: string; values: Record<string, StoredValue> },
  lang: Lang,
): ReceiptLine[] {
  return pricing.lines.filter((line) => line.individualId === person.id && line.type !== "tax").map((line) => lineOf(line, elements, person.values, lang));
}

/** The tax line's label: the rate, and the club's GST/HST number when it has one ("Tax (13%), GST/HST no.: 123456789 RT0001"). */
export function taxLabel(rate: number, taxNumber: string | null, lang: Lang): string {
  const words = RECEIPT_WORDS[lang];
  return taxNumber ? `${words.tax(rate)}, ${words.taxNumber}${words.colon}${taxNumber}` : words.tax(rate);
}

/** The cart's own lines: cart-level items, per-cart discounts, and the tax (with the club's tax number when set). */
export function cartLines(
  pricing: ChargedPricing,
  elements: readonly FormElement[],
  cartValues: Record<string, StoredValue>,
  lang: Lang,
  taxNumber: string | null = null,
  qstNumber: string | null = null,
): ReceiptLine[] {
  // The processing fee is a line of each new person's (z4fee lines carry the person): listed there, not again here.
  const lines = pricing.lines.filter((line) => line.individualId === null && line.type !== "tax").map((line) => lineOf(line, elements, cartValues, lang));
  if (pricing.tax !== 0) lines.push({ label: taxLabel(pricing.gstRatePercent, taxNumber, lang), amount: pricing.tax });
  if (pricing.tax !== 0 && qstNumber) lines.push({ label: `${RECEIPT_WORDS[lang].qstNumber}${RECEIPT_WORDS[lang].colon}${qstNumber}`, amount: null });
  return lines;
}

function lineOf(line: PriceLine, elements: readonly FormElement[], values: Record<string, StoredValue>, lang: Lang): ReceiptLine {
  const words = RECEIPT_WORDS[lang];
  if (line.type === "discount") return { label: words.discount(line.code ?? ""), amount: line.amount };
  if (line.type === "family_cap") return { label: words.familyCap, amount: line.amount };
  if (line.type === "z4fee") return { label: words.fee, amount: line.amount };
  if (line.type === "transfer_fee") return { label: words.transferFee, amount: line.amount };
  if (line.type === "change_fee") return { label: words.changeFee, amount: line.amount };
  const element = elements.find((e) => e.id === line.elementId);
  return { label: itemLabel(element, element ? values[element.id] : undefined, lang), amount: line.amount };
}
