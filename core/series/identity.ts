/**
 * Who a racer is across the races of a series (decision 0048): a person id when the race knows one, else the
 * racer's name and club, each folded (case, accents, spacing, word order) so "Virtanen, Anna" in one race
 * and "anna virtanen" in the next are one racer.
 */

/** Lowercase, accents removed, punctuation to spaces, words sorted. */
export function foldName(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .split(" ")
    .filter(Boolean)
    .sort()
    .join(" ");
}

export function racerIdentity(racer: { name: string; club: string | null; personId?: string | null }): string {
  if (racer.personId) return `p:${racer.personId}`;
  return `n:${foldName(racer.name)}|${foldName(racer.club ?? "")}`;
}
