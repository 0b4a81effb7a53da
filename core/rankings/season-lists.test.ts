import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { FIS_DEFAULTS } from "./fis-points";
import { pointsInForce, seasonLists, type Competition, type RankingSeason } from "./season-lists";

const fis = { ...FIS_DEFAULTS, factor: 100, penaltyCount: 2, topFinishers: 3, unrankedPoints: 100 };
const finisher = (identity: string, time: number) => ({ identity, name: identity.toUpperCase(), club: "SC", time });
const competition = (times: Record<string, number>, dnf: string[] = []): Competition => ({
  finishers: Object.entries(times).map(([id, t]) => finisher(id, t)),
  starters: [...Object.keys(times), ...dnf],
});

describe("a season's ranking list", () => {
  it("scores the first race with everyone unranked, then counts the list in force for the next race's penalty", () => {
    const season: RankingSeason = {
      label: "2026",
      races: [
        // Given out of order: the later race is scored second whatever the config's order.
        { id: "r2", name: "Second", order: 2, competitions: [competition({ a: 100, b: 110 })] },
        { id: "r1", name: "First", order: 1, competitions: [competition({ a: 100, b: 105, c: 120 }, ["d"])] },
      ],
    };
    const [list] = seasonLists([season], fis, { bestN: 2, mode: "average" });
    // Race 1, all unranked at 100: A = 200, B = 200, C = 0 + 5 = 5 → penalty (200 + 200 − 5) / 10 = 39.5.
    // a 0 + 39.5, b 5 + 39.5 = 44.5, c 20 + 39.5 = 59.5; d started (DNF) and scores nothing.
    // Race 2: a at 39.5, b at 44.5: A = 84, B = 84, C = 0 + 10 → (84 + 84 − 10) / 10 = 15.8; a 15.8, b 25.8.
    expect(list!.races.map((r) => r.id)).toEqual(["r1", "r2"]);
    expect(list!.racers.map((r) => [r.rank, r.identity, r.points, r.results.length])).toEqual([
      [1, "a", 27.65, 2],
      [2, "b", 35.15, 2],
      [3, "c", 59.5, 1],
    ]);
    expect(list!.racers[0]!.results).toEqual([
      { race: "r1", points: 39.5, counted: true },
      { race: "r2", points: 15.8, counted: true },
    ]);
  });

  it("counts only the best N, marks the others, and shares a rank on equal points", () => {
    const races = [1, 2, 3].map((n) => ({ id: `r${n}`, name: `R${n}`, order: n, competitions: [competition({ a: 100, b: 100 })] }));
    const [list] = seasonLists([{ label: "S", races }], { ...fis, minPenalty: 0 }, { bestN: 2, mode: "best" });
    expect(list!.racers.map((r) => r.rank)).toEqual([1, 1]);
    expect(list!.racers[0]!.results.filter((r) => r.counted)).toHaveLength(2);
  });

  it("carries the previous season's list into the next season's penalties and into the points in force", () => {
    const s1: RankingSeason = { label: "2025", races: [{ id: "x", name: "X", order: 1, competitions: [competition({ a: 100, b: 120 })] }] };
    const s2: RankingSeason = { label: "2026", races: [{ id: "y", name: "Y", order: 1, competitions: [competition({ c: 100 })] }] };
    const lists = seasonLists([s1, s2], fis, { bestN: 1, mode: "average" });
    expect(pointsInForce(lists, 1).get("a")).toBe(lists[0]!.racers.find((r) => r.identity === "a")!.points);
    expect(pointsInForce(lists, 1).get("c")).toBe(lists[1]!.racers[0]!.points);
    expect(pointsInForce(lists, 0).has("c")).toBe(false);
  });

  it("gives an empty list for a season whose races have no finishers", () => {
    expect(seasonLists([{ label: "S", races: [{ id: "r", name: "R", order: 1, competitions: [] }] }], fis, { bestN: 2, mode: "average" })[0]!.racers).toEqual(
      [],
    );
  });

  it("ranks every finisher once, in order of points, each with one result per race at most", () => {
    const times = fc.dictionary(fc.constantFrom("a", "b", "c", "d", "e", "f"), fc.integer({ min: 60, max: 200 }), { minKeys: 1 });
    fc.assert(
      fc.property(fc.array(times, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 3 }), (races, bestN) => {
        const season = { label: "S", races: races.map((t, i) => ({ id: `r${i}`, name: `R${i}`, order: i, competitions: [competition(t)] })) };
        const [list] = seasonLists([season], fis, { bestN, mode: "average" });
        const everyone = new Set(races.flatMap((t) => Object.keys(t)));
        expect(list!.racers.map((r) => r.identity).sort()).toEqual([...everyone].sort());
        list!.racers.slice(1).forEach((r, i) => expect(r.points).toBeGreaterThanOrEqual(list!.racers[i]!.points));
        for (const r of list!.racers) {
          expect(new Set(r.results.map((x) => x.race)).size).toBe(r.results.length);
          expect(r.results.filter((x) => x.counted)).toHaveLength(Math.min(bestN, r.results.length));
        }
      }),
      fcParams(),
    );
  });
});
