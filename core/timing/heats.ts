/**
 * Sprint heats (timing.md sections 2-4, "Heats"): from the qualifier's ranking and what timers enter for
 * each heat, the bracket (who sits in each heat, places, who goes on) and the final ranking. Pure: the
 * RaceRoom stores the entered results and the frozen qualifier order, and derives all of this again.
 */
import { TimingError } from "./errors";
import { parseSlot, type HeatFormat } from "./heat-formats";
import type { Micros } from "./model";
import { truncateMicros } from "../time/truncate";

export type HeatStatus = "dns" | "dnf" | "dsq";

/** What a timer entered for one heat (the Heat document's result fields). */
export interface HeatOutcome {
  /** Racer ids of the finishers, first across the line first. */
  finishOrder: readonly string[];
  /** Heat times of finishers (timed heats); untimed heats leave it empty. */
  times: Readonly<Record<string, Micros>>;
  statuses: Readonly<Record<string, HeatStatus>>;
  /** tie_list: racers the photo finish could not separate; each group shares one place. */
  ties: readonly (readonly string[])[];
  complete: boolean;
}

export interface BracketInput {
  format: HeatFormat;
  /** Racer ids by qualifier rank, best first (frozen when the heats were seeded). */
  qualifiers: readonly string[];
  outcomes: Readonly<Record<string, HeatOutcome>>;
  /** is_dynamic_heats: seats won by place fill as soon as that heat is done, not when the whole round is. */
  dynamic: boolean;
  /** Decimal places compared for time ties. */
  calcPrecision: number;
}

export interface BracketEntry {
  /** null: the seat is not decided yet (or the field was too small to fill it). */
  racerId: string | null;
  /** The seat as the format names it: Q4, QF1:2, LL1. */
  seat: string;
  qualifierRank: number | null;
  /** Place in the heat; racers tied share it. null before the result or for a non-finisher. */
  place: number | null;
  time: Micros | null;
  status: HeatStatus | null;
  /**
   * How the racer goes on, once that is known: by place, as a lucky loser (a seat given on heat time, or on
   * qualifier rank in an untimed round, into the next round or the A-Final), or into a lower final (rank
   * index above 0, the B-Final), which is not going on and never marks a lucky loser.
   */
  advances: Advance | null;
}

export type Advance = "place" | "lucky" | "lower";

export interface BracketHeat {
  key: string;
  round: number;
  roundName: string;
  name: string;
  canonicalName: string;
  rankIndex: number;
  /** In seat order before the result, in finishing order after it. */
  entries: BracketEntry[];
  /** Every seat is decided, so the heat can be raced. */
  ready: boolean;
  complete: boolean;
}

export interface BracketRound {
  round: number;
  name: string;
  heats: BracketHeat[];
  complete: boolean;
  /** Every finisher of the round has a heat time, so lucky losers go by heat time (else by qualifier rank). */
  timed: boolean;
}

export interface FinalRank {
  racerId: string;
  rank: number;
  /** 0: the qualifier only. */
  roundReached: number;
  heatKey: string | null;
  place: number | null;
  status: HeatStatus | null;
  qualifierRank: number;
}

export interface Bracket {
  rounds: BracketRound[];
  ranking: FinalRank[];
}

/** A heat's key: its round and canonical name ("r1-QF3"), unique within a start group. */
export const heatKey = (round: number, canonicalName: string): string => `r${round}-${canonicalName}`;

/** A missing qualifier rank sorts after every real one (timing.md section 4). */
export const MISSING_QUALIFIER_RANK = Number.MAX_SAFE_INTEGER;

const STATUS_ORDER: Record<HeatStatus, number> = { dnf: 0, dsq: 1, dns: 2 };

interface Standing {
  racerId: string;
  place: number | null;
  time: Micros | null;
  status: HeatStatus | null;
}

/**
 * A finished heat's standings in advancement order. Finishers keep the order entered; a tie (tie_list, or
 * equal heat times at calc precision) shares the place, and within a tie the better qualifier goes first,
 * so a cut that falls inside a photo finish goes to the better qualifier. Racers seated but not in the
 * finish order did not finish (unless marked dns or dsq) and come last: dnf, dsq, dns, then by qualifier.
 */
