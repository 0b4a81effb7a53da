import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { seasonLists } from "./season-lists";
import { tableResultPoints, tableRise } from "./table-points";

const WORLD_CUP = [100, 80, 60, 50, 45];

describe("ranking points by a points table (decision 0064)", () => {
  it("gives each place the table's points, equal times sharing a place, places past the table 0", () => {
    const finishers = [
      { racerId: "c", time: 130 },
      { racerId: "a", time: 100 },
      { racerId: "b", time: 110 },
      { racerId: "d", time: 110 },
      { racerId: "e", time: 140 },
      { racerId: "f", time: 150 },
      { racerId: "g", time: 160 },
    ];
    // a 1st 100; b and d tie for 2nd, 80 each; c 4th 50; e 5th 45; f and g past the table 0.
    expect(tableResultPoints(finishers, WORLD_CUP)).toEqual([
      { racerId: "a", points: 100 },
      { racerId: "b", points: 80 },
      { racerId: "d", points: 80 },
      { racerId: "c", points: 50 },
      { racerId: "e", points: 45 },
      { racerId: "f", points: 0 },
      { racerId: "g", points: 0 },
    ]);
  });

  it("finds where a table rises", () => {
    expect(tableRise(WORLD_CUP)).toBeNull();
    expect(tableRise([100, 80, 90])).toBe(3);
    expect(tableRise([])).toBeNull();
  });

  it("lists a season by the sum of the best N, the most points first", () => {
    const race = (id: string, order: number, times: Record<string, number>) => ({
      id,
      name: id,
      order,
      competitions: [
        { finishers: Object.entries(times).map(([identity, time]) => ({ identity, name: identity, club: null, time })), starters: Object.keys(times) },
      ],
    });
    const [list] = seasonLists(
      [{ label: "2026", races: [race("r1", 1, { a: 100, b: 101, c: 102 }), race("r2", 2, { b: 100, a: 101 }), race("r3", 3, { c: 100, a: 105 })] }],
      { kind: "table", table: WORLD_CUP },
      { bestN: 2, mode: "sum" },
    );
    // a: 100, 80, 80 → best two 180; b: 80, 100 → 180; c: 60, 100 → 160. a and b share 1st.
    expect(list!.racers.map((r) => [r.rank, r.identity, r.points])).toEqual([
      [1, "a", 180],
      [1, "b", 180],
      [3, "c", 160],
    ]);
    expect(list!.racers[0]!.results).toEqual([
      { race: "r1", points: 100, counted: true },
      { race: "r2", points: 80, counted: true },
      { race: "r3", points: 80, counted: false },
    ]);
  });

  it("never gives a slower finisher more points than a faster one", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 30 }),
        fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 10 }).map((t) => [...t].sort((a, b) => b - a)),
        (times, table) => {
          const scored = tableResultPoints(
            times.map((time, i) => ({ racerId: `r${i}`, time })),
            table,
          );
          const timeOf = new Map(times.map((t, i) => [`r${i}`, t]));
          for (let i = 1; i < scored.length; i++) {
            expect(scored[i]!.points).toBeLessThanOrEqual(scored[i - 1]!.points);
            if (timeOf.get(scored[i]!.racerId) === timeOf.get(scored[i - 1]!.racerId)) expect(scored[i]!.points).toBe(scored[i - 1]!.points);
          }
        },
      ),
      fcParams(),
    );
  });
});
