/**
 * Changes a registrant makes to a person after checkout (issue 24), from the receipt link: correcting their
 * details, or transferring the entry to someone else. A transfer changes only fields that carry no money and no
 * limit (a name, a birth date, an unpriced T-shirt size); the registrant's own edit may also change a priced or
 * limited answer, for the difference (decision 0061). Anything the organiser locked (edit-forbidden), money and
 * files stay as paid; a change that would alter one of those anyway is refused.
 */
import type { Lang } from "../forms/bilingual";
import type { FormElement, StoredValue } from "../forms/model";
import { FIELD_TYPE_MODULES } from "../forms/registry";
import { parseMoney, type Cents } from "../money/money";
import type { CartPricing, PriceLine } from "./model";
import type { ChargedPricing } from "./receipt-lines";

export type PersonChangeKind = "edit" | "transfer";

/** Types that are money or files: never changed from the receipt. */
const LOCKED_TYPES = new Set(["donation", "discount", "membership", "image", "waiver"]);

const isPriced = (item: { price_1?: number | null; price_2?: number | null; price_3?: number | null }) =>
  [item.price_1, item.price_2, item.price_3].some((p) => (p ?? 0) !== 0);

/** Whether a registrant may change this field of a paid person. */
export function isChangeableAfterCheckout(element: FormElement): boolean {
  if (!FIELD_TYPE_MODULES[element.type].isInput || LOCKED_TYPES.has(element.type)) return false;
  if (element.is_admin_only || element.is_kiosk_mode || element.is_edit_forbidden || element.is_fee) return false;
  if (isPriced(element) || element.quantity_limit != null) return false;
  return element.options_list.every((o) => o.limit == null && !isPriced(o));
}

/**
 * Whether a priced or limited answer may be given or changed after checkout (decision 0061): another distance,
 * an option added, removed or swapped for a cheaper one. The difference is paid or refunded, and a limited
 * choice is held while its payment is open, as at checkout. Money, files and what the organiser locked stay.
 */
export function isRepriceableAfterCheckout(element: FormElement): boolean {
  if (!FIELD_TYPE_MODULES[element.type].isInput || LOCKED_TYPES.has(element.type)) return false;
  return !(element.is_admin_only || element.is_kiosk_mode || element.is_edit_forbidden || element.is_fee);
}

/** Whether this person may change the field now: a free field always; a priced or limited one in their own edit. */
export function mayChange(element: FormElement, _before: Record<string, StoredValue>, kind: PersonChangeKind = "edit"): boolean {
  // A transfer gives the entry as it is: changing what was paid for is the holder's own change.
  return isChangeableAfterCheckout(element) || (kind === "edit" && isRepriceableAfterCheckout(element));
}

/** The form as a change after checkout parses it: every field that may not change is locked to its saved value. */
export function lockedForChange(elements: readonly FormElement[], before: Record<string, StoredValue> = {}, kind: PersonChangeKind = "edit"): FormElement[] {
  return elements.map((e) => (mayChange(e, before, kind) ? e : { ...e, is_edit_forbidden: true }));
}

/** The locked fields whose value the change would alter (or drop): any one refuses the change. */
export function lockedFieldsAltered(
  elements: readonly FormElement[],
  before: Record<string, StoredValue>,
  after: Record<string, StoredValue>,
  kind: PersonChangeKind = "edit",
): string[] {
  return elements
    .filter((e) => FIELD_TYPE_MODULES[e.type].isInput && !mayChange(e, before, kind))
    .filter((e) => JSON.stringify(before[e.id]?.v ?? null) !== JSON.stringify(after[e.id]?.v ?? null))
    .map((e) => e.id);
}

/**
 * What a change adds to a completed cart's price: the cart priced now with the person's old answers and with
 * the new ones, and the difference of every line (an added item, a discount that now takes part of it) put on
 * the charged lines, with the tax and totals moved by the same amounts. Lines already charged are never
 * repriced, so the receipt still says what was paid, plus what the change added.
 */