export function heatStandings(seated: readonly string[], outcome: HeatOutcome, qualifierRank: (racerId: string) => number, calcPrecision: number): Standing[] {
  const inHeat = new Set(seated);
  const tieGroup = new Map<string, number>();
  outcome.ties.forEach((group, i) => group.forEach((id) => tieGroup.set(id, i)));
  const finishers = outcome.finishOrder.filter((id) => inHeat.has(id) && !outcome.statuses[id]);
  const timeOf = (id: string) => (outcome.times[id] === undefined ? null : truncateMicros(outcome.times[id]!, calcPrecision));
  const tiedWithPrevious = (id: string, previous: string) => {
    const group = tieGroup.get(id);
    if (group !== undefined && group === tieGroup.get(previous)) return true;
    const [a, b] = [timeOf(id), timeOf(previous)];
    return a !== null && a === b;
  };
  // Runs of tied finishers, each run then ordered by qualifier rank.
  const runs: string[][] = [];
  finishers.forEach((id, i) => {
    if (i > 0 && tiedWithPrevious(id, finishers[i - 1]!)) runs[runs.length - 1]!.push(id);
    else runs.push([id]);
  });
  const standings: Standing[] = [];
  for (const run of runs) {
    const place = standings.length + 1;
    for (const id of [...run].sort((a, b) => qualifierRank(a) - qualifierRank(b)))
      standings.push({ racerId: id, place, time: outcome.times[id] ?? null, status: null });
  }
  const others = seated
    .filter((id) => !finishers.includes(id))
    .map((id) => ({ racerId: id, place: null, time: null, status: outcome.statuses[id] ?? ("dnf" as const) }))
    .sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || qualifierRank(a.racerId) - qualifierRank(b.racerId));
  return [...standings, ...others];
}

/** Builds the bracket: every round's seats, results and who goes on, and the final ranking so far. */
export function buildBracket(input: BracketInput): Bracket {
  const { format } = input;
  const rankOf = new Map(input.qualifiers.map((id, i) => [id, i + 1]));
  const qualifierRank = (id: string) => rankOf.get(id) ?? MISSING_QUALIFIER_RANK;
  const rounds: BracketRound[] = [];
  // Standings of each finished heat of the round before, by canonical name.
  let previous: { round: BracketRound; standings: Map<string, Standing[]>; luckyOrder: string[] | null; taken: Set<string> } | null = null;

  format.rounds.forEach((defn, r) => {
    const roundNumber = r + 1;
    const heats: BracketHeat[] = [];
    const standingsByHeat = new Map<string, Standing[]>();
    for (const heatDefn of defn.heats) {
      const key = heatKey(roundNumber, heatDefn.canonical_name);
      const seats = heatDefn.slots.map((seat) => ({ seat, ...seatHolder(seat, input, previous) }));
      const seated = seats.map((s) => s.racerId).filter((id): id is string => id !== null);
      // A seat the field cannot fill (a small field, or too few left) does not hold the heat up.
      const ready = seats.every((s) => s.racerId !== null || s.unfillable) && seated.length > 0;
      const outcome = input.outcomes[key];
      const complete = ready && outcome !== undefined && outcome.complete;
      let entries: BracketEntry[];
      if (complete) {
        const standings = heatStandings(seated, outcome, qualifierRank, input.calcPrecision);
        standingsByHeat.set(heatDefn.canonical_name, standings);
        const seatOf = new Map(seats.filter((s) => s.racerId).map((s) => [s.racerId!, s.seat]));
        entries = standings.map((s) => ({
          racerId: s.racerId,
          seat: seatOf.get(s.racerId)!,
          qualifierRank: rankOf.get(s.racerId) ?? null,
          place: s.place,
          time: s.time,
          status: s.status,
          advances: null,
        }));
      } else {
        entries = seats.map((s) => ({
          racerId: s.racerId,
          seat: s.seat,
          qualifierRank: s.racerId ? (rankOf.get(s.racerId) ?? null) : null,
          place: null,
          time: null,
          status: null,
          advances: null,
        }));
      }
      heats.push({
        key,
        round: roundNumber,
        roundName: defn.name,
        name: heatDefn.name,
        canonicalName: heatDefn.canonical_name,
        rankIndex: heatDefn.rank_index,
        entries,
        ready,
        complete,
      });
    }
    const complete = heats.every((h) => h.complete);
    const finishers = [...standingsByHeat.values()].flat().filter((s) => s.place !== null);
    const round: BracketRound = {
      round: roundNumber,
      name: defn.name,
      heats,
      complete,
      timed: finishers.length > 0 && finishers.every((s) => s.time !== null),
    };
    rounds.push(round);

    // Who the next round takes by place, and the order lucky losers are picked in once the round is done.
    const next = format.rounds[r + 1];
    const taken = new Set<string>();
    for (const h of next?.heats ?? []) {
      for (const seat of h.slots) {
        const slot = parseSlot(seat);
        if (slot?.kind === "place") taken.add(`${slot.heat}:${slot.place}`);
      }
    }
    let luckyOrder: string[] | null = null;
    if (complete) {
      const pool: Standing[] = [];
      for (const [canonical, standings] of standingsByHeat) standings.forEach((s, i) => !taken.has(`${canonical}:${i + 1}`) && pool.push(s));
      luckyOrder = pool.sort((a, b) => compareLucky(a, b, round.timed, qualifierRank)).map((s) => s.racerId);
    }
    previous = { round, standings: standingsByHeat, luckyOrder, taken };
  });

  markAdvances(rounds);
  return { rounds, ranking: finalRanking(rounds, input.qualifiers) };
}

