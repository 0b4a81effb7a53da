/** How a racer's name reads in lists and results (timing.md section 3, Racer). */

export interface RacerNameParts {
  firstName?: string | null;
  lastName?: string | null;
  /** Used only when there is neither a first nor a last name (e.g. a team or an imported full name). */
  fullname?: string | null;
}

/**
 * "First Last", or "LAST, First" when the race is last-name-first (the last name in uppercase first);
 * either part alone when the other is blank; else the fullname; else "". Every part is trimmed.
 */
export function racerDisplayName(racer: RacerNameParts, lastNameFirst: boolean): string {
  const first = racer.firstName?.trim() ?? "";
  const last = racer.lastName?.trim() ?? "";
  if (!first && !last) return racer.fullname?.trim() ?? "";
  if (!lastNameFirst) return [first, last].filter(Boolean).join(" ");
  return [last.toUpperCase(), first].filter(Boolean).join(", ");
}

/**
 * The racers list's search: digits match a bib exactly; other text matches any part of the name as shown, as
 * "First Last", or the full name, whatever the case.
 */
export function matchesRacerSearch(racer: RacerNameParts & { bib: number | null }, query: string, lastNameFirst: boolean): boolean {
  const q = query.trim();
  if (!q) return true;
  if (/^\d+$/.test(q)) return racer.bib === Number(q);
  const needle = q.toLowerCase();
  const names = [racerDisplayName(racer, lastNameFirst), `${racer.firstName ?? ""} ${racer.lastName ?? ""}`, racer.fullname ?? ""];
  return names.some((name) => name.toLowerCase().includes(needle));
}

// One collator for every comparison: `a.localeCompare(b)` builds one per call, with the same order.
const collator = new Intl.Collator();

/** The racers list's order: by bib (racers without one last), then last name. */
export function byBibThenLastName(a: { bib: number | null; lastName: string }, b: { bib: number | null; lastName: string }): number {
  return (a.bib ?? Infinity) - (b.bib ?? Infinity) || collator.compare(a.lastName, b.lastName);
}
