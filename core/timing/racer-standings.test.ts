import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ResultsEngine } from "./engine";
import type { RacerResult } from "./model";
import { lapTimeAt, racerStandings } from "./racer-standings";
import { columnStandings } from "./result-columns";
import { course, group, point, raceInput, racer, reads, rules, seconds } from "./test-races";
import { fcParams } from "../testing/fast-check";

/** Two laps of a split and a lap line; four racers, one of them out (DNF) after lap 1, one never seen. */
function twoLapRace() {
  const laps = course([point("s", "start"), point("mid", "split"), point("line", "lap")], { lapCount: 2 });
  const crossings = [
    ...reads("a", ["tp-mid", 300], ["tp-line", 610], ["tp-mid", 905], ["tp-line", 1200]),
    ...reads("b", ["tp-mid", 290], ["tp-line", 620], ["tp-mid", 940], ["tp-line", 1260]),
    ...reads("c", ["tp-mid", 310], ["tp-line", 600]),
  ].map((c, i) => ({ ...c, seq: i + 1 }));
  const input = raceInput({
    rules: rules({ timingMode: "lap" }),
    courses: [laps],
    racers: [racer("a", { bib: 1 }), racer("b", { bib: 2 }), racer("c", { bib: 3, dnfTime: seconds(700) + rules().startTime }), racer("d", { bib: 4 })],
    groups: [group("all")],
  });
  const engine = new ResultsEngine(input, crossings);
  return { engine, members: engine.groupResults("all") };
}

