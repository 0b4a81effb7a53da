/**
 * The Membership System's rules (issue 25): which season a membership bought now belongs to, how the same
 * person is recognised when they register again, and what a membership records from a registered person.
 */
import type { FormElement, MemberClass, StoredValue } from "../forms/model";
import type { MembershipValue } from "../forms/membership";
import { optionLabel } from "../forms/options";
import { racerEntryOf } from "../registration/racer-entry";

export interface SeasonSpan {
  id: string;
  name: string;
  startsAt: number;
  endsAt: number;
}

/**
 * The season a membership bought at `at` is for: the one running then, else the next one to start (clubs sell
 * next season's memberships before it begins); null when the division has neither.
 */
export function seasonFor<S extends SeasonSpan>(seasons: readonly S[], at: number): S | null {
  const running = seasons.filter((s) => s.startsAt <= at && at < s.endsAt).sort((a, b) => b.startsAt - a.startsAt)[0];
  if (running) return running;
  return seasons.filter((s) => s.startsAt > at).sort((a, b) => a.startsAt - b.startsAt)[0] ?? null;
}

/** Whether two seasons share a moment (a division's seasons may not, so every date has one season). */
export const seasonsOverlap = (a: Pick<SeasonSpan, "startsAt" | "endsAt">, b: Pick<SeasonSpan, "startsAt" | "endsAt">) =>
  a.startsAt < b.endsAt && b.startsAt < a.endsAt;

/**
 * The key that finds a person again: last name, first name and birth date, lowercased with accents and extra
 * spaces removed ("Émile  Côté" and "emile cote" are one person). Without a birth date, names alone would merge
 * namesakes, so the e-mail address stands in for it.
 */
export function personKey(person: { firstName: string; lastName: string; birthDate: string | null; email: string | null }): string {
  const plain = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
  return [plain(person.lastName), plain(person.firstName), person.birthDate ?? `email:${plain(person.email ?? "")}`].join("|");
}

export interface MemberDetails {
  firstName: string;
  lastName: string;
  birthDate: string | null;
  gender: string | null;
  email: string | null;
  memberClass: MemberClass;
  divisionFees: number;
  elementId: string;
}

/** What a registered person's membership records, or null when they bought none (or gave no name). */
export function memberDetailsOf(
  elements: readonly FormElement[],
  nameFields: { firstNameFieldId: string | null; lastNameFieldId: string | null },
  person: { id: string; values: Record<string, StoredValue> },
): MemberDetails | null {
  const panel = elements.find((e) => e.type === "membership" && isMembership(person.values[e.id]?.v));
  if (!panel) return null;
  const chosen = person.values[panel.id]!.v as MembershipValue;
  const entry = racerEntryOf(elements, nameFields, person);
  if (!entry.first_name && !entry.last_name) return null;
  const emailField = elements.find((e) => e.type === "email");
  const email = emailField ? person.values[emailField.id]?.v : null;
  const gender = elements.find((e) => e.type === "gender");
  const genderValue = gender ? person.values[gender.id]?.v : null;
  return {
    firstName: entry.first_name,
    lastName: entry.last_name,
    birthDate: entry.dob,
    gender: typeof genderValue === "string" && genderValue !== "" ? genderValue : null,
    email: typeof email === "string" && email.includes("@") ? email.trim().toLowerCase() : null,
    memberClass: chosen.member_type,
    divisionFees: chosen.division_fees,
    elementId: panel.id,
  };
}

function isMembership(value: unknown): value is MembershipValue {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as MembershipValue).option === "string" &&
    typeof (value as MembershipValue).member_type === "string"
  );
}

/** Whole years of age on `onDate` (YYYY-MM-DD) for a birth date; null when unknown. */
export function ageOn(birthDate: string | null, onDate: string): number | null {
  if (!birthDate || !/^\d{4}-\d{2}-\d{2}$/.test(birthDate)) return null;
  const [by, bm, bd] = birthDate.split("-").map(Number) as [number, number, number];
  const [y, m, d] = onDate.split("-").map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/**
 * The division's programs a person signed up for: the options they chose on the form (single or several)
 * whose English caption is one of the division's programs, compared without case. A club offering its
 * programs as an option field on the membership form needs no other setup.
 */
export function programsChosen(elements: readonly FormElement[], values: Record<string, StoredValue>, programs: readonly string[]): string[] {
  const wanted = new Map(programs.map((p) => [p.trim().toLowerCase(), p]));
  const found = new Set<string>();
  for (const element of elements) {
    if (element.type !== "option" && element.type !== "multioption") continue;
    const v = values[element.id]?.v;
    const ids = Array.isArray(v) ? v : typeof v === "string" ? [v] : [];
    for (const id of ids) {
      const option = element.options_list.find((o) => o.id === id);
      const program = option ? wanted.get(optionLabel(option, "en").trim().toLowerCase()) : undefined;
      if (program) found.add(program);
    }
  }
  return [...found];
}
