import { describe, expect, it } from "vitest";
import { computeRacerResult } from "./compute";
import type { Racer, RacerResult } from "./model";
import { compareKeys, rankSorted } from "./rank";
import { at, course, point, racer, reads, rules, seconds } from "./test-races";

const finishOnly = course([point("finish", "lap")]);
const lapCourse = course([point("lap", "lap")], { maxLapCount: null });

/** Results of racers finishing at the given seconds (null: status from the racer's flags), sorted by key. */
function sortedResults(entries: [overrides: Partial<Racer>, finish: number | null][], timingMode: "p2p" | "timelimit" = "p2p"): RacerResult[] {
  return entries
    .map(([overrides, finish], order) => {
      const ctx = { rules: rules({ timingMode }), course: timingMode === "p2p" ? finishOnly : lapCourse, startGroups: new Map(), order };
      const id = `r${order}`;
      return computeRacerResult(ctx, racer(id, { bib: order + 1, ...overrides }), finish === null ? [] : reads(id, ["tp-finish", finish], ["tp-lap", finish]));
    })
    .sort((a, b) => compareKeys(a.key, b.key));
}

describe("compareKeys", () => {
  it("compares element by element, and a prefix first", () => {
    expect(compareKeys([0, 5, 1], [0, 6, 0])).toBeLessThan(0);
    expect(compareKeys([1], [0, 9])).toBeGreaterThan(0);
    expect(compareKeys([0, 5], [0, 5, 1])).toBeLessThan(0);
    expect(compareKeys([0, 5], [0, 5])).toBe(0);
  });
});

describe("rankSorted", () => {
  it("shares a rank between equal times and skips the next (1, 1, 3)", () => {
    const ranked = rankSorted(
      sortedResults([
        [{}, 100],
        [{}, 100],
        [{}, 105],
        [{}, 110],
      ]),
      0,
    );
    expect(ranked.map((r) => r.rank)).toEqual([1, 1, 3, 4]);
  });

  it("gives each finisher its gap to the leader", () => {
    const ranked = rankSorted(
      sortedResults([
        [{}, 100],
        [{}, 100.5],
        [{}, 112],
      ]),
      0,
    );
    expect(ranked.map((r) => r.diff)).toEqual([0, seconds(0.5), seconds(12)]);
  });

  it("chains a same-time bunch to its first rider, each within the threshold of the previous one (s/t)", () => {
    const ranked = rankSorted(
      sortedResults([
        [{}, 100],
        [{}, 100.8],
        [{}, 101.5],
        [{}, 103],
        [{}, 103.9],
      ]),
      seconds(1),
    );
    expect(ranked.map((r) => r.shownTime)).toEqual([seconds(100), seconds(100), seconds(100), seconds(103), seconds(103)]);
    expect(ranked.map((r) => r.sameTime)).toEqual([false, true, true, false, true]);
    expect(ranked.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(ranked.map((r) => r.diff)).toEqual([0, seconds(0.8), seconds(1.5), seconds(3), seconds(3.9)]);
  });

  it("compares a gap exactly at the threshold as same time, and shows every time when the threshold is 0", () => {
    expect(
      rankSorted(
        sortedResults([
          [{}, 100],
          [{}, 101],
        ]),
        seconds(1),
      ).map((r) => r.sameTime),
    ).toEqual([false, true]);
    const off = rankSorted(
      sortedResults([
        [{}, 100],
        [{}, 100.01],
      ]),
      0,
    );
    expect(off.map((r) => [r.shownTime, r.sameTime])).toEqual([
      [seconds(100), false],
      [seconds(100.01), false],
    ]);
  });

  it("puts statuses after finishers in the order dnf, dsq, dns, unranked with no diff", () => {
    const results = sortedResults([
      [{ isDns: true }, null],
      [{ dsqTime: at(1) }, null],
      [{}, 200],
      [{ dnfTime: at(1) }, null],
      [{}, 100],
      [{}, null],
    ]);
    const ranked = rankSorted(results, 0);
    expect(ranked.map((r) => [r.result.status, r.rank, r.diff])).toEqual([
      ["finished", 1, 0],
      ["finished", 2, seconds(100)],
      ["notstarted", null, null],
      ["dnf", null, null],
      ["dsq", null, null],
      ["dns", null, null],
    ]);
  });

  it("ranks a time-limit race by laps, and never shares a time across different lap counts", () => {
    const results = sortedResults(
      [
        [{}, 100], // one lap at 100 s
        [{}, 100.5],
      ],
      "timelimit",
    );
    // a racer with two laps, the second at 100.2 s, is ahead of both
    const twoLaps = computeRacerResult(
      { rules: rules({ timingMode: "timelimit" }), course: lapCourse, startGroups: new Map(), order: 9 },
      racer("r9", { bib: 9 }),
      reads("r9", ["tp-lap", 50], ["tp-lap", 100.2]),
    );
    const ranked = rankSorted([twoLaps, ...results], seconds(1));
    expect(ranked.map((r) => [r.result.racerId, r.rank, r.sameTime])).toEqual([
      ["r9", 1, false],
      ["r0", 2, false],
      ["r1", 3, true],
    ]);
  });
});
