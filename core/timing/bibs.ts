/**
 * Bib lists and bib assignment (timing.md sections 3 and 5: first_bib, reserved_bibs, missing_bibs_csv,
 * is_backwards_bibs). "Missing-bib lists accept comma-separated numbers and ranges; those bibs are skipped
 * when assigning the next bib." The spec gives no wording for a bad list; ours is below.
 */
import type { Invalid } from "../time/parse";

/** The highest bib a racer may wear (schema/race/racer.ts). */
export const MAX_BIB = 999_999;
/** One range may name at most this many bibs, so a typo ("1-9999999") cannot hang a save. */
export const MAX_BIB_RANGE = 100_000;

export const BIB_LIST_FORMAT = "Enter bib numbers or ranges separated by commas, like 13, 40-45";
export const BIB_TOO_LARGE = `Bibs go up to ${MAX_BIB}`;
export const BIB_RANGE_TOO_LONG = `A range may hold at most ${MAX_BIB_RANGE.toLocaleString("en")} bibs`;
export const bibRangeReversed = (from: number, to: number) => `The range ${from}-${to} runs backwards; write it ${to}-${from}`;
export const BIBS_RUN_OUT = `Not enough bibs: numbering would go past ${MAX_BIB}`;

const ENTRY = /^(\d{1,7})(?:\s*-\s*(\d{1,7}))?$/;

/**
 * "13, 40-45" as the bibs it names, sorted and without repeats; empty or blank text is an empty list.
 * Whitespace anywhere between entries is tolerated, as are empty entries ("13,,14", a trailing comma).
 */
export function parseBibList(text: string): number[] | Invalid {
  const bibs = new Set<number>();
  for (const raw of text.split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    const match = ENTRY.exec(entry);
    if (!match) return { error: BIB_LIST_FORMAT };
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (from > MAX_BIB || to > MAX_BIB) return { error: BIB_TOO_LARGE };
    if (to < from) return { error: bibRangeReversed(from, to) };
    if (to - from + 1 > MAX_BIB_RANGE) return { error: BIB_RANGE_TOO_LONG };
    for (let bib = from; bib <= to; bib++) bibs.add(bib);
  }
  return [...bibs].sort((a, b) => a - b);
}

/** Bibs written back as a list: runs of two or more consecutive bibs become ranges ("13, 40-45"). */
export function formatBibList(bibs: Iterable<number>): string {
  const sorted = [...new Set(bibs)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(j === i ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(", ");
}

/** A typed list in its normal form ("40-45,13, 14" -> "13-14, 40-45"), or why it cannot be read. */
export function normaliseBibList(text: string): string | Invalid {
  const bibs = parseBibList(text);
  return Array.isArray(bibs) ? formatBibList(bibs) : bibs;
}

export interface BibAssignment {
  /** Where numbering starts; null is 1. */
  firstBib: number | null;
  /** Bibs never given: the missing and reserved lists. */
  skip: ReadonlySet<number>;
  /**
   * is_backwards_bibs: the order is walked from its end, so the last racer in the order wears the first
   * bib and the first racer the highest (the best seeds, who start last, get the low numbers).
   */
  backwards: boolean;
  /** Bibs kept by racers who are not being renumbered: never given twice. */
  taken?: ReadonlySet<number>;
}

/**
 * Bibs for racers in order: first_bib, then each next bib that is neither skipped nor taken. Throws a
 * RangeError with BIBS_RUN_OUT when numbering would pass MAX_BIB.
 */
export function assignBibs(racerIdsInOrder: readonly string[], options: BibAssignment): Map<string, number> {
  const taken = options.taken ?? new Set<number>();
  const bibs = new Map<string, number>();
  let next = options.firstBib ?? 1;
  const count = racerIdsInOrder.length;
  for (let k = 0; k < count; k++) {
    const racerId = racerIdsInOrder[options.backwards ? count - 1 - k : k]!;
    if (bibs.has(racerId)) throw new RangeError(`racer ${racerId} is listed twice in the bib order`);
    while (options.skip.has(next) || taken.has(next)) next++;
    if (next > MAX_BIB) throw new RangeError(BIBS_RUN_OUT);
    bibs.set(racerId, next++);
  }
  // Forwards or backwards, the map iterates in the given order.
  return options.backwards ? new Map(racerIdsInOrder.map((id) => [id, bibs.get(id)!])) : bibs;
}
