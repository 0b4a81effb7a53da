/**
 * A racer's chip set by hand at a race (bib pickup: the racer form, a racer import; decision 0076). A depot's
 * chip the depot marked faulty or lost is refused in decision 0068's words; one in a rack shipped to the race
 * (or issued at it to nobody who holds it now) is issued to the racer; the depot chip issued to them before goes
 * back to its depot, "Not in a rack". A chip no depot shipped to the race is the club's own and only text. Pure:
 * workers/services/racer-chips.ts reads the race's chips and writes.
 */
import { GOCHIP_MESSAGES, normaliseHex, type GochipStatus } from "./chips";

/** A depot's chip as a race knows it: in a rack shipped to the race (rack and shipment), or issued at it (neither). */
export interface RaceChip {
  id: string;
  depotId: string;
  hexCode: string;
  status: GochipStatus;
  rackId: string | null;
  shipmentId: string | null;
  issuedRacerId: string | null;
}

/** The race's depot chips by hex code. */
export type ChipBook = ReadonlyMap<string, RaceChip>;

export const chipBookOf = (chips: readonly RaceChip[]): ChipBook => new Map(chips.map((c) => [c.hexCode, c]));

/** The depot chip a racer's chip text names, if any ("0000a1" and "00:00:A1" name chip 0000A1). */
export function depotChipOf(book: ChipBook, chip: string | null | undefined): RaceChip | null {
  if (!chip) return null;
  const code = normaliseHex(chip);
  return typeof code === "string" ? (book.get(code) ?? null) : null;
}

export type ChipHandout =
  | { ok: false; problem: string }
  /** `chip`: what the racer's chip becomes (a depot chip's code as the depot writes it); `issue` leaves its rack, `giveBack` returns. */
  | { ok: true; chip: string | null; issue: RaceChip | null; giveBack: RaceChip | null };

/**
 * What setting a racer's chip from `before` to `after` does at the depots. `racerId` is null for a new racer with no id yet.
 * An unchanged chip does nothing, so a form saved again changes nothing (and a chip marked faulty since stays).
 */
export function chipHandout(racerId: string | null, before: string | null, after: string | null, book: ChipBook): ChipHandout {
  const was = depotChipOf(book, before);
  const now = depotChipOf(book, after);
  const same = now !== null ? now === was : (after ?? "") === (before ?? "");
  if (same) return { ok: true, chip: now?.hexCode ?? after, issue: null, giveBack: null };
  if (now?.status === "faulty") return { ok: false, problem: GOCHIP_MESSAGES.faulty };
  if (now?.status === "lost") return { ok: false, problem: GOCHIP_MESSAGES.lost };
  const issue = now !== null && (racerId === null || now.issuedRacerId !== racerId) ? now : null;
  // Only the chip the depot issued to this racer goes back: a chip issued to someone else stays theirs.
  const giveBack = was !== null && racerId !== null && was.rackId === null && was.issuedRacerId === racerId ? was : null;
  return { ok: true, chip: now?.hexCode ?? after, issue, giveBack };
}
