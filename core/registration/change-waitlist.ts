/**
 * A waitlist entry for a change after checkout (decision 0066): a paid person asked for a limited choice that was
 * full. The entry keeps only the answers that change (a removed answer as null), so accepting the offer later
 * applies them over whatever the person holds then, and leaves a correction made meanwhile alone.
 */
import type { StoredValue } from "../forms/model";
import type { Lang } from "../forms/bilingual";
import { endSentence } from "./waitlist";

/** The answers a change asks for: each changed field's new value, or null where the answer goes. */
export type WantedAnswers = Record<string, StoredValue | null>;

export function wantedOf(next: Readonly<Record<string, StoredValue>>, fields: readonly string[]): WantedAnswers {
  return Object.fromEntries(fields.map((id) => [id, next[id] ?? null]));
}

/** The person's answers with the wanted ones applied. */
export function withWanted(current: Readonly<Record<string, StoredValue>>, wanted: Readonly<WantedAnswers>): Record<string, StoredValue> {
  const out: Record<string, StoredValue> = { ...current };
  for (const [id, value] of Object.entries(wanted)) {
    if (value === null) delete out[id];
    else out[id] = value;
  }
  return out;
}

/** Only the answers present, for counting the places the change would take. */
export function presentWanted(wanted: Readonly<WantedAnswers>): Record<string, StoredValue> {
  return Object.fromEntries(Object.entries(wanted).filter((entry): entry is [string, StoredValue] => entry[1] !== null));
}

// not in the spec: our wording
export const CHANGE_WAITLIST_WORDS = {
  en: {
    join: "Join the waitlist for this change",
    full: (what: string) => `${what} is full. Join its waitlist: when a place opens, we will email you an offer to make this change.`,
    joined: (name: string, position: number, what: string, email: string) =>
      `${name} is number ${position} on the waitlist for ${what}. We will email ${email} if a place opens; nothing changes until you accept it.`,
    joinedMail: (name: string, position: number, what: string, form: string) =>
      `${name} is number ${position} on the waitlist for ${what} (${form}). If a place opens, we will hold it and write to you; the entry changes only when you accept.`,
    offerMail: (name: string, what: string, form: string, until: string) =>
      `A place in ${what} (${form}) has opened for ${name} and is held until ${endSentence(until)}\n\nOpen this link to accept the change; a difference in price is paid or refunded as for any change to the entry:`,
    prompt: (name: string, what: string, until: string) => `A place in ${what} is held for ${name} until ${endSentence(until)}`,
    accept: "Accept the change",
    expired: (when: string) => `This offer ended on ${when}, and the place went to the next person waiting. The entry was not changed.`,
    accepted: "The entry was changed. The updated receipt was sent by email.",
    kindNew: "New entry",
    kindChange: (name: string) => `Change for ${name}`,
  },
  fr: {
    join: "M'inscrire sur la liste d'attente pour ce changement",
    full: (what: string) =>
      `${what} est complet. Inscrivez-vous sur sa liste d'attente : si une place se libère, nous vous écrirons pour vous offrir ce changement.`,
    joined: (name: string, position: number, what: string, email: string) =>
      `${name} est numéro ${position} sur la liste d'attente pour ${what}. Nous écrirons à ${email} si une place se libère; rien ne change avant que vous acceptiez.`,
    joinedMail: (name: string, position: number, what: string, form: string) =>
      `${name} est numéro ${position} sur la liste d'attente pour ${what} (${form}). Si une place se libère, nous la réserverons et vous écrirons; l'inscription ne change que si vous acceptez.`,
    offerMail: (name: string, what: string, form: string, until: string) =>
      `Une place pour ${what} (${form}) s'est libérée pour ${name} et est réservée jusqu'au ${until}.\n\nOuvrez ce lien pour accepter le changement; une différence de prix est payée ou remboursée comme pour tout changement à l'inscription :`,
    prompt: (name: string, what: string, until: string) => `Une place pour ${what} est réservée pour ${name} jusqu'au ${until}.`,
    accept: "Accepter le changement",
    expired: (when: string) => `Cette offre a pris fin le ${when} et la place est allée à la personne suivante. L'inscription n'a pas été modifiée.`,
    accepted: "L'inscription a été modifiée. Le reçu à jour vous a été envoyé par courriel.",
    kindNew: "Nouvelle inscription",
    kindChange: (name: string) => `Changement pour ${name}`,
  },
} satisfies Record<Lang, unknown>;
