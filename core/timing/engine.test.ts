import { describe, expect, it } from "vitest";
import { ResultsEngine } from "./engine";
import type { Crossing, RaceInput } from "./model";
import { at, course, group, point, raceInput, racer, rules, seconds } from "./test-races";

let nextSeq = 1;
function read(racerId: string, timingPointId: string, secondsAfterGun: number): Crossing {
  return { seq: nextSeq++, racerId, timingPointId, time: at(secondsAfterGun) };
}

/** Two courses, a group per course and one for women; racers r1-r3 on the 10 km, r4 on the 5 km. */
function twoCourseRace(): RaceInput {
  const finish = point("finish", "lap", { minSplit: seconds(30) });
  return raceInput({
    courses: [course([point("a", "split"), finish], { id: "c10" }), course([finish], { id: "c5" })],
    racers: [
      racer("r1", { bib: 1, courseId: "c10", fields: { sex: "F" } }),
      racer("r2", { bib: 2, courseId: "c10", fields: { sex: "M" } }),
      racer("r3", { bib: 3, courseId: "c10", fields: { sex: "F" } }),
      racer("r4", { bib: 4, courseId: "c5", fields: { sex: "F" } }),
    ],
    groups: [
      group("g10", { ordinal: 0, courseId: "c10" }),
      group("g5", { ordinal: 1, courseId: "c5" }),
      group("women", { ordinal: 2, criteria: [{ field: "sex", op: "eq", value: "F" }] }),
    ],
  });
}

const ids = (engine: ResultsEngine, groupId: string) => engine.groupResults(groupId).map((r) => r.racerId);

