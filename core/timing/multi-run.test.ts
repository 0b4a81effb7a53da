import { describe, expect, it } from "vitest";
import { combineRuns, crossingsByRun, type MultiRunMode, type RunResult } from "./multi-run";
import { compareKeys } from "./rank";
import { seconds } from "./test-races";

const finished = (s: number): RunResult => ({ time: seconds(s), status: "finished" });
const dnf: RunResult = { time: null, status: "dnf" };

/**
 * A 3-racer, 2-run race:
 *   Anna   run 1 50.000000, run 2 48.500000
 *   Ben    run 1 49.200001, run 2 51.100000
 *   Carla  run 1 47.900000, run 2 DNF
 */
const race: Record<string, RunResult[]> = {
  Anna: [finished(50), finished(48.5)],
  Ben: [finished(49.200001), finished(51.1)],
  Carla: [finished(47.9), dnf],
};

function resultsOf(mode: MultiRunMode) {
  return Object.fromEntries(Object.entries(race).map(([name, runs]) => [name, combineRuns(runs, { mode, runCount: 2 })]));
}

/** Ranked racers, best first (unranked left out). */
function order(mode: MultiRunMode): string[] {
  const ranked = Object.entries(resultsOf(mode)).flatMap(([name, result]) => (result.rankKey === null ? [] : [{ name, key: result.rankKey }]));
  return ranked.sort((a, b) => compareKeys(a.key, b.key)).map((r) => r.name);
}

describe("combineRuns on a 3-racer 2-run race", () => {
  it("best: the fastest finished run (Anna 48.5, Ben 49.200001, Carla 47.9)", () => {
    const results = resultsOf("best");
    expect(results.Anna).toEqual({ time: seconds(48.5), status: "finished", runsFinished: 2, rankKey: [seconds(48.5)] });
    expect(results.Ben).toMatchObject({ time: seconds(49.200001), status: "finished" });
    expect(results.Carla).toEqual({ time: seconds(47.9), status: "finished", runsFinished: 1, rankKey: [seconds(47.9)] });
    expect(order("best")).toEqual(["Carla", "Anna", "Ben"]);
  });

  it("worst: the slowest run when both are finished (Anna 50, Ben 51.1; Carla DNF)", () => {
    const results = resultsOf("worst");
    expect(results.Anna).toMatchObject({ time: seconds(50), status: "finished" });
    expect(results.Ben).toMatchObject({ time: seconds(51.1), status: "finished" });
    expect(results.Carla).toEqual({ time: null, status: "dnf", runsFinished: 1, rankKey: null });
    expect(order("worst")).toEqual(["Anna", "Ben"]);
  });

  it("sum: both runs (Anna 98.5, Ben 100.300001; Carla DNF)", () => {
    const results = resultsOf("sum");
    expect(results.Anna).toMatchObject({ time: seconds(98.5), rankKey: [seconds(98.5)] });
    expect(results.Ben).toMatchObject({ time: seconds(100.300001), rankKey: [seconds(100.300001)] });
    expect(results.Carla).toMatchObject({ time: null, status: "dnf", rankKey: null });
    expect(order("sum")).toEqual(["Anna", "Ben"]);
  });

  it("mean: sum / 2 truncated to the microsecond (Anna 49.25, Ben 50.1500005 → 50.150000; Carla DNF)", () => {
    const results = resultsOf("mean");
    expect(results.Anna).toMatchObject({ time: seconds(49.25), status: "finished" });
    expect(results.Ben).toMatchObject({ time: seconds(50.15), status: "finished" });
    expect(results.Carla).toMatchObject({ time: null, status: "dnf" });
    expect(order("mean")).toEqual(["Anna", "Ben"]);
  });

  it("one: run 1 only; Carla's DNF in run 2 does not count (Carla 47.9, Ben 49.200001, Anna 50)", () => {
    const results = resultsOf("one");
    expect(results.Carla).toEqual({ time: seconds(47.9), status: "finished", runsFinished: 1, rankKey: [seconds(47.9)] });
    expect(order("one")).toEqual(["Carla", "Ben", "Anna"]);
  });

  it("all: two runs finished rank ahead of one, then by the sum (Anna, Ben, then Carla on 47.9 with her DNF shown)", () => {
    const results = resultsOf("all");
    expect(results.Anna).toEqual({ time: seconds(98.5), status: "finished", runsFinished: 2, rankKey: [-2, seconds(98.5)] });
    expect(results.Ben).toMatchObject({ time: seconds(100.300001), rankKey: [-2, seconds(100.300001)] });
    expect(results.Carla).toEqual({ time: seconds(47.9), status: "dnf", runsFinished: 1, rankKey: [-1, seconds(47.9)] });
    expect(order("all")).toEqual(["Anna", "Ben", "Carla"]);
  });
});

