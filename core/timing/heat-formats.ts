/**
 * Sprint heat formats as data (timing.md: Race heat_format_dict and default_heat_format). A format is the
 * rounds after the qualifier; each heat lists its seats ("slots") in seed order:
 * - "Q4": the 4th ranked qualifier (first round only);
 * - "QF1:2": second place in heat QF1 of the round before (by canonical name);
 * - "LL1": the first lucky loser of the round before (see heats.ts for how they are ordered).
 * Formats are plain JSON, so an organiser's own formats live in heat_format_dict beside the built-in ones.
 */

export interface HeatDefn {
  name: string;
  /** The short name the bracket and references use (QF1, SF2, A-Final, B-Final). */
  canonical_name: string;
  /** Finals of a round sort by it (A-Final 0, B-Final 1): the B-Final sorts below the A-Final. */
  rank_index: number;
  slots: string[];
}

export interface RoundDefn {
  name: string;
  heats: HeatDefn[];
}

export interface HeatFormat {
  name: string;
  /** How many qualifiers the format takes into its first round. */
  size: number;
  rounds: RoundDefn[];
}

export type Slot = { kind: "seed"; rank: number } | { kind: "place"; heat: string; place: number } | { kind: "lucky"; n: number };

/** "Q4" | "QF1:2" | "LL1" as a Slot, or null when the text is none of them. */
export function parseSlot(text: string): Slot | null {
  const seed = /^Q(\d{1,4})$/.exec(text);
  if (seed) return Number(seed[1]) >= 1 ? { kind: "seed", rank: Number(seed[1]) } : null;
  const lucky = /^LL(\d{1,3})$/.exec(text);
  if (lucky) return Number(lucky[1]) >= 1 ? { kind: "lucky", n: Number(lucky[1]) } : null;
  const place = /^(.{1,40}):(\d{1,2})$/.exec(text);
  if (place && Number(place[2]) >= 1) return { kind: "place", heat: place[1]!, place: Number(place[2]) };
  return null;
}

/**
 * A seat as the bracket shows it before it is decided. A lucky-loser number in a lower heat (the B-Final's
 * LL3…LL8) only orders the others of the round before; those racers are not lucky losers, so it never reads "LL".
 */
export function seatInWords(seat: string, inLowerHeat: boolean): { text: string; title: string } {
  const slot = parseSlot(seat);
  if (!slot) return { text: seat, title: seat };
  if (slot.kind === "seed") return { text: seat, title: `Qualifier rank ${slot.rank}` };
  if (slot.kind === "place") return { text: seat, title: `Place ${slot.place} in ${slot.heat}` };
  if (inLowerHeat) return { text: "Next", title: "Next best of the round before, after those who went on" };
  return { text: seat, title: `Lucky loser ${slot.n}` };
}

const qualifiers = (...ranks: number[]) => ranks.map((r) => `Q${r}`);
const top = (heat: string, count: number) => Array.from({ length: count }, (_, i) => `${heat}:${i + 1}`);
const lucky = (...ns: number[]) => ns.map((n) => `LL${n}`);

/** Seeds dealt to heats back and forth (1 2 3 / 6 5 4 / 7 8 9 …), so every heat gets a fair mix. */
function snake(heatCount: number, heatSize: number): number[][] {
  const heats: number[][] = Array.from({ length: heatCount }, () => []);
  for (let row = 0; row < heatSize; row++) {
    for (let i = 0; i < heatCount; i++) {
      const heat = row % 2 === 0 ? i : heatCount - 1 - i;
      heats[heat]!.push(row * heatCount + i + 1);
    }
  }
  return heats;
}

const heat = (name: string, canonical: string, slots: string[], rankIndex = 0): HeatDefn => ({ name, canonical_name: canonical, rank_index: rankIndex, slots });

/** A final of six from two semifinals: the top two of each and the two fastest others; the next six race the B-Final. */
function finalsFromTwoSemis(withBFinal: boolean): RoundDefn {
  const heats = [heat("A-Final", "A-Final", [...top("SF1", 2), ...top("SF2", 2), ...lucky(1, 2)])];
  if (withBFinal) heats.push(heat("B-Final", "B-Final", lucky(3, 4, 5, 6, 7, 8), 1));
  return { name: "Finals", heats };
}