describe("ResultsEngine", () => {
  it("builds every group sorted from the initial crossings", () => {
    const engine = new ResultsEngine(twoCourseRace(), [read("r2", "tp-finish", 600), read("r3", "tp-finish", 590), read("r1", "tp-a", 300)]);
    expect(ids(engine, "g10")).toEqual(["r3", "r2", "r1"]);
    expect(ids(engine, "women")).toEqual(["r3", "r1", "r4"]);
    expect(engine.groupsOf("r3")).toEqual(["g10", "women"]);
    expect(engine.result("r1")?.status).toBe("oncourse");
  });

  it("moves a finishing racer into place and reports only it and its groups", () => {
    const engine = new ResultsEngine(twoCourseRace(), [read("r2", "tp-finish", 600), read("r3", "tp-finish", 590)]);
    const change = engine.addCrossings([read("r1", "tp-finish", 595)]);
    expect(change).toEqual({ racerIds: ["r1"], groupIds: ["g10", "women"] });
    expect(ids(engine, "g10")).toEqual(["r3", "r1", "r2"]);
    expect(engine.ranked("g10").map((r) => [r.result.racerId, r.rank, r.diff])).toEqual([
      ["r3", 1, 0],
      ["r1", 2, seconds(5)],
      ["r2", 3, seconds(10)],
    ]);
  });

  it("reports nothing for a second read of the same pass within min split", () => {
    const engine = new ResultsEngine(twoCourseRace(), [read("r1", "tp-finish", 600)]);
    const before = engine.result("r1");
    expect(engine.addCrossings([read("r1", "tp-finish", 610)])).toEqual({ racerIds: [], groupIds: [] });
    expect(engine.result("r1")).toBe(before);
  });

  it("ignores the same crossing (same seq) sent twice", () => {
    const crossing = read("r1", "tp-finish", 600);
    const engine = new ResultsEngine(twoCourseRace(), [crossing]);
    expect(engine.addCrossings([crossing])).toEqual({ racerIds: [], groupIds: [] });
  });

  it("keeps crossings of an unknown racer until the racer is added", () => {
    const engine = new ResultsEngine(twoCourseRace());
    expect(engine.addCrossings([read("r9", "tp-finish", 500)])).toEqual({ racerIds: [], groupIds: [] });
    const change = engine.upsertRacer(racer("r9", { bib: 9, courseId: "c10", fields: { sex: "M" } }));
    expect(change).toEqual({ racerIds: ["r9"], groupIds: ["g10"] });
    expect(engine.result("r9")).toMatchObject({ status: "finished", time: seconds(500) });
    expect(ids(engine, "g10")).toEqual(["r9", "r1", "r2", "r3"]);
  });

  it("moves an edited racer between groups", () => {
    const engine = new ResultsEngine(twoCourseRace(), [read("r2", "tp-finish", 600)]);
    const change = engine.upsertRacer(racer("r2", { bib: 2, courseId: "c10", fields: { sex: "f" } }));
    expect(change).toEqual({ racerIds: ["r2"], groupIds: ["women"] });
    expect(ids(engine, "women")).toEqual(["r2", "r1", "r3", "r4"]);
    const toFive = engine.upsertRacer(racer("r2", { bib: 2, courseId: "c5", fields: { sex: "f" } }));
    expect(toFive).toEqual({ racerIds: ["r2"], groupIds: ["g10", "g5", "women"] });
    expect(ids(engine, "g10")).toEqual(["r1", "r3"]);
    expect(ids(engine, "g5")).toEqual(["r2", "r4"]);
  });

  it("reports nothing for an edit that changes neither result nor groups", () => {
    const engine = new ResultsEngine(twoCourseRace());
    expect(engine.upsertRacer(racer("r2", { bib: 2, courseId: "c10", firstName: "Renamed", fields: { sex: "M" } }))).toEqual({ racerIds: [], groupIds: [] });
  });

  it("clears a racer's times", () => {
    const engine = new ResultsEngine(twoCourseRace(), [read("r1", "tp-finish", 600)]);
    expect(engine.clearTimes("r1")).toEqual({ racerIds: ["r1"], groupIds: ["g10", "women"] });
    expect(engine.result("r1")).toMatchObject({ status: "notstarted", splits: [], time: null });
  });

  it("removes a racer and renumbers the racers after it", () => {
    const engine = new ResultsEngine(twoCourseRace(), [read("r1", "tp-finish", 600)]);
    const change = engine.removeRacer("r2");
    expect(change).toEqual({ racerIds: ["r2", "r3", "r4"], groupIds: ["g10", "g5", "women"] });
    expect(engine.result("r2")).toBeUndefined();
    expect(engine.result("r3")?.key.at(-1)).toBe(1);
    expect(ids(engine, "g10")).toEqual(["r1", "r3"]);
    expect(engine.groupsOf("r2")).toEqual([]);
  });

  it("removes a racer that has a lasting order and leaves every other racer's key alone", () => {
    const input = twoCourseRace();
    input.racers = input.racers.map((r, i) => ({ ...r, order: 10 + i }));
    const engine = new ResultsEngine(input, [read("r1", "tp-finish", 600)]);
    expect(engine.removeRacer("r2")).toEqual({ racerIds: ["r2"], groupIds: ["g10"] });
    expect(engine.result("r3")?.key.at(-1)).toBe(12);
    expect(ids(engine, "g10")).toEqual(["r1", "r3"]);
    // A racer added afterwards goes by its own order, not the list's length.
    engine.upsertRacer({ ...input.racers[1]!, id: "r5", bib: 3, order: 14 });
    expect(engine.result("r5")?.key.at(-1)).toBe(14);
    expect(ids(engine, "g10")).toEqual(["r1", "r3", "r5"]);
  });

  it("keeps a racer with no course in its groups, unranked, without stopping the others", () => {
    const input = twoCourseRace();
    input.racers.push(racer("r5", { bib: 5, courseId: null, fields: { sex: "F" } }), racer("r6", { bib: 6, courseId: "nowhere", dnfTime: at(0) }));
    input.groups.push(group("everyone", { ordinal: 3 }));
    const engine = new ResultsEngine(input, [read("r1", "tp-finish", 600), read("r5", "tp-finish", 500)]);
    expect(engine.result("r5")).toMatchObject({ status: "notstarted", splits: [], rankKey: null });
    expect(engine.result("r6")).toMatchObject({ status: "dnf", statusText: "DNF" });
    expect(engine.ranked("everyone").map((r) => [r.result.racerId, r.rank])).toEqual([
      ["r1", 1],
      ["r2", null],
      ["r3", null],
      ["r4", null],
      ["r5", null],
      ["r6", null],
    ]);
  });

  it("ranks with the group's same-time threshold, else the race's", () => {
    const input = twoCourseRace();
    input.rules = rules({ sameTimeThreshold: seconds(1) });
    input.groups[2] = group("women", { ordinal: 2, sameTimeThreshold: 0, criteria: [{ field: "sex", op: "eq", value: "F" }] });
    const engine = new ResultsEngine(input, [read("r1", "tp-finish", 600), read("r3", "tp-finish", 600.5)]);
    expect(engine.ranked("g10").map((r) => r.sameTime)).toEqual([false, true, false]);
    expect(engine.ranked("women").map((r) => r.sameTime)).toEqual([false, false, false]);
  });

  it("rebuilds on a setup change and reports every racer and group", () => {
    const engine = new ResultsEngine(twoCourseRace(), [read("r1", "tp-finish", 600)]);
    const input = twoCourseRace();
    input.groups = [group("all")];
    const change = engine.setInput(input);
    expect(change.racerIds).toEqual(["r1", "r2", "r3", "r4"]);
    expect(change.groupIds).toEqual(["all", "g10", "g5", "women"]);
    expect(ids(engine, "all")).toEqual(["r1", "r2", "r3", "r4"]);
    expect(engine.groupResults("g10")).toEqual([]);
  });
});