describe("racerStandings", () => {
  it("gives each split its place, the gap to the fastest there and the time since the last split", () => {
    const { engine, members } = twoLapRace();
    const { points, finish } = racerStandings(engine.result("a")!, members);
    expect(points.map((p) => [p.index, p.lap, p.elapsed / 1e6, p.sinceLast / 1e6, p.rank, p.passed, p.behind / 1e6])).toEqual([
      [0, 1, 300, 300, 2, 3, 10],
      [1, 1, 610, 310, 2, 3, 10],
      [2, 2, 905, 295, 1, 2, 0],
      [3, 2, 1200, 295, 1, 2, 0],
    ]);
    expect(finish).toEqual({ rank: 1, ranked: 2, behind: 0 });
    const second = racerStandings(engine.result("b")!, members);
    expect(second.points.map((p) => [p.rank, p.behind / 1e6])).toEqual([
      [1, 0],
      [3, 20],
      [2, 35],
      [2, 60],
    ]);
    expect(second.finish).toEqual({ rank: 2, ranked: 2, behind: seconds(60) });
  });

  it("leaves the unranked without a finish place, and a racer with no reads without points", () => {
    const { engine, members } = twoLapRace();
    const out = racerStandings(engine.result("c")!, members);
    expect(out.finish).toEqual({ rank: null, ranked: 2, behind: null });
    expect(out.points.map((p) => p.rank)).toEqual([3, 1]);
    expect(racerStandings(engine.result("d")!, members)).toEqual({ points: [], finish: { rank: null, ranked: 2, behind: null } });
  });

  it("places a racer at a point only among racers of the same course", () => {
    const { engine, members } = twoLapRace();
    const onlyA = racerStandings(engine.result("a")!, members, (id) => id === "a");
    expect(onlyA.points.map((p) => [p.rank, p.passed, p.behind])).toEqual([
      [1, 1, 0],
      [1, 1, 0],
      [1, 1, 0],
      [1, 1, 0],
    ]);
    // The finish is the group's, whatever the course.
    expect(onlyA.finish.ranked).toBe(2);
  });

  it("shares a place between equal times at a point", () => {
    const result = (racerId: string, elapsed: number): RacerResult => ({
      racerId,
      status: "oncourse",
      statusText: "",
      start: 0,
      laps: 0,
      splits: [{ index: 0, coursePointId: "p", lap: 1, time: elapsed, elapsed }],
      finish: null,
      time: null,
      key: [1, -1, elapsed],
      rankKey: null,
    });
    const members = [result("x", 50), result("y", 50), result("z", 40)];
    expect(racerStandings(members[0]!, members).points[0]).toMatchObject({ rank: 2, passed: 3, behind: 10 });
    expect(racerStandings(members[1]!, members).points[0]).toMatchObject({ rank: 2, passed: 3, behind: 10 });
  });

  /** A group of racers on one course of `points` split indexes, each with some of them passed. */
  const groupArb = fc
    .record({
      points: fc.integer({ min: 1, max: 6 }),
      racers: fc.array(fc.array(fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }), { minLength: 6, maxLength: 6 }), { minLength: 1, maxLength: 12 }),
      target: fc.nat(),
    })
    .map(({ points, racers, target }) => {
      const results: RacerResult[] = racers.map((gaps, r) => {
        let elapsed = 0;
        const splits = gaps.slice(0, points).flatMap((gap, index) => {
          if (gap === null) return [];
          elapsed += gap;
          return [{ index, coursePointId: `p${index}`, lap: 1, time: elapsed, elapsed }];
        });
        const finished = splits.length === points && splits.at(-1)?.index === points - 1;
        const time = finished ? elapsed : null;
        return {
          racerId: `r${r}`,
          status: finished ? "finished" : "oncourse",
          statusText: "",
          start: 0,
          laps: finished ? 1 : 0,
          splits,
          finish: time,
          time,
          key: finished ? [0, elapsed, r] : [1, -splits.length, r],
          rankKey: finished ? [elapsed] : null,
        };
      });
      return { results, target: results[target % results.length]! };
    });

  it("gives the leader at every point no time behind, and places that agree with the times there (property)", () => {
    fc.assert(
      fc.property(groupArb, ({ results, target }) => {
        const { points, finish } = racerStandings(target, results);
        const columns = target.splits.map((s) => ({ index: s.index, name: "" }));
        const reference = columnStandings(results, columns);
        for (const point of points) {
          const times = results.flatMap((r) => r.splits.filter((s) => s.index === point.index).map((s) => s.elapsed));
          expect(point.passed).toBe(times.length);
          expect(point.rank).toBe(1 + times.filter((t) => t < point.elapsed).length);
          expect(point.rank).toBe(reference.get(point.index)!.ranks.get(target.racerId));
          expect(point.behind).toBe(point.elapsed - Math.min(...times));
          expect(point.behind === 0).toBe(point.rank === 1);
          // Whoever leads at this point is 0 behind there.
          const leader = results.find((r) => r.splits.some((s) => s.index === point.index && s.elapsed === Math.min(...times)))!;
          expect(racerStandings(leader, results).points.find((p) => p.index === point.index)!.behind).toBe(0);
        }
        const finished = results.filter((r) => r.time !== null).map((r) => r.time!);
        expect(finish.ranked).toBe(finished.length);
        if (target.time === null) expect(finish).toEqual({ rank: null, ranked: finished.length, behind: null });
        else {
          expect(finish.rank).toBe(1 + finished.filter((t) => t < target.time!).length);
          expect(finish.behind).toBe(target.time - Math.min(...finished));
        }
      }),
      fcParams(),
    );
  });
});

describe("lapTimeAt", () => {
  const splits = [
    { index: 1, elapsed: seconds(610) },
    { index: 3, elapsed: seconds(1200) },
    { index: 7, elapsed: seconds(2500) },
  ];
  it("times a lap from the same line one lap before, the first from the start", () => {
    expect(lapTimeAt(splits, 1, 2)).toBe(seconds(610));
    expect(lapTimeAt(splits, 3, 2)).toBe(seconds(590));
  });
  it("has no lap time after a missed lap read or at a point not passed", () => {
    expect(lapTimeAt(splits, 7, 2)).toBeNull();
    expect(lapTimeAt(splits, 5, 2)).toBeNull();
  });
});
