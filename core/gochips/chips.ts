/**
 * GoChips' rules (decision 0068): what a hex code is, reading an Activator's CSV of the codes that answered,
 * what a test does to each chip (a chip that fails twice is faulty), loading chips into a rack's free slots,
 * a racer's chips after a replacement at a race, and where a chip is in the depot's books (decision 0073). Pure:
 * the depot and race services read and write.
 */
import type { Invalid } from "../time/parse";

export const GOCHIP_STATUSES = ["untested", "ok", "faulty", "lost"] as const;
export type GochipStatus = (typeof GOCHIP_STATUSES)[number];

export const GOCHIP_STATUS_LABELS: Readonly<Record<GochipStatus, string>> = {
  untested: "Untested",
  ok: "Good",
  faulty: "Faulty",
  lost: "Lost",
};

export const REPLACEMENT_REASONS = ["lost", "faulty"] as const;
export type ReplacementReason = (typeof REPLACEMENT_REASONS)[number];

/** Failed tests that make a chip faulty. */
export const FAILURES_TO_FAULTY = 2;
/** A racer's chip_list holds at most this many chips (schema/race/racer.ts). */
const MAX_CHIP_LIST = 10;

export const GOCHIP_MESSAGES = {
  hex: "A hex code is 4 to 32 hexadecimal digits (0-9, A-F)",
  noCodes: "The file has no hex codes: one per line, or in the first column",
  badLines: (lines: readonly number[]) => `These lines are not hex codes: ${lines.slice(0, 10).join(", ")}${lines.length > 10 ? " …" : ""}`,
  noRoom: (room: number, from: number) => `The rack has room for only ${room} more ${room === 1 ? "chip" : "chips"} from slot ${from}`,
  slotRange: (slots: number) => `Choose a slot from 1 to ${slots}`,
  duplicate: "A chip with this hex code is already in this depot",
  sameChip: "The new chip is the racer's chip already",
  faulty: "This chip is marked faulty: take another",
  lost: "This chip is marked lost: take another",
  otherDepot: "Choose a rack, lot or shipment of this depot",
  slotNeedsRack: "A chip in a slot needs its rack",
} as const;

/** "0x00a1 b2" → "00A1B2": spaces, colons and dashes dropped, upper case; anything else is refused. */
export function normaliseHex(text: string): string | Invalid {
  const code = text
    .trim()
    .replace(/^0x/i, "")
    .replace(/[\s:-]+/g, "")
    .toUpperCase();
  return /^[0-9A-F]{4,32}$/.test(code) ? code : { error: GOCHIP_MESSAGES.hex };
}

/**
 * The codes in an Activator's export or a typed list: one per line, the first cell of a CSV row (a "Hex Code"
 * header line skipped), each once. Lines that hold no hex code are reported by number, never guessed at.
 */
export function parseHexList(text: string): { codes: string[]; badLines: number[] } {
  const codes = new Set<string>();
  const badLines: number[] = [];
  text
    .replace(/^\uFEFF/, "")
    .split(/\r\n|\r|\n/)
    .forEach((line, index) => {
      const cell = (line.split(/[,;\t]/)[0] ?? "").trim().replace(/^"(.*)"$/, "$1");
      if (cell === "") return;
      const code = normaliseHex(cell);
      if (typeof code === "string") codes.add(code);
      else if (!(index === 0 && /[g-z]/i.test(cell))) badLines.push(index + 1);
    });
  return { codes: [...codes], badLines };
}

export interface TestedChip {
  hexCode: string;
  status: GochipStatus;
  failures: number;
}

export interface TestOutcome {
  /** Each tested chip after the test (a lost chip that did not answer is not tested). */
  chips: TestedChip[];
  answered: string[];
  silent: string[];
  /** Codes that answered but are none of the chips tested. */
  unknown: string[];
}

/**
 * A test over a rack's chips: a chip that answers is good (a lost one is found), one that does not counts a
 * failure, and the second failure makes it faulty. Faulty stays faulty: only staff clear it by hand.
 */
