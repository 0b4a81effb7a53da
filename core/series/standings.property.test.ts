/**
 * computeStandings on random seasons: the order races are passed in never matters, best-N never counts more
 * than N results, and a total is exactly the counted points plus carried points.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import type { PointsSystem, RaceOutcome } from "./points";
import { referenceStandings } from "../testing/series-standings-reference";
import { packEntries, unpackEntries } from "./race-entries";
import { computeStandings, type SeriesRace } from "./standings";

const NAMES = ["Anna", "Bea", "Carl", "Dan", "Eve", "Finn"];
const CATEGORIES = ["Men", "Women"];

const outcome: fc.Arbitrary<RaceOutcome> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("placed" as const),
      place: fc.integer({ min: 1, max: 8 }),
      time: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("status" as const), status: fc.constantFrom("dnf" as const, "dns" as const, "dsq" as const) }) },
);

const raceArb = (id: string, order: number): fc.Arbitrary<SeriesRace> =>
  fc
    .uniqueArray(fc.record({ name: fc.constantFrom(...NAMES), category: fc.constantFrom(...CATEGORIES), outcome }), {
      selector: (e) => `${e.name}/${e.category}`,
      maxLength: 10,
    })
    .chain((entries) =>
      fc.constantFrom(1, 1.5, 2).map((scale) => ({
        id,
        name: id,
        order,
        scale,
        entries: entries.map((e) => ({ identity: e.name, name: e.name, club: null, category: e.category, outcome: e.outcome })),
      })),
    );

const season = fc.integer({ min: 1, max: 6 }).chain((count) => fc.tuple(...Array.from({ length: count }, (_, i) => raceArb(`r${i}`, i * 10))));

const systemArb: fc.Arbitrary<PointsSystem> = fc.record({
  rule: fc.oneof(
    fc.record({
      method: fc.constant("table" as const),
      table: fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 10 }).map((t) => [...t].sort((a, b) => b - a)),
    }),
    fc.record({
      method: fc.constant("linear" as const),
      max: fc.integer({ min: 1, max: 100 }),
      step: fc.integer({ min: 0, max: 10 }),
      min: fc.integer({ min: 0, max: 5 }),
    }),
    fc.record({ method: fc.constant("time_percent" as const), max: fc.integer({ min: 1, max: 100 }), min: fc.integer({ min: 0, max: 5 }) }),
  ),
  ties: fc.constantFrom("share" as const, "split" as const),
  statusPoints: fc.record({ dnf: fc.integer({ min: 0, max: 3 }), dns: fc.constant(0), dsq: fc.constant(0) }),
  bestOf: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
});

describe("series standings on random seasons", () => {
  it("are the same whatever order the races are passed in", () => {
    fc.assert(
      fc.property(
        systemArb,
        season.chain((races) => fc.tuple(fc.constant(races), fc.shuffledSubarray(races, { minLength: races.length, maxLength: races.length }))),
        (system, [races, shuffled]) => {
          expect(computeStandings(system, shuffled)).toEqual(computeStandings(system, races));
        },
      ),
      fcParams(),
    );
  });

  it("never count more than best N results, and a total is the counted points plus carried", () => {
    fc.assert(
      fc.property(systemArb, season, fc.integer({ min: -500, max: 500 }), (system, races, carried) => {
        const standings = computeStandings(system, races, [{ identity: "Anna", name: "Anna", club: null, category: "Women", points: carried }]);
        for (const row of standings.categories.flatMap((c) => c.rows)) {
          const counted = row.cells.filter((c) => c?.counted);
          if (system.bestOf !== null) expect(counted.length).toBeLessThanOrEqual(system.bestOf);
          expect(row.total).toBe(row.carried + counted.reduce((sum, c) => sum + c!.points, 0));
          // A dropped result is never worth more than a counted one.
          const dropped = row.cells.filter((c) => c && !c.counted);
          for (const d of dropped) for (const c of counted) expect(d!.points).toBeLessThanOrEqual(c!.points);
        }
      }),
      fcParams(),
    );
  });

  it("rank every racer of a category once, in non-decreasing ranks with non-increasing totals", () => {
    fc.assert(
      fc.property(systemArb, season, (system, races) => {
        for (const category of computeStandings(system, races).categories) {
          const ids = category.rows.map((r) => r.identity);
          expect(new Set(ids).size).toBe(ids.length);
          category.rows.forEach((row, i) => {
            if (i === 0) return expect(row.rank).toBe(1);
            const previous = category.rows[i - 1]!;
            expect(row.total).toBeLessThanOrEqual(previous.total);
            expect(row.rank === previous.rank || row.rank === i + 1).toBe(true);
          });
        }
      }),
      fcParams(),
    );
  });
});

describe("the fast standings (decision 0064)", () => {
  it("equal the reference computation, and the same from stored (packed) race entries", () => {
    fc.assert(
      fc.property(season, systemArb, (races, system) => {
        const fast = computeStandings(system, races);
        expect(fast).toEqual(referenceStandings(system, races));
        const stored = races.map((race) => ({ ...race, entries: unpackEntries(JSON.parse(JSON.stringify(packEntries(race.entries))))! }));
        expect(computeStandings(system, stored)).toEqual(fast);
      }),
      fcParams(),
    );
  });

  it("equal the reference when the same races were scored before under another system or scale (the scored races are shared)", () => {
    fc.assert(
      fc.property(season, systemArb, systemArb, fc.constantFrom(0.5, 3), (races, before, system, rescale) => {
        computeStandings(before, races);
        computeStandings(system, races);
        expect(computeStandings(system, races)).toEqual(referenceStandings(system, races));
        // The same entries at another scale score again, not from the first scale's copy.
        const rescaled = races.map((race) => ({ ...race, scale: race.scale * rescale }));
        expect(computeStandings(system, rescaled)).toEqual(referenceStandings(system, rescaled));
      }),
      fcParams(),
    );
  });
});