/** Lucky losers: finishers before non-finishers; by heat time in a timed round, else by qualifier rank. */
function compareLucky(a: Standing, b: Standing, timed: boolean, qualifierRank: (id: string) => number): number {
  const finished = Number(a.place === null) - Number(b.place === null);
  if (finished !== 0) return finished;
  if (timed && a.time !== null && b.time !== null && a.time !== b.time) return a.time - b.time;
  return qualifierRank(a.racerId) - qualifierRank(b.racerId);
}

function seatHolder(
  seat: string,
  input: BracketInput,
  previous: { round: BracketRound; standings: Map<string, Standing[]>; luckyOrder: string[] | null } | null,
): { racerId: string | null; unfillable: boolean } {
  const slot = parseSlot(seat);
  if (!slot) return { racerId: null, unfillable: true };
  if (slot.kind === "seed") {
    const racerId = input.qualifiers[slot.rank - 1] ?? null;
    return { racerId, unfillable: racerId === null };
  }
  if (!previous) return { racerId: null, unfillable: true };
  if (slot.kind === "lucky") {
    if (!previous.luckyOrder) return { racerId: null, unfillable: false };
    const racerId = previous.luckyOrder[slot.n - 1] ?? null;
    return { racerId, unfillable: racerId === null };
  }
  // By place: only once that heat is done, and (unless heats are dynamic) once its whole round is.
  const standings = previous.standings.get(slot.heat);
  if (!standings || (!input.dynamic && !previous.round.complete)) return { racerId: null, unfillable: false };
  const racerId = standings[slot.place - 1]?.racerId ?? null;
  return { racerId, unfillable: racerId === null };
}

/** How a seat of the next round was won: a lower heat's seat (the B-Final's LL3…) is no lucky loser's. */
function advanceInto(heat: BracketHeat, seat: string): Advance {
  if (heat.rankIndex > 0) return "lower";
  return parseSlot(seat)?.kind === "lucky" ? "lucky" : "place";
}

/** Marks, in each heat, the racers the next round has seated, and how they got there. */
function markAdvances(rounds: BracketRound[]): void {
  rounds.forEach((round, r) => {
    const next = rounds[r + 1];
    if (!next) return;
    const how = new Map<string, Advance>();
    for (const h of next.heats) for (const e of h.entries) if (e.racerId) how.set(e.racerId, advanceInto(h, e.seat));
    for (const h of round.heats) for (const e of h.entries) if (e.racerId && how.has(e.racerId)) e.advances = how.get(e.racerId)!;
  });
}

/**
 * The event's ranking (timing.md: final ranking): the finalists by place, the B-Final below the A-Final;
 * then everyone else by the round they reached, their place in their heat, then qualifier rank; then those
 * who raced only the qualifier, by qualifier rank. A tie in a final heat shares the rank.
 */
