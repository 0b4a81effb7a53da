/** Multi-run races through the results engine: runs cut at start reads, then every mode of combineRuns. */
import { describe, expect, it } from "vitest";
import { computeFull } from "./full";
import type { Crossing, RaceInput, RaceRules } from "./model";
import type { MultiRunMode } from "./multi-run";
import { rankSorted } from "./rank";
import { at, course, group, point, raceInput, racer, reads, rules, seconds } from "./test-races";

/** A two-run giant slalom: a start wand and a finish line, chip start. */
function twoRuns(mode: MultiRunMode): RaceInput {
  const multiRun: RaceRules["multiRun"] = { runCount: 2, mode };
  return raceInput({
    rules: rules({ timingMode: "p2p", startOption: "chipstart", precision: 2, calcPrecision: 2, multiRun }),
    courses: [course([point("start", "start", { minSplit: seconds(5) }), point("fin", "lap")])],
    racers: [
      racer("ana", { bib: 1 }),
      racer("ben", { bib: 2 }),
      // Cara did not finish run 1 (the jury's DNF); her run 2 is the fastest of the day.
      racer("cara", { bib: 3, runStatuses: [{ isDns: false, dnfTime: at(50), dsqTime: null }] }),
    ],
    groups: [group("all")],
  });
}

const log = (...lists: Crossing[][]): Crossing[] => lists.flat().map((c, i) => ({ ...c, seq: i + 1 }));
const crossings = log(
  // Ana: 60 s and 55 s; the second start read at 601 is the same pass as 600.
  reads("ana", ["tp-start", 0], ["tp-fin", 60], ["tp-start", 600], ["tp-start", 601], ["tp-fin", 655]),
  // Ben: 65 s, and on course in run 2.
  reads("ben", ["tp-start", 5], ["tp-fin", 70], ["tp-start", 610]),
  // Cara: out in run 1, 50 s in run 2.
  reads("cara", ["tp-start", 10], ["tp-start", 620], ["tp-fin", 670]),
);

function standings(mode: MultiRunMode) {
  const full = computeFull(twoRuns(mode), crossings);
  return rankSorted(full.groups.get("all")!, 0).map((r) => [r.result.racerId, r.rank, r.result.time === null ? null : r.result.time / 1e6, r.result.status]);
}

describe("a two-run race", () => {
  it("times each run from its own start read and keeps each run's status", () => {
    const full = computeFull(twoRuns("sum"), crossings);
    expect(full.results.get("ana")!.runs).toEqual([
      { status: "finished", time: seconds(60) },
      { status: "finished", time: seconds(55) },
    ]);
    expect(full.results.get("ben")!.runs).toEqual([
      { status: "finished", time: seconds(65) },
      { status: "oncourse", time: null },
    ]);
    expect(full.results.get("cara")!.runs).toEqual([
      { status: "dnf", time: null },
      { status: "finished", time: seconds(50) },
    ]);
  });

  it("best: the fastest run of each (Cara 50, Ana 55, Ben 65)", () => {
    expect(standings("best")).toEqual([
      ["cara", 1, 50, "finished"],
      ["ana", 2, 55, "finished"],
      ["ben", 3, 65, "finished"],
    ]);
  });

  it("sum: only Ana has both runs (115); Ben is still out, Cara did not finish", () => {
    expect(standings("sum")).toEqual([
      ["ana", 1, 115, "finished"],
      ["ben", null, null, "oncourse"],
      ["cara", null, null, "dnf"],
    ]);
  });

  it("mean and worst need every run: Ana 57.5 and 60", () => {
    expect(standings("mean")[0]).toEqual(["ana", 1, 57.5, "finished"]);
    expect(standings("worst")[0]).toEqual(["ana", 1, 60, "finished"]);
  });

  it("one: run 1 alone (Ana 60, Ben 65; Cara's DNF)", () => {
    expect(standings("one")).toEqual([
      ["ana", 1, 60, "finished"],
      ["ben", 2, 65, "finished"],
      ["cara", null, null, "dnf"],
    ]);
  });

  it("all: more runs finished first, then the sum (Ana 2 runs; Cara 50 before Ben 65 with one each)", () => {
    expect(standings("all")).toEqual([
      ["ana", 1, 115, "finished"],
      ["cara", 2, 50, "dnf"],
      ["ben", 3, 65, "oncourse"],
    ]);
  });

  it("counts a run left unfinished when the next one started as not finished", () => {
    const abandoned = log(reads("ana", ["tp-start", 0], ["tp-start", 600], ["tp-fin", 655]));
    expect(computeFull(twoRuns("best"), abandoned).results.get("ana")!.runs).toEqual([
      { status: "dnf", time: null },
      { status: "finished", time: seconds(55) },
    ]);
  });
});
