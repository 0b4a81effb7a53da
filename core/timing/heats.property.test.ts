/**
 * Sprint heats on random fields and results (fast-check): every built-in format's first round is a serpentine
 * draw dealing every qualifier once into heats that differ by at most one racer; each round takes exactly the
 * places its seats name and the best others as lucky losers; no heat holds more than its seats; the ranking
 * follows the round reached; dynamic heats only fill seats sooner. Also what a timer types reads back as
 * entered, standings do not depend on the order ties and seats are listed in, and the schedule keeps its gaps.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readHeatEntry } from "./heat-entry";
import { BUILT_IN_HEAT_FORMATS, chooseHeatFormat, parseSlot, type HeatFormat } from "./heat-formats";
import {
  buildBracket,
  heatStandings,
  scheduleHeats,
  type Bracket,
  type BracketEntry,
  type BracketInput,
  type FinalRank,
  type HeatOutcome,
  type HeatStatus,
} from "./heats";
import { chance, fcParams } from "../testing/fast-check";
import { truncateMicros } from "../time/truncate";

const S = 1_000_000;
const FORMAT_KEYS = Object.keys(BUILT_IN_HEAT_FORMATS);
const ALL_HEATS = Object.values(BUILT_IN_HEAT_FORMATS).flatMap((f) => f.rounds.flatMap((r) => r.heats));
const MOST_SEATS = Math.max(...ALL_HEATS.map((h) => h.slots.length));
const MOST_HEATS = Math.max(...Object.values(BUILT_IN_HEAT_FORMATS).map((f) => f.rounds.flatMap((r) => r.heats).length));
const STATUS_ORDER: Record<HeatStatus, number> = { dnf: 0, dsq: 1, dns: 2 };

/** What happens to the racer in one seat: finishes (in `order`, tied with the one before, `gap` tenths behind) or not. */
const seatFields = {
  order: fc.nat(20),
  status: fc.oneof(
    { withCrossShrink: true },
    { weight: 85, arbitrary: fc.constant("finish" as const) },
    { weight: 15, arbitrary: fc.constantFrom("dnf" as const, "dsq" as const, "dns" as const) },
  ),
  /** A dnf may be left blank (the default) or written. */
  writtenDnf: fc.boolean(),
  tie: chance(0.15),
  gap: fc.integer({ min: 0, max: 30 }),
  untimed: chance(0.05),
};
const seatDraw = fc.record(seatFields);
/** Seats and heats past the drawn ones finish in seat order, untied (so a shrunk case lists only what matters). */
const heatDraw = fc.record({ seats: fc.array(seatDraw, { maxLength: MOST_SEATS, size: "max" }), entered: chance(0.95), complete: chance(0.95) });
const PLAIN_SEAT = { order: 0, status: "finish", writtenDnf: false, tie: false, gap: 10, untimed: false } as const;
const PLAIN_HEAT = { seats: [], entered: true, complete: true };
const bracketDraw = fc.record({
  format: fc.constantFrom(...FORMAT_KEYS),
  /** The field as a percent of the format's size: short fields leave seats empty, long ones race only the qualifier. */
  fieldPercent: fc.oneof({ weight: 1, arbitrary: fc.constant(100) }, { weight: 3, arbitrary: fc.integer({ min: 10, max: 130 }) }),
  timed: fc.boolean(),
  calcPrecision: fc.integer({ min: 0, max: 2 }),
  heats: fc.array(heatDraw, { maxLength: MOST_HEATS, size: "max" }),
});
type BracketDraw = typeof bracketDraw extends fc.Arbitrary<infer T> ? T : never;
type HeatDraw = BracketDraw["heats"][number];

