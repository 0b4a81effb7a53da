import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ResultsEngine } from "./engine";
import { leaderChanges, type LeaderRacer } from "./leader-changes";
import { compareKeys } from "./rank";
import { at, course, group, point, raceInput, racer, reads, rules } from "./test-races";
import { fcParams } from "../testing/fast-check";

/** Two laps of a hill split and a lap line, mass start. */
function lapRace(crossings: ReturnType<typeof reads>, racers = ["a", "b", "c"].map((id, i) => racer(id, { bib: i + 1 }))) {
  const laps = course([point("hill", "split"), point("line", "lap")], { lapCount: 2 });
  const input = raceInput({ rules: rules({ timingMode: "lap" }), courses: [laps], racers, groups: [group("all")] });
  return new ResultsEngine(
    input,
    crossings.map((c, i) => ({ ...c, seq: i + 1 })),
  ).groupResults("all");
}

describe("leader changes", () => {
  it("logs whoever is first at a point when it is someone else, and the finish", () => {
    const members = lapRace([
      ...reads("a", ["tp-hill", 100], ["tp-line", 210], ["tp-hill", 330], ["tp-line", 400]),
      ...reads("b", ["tp-hill", 95], ["tp-line", 205], ["tp-hill", 320], ["tp-line", 410]),
      ...reads("c", ["tp-hill", 99], ["tp-line", 215]),
    ]);
    expect(leaderChanges(members).map((c) => [c.racerId, c.previous, c.index, c.finish, c.time])).toEqual([
      ["b", null, 0, false, at(95)],
      ["a", "b", 3, true, at(400)],
    ]);
  });

  it("gives the lead to a racer who only later comes out first, and none to a racer out of the race", () => {
    const members = lapRace(
      [...reads("a", ["tp-hill", 100], ["tp-line", 210]), ...reads("b", ["tp-hill", 95], ["tp-line", 200], ["tp-hill", 300]), ...reads("c", ["tp-hill", 90])],
      [racer("a"), racer("b"), racer("c", { dnfTime: at(150) })],
    );
    expect(leaderChanges(members).map((c) => [c.racerId, c.index])).toEqual([["b", 0]]);
    expect(leaderChanges([])).toEqual([]);
  });

  it("names the leader the results rank first, and leads change only to someone better placed (property)", () => {
    const pass = fc.integer({ min: 1, max: 600 });
    const racerReads = fc.array(pass, { minLength: 0, maxLength: 4 }).map((gaps) => gaps.map((g, i) => gaps.slice(0, i + 1).reduce((a, b) => a + b, 0)));
    fc.assert(
      fc.property(fc.array(racerReads, { minLength: 1, maxLength: 6 }), fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), (drawn, out) => {
        const ids = drawn.map((_, i) => `r${i}`);
        const crossings = drawn.flatMap((times, i) =>
          times.map((t, k) => ({ racerId: ids[i]!, timingPointId: k % 2 === 0 ? "tp-hill" : "tp-line", time: at(t) })),
        );
        const members = lapRace(
          crossings.map((c) => ({ ...c, seq: 0 })),
          ids.map((id, i) => racer(id, { bib: i + 1, dnfTime: out[i] ? at(10_000) : null })),
        );
        const changes = leaderChanges(members);
        // A brute-force replay: after each crossing, the leader is the smallest key of everyone's latest step.
        const racing = members.filter((m) => m.status === "oncourse" || m.status === "finished");
        const final = racing.filter((m) => m.splits.length > 0).sort((a, b) => compareKeys(a.key, b.key))[0];
        expect(changes.at(-1)?.racerId ?? null).toBe(final?.racerId ?? null);
        for (const [i, change] of changes.entries()) {
          expect(change.previous).toBe(i === 0 ? null : changes[i - 1]!.racerId);
          if (i > 0) expect(change.time).toBeGreaterThanOrEqual(changes[i - 1]!.time);
          expect(change.racerId).not.toBe(change.previous);
        }
        expect(bruteForce(racing)).toEqual(changes.map((c) => c.racerId));
      }),
      fcParams(),
    );
  });
});

/** Who leads after each step, recomputed over everyone from scratch, collapsed to the changes. */
function bruteForce(members: readonly (LeaderRacer & { key: readonly number[] })[]): string[] {
  const times = [...new Set(members.flatMap((m) => m.splits.map((s) => s.time)))].sort((a, b) => a - b);
  const leaders: string[] = [];
  for (const now of times) {
    const keys = members.flatMap((m) => {
      const passed = m.splits.filter((s) => s.time <= now);
      if (passed.length === 0) return [];
      const last = passed.at(-1)!;
      const key = m.status === "finished" && m.rankKey && last.time === m.finish ? [0, ...m.rankKey] : [1, -passed.length, last.elapsed];
      return [{ id: m.racerId, key }];
    });
    keys.sort((a, b) => compareKeys(a.key, b.key) || a.id.localeCompare(b.id));
    const leader = keys[0]!.id;
    if (leaders.at(-1) !== leader) leaders.push(leader);
  }
  return leaders;
}
