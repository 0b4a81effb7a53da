import { describe, expect, it } from "vitest";
import { BIATHLON_MIN_PENALTY_LOOP, BIATHLON_PENALTY_PER_MISS } from "./biathlon";
import { computeFull } from "./full";
import type { BiathlonCourse, Crossing, RaceInput } from "./model";
import { rankSorted } from "./rank";
import { course, group, point, raceInput, racer, reads, rules, seconds } from "./test-races";

function biathlonRules(overrides: Partial<BiathlonCourse> = {}): BiathlonCourse {
  return {
    penaltyType: "time",
    perMiss: BIATHLON_PENALTY_PER_MISS,
    minLoop: BIATHLON_MIN_PENALTY_LOOP,
    penaltyTimingPointId: null,
    resultCalculation: "total",
    ...overrides,
  };
}

/** Three laps, two shootings: range in and out at the start of laps 2 and 3, the stadium line closes each lap. */
function biathlonRace(biathlon: BiathlonCourse, racers: RaceInput["racers"]): RaceInput {
  const points = [point("ri", "split", { rangeRole: "in" }), point("ro", "split", { rangeRole: "out" }), point("fin", "lap")];
  return raceInput({
    rules: rules({ timingMode: "lap", precision: 1, calcPrecision: 1 }),
    courses: [course(points, { lapCount: 3, biathlon })],
    racers,
    groups: [group("all")],
  });
}

/** Renumbers crossings of several racers so every seq is unique. */
const log = (...lists: Crossing[][]): Crossing[] => lists.flat().map((c, i) => ({ ...c, seq: i + 1 }));

describe("a biathlon individual with time penalties (60 s a miss)", () => {
  const input = biathlonRace(biathlonRules(), [racer("anna", { bib: 1, rangeMisses: [1, 2] }), racer("bea", { bib: 2, rangeMisses: [0, 0] })]);
  const crossings = log(
    reads("anna", ["tp-fin", 600], ["tp-ri", 610], ["tp-ro", 650], ["tp-fin", 1250], ["tp-ri", 1260], ["tp-ro", 1310], ["tp-fin", 1900]),
    reads("bea", ["tp-fin", 700], ["tp-ri", 712], ["tp-ro", 742], ["tp-fin", 1400], ["tp-ri", 1410], ["tp-ro", 1445], ["tp-fin", 2050]),
  );

  it("adds 3 misses × 60 s to Anna's 1900 s: total 2080 s, range 90 s, ski 1990 s", () => {
    const anna = computeFull(input, crossings).results.get("anna")!;
    expect(anna.status).toBe("finished");
    expect(anna.biathlon).toEqual({ misses: [1, 2], loops: [0, 0], penalty: seconds(180), total: seconds(2080), range: seconds(90), ski: seconds(1990) });
    expect(anna.time).toBe(seconds(2080));
  });

  it("ranks Bea (2050 s clean) ahead of Anna on total time", () => {
    const ranked = rankSorted(computeFull(input, crossings).groups.get("all")!, 0);
    expect(ranked.map((r) => [r.result.racerId, r.rank, r.result.time])).toEqual([
      ["bea", 1, seconds(2050)],
      ["anna", 2, seconds(2080)],
    ]);
  });

  it("ranks on ski time only (Anna 1990 s, Bea 1985 s) and range time only (Bea 65 s, Anna 90 s)", () => {
    const ski = computeFull(biathlonRace(biathlonRules({ resultCalculation: "ski" }), input.racers), crossings);
    expect(rankSorted(ski.groups.get("all")!, 0).map((r) => [r.result.racerId, r.result.time])).toEqual([
      ["bea", seconds(1985)],
      ["anna", seconds(1990)],
    ]);
    const range = computeFull(biathlonRace(biathlonRules({ resultCalculation: "range" }), input.racers), crossings);
    expect(rankSorted(range.groups.get("all")!, 0).map((r) => [r.result.racerId, r.result.time])).toEqual([
      ["bea", seconds(65)],
      ["anna", seconds(90)],
    ]);
  });

  it("leaves a finisher missing a range read unranked, after the ranked, when ranking on range time", () => {
    const missing = log(
      reads("anna", ["tp-fin", 600], ["tp-ri", 610], ["tp-fin", 1250], ["tp-ri", 1260], ["tp-ro", 1310], ["tp-fin", 1900]),
      crossings.filter((c) => c.racerId === "bea"),
    );
    const full = computeFull(biathlonRace(biathlonRules({ resultCalculation: "range" }), input.racers), missing);
    const ranked = rankSorted(full.groups.get("all")!, 0);
    expect(ranked.map((r) => [r.result.racerId, r.rank, r.result.status])).toEqual([
      ["bea", 1, "finished"],
      ["anna", null, "finished"],
    ]);
  });

  it("counts a shooting not entered yet as no miss, and shows it as not entered", () => {
    const full = computeFull(
      biathlonRace(biathlonRules(), [racer("anna", { rangeMisses: [2] })]),
      crossings.filter((c) => c.racerId === "anna"),
    );
    expect(full.results.get("anna")!.biathlon).toMatchObject({ misses: [2, null], penalty: seconds(120), total: seconds(2020) });
  });
});

describe("a biathlon sprint with penalty loops (recorder on its own timing point, 5 s minimum loop)", () => {
  const biathlon = biathlonRules({ penaltyType: "lap", penaltyTimingPointId: "tp-pen" });
  const input = biathlonRace(biathlon, [racer("cara", { bib: 3, rangeMisses: [2, 1] }), racer("dana", { bib: 4, rangeMisses: [2, 0] })]);
  const crossings = log(
    // A loop read before lap 1 closes is no penalty loop; 460 and 462 are the same loop (under 5 s apart).
    reads("cara", ["tp-pen", 100], ["tp-fin", 400], ["tp-pen", 460], ["tp-pen", 462], ["tp-pen", 490], ["tp-fin", 900], ["tp-pen", 950], ["tp-fin", 1300]),
    // Dana skis one loop for two misses: the missing loop costs 60 s.
    reads("dana", ["tp-fin", 380], ["tp-pen", 470], ["tp-fin", 880], ["tp-fin", 1250]),
  );

  it("counts Cara's loops per shooting (2 and 1), all owed skied: no penalty, total 1300 s", () => {
    const cara = computeFull(input, crossings).results.get("cara")!;
    expect(cara.biathlon).toMatchObject({ misses: [2, 1], loops: [2, 1], penalty: 0, total: seconds(1300) });
  });

  it("charges Dana 60 s for the loop she did not ski, so she ranks behind Cara (1310 s against 1300 s)", () => {
    const full = computeFull(input, crossings);
    expect(full.results.get("dana")!.biathlon).toMatchObject({ loops: [1, 0], penalty: seconds(60), total: seconds(1310) });
    expect(rankSorted(full.groups.get("all")!, 0).map((r) => [r.result.racerId, r.rank])).toEqual([
      ["cara", 1],
      ["dana", 2],
    ]);
  });

  it("owes no loop while the lap after the shooting is still running", () => {
    const early = crossings.filter((c) => c.racerId === "dana" && c.time <= reads("x", ["tp-fin", 500])[0]!.time);
    const dana = computeFull(input, early).results.get("dana")!;
    expect(dana.status).toBe("oncourse");
    expect(dana.biathlon).toMatchObject({ loops: [1, 0], penalty: 0, total: null });
  });
});
