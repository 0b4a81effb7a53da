import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { FIS_DEFAULTS, racePenalty, racePoints, rankingList, resultPoints, seedByPoints, type Finisher } from "./fis-points";

describe("FIS race points", () => {
  it("P = F·(Tx/To − 1): 31:30 behind a 30:00 winner at F = 800 is 40 points", () => {
    expect(racePoints(800, 1890, 1800)).toBe(40);
    expect(racePoints(800, 1800, 1800)).toBe(0);
    expect(racePoints(1010, 185, 180)).toBe(28.06);
  });

  it("never falls below zero and grows with the time behind", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 5_000 }), (to, d1, d2) => {
        const [a, b] = [racePoints(800, to + Math.min(d1, d2), to), racePoints(800, to + Math.max(d1, d2), to)];
        expect(a).toBeGreaterThanOrEqual(0);
        expect(b).toBeGreaterThanOrEqual(a);
      }),
      fcParams(),
    );
  });
});

describe("the race penalty and result points", () => {
  // F = 100, the 2 best-ranked among the first 3 finishers, divisor 10.
  const config = { ...FIS_DEFAULTS, factor: 100, penaltyCount: 2, topFinishers: 3 };
  const finishers: Finisher[] = [
    { racerId: "A", time: 100, rankingPoints: 20 },
    { racerId: "B", time: 105, rankingPoints: 10 },
    { racerId: "C", time: 110, rankingPoints: 50 },
    { racerId: "D", time: 120, rankingPoints: 5 },
  ];

  it("is (A + B − C) / 10 as worked by hand", () => {
    // A = 10 (B) + 20 (A) = 30; B = 5 (D) + 10 (B) = 15; C = 5 (B's race points) + 0 (A's) = 5; (30 + 15 − 5) / 10 = 4.
    expect(racePenalty(finishers, [20, 10, 50, 5], config)).toBe(4);
    expect(resultPoints(finishers, [20, 10, 50, 5], config)).toEqual([
      { racerId: "A", points: 4 },
      { racerId: "B", points: 9 },
      { racerId: "C", points: 14 },
      { racerId: "D", points: 24 },
    ]);
  });

  it("counts an unranked racer at the list's maximum", () => {
    const unranked = finishers.map((f) => ({ ...f, rankingPoints: null }));
    expect(racePenalty(unranked, [null, null], { ...config, unrankedPoints: 100 })).toBe(round((100 + 100 + 100 + 100 - 5) / 10));
  });

  it("keeps the finish order: the penalty is the same for everyone", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ time: fc.integer({ min: 60, max: 10_000 }), rank: fc.option(fc.integer({ min: 0, max: 999 })) }), { minLength: 1, maxLength: 30 }),
        (rows) => {
          const list = rows.map((r, i) => ({ racerId: `r${i}`, time: r.time, rankingPoints: r.rank }));
          const points = resultPoints(
            list,
            list.map((r) => r.rankingPoints),
            FIS_DEFAULTS,
          );
          for (let i = 1; i < points.length; i++) expect(points[i]!.points).toBeGreaterThanOrEqual(points[i - 1]!.points);
        },
      ),
      fcParams(),
    );
  });
});

function round(n: number) {
  return Math.round(n * 100) / 100;
}