/** The result a timer enters for the racers seated in a heat, as readHeatEntry would store it. */
function outcomeOf(seated: string[], draw: HeatDraw, timed: boolean): HeatOutcome {
  const seats = seated.map((id, i) => ({ id, ...(draw.seats[i] ?? PLAIN_SEAT) }));
  const finishers = seats.filter((s) => s.status === "finish").sort((a, b) => a.order - b.order);
  const statuses: Record<string, HeatStatus> = {};
  for (const s of seats) if (s.status !== "finish" && (s.status !== "dnf" || s.writtenDnf)) statuses[s.id] = s.status;
  const groups: string[][] = [];
  finishers.forEach((f, i) => (i > 0 && f.tie ? groups[groups.length - 1]!.push(f.id) : groups.push([f.id])));
  const times: Record<string, number> = {};
  let time = 170 * S;
  for (const f of finishers) {
    time += (f.gap * S) / 10;
    if (timed && !f.untimed) times[f.id] = time;
  }
  return { finishOrder: finishers.map((f) => f.id), times, statuses, ties: groups.filter((g) => g.length > 1), complete: draw.complete };
}

/** Qualifier "qN" qualified Nth. */
const qualifiersOf = (count: number) => Array.from({ length: count }, (_, i) => `q${i + 1}`);

/** Races the bracket round by round, entering each heat's drawn result once it can be raced. */
function play(draw: BracketDraw, dynamic: boolean): { input: BracketInput; bracket: Bracket } {
  const format = BUILT_IN_HEAT_FORMATS[draw.format]!;
  const input: BracketInput = {
    format,
    qualifiers: qualifiersOf(Math.max(1, Math.round((format.size * draw.fieldPercent) / 100))),
    outcomes: {},
    dynamic,
    calcPrecision: draw.calcPrecision,
  };
  const outcomes: Record<string, HeatOutcome> = {};
  let heatIndex = 0;
  format.rounds.forEach((_, r) => {
    const bracket = buildBracket({ ...input, outcomes });
    for (const heat of bracket.rounds[r]!.heats) {
      const heatDraw = draw.heats[heatIndex++] ?? PLAIN_HEAT;
      if (!heat.ready || !heatDraw.entered) continue;
      outcomes[heat.key] = outcomeOf(
        heat.entries.flatMap((e) => (e.racerId ? [e.racerId] : [])),
        heatDraw,
        draw.timed,
      );
    }
  });
  return { input: { ...input, outcomes }, bracket: buildBracket({ ...input, outcomes }) };
}

const seatedIn = (entries: readonly BracketEntry[]) => entries.flatMap((e) => (e.racerId ? [e.racerId] : []));
const qualifierRank = (id: string) => Number(id.slice(1));

describe("built-in heat formats", () => {
  it("deal the first round as a serpentine: one qualifier from each block of heat-count ranks per heat, equal seed sums", () => {
    for (const [key, format] of Object.entries(BUILT_IN_HEAT_FORMATS)) {
      const heats = format.rounds[0]!.heats.map((h) => h.slots.map((s) => (parseSlot(s) as { rank: number }).rank));
      const count = heats.length;
      expect([key, heats.flat().sort((a, b) => a - b)]).toEqual([key, Array.from({ length: format.size }, (_, i) => i + 1)]);
      for (const ranks of heats) {
        expect([key, ranks.map((rank) => Math.floor((rank - 1) / count))]).toEqual([key, ranks.map((_, row) => row)]);
        // Back and forth: rows 2k and 2k+1 sum alike in every heat (1+10 = 4+7 = 11, 11+20 = 14+17 = 31 for five heats).
        const pairSums = ranks.filter((_, row) => row % 2 === 0).map((rank, k) => rank + ranks[2 * k + 1]!);
        expect([key, pairSums]).toEqual([key, pairSums.map((_, k) => (4 * k + 2) * count + 1)]);
      }
      // The snake formats deal row 0 left to right; the 30 format (the FIS table) only reorders the heats.
      if (key.startsWith("30")) continue;
      heats.forEach((ranks, h) => ranks.forEach((rank, row) => expect([key, rank]).toEqual([key, row * count + (row % 2 === 0 ? h + 1 : count - h)])));
    }
  });

  it("choose the race's format first, else the largest standard one the field fills, else the smallest", () => {
    const standard = FORMAT_KEYS.filter((key) => !key.endsWith("-no-b"));
    fc.assert(
      fc.property(fc.nat(80), fc.array(fc.constantFrom(null, undefined, "nope", ...FORMAT_KEYS), { maxLength: 3 }), (field, keys) => {
        const chosen = chooseHeatFormat(BUILT_IN_HEAT_FORMATS, keys, field);
        const own = keys.find((key) => key && BUILT_IN_HEAT_FORMATS[key]);
        const fits = standard.filter((key) => BUILT_IN_HEAT_FORMATS[key]!.size <= field);
        const sizes = fits.map((key) => BUILT_IN_HEAT_FORMATS[key]!.size);
        expect(chosen.key).toBe(own ?? (fits.length === 0 ? "6" : fits[sizes.indexOf(Math.max(...sizes))]));
      }),
      fcParams(),
    );
  });
});