function quarterfinals(seeds: number[][]): RoundDefn {
  return { name: "Quarterfinals", heats: seeds.map((s, i) => heat(`Quarterfinal ${i + 1}`, `QF${i + 1}`, qualifiers(...s))) };
}

function semifinals(slots: string[][]): RoundDefn {
  return { name: "Semifinals", heats: slots.map((s, i) => heat(`Semifinal ${i + 1}`, `SF${i + 1}`, s)) };
}

/**
 * The standard 30-racer format (the FIS sprint table): five quarterfinals of six seeded from the
 * qualifier; the top two of each and the two fastest others (lucky losers) make two semifinals of six;
 * the same again makes the final of six, and the rest of the semifinalists race the B-Final.
 */
const FIS_QUARTERFINAL_SEEDS = [
  [1, 10, 11, 20, 21, 30],
  [4, 7, 14, 17, 24, 27],
  [5, 6, 15, 16, 25, 26],
  [2, 9, 12, 19, 22, 29],
  [3, 8, 13, 18, 23, 28],
];

function builtIns(withBFinal: boolean): Record<string, HeatFormat> {
  return {
    "6": { name: "6 racers: final only", size: 6, rounds: [{ name: "Finals", heats: [heat("A-Final", "A-Final", qualifiers(1, 2, 3, 4, 5, 6))] }] },
    "12": {
      name: "12 racers: semifinals and finals",
      size: 12,
      rounds: [semifinals(snake(2, 6).map((s) => qualifiers(...s))), finalsFromTwoSemis(withBFinal)],
    },
    "24": {
      name: "24 racers: quarterfinals, semifinals and finals",
      size: 24,
      rounds: [
        quarterfinals(snake(4, 6)),
        semifinals([
          [...top("QF1", 2), ...top("QF2", 2), ...lucky(1, 4)],
          [...top("QF3", 2), ...top("QF4", 2), ...lucky(2, 3)],
        ]),
        finalsFromTwoSemis(withBFinal),
      ],
    },
    "30": {
      name: "30 racers: quarterfinals, semifinals and finals (standard)",
      size: 30,
      rounds: [
        quarterfinals(FIS_QUARTERFINAL_SEEDS),
        semifinals([
          [...top("QF1", 2), ...top("QF2", 2), ...lucky(1, 2)],
          [...top("QF3", 2), ...top("QF4", 2), ...top("QF5", 2)],
        ]),
        finalsFromTwoSemis(withBFinal),
      ],
    },
    "36": {
      name: "36 racers: quarterfinals, semifinals and finals",
      size: 36,
      rounds: [
        quarterfinals(snake(6, 6)),
        semifinals([
          [...top("QF1", 2), ...top("QF2", 2), ...top("QF3", 2)],
          [...top("QF4", 2), ...top("QF5", 2), ...top("QF6", 2)],
        ]),
        finalsFromTwoSemis(withBFinal),
      ],
    },
  };
}

/** The built-in formats by key; "30" is the standard. Each also comes without its B-Final ("30-no-b"). */
export const BUILT_IN_HEAT_FORMATS: Readonly<Record<string, HeatFormat>> = {
  ...builtIns(true),
  ...Object.fromEntries(
    Object.entries(builtIns(false))
      .filter(([key]) => key !== "6")
      .map(([key, f]) => [`${key}-no-b`, { ...f, name: `${f.name}, no B-Final` }]),
  ),
};

export const STANDARD_HEAT_FORMAT = "30";

/** The built-in formats and the race's own (heat_format_dict), the race's winning on a shared key. */
export function availableHeatFormats(dict: Readonly<Record<string, unknown>>): Record<string, HeatFormat> {
  const own: Record<string, HeatFormat> = {};
  for (const [key, value] of Object.entries(dict)) if (heatFormatProblems(value).length === 0) own[key] = value as HeatFormat;
  return { ...BUILT_IN_HEAT_FORMATS, ...own };
}

/**
 * The format a start group runs: its own, else the race's default_heat_format, else the largest built-in
 * format with B-Final that the field fills (so no seat is empty), else the smallest one.
 */
