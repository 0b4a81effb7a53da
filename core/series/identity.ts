/**
 * Who a racer is across the races of a series (decision 0048): a person id when the race knows one, else the
 * racer's name and club, each folded (case, accents, spacing, word order) so "Virtanen, Anna" in one race
 * and "anna virtanen" in the next are one racer.
 */

/** Printable ASCII only: no accents to remove, and letters and digits are [a-z0-9] once lowercased. */
const PLAIN = /^[\x20-\x7e]*$/;

const FOLDED_KEPT = 50_000;
const folded = new Map<string, string>();

/**
 * Lowercase, accents removed, punctuation to spaces, words sorted. A series folds two names per racer per
 * race (10,000 for a race of 5,000), so plain ASCII takes a shorter road to the same words.
 */
export function foldName(text: string): string {
  let words = folded.get(text);
  if (words === undefined) {
    words = PLAIN.test(text)
      ? text
          .toLowerCase()
          .split(/[^a-z0-9]+/)
          .filter(Boolean)
          .sort()
          .join(" ")
      : foldUnicode(text);
    // The same names come back race after race; a bounded copy, emptied whole when full.
    if (folded.size >= FOLDED_KEPT) folded.clear();
    folded.set(text, words);
  }
  return words;
}

/** foldName for any text (exported for the test that the ASCII road agrees with it). */
export function foldUnicode(text: string): string {
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

const IDENTITIES_KEPT = 100_000;
const identities = new Map<string, string>();

/**
 * One string object per identity: a series looks every racer up once per race, and a lookup whose key is the
 * very string stored compares one pointer, not the text (the racers' lookups were the most of its ranking).
 * The Worker's entries all come through unpackEntries (from a room or D1), which calls this.
 */
export function sameIdentity(identity: string): string {
  const known = identities.get(identity);
  if (known !== undefined) return known;
  // Bounded as foldName's copies are: emptied whole when full, which costs speed only.
  if (identities.size >= IDENTITIES_KEPT) identities.clear();
  identities.set(identity, identity);
  return identity;
}
