import { describe, expect, it } from "vitest";
import { resultForRacer, type RacerContext } from "./compute";
import { enduroSegments, segmentRuns, stageName } from "./enduro";
import type { Crossing } from "./model";
import { at, course, point, racer, rules, seconds } from "./test-races";

/**
 * An enduro of two timed stages joined by a transfer (timing.md: transfer stages are not timed):
 *   S1 start (tp-s1) → S1 finish (tp-f1, minimum descent 60 s) → transfer climb past a feed zone (tp-feed)
 *   → S2 start (tp-s2) → S2 finish (tp-f2, minimum 60 s).
 */
const enduroCourse = course([
  point("s1", "start"),
  point("f1", "split", { minSplit: seconds(60) }),
  point("feed", "split"),
  point("s2", "chipstart"),
  point("f2", "lap", { minSplit: seconds(60) }),
]);

function ctx(fastestLap = false): RacerContext {
  return { rules: rules({ timingMode: "enduro", precision: 1, calcPrecision: 1, fastestLap }), course: enduroCourse, startGroups: new Map(), order: 0 };
}

let seq = 0;
const read = (racerId: string, timingPoint: string, s: number): Crossing => ({ seq: ++seq, racerId, timingPointId: `tp-${timingPoint}`, time: at(s) });

describe("enduroSegments", () => {
  it("times each start with the point after it; the feed zone on the transfer is not a segment", () => {
    expect(enduroSegments(enduroCourse).map((s) => [s.name, s.startTimingPointId, s.finishTimingPointId, s.minTime])).toEqual([
      ["Stage #1", "tp-s1", "tp-f1", seconds(60)],
      ["Stage #2", "tp-s2", "tp-f2", seconds(60)],
    ]);
    expect(stageName(3)).toBe("Stage #3");
  });

  it("times nothing for a start followed by another start, or a start at the end", () => {
    expect(
      enduroSegments(course([point("a", "start"), point("b", "start"), point("c", "split"), point("d", "chipstart")])).map((s) => s.startTimingPointId),
    ).toEqual(["tp-b"]);
  });
});

describe("an enduro with a transfer stage", () => {
  it("sums the stage times only: 5:00 + 3:58 = 8:58, the 18:20 transfer not counted; the latest start-gate read opens a run", () => {
    const result = resultForRacer(ctx(), racer("ana", { bib: 1 }), [
      read("ana", "s1", 100),
      read("ana", "f1", 400),
      read("ana", "feed", 900),
      read("ana", "s2", 1500),
      read("ana", "s2", 1502),
      read("ana", "f2", 1740),
    ]);
    expect(result).toMatchObject({ status: "finished", time: seconds(538), start: at(100), finish: at(1740), laps: 2, rankKey: [seconds(538)] });
    expect(result.segments).toEqual([
      { time: seconds(300), runs: 1 },
      { time: seconds(238), runs: 1 },
    ]);
    expect(result.splits.map((s) => [s.index, s.coursePointId, s.elapsed])).toEqual([
      [0, "f1", seconds(300)],
      [1, "f2", seconds(538)],
    ]);
  });

  it("does not take a finish read sooner than the minimum descent time (20 s after the start here)", () => {
    const result = resultForRacer(ctx(), racer("ben"), [
      read("ben", "s1", 130),
      read("ben", "f1", 150),
      read("ben", "f1", 420),
      read("ben", "s2", 1400),
      read("ben", "f2", 1700),
    ]);
    expect(result.segments?.map((s) => s.time)).toEqual([seconds(290), seconds(300)]);
    expect(result.time).toBe(seconds(590));
  });

  it("counts a stage's first run, or its fastest with the fastest-lap option", () => {
    const crossings = [
      read("cy", "s1", 200),
      read("cy", "f1", 520),
      read("cy", "s1", 600),
      read("cy", "f1", 880),
      read("cy", "s2", 1000),
      read("cy", "f2", 1250),
    ];
    expect(resultForRacer(ctx(), racer("cy"), crossings)).toMatchObject({
      time: seconds(570),
      segments: [
        { time: seconds(320), runs: 2 },
        { time: seconds(250), runs: 1 },
      ],
    });
    expect(resultForRacer(ctx(true), racer("cy"), crossings)).toMatchObject({
      time: seconds(530),
      segments: [
        { time: seconds(280), runs: 2 },
        { time: seconds(250), runs: 1 },
      ],
    });
  });

  it("keeps a racer with a stage to go on course, sorted by stages done then the time so far; penalties add to the sum", () => {
    const out = resultForRacer(ctx(), racer("di", { bib: 4 }), [read("di", "s1", 100), read("di", "f1", 380), read("di", "s2", 1500)]);
    expect(out).toMatchObject({ status: "oncourse", time: null, finish: null, key: [1, -1, seconds(280), 4, 0] });
    const penalised = resultForRacer(ctx(), racer("ed", { penalty: seconds(30) }), [
      read("ed", "s1", 100),
      read("ed", "f1", 400),
      read("ed", "s2", 1500),
      read("ed", "f2", 1740),
    ]);
    expect(penalised.time).toBe(seconds(570));
  });

  it("times a loop segment whose start and finish share a mat: a read too soon is the same pass", () => {
    const loop = { ...enduroSegments(course([point("g", "start"), point("g2", "lap", { timingPointId: "tp-g", minSplit: seconds(60) })]))[0]! };
    const runs = segmentRuns(loop, [read("x", "g", 0), read("x", "g", 5), read("x", "g", 100), read("x", "g", 190)], 1);
    expect(runs.map((r) => r.time)).toEqual([seconds(100), seconds(90)]);
  });
});
