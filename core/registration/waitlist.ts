/**
 * Waitlists (issue 24, decision 0042): a person who wants a place in a full option or field waits in a list per
 * form; when places free up, the people at the front whose every wanted pool has room are offered one, held for
 * them for the form's offer time. Which entries to offer is decided here; the database still has the last word
 * (the places trigger), so a plan made on a stale count can only offer fewer, never more.
 */
import type { Lang } from "../forms/bilingual";

export type WaitlistState = "waiting" | "offered" | "accepted" | "expired" | "removed";

/** Whether a field's error comes from a full pool: the option's field or the field itself. */
export function isFullPoolField(fullPools: Iterable<string>, elementId: string): boolean {
  for (const pool of fullPools) if (pool === `el:${elementId}` || pool.startsWith(`opt:${elementId}:`)) return true;
  return false;
}

/** A person a waitlist can take: something they want is full, and nothing else is wrong with the answers. */
export function onlyFullPoolErrors(errors: Readonly<Record<string, string>>, fullPools: readonly string[]): boolean {
  const keys = Object.keys(errors);
  return fullPools.length > 0 && keys.length > 0 && keys.every((id) => isFullPoolField(fullPools, id));
}

/** The cron of wrangler.toml that sweeps waitlists (the other one cleans expired sign-in rows); a test holds the two together. */
export const WAITLIST_CRON = "*/5 * * * *";

/** The longest an organiser may hold a freed place for one person: two weeks. */
export const MAX_OFFER_HOURS = 14 * 24;

export interface QueuedEntry {
  id: string;
  /** The capped pools the person needs a place in, with each pool's cap now. */
  needs: readonly { pool: string; cap: number }[];
}

/**
 * The entries to offer now, in queue order: each entry whose every needed pool still has room after the offers
 * before it. `live` counts the places held or taken in each pool (what the trigger counts). An entry that
 * cannot be served does not block those behind it that want something else.
 */
export function planOffers(queue: readonly QueuedEntry[], live: ReadonlyMap<string, number>): string[] {
  const used = new Map(live);
  const offers: string[] = [];
  for (const entry of queue) {
    if (!entry.needs.every(({ pool, cap }) => (used.get(pool) ?? 0) < cap)) continue;
    for (const { pool } of entry.needs) used.set(pool, (used.get(pool) ?? 0) + 1);
    offers.push(entry.id);
  }
  return offers;
}

/** When an offer made now lapses. */
export function offerExpiry(now: number, hours: number): number {
  return now + Math.min(MAX_OFFER_HOURS, Math.max(1, Math.floor(hours))) * 3_600_000;
}

/** The positions after moving one entry a step up or down a list ordered by position (a swap with its neighbour). */
export function swapWithNeighbour<T extends { id: string; position: number }>(
  list: readonly T[],
  id: string,
  direction: "up" | "down",
): { id: string; position: number }[] | null {
  const index = list.findIndex((e) => e.id === id);
  const other = direction === "up" ? index - 1 : index + 1;
  if (index < 0 || other < 0 || other >= list.length) return null;
  const a = list[index]!;
  const b = list[other]!;
  return [
    { id: a.id, position: b.position },
    { id: b.id, position: a.position },
  ];
}

/** A sentence ending in a time: "4:06 p.m." ends it already, so no second period. */
export const endSentence = (text: string) => (text.endsWith(".") ? text : `${text}.`);