describe("buildBracket on random fields and results", () => {
  it("seats every qualifier the format takes once in the first round, in heats that differ by at most one racer", () => {
    fc.assert(
      fc.property(bracketDraw, (draw) => {
        const { input, bracket } = play(draw, false);
        const format: HeatFormat = input.format;
        const first = bracket.rounds[0]!.heats;
        const seatedCount = first.map((h) => seatedIn(h.entries).length);
        expect(Math.max(...seatedCount) - Math.min(...seatedCount)).toBeLessThanOrEqual(1);
        expect(first.flatMap((h) => seatedIn(h.entries)).sort()).toEqual(input.qualifiers.slice(0, format.size).sort());
        for (const [h, heat] of first.entries()) {
          if (heat.complete) continue;
          const ranks = format.rounds[0]!.heats[h]!.slots.map((s) => (parseSlot(s) as { rank: number }).rank);
          expect(heat.entries.map((e) => e.racerId)).toEqual(ranks.map((rank) => input.qualifiers[rank - 1] ?? null));
        }
      }),
      fcParams(),
    );
  });

  it("places finishers as entered (ties sharing a place, better qualifier first), then dnf, dsq, dns; no heat over its seats", () => {
    fc.assert(
      fc.property(bracketDraw, (draw) => {
        const { input, bracket } = play(draw, false);
        for (const [r, round] of bracket.rounds.entries()) {
          const racers = round.heats.flatMap((h) => seatedIn(h.entries));
          expect(new Set(racers).size).toBe(racers.length);
          if (r > 0)
            for (const id of racers)
              expect(
                bracket.rounds[r - 1]!.heats.some((h) => seatedIn(h.entries).includes(id)),
                id,
              ).toBe(true);
          for (const [h, heat] of round.heats.entries()) {
            expect(heat.entries.length).toBeLessThanOrEqual(input.format.rounds[r]!.heats[h]!.slots.length);
            if (!heat.complete) continue;
            const outcome = input.outcomes[heat.key]!;
            const finishers = heat.entries.filter((e) => e.place !== null);
            expect(finishers.map((e) => e.racerId)).toEqual(heat.entries.slice(0, finishers.length).map((e) => e.racerId));
            finishers.forEach((e, i) => {
              const previous = finishers[i - 1];
              const shares = previous !== undefined && previous.place === e.place;
              expect(e.place).toBe(shares ? previous.place : i + 1);
              if (shares) expect(qualifierRank(e.racerId!)).toBeGreaterThan(qualifierRank(previous.racerId!));
              else if (previous) expect(outcome.finishOrder.indexOf(e.racerId!)).toBeGreaterThan(outcome.finishOrder.indexOf(previous.racerId!));
            });
            // Two racers next to each other in the finish order share a place exactly when tie-listed or timed alike.
            const placeOf = new Map(heat.entries.map((e) => [e.racerId, e.place]));
            const timeOf = (id: string) => (outcome.times[id] === undefined ? null : truncateMicros(outcome.times[id]!, input.calcPrecision));
            outcome.finishOrder.slice(1).forEach((id, k) => {
              const previous = outcome.finishOrder[k]!;
              const tied = outcome.ties.some((g) => g.includes(id) && g.includes(previous)) || (timeOf(id) !== null && timeOf(id) === timeOf(previous));
              expect(placeOf.get(id) === placeOf.get(previous), `${previous} and ${id}`).toBe(tied);
            });
            const others = heat.entries.slice(finishers.length);
            for (const e of others) expect(e.status).toBe(outcome.statuses[e.racerId!] ?? "dnf");
            const key = (e: BracketEntry) => STATUS_ORDER[e.status!] * 1000 + qualifierRank(e.racerId!);
            others.slice(1).forEach((e, i) => expect(key(e)).toBeGreaterThan(key(others[i]!)));
          }
        }
      }),
      fcParams(),
    );
  });

  it("takes exactly the places the next round's seats name, and the best of the rest as lucky losers", () => {
    fc.assert(
      fc.property(bracketDraw, fc.boolean(), (draw, dynamic) => {
        const { input, bracket } = play(draw, dynamic);
        bracket.rounds.slice(1).forEach((round, i) => {
          const before = bracket.rounds[i]!;
          const heatNamed = new Map(before.heats.map((h) => [h.canonicalName, h]));
          const taken = new Set<string>();
          const lucky = new Map<number, string | null>();
          for (const [h, heat] of round.heats.entries()) {
            for (const seat of input.format.rounds[i + 1]!.heats[h]!.slots) {
              const slot = parseSlot(seat)!;
              const holder = heat.entries.find((e) => e.seat === seat)?.racerId ?? null;
              if (slot.kind === "lucky") lucky.set(slot.n, holder);
              else if (slot.kind === "place") {
                taken.add(seat);
                const from = heatNamed.get(slot.heat)!;
                const decided = from.complete && (dynamic || before.complete);
                expect(holder, seat).toBe(decided ? (from.entries[slot.place - 1]?.racerId ?? null) : null);
              }
            }
          }
          // The pool: every racer of the round before not taken by place; finishers first, then time (a timed round) or qualifier.
          const pool = before.heats.filter((h) => h.complete).flatMap((h) => h.entries.filter((_, p) => !taken.has(`${h.canonicalName}:${p + 1}`)));
          const luckKey = (e: BracketEntry) => [e.place === null ? 1 : 0, before.timed && e.place !== null ? e.time! : 0, qualifierRank(e.racerId!)];
          const best = [...pool].sort((a, b) => compare(luckKey(a), luckKey(b)));
          // LLn is the nth best of the pool once the round before is done, and empty until then.
          for (const [n, holder] of lucky) expect(holder, `LL${n}`).toBe(before.complete ? (best[n - 1]?.racerId ?? null) : null);
          // Each racer of the round before is marked with how it went on, and only those who did: a seat in a
          // lower heat (rank index above 0, the B-Final) is "lower", never a lucky loser.
          for (const e of before.heats.flatMap((h) => h.entries).filter((x) => x.racerId)) {
            const nextHeat = round.heats.find((h) => h.entries.some((x) => x.racerId === e.racerId));
            const next = nextHeat?.entries.find((x) => x.racerId === e.racerId);
            const expected = !next ? null : nextHeat!.rankIndex > 0 ? "lower" : parseSlot(next.seat)!.kind === "lucky" ? "lucky" : "place";
            expect(e.advances, e.racerId!).toBe(expected);
          }
        });
        for (const e of bracket.rounds.at(-1)!.heats.flatMap((h) => h.entries)) expect(e.advances).toBeNull();
      }),
      fcParams(),
    );
  });

  it("ranks everyone once: by round reached, the final by heat then place (ties sharing), the rest by place then qualifier", () => {
    fc.assert(
      fc.property(bracketDraw, fc.boolean(), (draw, dynamic) => {
        const { input, bracket } = play(draw, dynamic);
        const { ranking } = bracket;
        const rankIndex = (key: string | null) => bracket.rounds.flatMap((r) => r.heats).find((h) => h.key === key)!.rankIndex;
        const placeKey = (row: FinalRank) => row.place ?? 1000 + (row.status ? STATUS_ORDER[row.status] : 3);
        expect(ranking.map((r) => r.racerId).sort()).toEqual([...input.qualifiers].sort());
        const last = bracket.rounds.length;
        ranking.forEach((row, i) => {
          const reached = bracket.rounds.filter((round) => round.heats.some((h) => seatedIn(h.entries).includes(row.racerId))).map((round) => round.round);
          expect(row.roundReached).toBe(Math.max(0, ...reached));
          expect(row.qualifierRank).toBe(qualifierRank(row.racerId));
          const previous = ranking[i - 1];
          if (!previous) {
            expect(row.rank).toBe(1);
            return;
          }
          expect(row.roundReached).toBeLessThanOrEqual(previous.roundReached);
          if (row.rank === previous.rank) {
            // Only racers of the same final heat share a rank, with the same place or the same way of not finishing.
            expect([row.roundReached, row.heatKey, row.place, row.status]).toEqual([last, previous.heatKey, previous.place, previous.status]);
          } else expect(row.rank).toBe(i + 1);
          if (row.roundReached !== previous.roundReached) return;
          // The final: the A-Final above the B-Final, then place; other rounds: place, then qualifier rank.
          if (row.roundReached === last)
            expect(compare([rankIndex(previous.heatKey), placeKey(previous)], [rankIndex(row.heatKey), placeKey(row)])).toBeLessThanOrEqual(0);
          else expect(compare([placeKey(previous), previous.qualifierRank], [placeKey(row), row.qualifierRank])).toBeLessThan(0);
        });
      }),
      fcParams(),
    );
  });

  it("with dynamic heats fills every seat the round-by-round bracket fills, with the same racer, and agrees once all is raced", () => {
    fc.assert(
      fc.property(bracketDraw, (draw) => {
        const { input, bracket: dynamic } = play(draw, true);
        const fixed = buildBracket({ ...input, dynamic: false });
        fixed.rounds.forEach((round, r) =>
          round.heats.forEach((heat, h) => {
            const other = dynamic.rounds[r]!.heats[h]!;
            const result = (e: BracketEntry) => [e.racerId, e.place, e.status];
            if (heat.complete) expect(other.entries.map(result)).toEqual(heat.entries.map(result));
            else for (const e of heat.entries) if (e.racerId) expect(other.entries.find((x) => x.seat === e.seat)?.racerId).toBe(e.racerId);
          }),
        );
        if (dynamic.rounds.every((round) => round.complete)) expect(fixed).toEqual(dynamic);
      }),
      fcParams(),
    );
  });
});

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