describe("a season's ranking list and seeding", () => {
  const results = [
    { racerId: "ada", points: 30 },
    { racerId: "ada", points: 10 },
    { racerId: "ada", points: 50 },
    { racerId: "bo", points: 25 },
  ];

  it("averages each racer's best N, or takes the best", () => {
    expect(rankingList(results, { bestN: 2, mode: "average" })).toEqual([
      { racerId: "ada", points: 20, counted: 2, plus20: false },
      { racerId: "bo", points: 25, counted: 1, plus20: false },
    ]);
    expect(rankingList(results, { bestN: 2, mode: "best" })[0]).toEqual({ racerId: "ada", points: 10, counted: 2, plus20: false });
  });

  it("lists a racer with one result at that result plus 20% when the scheme applies FIS's rule (decision 0064)", () => {
    // ada: best two of 10, 30, 50 averaged = 20; bo: a single 25, so 25 × 1.2 = 30, now behind ada by more.
    expect(rankingList(results, { bestN: 2, mode: "average", oneResultPlus20: true })).toEqual([
      { racerId: "ada", points: 20, counted: 2, plus20: false },
      { racerId: "bo", points: 30, counted: 1, plus20: true },
    ]);
    // 45.5 + 20% = 54.6, rounded to the hundredth as every FIS value; the rule can change the order.
    const close = [
      { racerId: "cy", points: 45.5 },
      { racerId: "di", points: 50 },
      { racerId: "di", points: 52 },
    ];
    expect(rankingList(close, { bestN: 2, mode: "average", oneResultPlus20: true }).map((r) => [r.racerId, r.points])).toEqual([
      ["di", 51],
      ["cy", 54.6],
    ]);
    expect(rankingList(close, { bestN: 2, mode: "average" }).map((r) => [r.racerId, r.points])).toEqual([
      ["cy", 45.5],
      ["di", 51],
    ]);
  });

  it("sums the most points first for a points table's list", () => {
    const table = [
      { racerId: "ada", points: 100 },
      { racerId: "ada", points: 50 },
      { racerId: "ada", points: 80 },
      { racerId: "bo", points: 100 },
    ];
    expect(rankingList(table, { bestN: 2, mode: "sum", higherFirst: true })).toEqual([
      { racerId: "ada", points: 180, counted: 2, plus20: false },
      { racerId: "bo", points: 100, counted: 1, plus20: false },
    ]);
  });

  it("never lists a single result with the +20% rule better than without it", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ racerId: fc.constantFrom("a", "b", "c"), points: fc.integer({ min: 0, max: 99_999 }).map((n) => n / 100) })),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom("average" as const, "best" as const),
        (rows, bestN, mode) => {
          const plain = new Map(rankingList(rows, { bestN, mode }).map((r) => [r.racerId, r]));
          for (const r of rankingList(rows, { bestN, mode, oneResultPlus20: true })) {
            const before = plain.get(r.racerId)!;
            expect(r.plus20).toBe(rows.filter((x) => x.racerId === r.racerId).length === 1);
            expect(r.points).toBe(r.plus20 ? Math.round(before.points * 120) / 100 : before.points);
            expect(r.points).toBeGreaterThanOrEqual(before.points);
          }
        },
      ),
      fcParams(),
    );
  });

  it("never ranks a racer's best above their average", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ racerId: fc.constantFrom("a", "b", "c"), points: fc.integer({ min: 0, max: 999 }) })),
        fc.integer({ min: 1, max: 5 }),
        (rows, bestN) => {
          const best = new Map(rankingList(rows, { bestN, mode: "best" }).map((r) => [r.racerId, r.points]));
          for (const r of rankingList(rows, { bestN, mode: "average" })) expect(best.get(r.racerId)!).toBeLessThanOrEqual(r.points);
        },
      ),
      fcParams(),
    );
  });

  it("seeds by points, best first, the unranked last in their order", () => {
    const racers = [
      { n: "x", p: null },
      { n: "y", p: 40 },
      { n: "z", p: 12 },
      { n: "w", p: null },
    ];
    expect(seedByPoints(racers, (r) => r.p).map((r) => r.n)).toEqual(["z", "y", "x", "w"]);
  });

  it("seeds a points table's list the most points first (decision 0068), the unranked still last", () => {
    const racers = [
      { n: "x", p: null },
      { n: "y", p: 40 },
      { n: "z", p: 100 },
      { n: "w", p: 0 },
    ];
    expect(seedByPoints(racers, (r) => r.p, true).map((r) => r.n)).toEqual(["z", "y", "w", "x"]);
  });

  it("most points first is the fewest-first order of the negated points, whatever the points", () => {
    const points = fc.array(fc.option(fc.integer({ min: 0, max: 1000 }), { nil: null }), { maxLength: 30 });
    fc.assert(
      fc.property(points, (list) => {
        const racers = list.map((p, i) => ({ i, p }));
        const higher = seedByPoints(racers, (r) => r.p, true).map((r) => r.i);
        const negated = seedByPoints(racers, (r) => (r.p === null ? null : -r.p)).map((r) => r.i);
        expect(higher).toEqual(negated);
      }),
      fcParams(),
    );
  });
});

describe("the maximum penalty", () => {
  it("caps the penalty of a field of unranked racers, never below the minimum", () => {
    const field: Finisher[] = [
      { racerId: "A", time: 100, rankingPoints: null },
      { racerId: "B", time: 110, rankingPoints: null },
    ];
    expect(racePenalty(field, [null, null], { ...FIS_DEFAULTS, maxPenalty: 150 })).toBe(150);
    expect(racePenalty(field, [null, null], { ...FIS_DEFAULTS, maxPenalty: null })).toBeGreaterThan(900);
  });
});
