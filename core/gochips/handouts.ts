/**
 * A racer's chips set by hand at a race (bib pickup: the racer form, a racer import; decisions 0076, 0077): the
 * chip they wear and their "More chips" (`chip_list`) alike. A depot's chip the depot marked faulty or lost is
 * refused in decision 0068's words; one in a rack shipped to the race (or issued at it to nobody who holds it
 * now) is issued to the racer; a depot chip issued to them before and dropped goes back to its depot, "Not in a
 * rack". A chip no depot shipped to the race is the club's own and only text. Pure: workers/services/racer-chips.ts
 * reads the race's chips and writes.
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

/** A racer's chips: the one they wear and the others whose reads are theirs ("More chips"). */
export interface RacerChips {
  chip: string | null;
  chip_list: readonly string[];
}

export type ChipHandout =
  | { ok: false; field: "chip" | "chip_list"; problem: string }
  /** `chips`: what the racer's chips become (depot chips as the depot writes their codes); `issue` leave their racks, `giveBack` return. */
  | { ok: true; chips: { chip: string | null; chip_list: string[] }; issue: RaceChip[]; giveBack: RaceChip[] };

/** Why a depot chip may not be handed out, or null. */
const refusal = (chip: RaceChip): string | null => (chip.status === "faulty" ? GOCHIP_MESSAGES.faulty : chip.status === "lost" ? GOCHIP_MESSAGES.lost : null);

/**
 * What setting a racer's chips from `before` to `after` does at the depots. `racerId` is null for a new racer
 * with no id yet. A chip the racer held before (as their chip or in their list) is unchanged however it is
 * written and wherever it moved, so a form saved again does nothing (and a chip marked faulty since stays).
 */
export function chipHandout(racerId: string | null, before: RacerChips, after: RacerChips, book: ChipBook): ChipHandout {
  const held = [before.chip, ...before.chip_list].map((c) => depotChipOf(book, c)).filter((c): c is RaceChip => c !== null);
  const heldIds = new Set(held.map((c) => c.id));
  const kept = new Set<string>();
  const issue: RaceChip[] = [];
  const written = (field: "chip" | "chip_list", text: string): string | { problem: string } => {
    const now = depotChipOf(book, text);
    if (now === null) return text;
    kept.add(now.id);
    if (heldIds.has(now.id) || issue.includes(now)) return now.hexCode;
    const problem = refusal(now);
    if (problem) return { problem: field === "chip" ? problem : `${now.hexCode}: ${problem}` };
    if (racerId === null || now.issuedRacerId !== racerId) issue.push(now);
    return now.hexCode;
  };
  const chip = after.chip ? written("chip", after.chip) : after.chip;
  if (chip !== null && typeof chip === "object") return { ok: false, field: "chip", problem: chip.problem };
  const list: string[] = [];
  for (const text of after.chip_list) {
    const one = written("chip_list", text);
    if (typeof one === "object") return { ok: false, field: "chip_list", problem: one.problem };
    list.push(one);
  }
  // Only a chip the depot issued to this racer goes back: a chip issued to someone else stays theirs.
  const giveBack = [...new Map(held.map((c) => [c.id, c])).values()].filter(
    (c) => !kept.has(c.id) && racerId !== null && c.rackId === null && c.issuedRacerId === racerId,
  );
  return { ok: true, chips: { chip, chip_list: list }, issue, giveBack };
}

/** One chip set from `before` to `after`, the racer's other chips aside (the racer form's Chip alone, an import's row). */
export const oneChip = (chip: string | null): RacerChips => ({ chip, chip_list: [] });