describe("heat standings", () => {
  it("do not depend on the order the seated racers or the photo-finish ties are listed in", () => {
    fc.assert(
      fc.property(
        heatDraw,
        fc.integer({ min: 2, max: MOST_SEATS }),
        fc.array(fc.nat(), { minLength: MOST_SEATS, maxLength: MOST_SEATS }),
        fc.boolean(),
        (draw, size, keys, timed) => {
          const seated = qualifiersOf(size);
          const outcome = outcomeOf(seated, draw, timed);
          const shuffle = <T>(items: readonly T[]) =>
            items
              .map((item, i) => ({ item, key: keys[i]! }))
              .sort((a, b) => a.key - b.key)
              .map(({ item }) => item);
          const reordered = { ...outcome, ties: shuffle(outcome.ties.map((group) => [...group].reverse())) };
          expect(heatStandings(shuffle(seated), reordered, qualifierRank, 1)).toEqual(heatStandings(seated, outcome, qualifierRank, 1));
        },
      ),
      fcParams(),
    );
  });
});

describe("a timer's heat entry", () => {
  const tenths = (t: number) => `${Math.floor(t / 600)}:${String(Math.floor((t % 600) / 10)).padStart(2, "0")}.${t % 10}`;
  it("reads back the finish order, ties, statuses and times it was typed from, and refuses a bib typed twice", () => {
    const entryDraw = fc.record({
      bibs: fc.uniqueArray(fc.integer({ min: 1, max: 999 }), { minLength: 1, maxLength: MOST_SEATS }),
      seats: fc.array(
        fc.record({ ...seatFields, status: fc.constantFrom("finish", "", "dnf", "DNS", "dsq", " Dsq "), sep: fc.constantFrom(" ", ",", ", ", "  ") }),
        { minLength: MOST_SEATS, maxLength: MOST_SEATS },
      ),
    });
    fc.assert(
      fc.property(entryDraw, ({ bibs, seats: drawn }) => {
        const seated = bibs.map((bib, i) => ({ racerId: `s${i}`, bib }));
        const seats = seated.map((s, i) => ({ ...s, ...drawn[i]! }));
        const finishers = seats.filter((s) => s.status === "finish").sort((a, b) => a.order - b.order);
        const groups: (typeof finishers)[] = [];
        finishers.forEach((f, i) => (i > 0 && f.tie ? groups[groups.length - 1]!.push(f) : groups.push([f])));
        const order = groups.map((g, i) => `${i === 0 ? "" : g[0]!.sep}${g.map((f) => f.bib).join("=")}`).join("");
        let time = 1700;
        const times: Record<string, string> = {};
        const expectedTimes: Record<string, number> = {};
        for (const f of finishers) {
          time += f.gap;
          if (!f.untimed) [times[f.racerId], expectedTimes[f.racerId]] = [tenths(time), (time * S) / 10];
        }
        const statuses = Object.fromEntries(seats.filter((s) => s.status !== "finish").map((s) => [s.racerId, s.status]));
        const reply = readHeatEntry(seated, { order, times, statuses });
        if (finishers.length === 0 && Object.values(statuses).every((s) => !s.trim())) {
          // Nothing typed at all is refused with the help text.
          expect(reply.ok).toBe(false);
          return;
        }
        expect(reply).toEqual({
          ok: true,
          value: {
            finish_list: finishers.map((f) => f.racerId),
            times_dict: expectedTimes,
            status_dict: Object.fromEntries(Object.entries(statuses).map(([id, s]) => [id, s.trim().toLowerCase() || "dnf"])),
            tie_list: groups.filter((g) => g.length > 1).map((g) => g.map((f) => f.racerId)),
          },
        });
        if (finishers.length > 0)
          expect(readHeatEntry(seated, { order: `${order} ${finishers[0]!.bib}`, times, statuses })).toEqual({
            ok: false,
            errors: { order: `Bib ${finishers[0]!.bib} is listed twice` },
          });
      }),
      fcParams(),
    );
  });
});

