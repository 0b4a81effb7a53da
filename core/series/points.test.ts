import { describe, expect, it } from "vitest";
import { formatPoints, pointsForPlace, racePoints, type PointsSystem, type RaceOutcome } from "./points";

const WORLD_CUP = [100, 80, 60, 50, 45, 40, 36, 32, 29, 26];
const system = (over: Partial<PointsSystem> = {}): PointsSystem => ({
  rule: { method: "table", table: WORLD_CUP },
  ties: "share",
  statusPoints: { dnf: 0, dns: 0, dsq: 0 },
  bestOf: null,
  ...over,
});
const placed = (place: number, time: number | null = null): RaceOutcome => ({ kind: "placed", place, time });

describe("points by place", () => {
  it("reads a table by place, and gives nothing past its end", () => {
    const rule = { method: "table", table: WORLD_CUP } as const;
    expect([1, 2, 3, 10, 11].map((p) => pointsForPlace(rule, p, null, null))).toEqual([100, 80, 60, 26, 0]);
  });

  it("counts down linearly to a floor", () => {
    const rule = { method: "linear", max: 50, step: 2, min: 5 } as const;
    expect([1, 2, 10, 23, 40].map((p) => pointsForPlace(rule, p, null, null))).toEqual([50, 48, 32, 6, 5]);
  });

  it("gives a share of the winner's time, never below the floor", () => {
    const rule = { method: "time_percent", max: 100, min: 10 } as const;
    expect(pointsForPlace(rule, 1, 3600, 3600)).toBe(100);
    expect(pointsForPlace(rule, 2, 4000, 3600)).toBe(90);
    expect(pointsForPlace(rule, 9, 72_000, 3600)).toBe(10);
  });
});

describe("a race's points", () => {
  it("gives tied racers the place's points when ties share", () => {
    expect(racePoints(system(), [placed(1), placed(2), placed(2), placed(4)], 1)).toEqual([10000, 8000, 8000, 5000]);
  });

  it("averages the tied places' points when ties split", () => {
    expect(racePoints(system({ ties: "split" }), [placed(1), placed(2), placed(2), placed(4)], 1)).toEqual([10000, 7000, 7000, 5000]);
    // Three tied for 4th fill 4th, 5th and 6th: (50 + 45 + 40) / 3 = 45.
    expect(racePoints(system({ ties: "split" }), [placed(4), placed(4), placed(4)], 1)).toEqual([4500, 4500, 4500]);
  });

  it("gives a status its configured points", () => {
    const outcomes: RaceOutcome[] = [placed(1), { kind: "status", status: "dnf" }, { kind: "status", status: "dsq" }];
    expect(racePoints(system({ statusPoints: { dnf: 1, dns: 0, dsq: 0 } }), outcomes, 1)).toEqual([10000, 100, 0]);
  });

  it("scales a race's points by its factor, in hundredths", () => {
    expect(racePoints(system(), [placed(1), placed(5)], 1.5)).toEqual([15000, 6750]);
    expect(racePoints(system({ ties: "split" }), [placed(1), placed(1)], 1)).toEqual([9000, 9000]);
  });

  it("compares times with the fastest placed racer", () => {
    const timed = system({ rule: { method: "time_percent", max: 100, min: 0 } });
    expect(racePoints(timed, [placed(2, 1200), placed(1, 1000), placed(3, 3000)], 1)).toEqual([8333, 10000, 3333]);
  });
});

describe("a formula of one's own", () => {
  it("reads place, finishers and times, and splits ties like a table", () => {
    const own = system({ rule: { method: "formula", formula: "finishers - place + 1" }, ties: "split" });
    expect(racePoints(own, [placed(1), placed(2), placed(2), { kind: "status", status: "dnf" }], 1)).toEqual([300, 150, 150, 0]);
    expect(racePoints(system({ rule: { method: "formula", formula: "no such" } }), [placed(1)], 1)).toEqual([0]);
  });
});

describe("points as shown", () => {
  it("drops a zero fraction and trailing zeros", () => {
    expect([4500, 4550, 4525, 0, -150].map(formatPoints)).toEqual(["45", "45.5", "45.25", "0", "-1.5"]);
  });
});