export function finalRanking(rounds: readonly BracketRound[], qualifiers: readonly string[]): FinalRank[] {
  const lastSeat = new Map<string, { round: number; heat: BracketHeat; entry: BracketEntry }>();
  for (const round of rounds)
    for (const heat of round.heats) for (const entry of heat.entries) if (entry.racerId) lastSeat.set(entry.racerId, { round: round.round, heat, entry });
  const lastRound = rounds.length;
  const rows = qualifiers.map((racerId, i) => {
    const seat = lastSeat.get(racerId);
    const round = seat?.round ?? 0;
    const place = seat?.heat.complete ? seat.entry.place : null;
    const status = seat?.heat.complete ? seat.entry.status : null;
    const placeKey = place ?? 1000 + (status ? STATUS_ORDER[status] : 3);
    // In the final round the heat (A before B) and the place decide; racers tied there share the rank.
    const rankKey = round === 0 ? [0, i + 1] : round === lastRound ? [-round, seat!.heat.rankIndex, placeKey] : [-round, placeKey, i + 1];
    return { racerId, round, heatKey: seat?.heat.key ?? null, place, status, qualifierRank: i + 1, rankKey, sortKey: [...rankKey, i + 1] };
  });
  rows.sort((a, b) => compareNumbers(a.sortKey, b.sortKey));
  let rank = 0;
  return rows.map((row, i) => {
    if (i === 0 || compareNumbers(rows[i - 1]!.rankKey, row.rankKey) !== 0) rank = i + 1;
    return {
      racerId: row.racerId,
      rank,
      roundReached: row.round,
      heatKey: row.heatKey,
      place: row.place,
      status: row.status,
      qualifierRank: row.qualifierRank,
    };
  });
}

function compareNumbers(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * One round of the bracket by number. Rounds count from 1 (the qualifier is not a round here), and a round
 * none of whose heats has its racers yet has not been calculated.
 */
export function roundOf(bracket: Bracket, roundNumber: number): BracketRound {
  if (!Number.isInteger(roundNumber) || roundNumber < 1) throw new TimingError("roundNumberStart", String(roundNumber));
  const round = bracket.rounds[roundNumber - 1];
  if (!round || !round.heats.some((h) => h.ready)) throw new TimingError("roundBeforeCalculation", `round ${roundNumber}`);
  return round;
}

/** Heats within a round by rank index (the B-Final below the A-Final), then by ordinal or scheduled start. */
export function compareHeats<T extends { round: number; rankIndex: number; ordinal: number; scheduledStart: Micros | null }>(sortBy: "ordinal" | "time") {
  return (a: T, b: T): number =>
    a.round - b.round ||
    a.rankIndex - b.rankIndex ||
    (sortBy === "time" ? (a.scheduledStart ?? Infinity) - (b.scheduledStart ?? Infinity) || a.ordinal - b.ordinal : a.ordinal - b.ordinal);
}

export interface HeatScheduleGroup {
  id: string;
  /** Heats in each round, first round first. */
  heatsPerRound: readonly number[];
}

export interface ScheduledHeat {
  groupId: string;
  round: number;
  /** 0-based position of the heat in its round. */
  index: number;
  start: Micros;
}

/**
 * Automatic heat scheduling (is_auto_heat_scheduling): heats go `interval` apart; the start groups run in
 * blocks of `groupCount` (heat_group_count; all together when null), each block round by round, the groups of
 * the block taking turns within a round. A racer's next heat starts at least `minRest` after the start of
 * their group's last heat in the round before (heat lengths are not known in advance, starts are).
 */
export function scheduleHeats(
  groups: readonly HeatScheduleGroup[],
  options: { firstStart: Micros; interval: Micros; minRest: Micros; groupCount: number | null },
): ScheduledHeat[] {
  const blockSize = options.groupCount && options.groupCount > 0 ? options.groupCount : Math.max(groups.length, 1);
  const schedule: ScheduledHeat[] = [];
  let cursor = options.firstStart;
  for (let b = 0; b < groups.length; b += blockSize) {
    const block = groups.slice(b, b + blockSize);
    const rounds = Math.max(0, ...block.map((g) => g.heatsPerRound.length));
    const lastStartOfRound = new Map<string, Micros>();
    for (let r = 0; r < rounds; r++) {
      for (const group of block) {
        const count = group.heatsPerRound[r] ?? 0;
        const earliest = r > 0 && lastStartOfRound.has(group.id) ? lastStartOfRound.get(group.id)! + options.minRest : cursor;
        for (let i = 0; i < count; i++) {
          const start = i === 0 ? Math.max(cursor, earliest) : cursor;
          schedule.push({ groupId: group.id, round: r + 1, index: i, start });
          cursor = start + options.interval;
          lastStartOfRound.set(group.id, start);
        }
      }
    }
  }
  return schedule;
}