export function chooseHeatFormat(
  formats: Readonly<Record<string, HeatFormat>>,
  keys: readonly (string | null | undefined)[],
  fieldSize: number,
): { key: string; format: HeatFormat } {
  for (const key of keys) if (key && formats[key]) return { key, format: formats[key] };
  const standard = Object.entries(BUILT_IN_HEAT_FORMATS)
    .filter(([key]) => !key.endsWith("-no-b"))
    .sort(([, a], [, b]) => a.size - b.size);
  const fits = standard.filter(([, f]) => f.size <= fieldSize);
  const [key, format] = fits.length > 0 ? fits[fits.length - 1]! : standard[0]!;
  return { key, format };
}

/**
 * What is wrong with a format (empty when nothing): the first round takes only qualifiers, later rounds
 * only places in the round before and lucky losers numbered 1, 2, 3… with no seat twice.
 */
export function heatFormatProblems(value: unknown): string[] {
  const problems: string[] = [];
  const format = value as Partial<HeatFormat> | null;
  if (!format || typeof format !== "object") return ["A heat format must be an object with name, size and rounds"];
  if (typeof format.name !== "string" || format.name.trim() === "") problems.push("A heat format needs a name");
  if (!Number.isInteger(format.size) || (format.size as number) < 2 || (format.size as number) > 200)
    problems.push("Size must be a whole number from 2 to 200");
  if (!Array.isArray(format.rounds) || format.rounds.length === 0) return [...problems, "A heat format needs at least one round"];
  let previous: RoundDefn | null = null;
  format.rounds.forEach((round, r) => {
    const label = `Round ${r + 1}`;
    if (!round || typeof round.name !== "string" || !Array.isArray(round.heats) || round.heats.length === 0) {
      problems.push(`${label} needs a name and at least one heat`);
      return;
    }
    const previousHeats = new Map((previous?.heats ?? []).map((h) => [h.canonical_name, h.slots.length]));
    const seen = new Set<string>();
    const luckyNumbers: number[] = [];
    const names = new Set<string>();
    for (const h of round.heats) {
      if (!h || typeof h.canonical_name !== "string" || h.canonical_name === "" || !Array.isArray(h.slots) || typeof h.name !== "string") {
        problems.push(`${label}: every heat needs a name, a canonical name and its seats`);
        continue;
      }
      if (names.has(h.canonical_name)) problems.push(`${label}: two heats are called ${h.canonical_name}`);
      names.add(h.canonical_name);
      if (!Number.isInteger(h.rank_index) || h.rank_index < 0) problems.push(`${h.canonical_name}: rank index must be a whole number from 0`);
      if (h.slots.length < 2) problems.push(`${h.canonical_name}: a heat needs at least 2 seats`);
      for (const text of h.slots) {
        const slot = typeof text === "string" ? parseSlot(text) : null;
        if (!slot) problems.push(`${h.canonical_name}: “${String(text)}” is not a seat (Q4, QF1:2 or LL1)`);
        else if (seen.has(text)) problems.push(`${h.canonical_name}: seat ${text} is used twice`);
        else if (slot.kind === "seed" && r > 0) problems.push(`${h.canonical_name}: qualifier seats (${text}) belong in the first round`);
        else if (slot.kind === "seed" && slot.rank > (format.size as number)) problems.push(`${h.canonical_name}: ${text} is beyond the format's size`);
        else if (slot.kind !== "seed" && r === 0) problems.push(`${h.canonical_name}: the first round takes qualifiers only (${text})`);
        else if (slot.kind === "place" && !previousHeats.has(slot.heat)) problems.push(`${h.canonical_name}: ${slot.heat} is not a heat of the round before`);
        else if (slot.kind === "place" && slot.place > previousHeats.get(slot.heat)!)
          problems.push(`${h.canonical_name}: ${slot.heat} has no place ${slot.place}`);
        else if (slot.kind === "lucky") luckyNumbers.push(slot.n);
        seen.add(String(text));
      }
    }
    luckyNumbers.sort((a, b) => a - b);
    if (luckyNumbers.some((n, i) => n !== i + 1)) problems.push(`${label}: lucky losers must be numbered 1, 2, 3… without gaps`);
    const previousSeats = [...previousHeats.values()].reduce((sum, n) => sum + n, 0);
    const byPlace = [...seen].filter((t) => parseSlot(t)?.kind === "place").length;
    if (previous && luckyNumbers.length > previousSeats - byPlace) problems.push(`${label}: more lucky losers than racers left in the round before`);
    previous = round;
  });
  return problems;
}
