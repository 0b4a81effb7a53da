/**
 * Who a newsletter goes to, and where it stands (issue 26). The spec says only "Newsletter: sent when sent_time
 * is earlier than now"; the audience, the schedule's words and the delivery counts are ours (decision 0049).
 */

import { ENTRY_SOURCE_PREFIX } from "../registration/racer-entry";

/** Of a race's entrants, everyone entered or only those who finished (a "thanks for racing" mail). */
export const RACE_ENTRANTS = ["entered", "finished"] as const;
export type RaceEntrants = (typeof RACE_ENTRANTS)[number];

/**
 * Who receives a newsletter: the club's current members, the paid registrants of some of its forms, and the
 * entrants of some of its races (those entered from a registration: a racer typed in or imported from a file
 * has no address). Newsletters saved before races could be chosen have no `races`.
 */
export interface NewsletterAudience {
  members: boolean;
  registrations: string[];
  races?: string[];
  entrants?: RaceEntrants;
}

export const EMPTY_AUDIENCE: NewsletterAudience = { members: false, registrations: [] };

/** Whether an audience names anybody at all. */
export const namesSomebody = (audience: NewsletterAudience): boolean =>
  audience.members || audience.registrations.length > 0 || (audience.races ?? []).length > 0;

/**
 * The registered people (individual ids) among a race's racers that the audience takes: each racer entered from
 * a registration, and with `finished` only those whose result is a finish.
 */
export function entrantIndividuals(racers: readonly { importedFrom: string | null | undefined; status: string }[], entrants: RaceEntrants): string[] {
  const ids: string[] = [];
  for (const racer of racers) {
    if (!racer.importedFrom?.startsWith(ENTRY_SOURCE_PREFIX)) continue;
    if (entrants === "finished" && racer.status !== "finished") continue;
    ids.push(racer.importedFrom.slice(ENTRY_SOURCE_PREFIX.length));
  }
  return ids;
}

const ADDRESS = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/;

/** The address as it is compared and stored: trimmed and lower case; null when it is not one address. */
export function normaliseEmail(raw: string | null | undefined): string | null {
  const address = (raw ?? "").trim().toLowerCase();
  return address.length <= 254 && ADDRESS.test(address) ? address : null;
}

/** Each address once, in the order first seen, without those who unsubscribed from the club's newsletters. */
export function mailingList(addresses: Iterable<string | null | undefined>, unsubscribed: ReadonlySet<string>): { to: string[]; unsubscribed: number } {
  const seen = new Set<string>();
  const to: string[] = [];
  let skipped = 0;
  for (const raw of addresses) {
    const address = normaliseEmail(raw);
    if (!address || seen.has(address)) continue;
    seen.add(address);
    if (unsubscribed.has(address)) skipped += 1;
    else to.push(address);
  }
  return { to, unsubscribed: skipped };
}

export interface DeliveryCounts {
  total: number;
  sent: number;
  failed: number;
}

export type NewsletterState =
  | { kind: "draft" }
  | { kind: "scheduled"; at: number }
  | { kind: "sending"; at: number; counts: DeliveryCounts }
  | { kind: "sent"; at: number; counts: DeliveryCounts };

/** Sent once its time has passed (the spec); "sending" while its mail is still going out. */
export function newsletterState(sentTime: number | null, dispatched: boolean, counts: DeliveryCounts, now: number): NewsletterState {
  if (sentTime === null) return { kind: "draft" };
  if (sentTime >= now) return { kind: "scheduled", at: sentTime };
  if (!dispatched || counts.sent + counts.failed < counts.total) return { kind: "sending", at: sentTime, counts };
  return { kind: "sent", at: sentTime, counts };
}

/** The state in words, for the newsletter list and page. */
export function newsletterStateText(state: NewsletterState, formatTime: (at: number) => string): string {
  switch (state.kind) {
    case "draft":
      return "Draft";
    case "scheduled":
      return `Scheduled for ${formatTime(state.at)}`;
    case "sending":
      return `Sending: ${state.counts.sent} of ${state.counts.total} sent`;
    case "sent": {
      const failed = state.counts.failed > 0 ? `, ${state.counts.failed} could not be delivered` : "";
      return `Sent ${formatTime(state.at)} to ${state.counts.sent} ${state.counts.sent === 1 ? "person" : "people"}${failed}`;
    }
  }
}

/** A newsletter may change until its time has passed: once sent it is the record of what members received. */
export const isLocked = (sentTime: number | null, now: number): boolean => sentTime !== null && sentTime < now;