export function pricingAfterChange(charged: ChargedPricing, before: CartPricing, after: CartPricing): { pricing: ChargedPricing; amount: Cents } {
  const keyOf = (l: PriceLine) => `${l.type}|${l.individualId ?? ""}|${l.elementId ?? ""}|${l.code ?? ""}`;
  const sums = new Map<string, { line: PriceLine; amount: Cents }>();
  for (const [sign, pricing] of [
    [-1, before],
    [1, after],
  ] as const)
    for (const line of pricing.lines) {
      if (line.type === "tax") continue;
      const entry = sums.get(keyOf(line)) ?? { line, amount: 0 };
      entry.amount += sign * line.amount;
      sums.set(keyOf(line), entry);
    }
  const added = [...sums.values()].filter((e) => e.amount !== 0).map((e) => ({ ...e.line, amount: e.amount }));
  // A line already charged for the same thing (a distance changed) takes the difference, so the receipt reads the new answer at what it now costs.
  const lines = charged.lines.map((line) => ({ ...line }));
  const emptied = new Set<PriceLine>();
  for (const line of added) {
    const same = lines.find((l) => keyOf(l) === keyOf(line));
    if (!same) lines.push(line);
    else if ((same.amount += line.amount) === 0) emptied.add(same);
  }
  const amount = after.total - before.total;
  return {
    amount,
    pricing: {
      ...charged,
      // An answer taken away (a toque removed) leaves no line of nothing.
      lines: lines.filter((l) => !emptied.has(l)),
      subtotal: charged.subtotal + after.subtotal - before.subtotal,
      discount: charged.discount + after.discount - before.discount,
      tax: charged.tax + after.tax - before.tax,
      donations: charged.donations + after.donations - before.donations,
      total: charged.total + amount,
    },
  };
}

/** The fields whose value changed, for the organiser's audit trail. */
export function changedFields(elements: readonly FormElement[], before: Record<string, StoredValue>, after: Record<string, StoredValue>): string[] {
  return elements.filter((e) => JSON.stringify(before[e.id]?.v ?? null) !== JSON.stringify(after[e.id]?.v ?? null)).map((e) => e.id);
}

export interface ChangeWindow {
  /** Null: transfers are not offered; 0: free. */
  transferFee: number | null;
  closeTime: number | null;
}

// not in the spec: our wording
export const CHANGE_MESSAGES = {
  en: {
    closed: "Changes to this registration are closed. Please contact the organiser.",
    notUnderstood: "That request was not understood. Reload the page and try again.",
    noTransfers: "This registration cannot be transferred online. Please contact the organiser.",
    lockedAltered: "This change would alter what was paid for. Please contact the organiser.",
    nothingChanged: "Nothing was changed.",
    notPaid: "Only a completed registration can be changed.",
    stale: "This person's details were changed in another window. Reload the page to see them.",
  },
  fr: {
    notUnderstood: "Cette demande n'a pas été comprise. Rechargez la page et réessayez.",
    closed: "Les modifications de cette inscription sont closes. Veuillez communiquer avec l'organisateur.",
    noTransfers: "Cette inscription ne peut pas être transférée en ligne. Veuillez communiquer avec l'organisateur.",
    lockedAltered: "Cette modification changerait ce qui a été payé. Veuillez communiquer avec l'organisateur.",
    nothingChanged: "Rien n'a été modifié.",
    notPaid: "Seule une inscription complétée peut être modifiée.",
    stale: "Les renseignements de cette personne ont été modifiés dans une autre fenêtre. Rechargez la page pour les voir.",
  },
} satisfies Record<Lang, Record<string, string>>;

/** Why a change of this kind cannot be made now, or null when it can. */
export function changeRefusal(window: ChangeWindow, kind: PersonChangeKind, now: number, lang: Lang): string | null {
  if (window.closeTime !== null && now > window.closeTime) return CHANGE_MESSAGES[lang].closed;
  if (kind === "transfer" && window.transferFee === null) return CHANGE_MESSAGES[lang].noTransfers;
  return null;
}

/** The settings field: empty, no transfers; 0, free transfers; an amount such as 10.00, paid by card when transferring. */
export function parseTransferFee(raw: string): { ok: true; value: number | null } | { ok: false; error: string } {
  const text = raw.trim();
  if (text === "") return { ok: true, value: null };
  const cents = parseMoney(text);
  if (cents === null || cents < 0) return { ok: false, error: "Enter a fee such as 10.00, 0 for free transfers, or leave empty for none" };
  return { ok: true, value: cents };
}

/** The addresses a person's email fields hold (lower-cased), for telling a transfer's new holder. */
export function addressesOf(elements: readonly FormElement[], values: Record<string, StoredValue>): string[] {
  const found = new Set<string>();
  for (const element of elements) {
    if (element.type !== "email") continue;
    const text = (values[element.id]?.v as { addresses?: string } | undefined)?.addresses ?? "";
    for (const address of text.split(",")) if (address.trim()) found.add(address.trim().toLowerCase());
  }
  return [...found];
}

// not in the spec: our wording
export const NEW_HOLDER_WORDS = {
  en: {
    subject: "You are registered",
    text: (from: string, to: string, form: string, club: string) =>
      `${from}'s entry in ${form} (${club}) was transferred to you, ${to}. For anything about the entry, contact ${club}.`,
  },
  fr: {
    subject: "Vous êtes inscrit",
    text: (from: string, to: string, form: string, club: string) =>
      `L'inscription de ${from} à ${form} (${club}) vous a été transférée, ${to}. Pour toute question sur l'inscription, communiquez avec ${club}.`,
  },
} satisfies Record<Lang, unknown>;