describe("combineRuns statuses", () => {
  it("takes the status across runs by DSQ > DNS > DNF", () => {
    expect(combineRuns([dnf, { time: null, status: "dsq" }], { mode: "sum", runCount: 2 }).status).toBe("dsq");
    expect(combineRuns([dnf, { time: null, status: "dns" }], { mode: "sum", runCount: 2 }).status).toBe("dns");
    expect(combineRuns([finished(50), dnf], { mode: "worst", runCount: 2 }).status).toBe("dnf");
  });

  it("best keeps a finished run when another run has a status", () => {
    expect(combineRuns([{ time: null, status: "dsq" }, finished(51)], { mode: "best", runCount: 2 })).toMatchObject({ time: seconds(51), status: "finished" });
    expect(combineRuns([dnf, { time: null, status: "dns" }], { mode: "best", runCount: 2 })).toMatchObject({ time: null, status: "dns", rankKey: null });
  });

  it("is on course between runs and not started before run 1", () => {
    expect(combineRuns([finished(50)], { mode: "sum", runCount: 2 })).toEqual({ time: null, status: "oncourse", runsFinished: 1, rankKey: null });
    expect(combineRuns([], { mode: "mean", runCount: 2 })).toEqual({ time: null, status: "notstarted", runsFinished: 0, rankKey: null });
    expect(combineRuns([], { mode: "all", runCount: 2 })).toMatchObject({ status: "notstarted", rankKey: null });
  });

  it("one shows run 1's own status", () => {
    expect(combineRuns([dnf, finished(40)], { mode: "one", runCount: 2 })).toEqual({ time: null, status: "dnf", runsFinished: 1, rankKey: null });
  });

  it("ignores runs past run_count and a finished run with no time", () => {
    expect(combineRuns([finished(50), finished(40)], { mode: "best", runCount: 1 })).toMatchObject({ time: seconds(50) });
    expect(combineRuns([finished(50), { time: null, status: "finished" }], { mode: "sum", runCount: 2 })).toMatchObject({ time: null, status: "oncourse" });
  });

  it("refuses a run count below 1", () => {
    expect(() => combineRuns([], { mode: "best", runCount: 0 })).toThrow(RangeError);
  });
});

describe("crossingsByRun", () => {
  const c = (timingPointId: string, s: number) => ({ timingPointId, time: seconds(s) });

  it("begins a run at each start read, a repeat within the minimum split being the same pass", () => {
    const runs = crossingsByRun([c("start", 0), c("start", 1), c("finish", 60), c("start", 600), c("finish", 655)], "start", seconds(5), 2);
    expect(runs).toEqual([
      [c("start", 0), c("finish", 60)],
      [c("start", 600), c("finish", 655)],
    ]);
  });

  it("keeps a gun-started run 1 before the first start read, and drops runs past the count", () => {
    expect(crossingsByRun([c("finish", 60), c("start", 600), c("finish", 655), c("start", 900)], "start", 0, 2)).toEqual([
      [c("finish", 60)],
      [c("start", 600), c("finish", 655)],
    ]);
  });

  it("puts everything in run 1 when the course has no start point", () => {
    expect(crossingsByRun([c("finish", 60), c("finish", 655)], null, 0, 2)).toEqual([[c("finish", 60), c("finish", 655)]]);
  });
});