export function testOutcome(chips: readonly TestedChip[], answeredCodes: Iterable<string>): TestOutcome {
  const answered = new Set(answeredCodes);
  const known = new Set(chips.map((c) => c.hexCode));
  const after: TestedChip[] = [];
  const heard: string[] = [];
  const silent: string[] = [];
  for (const chip of chips) {
    if (answered.has(chip.hexCode)) {
      heard.push(chip.hexCode);
      after.push({ ...chip, status: chip.status === "faulty" || chip.failures >= FAILURES_TO_FAULTY ? "faulty" : "ok" });
    } else if (chip.status !== "lost") {
      silent.push(chip.hexCode);
      const failures = chip.failures + 1;
      after.push({ hexCode: chip.hexCode, failures, status: failures >= FAILURES_TO_FAULTY ? "faulty" : chip.status });
    }
  }
  return { chips: after, answered: heard, silent, unknown: [...answered].filter((c) => !known.has(c)) };
}

/**
 * Loading chips into a rack: each code takes the next free slot from `from` on, in the order given; refused
 * when the rack has too little room from there.
 */
export function slotsFor(slotCount: number, taken: ReadonlySet<number>, from: number, codes: readonly string[]): Map<string, number> | Invalid {
  if (!Number.isInteger(from) || from < 1 || from > slotCount) return { error: GOCHIP_MESSAGES.slotRange(slotCount) };
  const free: number[] = [];
  for (let slot = from; slot <= slotCount; slot++) if (!taken.has(slot)) free.push(slot);
  if (free.length < codes.length) return { error: GOCHIP_MESSAGES.noRoom(free.length, from) };
  return new Map(codes.map((code, i) => [code, free[i]!]));
}

/** Why a chip cannot replace a racer's chip; null when it can. `status` is the new chip's at the depot, null when no depot knows it. */
export function replacementProblem(oldChip: string | null, newChip: string, status: GochipStatus | null): string | null {
  if (oldChip !== null && oldChip.toUpperCase() === newChip.toUpperCase()) return GOCHIP_MESSAGES.sameChip;
  if (status === "faulty") return GOCHIP_MESSAGES.faulty;
  if (status === "lost") return GOCHIP_MESSAGES.lost;
  return null;
}

/**
 * A racer's chips after a replacement: the new chip is their chip, and the old one stays on their list so the
 * reads it gave before are still theirs (and nobody else in the race can be given it). The oldest drop past 10.
 */
export function chipsAfterReplacement(racer: { chip: string | null; chip_list: readonly string[] }, newChip: string): { chip: string; chip_list: string[] } {
  const kept = [...racer.chip_list, ...(racer.chip ? [racer.chip] : [])].filter((c) => c !== newChip);
  return { chip: newChip, chip_list: [...new Set(kept)].slice(-MAX_CHIP_LIST) };
}

/** Where a chip is in the depot's books (decision 0073; the spec names none of these words). */
export const CHIP_PLACES = ["rack", "issued", "not_returned", "loose"] as const;
export type ChipPlace = (typeof CHIP_PLACES)[number];

export const CHIP_PLACE_LABELS: Readonly<Record<ChipPlace, string>> = {
  rack: "In its rack",
  issued: "Issued at the race",
  not_returned: "Not returned",
  loose: "Not in a rack",
};

/** Shipment states in which what went out has come back to the depot. */
const BACK_STATES: ReadonlySet<string> = new Set(["returned", "closed"]);

/**
 * A chip in a rack is in its rack whatever it was before; an issued one is "issued" while its rack's shipment is
 * out and "not returned" once that shipment is back (or gone); else it is loose at the depot.
 */
export function chipPlace(chip: { rackId: string | null; issuedAt: number | null }, issuedShipmentState: string | null): ChipPlace {
  if (chip.rackId !== null) return "rack";
  if (chip.issuedAt === null) return "loose";
  return issuedShipmentState === null || BACK_STATES.has(issuedShipmentState) ? "not_returned" : "issued";
}
