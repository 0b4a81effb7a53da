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
 * has no address), optionally only those on some of the races' courses and in some categories (decision 0062).
 * Newsletters saved before races could be chosen have no `races`; before the filters, no `courses`/`categories`.
 */
export interface NewsletterAudience {
  members: boolean;
  registrations: string[];
  races?: string[];
  entrants?: RaceEntrants;
  /** Course ids of the chosen races; empty or absent: every course. */
  courses?: string[];
  /** Category names as racers carry them; empty or absent: every category. */
  categories?: string[];
}

export const EMPTY_AUDIENCE: NewsletterAudience = { members: false, registrations: [] };

/** Whether an audience names anybody at all. */
export const namesSomebody = (audience: NewsletterAudience): boolean =>
  audience.members || audience.registrations.length > 0 || (audience.races ?? []).length > 0;

/** A racer as the audience looks at it: where it came from, its result status, its course and category. */
export interface EntrantRacer {
  importedFrom: string | null | undefined;
  status: string;
  course?: string | null;
  category?: string | null;
}

/** Which of the races' entrants the audience takes: finished or not, on which courses, in which categories. */
export interface EntrantFilter {
  entrants: RaceEntrants;
  courses?: readonly string[];
  categories?: readonly string[];
}

/** Whether a racer passes the filter: each list given must hold its course (category); an empty list takes all. */
export function takesEntrant(racer: EntrantRacer, filter: EntrantFilter): boolean {
  if (filter.entrants === "finished" && racer.status !== "finished") return false;
  const courses = filter.courses ?? [];
  if (courses.length > 0 && !courses.includes(racer.course ?? "")) return false;
  const categories = filter.categories ?? [];
  return categories.length === 0 || categories.includes((racer.category ?? "").trim());
}

/**
 * The registered people (individual ids) among a race's racers that the audience takes: each racer entered from
 * a registration that passes the filter (a bare `entrants` keeps the earlier call's meaning).
 */
export function entrantIndividuals(racers: readonly EntrantRacer[], filter: RaceEntrants | EntrantFilter): string[] {
  const rule: EntrantFilter = typeof filter === "string" ? { entrants: filter } : filter;
  const ids: string[] = [];
  for (const racer of racers) {
    if (!racer.importedFrom?.startsWith(ENTRY_SOURCE_PREFIX)) continue;
    if (!takesEntrant(racer, rule)) continue;
    ids.push(racer.importedFrom.slice(ENTRY_SOURCE_PREFIX.length));
  }
  return ids;
}

export const AUDIENCE_FILTER_MESSAGES = {
  otherCourses: "Choose courses of the chosen races",
  otherCategories: "Choose categories of the chosen races' entrants",
} as const;

/**
 * The refusal of an audience's course and category filters, given what the chosen races offer (their courses' ids,
 * their entrants' categories): a course of another race, or a category none of them has, is refused.
 */
export function audienceFilterProblem(
  audience: Pick<NewsletterAudience, "courses" | "categories">,
  offered: { courses: ReadonlySet<string>; categories: ReadonlySet<string> },
): string | null {
  if ((audience.courses ?? []).some((course) => !offered.courses.has(course))) return AUDIENCE_FILTER_MESSAGES.otherCourses;
  if ((audience.categories ?? []).some((category) => !offered.categories.has(category.trim()))) return AUDIENCE_FILTER_MESSAGES.otherCategories;
  return null;
}

/** The categories the races' racers carry, each once, in order: the choices the newsletter page offers. */
export function categoriesOf(racers: Iterable<{ category?: string | null }>): string[] {
  const found = new Set<string>();
  for (const racer of racers) {
    const category = (racer.category ?? "").trim();
    if (category) found.add(category);
  }
  return [...found].sort((a, b) => a.localeCompare(b));
}

/** The audience in words, for the newsletter page: "The club's current members; the entrants of Spring 10K on 5 km in U16 who finished". */
export function audienceSummary(
  audience: NewsletterAudience,
  names: { forms: ReadonlyMap<string, string>; races: ReadonlyMap<string, string>; courses: ReadonlyMap<string, string> },
): string {
  const parts: string[] = [];
  const list = (items: readonly string[]) => (items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`);
  if (audience.members) parts.push("the club's current members");
  if (audience.registrations.length > 0) parts.push(`everyone registered on ${list(audience.registrations.map((id) => names.forms.get(id) ?? "a form"))}`);
  const races = audience.races ?? [];
  if (races.length > 0) {
    let entrants = `the entrants of ${list(races.map((id) => names.races.get(id) ?? "a race"))}`;
    const courses = audience.courses ?? [];
    if (courses.length > 0) entrants += ` on ${list(courses.map((id) => names.courses.get(id) ?? "a course"))}`;
    const categories = audience.categories ?? [];
    if (categories.length > 0) entrants += ` in ${list(categories)}`;
    if (audience.entrants === "finished") entrants += " who finished";
    parts.push(entrants);
  }
  const text = parts.join("; ");
  return text ? text[0]!.toUpperCase() + text.slice(1) : "Nobody yet";
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