describe("automatic heat scheduling", () => {
  const M = 60 * S;
  it("schedules every heat once, blocks then rounds then groups in turn, an interval apart, resting racers between rounds, never later than needed", () => {
    const groupsArb = fc.array(fc.array(fc.nat(4), { maxLength: 4 }), { maxLength: 5 });
    const optionsArb = fc.record({
      firstStart: fc.nat(600).map((n) => n * M),
      interval: fc.nat(10).map((n) => n * M),
      minRest: fc.nat(60).map((n) => n * M),
      groupCount: fc.option(fc.nat(4), { nil: null }),
    });
    fc.assert(
      fc.property(groupsArb, optionsArb, (counts, options) => {
        const groups = counts.map((heatsPerRound, g) => ({ id: `g${g}`, heatsPerRound }));
        const schedule = scheduleHeats(groups, options);
        const blockSize = options.groupCount ? options.groupCount : Math.max(groups.length, 1);
        const expected = groups
          .flatMap((g, gi) => g.heatsPerRound.flatMap((n, r) => Array.from({ length: n }, (_, index) => ({ gi, round: r + 1, index }))))
          .sort((a, b) => Math.floor(a.gi / blockSize) - Math.floor(b.gi / blockSize) || a.round - b.round || a.gi - b.gi || a.index - b.index);
        expect(schedule.map((h) => [h.groupId, h.round, h.index])).toEqual(expected.map((h) => [`g${h.gi}`, h.round, h.index]));
        schedule.forEach((heat, k) => {
          const earliest = k === 0 ? options.firstStart : schedule[k - 1]!.start + options.interval;
          const lastOfGroup = schedule.slice(0, k).findLast((h) => h.groupId === heat.groupId);
          const rested = lastOfGroup && lastOfGroup.round < heat.round ? lastOfGroup.start + options.minRest : -Infinity;
          expect(heat.start, `${heat.groupId} round ${heat.round} heat ${heat.index}`).toBe(Math.max(earliest, rested));
        });
      }),
      fcParams(),
    );
  });
});