// not in the spec: our wording
export const WAITLIST_WORDS = {
  en: {
    full: (what: string) => `${what} is full. Join the waitlist and we will email you if a place opens.`,
    email: "Email address for the waitlist",
    join: "Join the waitlist",
    joined: (position: number, what: string, email: string) =>
      `You are number ${position} on the waitlist for ${what}. We will email ${email} if a place opens.`,
    badEmail: "Enter the email address we should write to when a place opens",
    off: "This form has no waitlist.",
    offerSubject: "A place is free",
    offerMail: (what: string, form: string, until: string) =>
      `A place in ${what} (${form}) has opened and is held for you until ${endSentence(until)}\n\nOpen this link to register and pay before then:`,
    offerIgnore: "If you no longer want it, ignore this message: the place goes to the next person when the time is up.",
    joinedSubject: "You are on the waitlist",
    joinedMail: (position: number, what: string, form: string) =>
      `You are number ${position} on the waitlist for ${what} (${form}). We will write to you if a place opens; it will be held for you for a limited time.`,
    held: (until: string) => `A place is held for you until ${endSentence(until)} Pay before then to keep it.`,
    offerExpired: (when: string) => `This offer ended on ${when}, and the place went back to the waitlist. You can still register if places are free.`,
    offerTaken: "You have already taken this place. Your receipt was sent by email.",
    offerGone: "This offer is no longer available.",
    leaveLine: "To leave the waitlist:",
    leavePrompt: (what: string) => `Leave the waitlist for ${what}? Any place held for you goes to the next person.`,
    leave: "Leave the waitlist",
    left: "You have left the waitlist. We will not write to you about it again.",
    notOnList: "You are no longer on this waitlist.",
  },
  fr: {
    full: (what: string) => `${what} est complet. Inscrivez-vous sur la liste d'attente : nous vous écrirons si une place se libère.`,
    email: "Adresse courriel pour la liste d'attente",
    join: "M'inscrire sur la liste d'attente",
    joined: (position: number, what: string, email: string) =>
      `Vous êtes numéro ${position} sur la liste d'attente pour ${what}. Nous écrirons à ${email} si une place se libère.`,
    badEmail: "Entrez l'adresse courriel à laquelle écrire quand une place se libère",
    off: "Ce formulaire n'a pas de liste d'attente.",
    offerSubject: "Une place s'est libérée",
    offerMail: (what: string, form: string, until: string) =>
      `Une place pour ${what} (${form}) s'est libérée et vous est réservée jusqu'au ${endSentence(until)}\n\nOuvrez ce lien pour vous inscrire et payer d'ici là :`,
    offerIgnore: "Si vous ne la voulez plus, ignorez ce message : la place ira à la personne suivante à l'échéance.",
    joinedSubject: "Vous êtes sur la liste d'attente",
    joinedMail: (position: number, what: string, form: string) =>
      `Vous êtes numéro ${position} sur la liste d'attente pour ${what} (${form}). Nous vous écrirons si une place se libère; elle vous sera réservée pour un temps limité.`,
    held: (until: string) => `Une place vous est réservée jusqu'au ${endSentence(until)} Payez d'ici là pour la garder.`,
    offerExpired: (when: string) =>
      `Cette offre a pris fin le ${when} et la place est retournée à la liste d'attente. Vous pouvez encore vous inscrire s'il reste des places.`,
    offerTaken: "Vous avez déjà pris cette place. Votre reçu vous a été envoyé par courriel.",
    offerGone: "Cette offre n'est plus disponible.",
    leaveLine: "Pour quitter la liste d'attente :",
    leavePrompt: (what: string) => `Quitter la liste d'attente pour ${what}? Une place qui vous est réservée ira à la personne suivante.`,
    leave: "Quitter la liste d'attente",
    left: "Vous avez quitté la liste d'attente. Nous ne vous écrirons plus à ce sujet.",
    notOnList: "Vous n'êtes plus sur cette liste d'attente.",
  },
} satisfies Record<Lang, unknown>;

/** The wanted pools' labels as one phrase: "10 km", "10 km and T-shirt: M". */
export function wishOf(labels: readonly string[], lang: Lang): string {
  const unique = [...new Set(labels.filter(Boolean))];
  if (unique.length <= 1) return unique[0] ?? "";
  return `${unique.slice(0, -1).join(", ")} ${lang === "fr" ? "et" : "and"} ${unique.at(-1)}`;
}

/** The settings field: empty is no waitlist; else whole hours from 1 to two weeks. */
export function parseOfferHours(raw: string): { ok: true; value: number | null } | { ok: false; error: string } {
  const text = raw.trim();
  if (text === "") return { ok: true, value: null };
  const hours = Number(text);
  if (!Number.isInteger(hours) || hours < 1 || hours > MAX_OFFER_HOURS)
    return { ok: false, error: `Enter whole hours from 1 to ${MAX_OFFER_HOURS}, or leave empty for no waitlist` };
  return { ok: true, value: hours };
}
