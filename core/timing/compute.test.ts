import { describe, expect, it } from "vitest";
import { computeRacerResult, resultForRacer, type RacerContext } from "./compute";
import { TimingError } from "./errors";
import type { Course, Racer, RacerResult, RaceRules, StartGroup } from "./model";
import { compareKeys } from "./rank";
import { at, course, GUN, point, racer, reads, rules, seconds, startGroup } from "./test-races";

function context(overrides: { rules?: Partial<RaceRules>; course?: Course | null; startGroups?: StartGroup[]; order?: number } = {}): RacerContext {
  return {
    rules: rules(overrides.rules),
    course: overrides.course === undefined ? p2pCourse : overrides.course,
    startGroups: new Map((overrides.startGroups ?? []).map((g) => [g.id, g])),
    order: overrides.order ?? 0,
  };
}

/** Start, two splits, finish: the usual point-to-point course. */
const p2pCourse = course([point("start", "start"), point("a", "split"), point("b", "split"), point("finish", "lap")]);

describe("computeRacerResult: mass start point to point", () => {
  it("gives splits since the gun, the finish and the result time", () => {
    const result = computeRacerResult(context(), racer("r1", { bib: 7 }), reads("r1", ["tp-a", 300], ["tp-b", 600.25], ["tp-finish", 900.5]));
    expect(result.start).toBe(GUN);
    expect(result.splits.map((s) => [s.coursePointId, s.index, s.lap, s.elapsed])).toEqual([
      ["a", 0, 1, seconds(300)],
      ["b", 1, 1, seconds(600.25)],
      ["finish", 2, 1, seconds(900.5)],
    ]);
    expect(result).toMatchObject({ status: "finished", statusText: "", laps: 1, finish: at(900.5), time: seconds(900.5) });
    expect(result.key).toEqual([0, seconds(900.5), 7, 0]);
    expect(result.rankKey).toEqual([seconds(900.5)]);
  });

  it("accepts the crossings in any order", () => {
    const inOrder = reads("r1", ["tp-a", 300], ["tp-b", 600], ["tp-finish", 900]);
    const shuffled = [inOrder[2], inOrder[0], inOrder[1]].filter((c) => c !== undefined);
    expect(computeRacerResult(context(), racer("r1"), shuffled)).toEqual(computeRacerResult(context(), racer("r1"), inOrder));
  });

  it("is on course with some splits, sorted by splits done then the last split", () => {
    const result = computeRacerResult(context(), racer("r1", { bib: 3 }), reads("r1", ["tp-a", 300], ["tp-b", 610]));
    expect(result).toMatchObject({ status: "oncourse", finish: null, time: null, rankKey: null, laps: 0 });
    expect(result.key).toEqual([1, -2, seconds(610), 3, 0]);
  });

  it("has not started with no crossing, and ignores crossings at or before the gun or at points not on the course", () => {
    const result = computeRacerResult(context(), racer("r1"), reads("r1", ["tp-a", -5], ["tp-a", 0], ["tp-elsewhere", 100], ["tp-start", 2]));
    expect(result).toMatchObject({ status: "notstarted", splits: [], finish: null, time: null, rankKey: null });
    expect(result.key).toEqual([2, Number.MAX_SAFE_INTEGER, 0]);
  });

  it("skips a missed split and ignores points that never come again", () => {
    const result = computeRacerResult(context(), racer("r1"), reads("r1", ["tp-b", 600], ["tp-a", 650], ["tp-finish", 900], ["tp-finish", 950]));
    expect(result.splits.map((s) => s.coursePointId)).toEqual(["b", "finish"]);
    expect(result.time).toBe(seconds(900));
  });

  it("refuses a racer with no course: Cannot calculate results without a course", () => {
    expect(() => computeRacerResult(context({ course: null }), racer("r1"), [])).toThrow(TimingError);
    expect(() => computeRacerResult(context({ course: null }), racer("r1"), [])).toThrow("Cannot calculate results without a course");
  });

  it("gives a racer with no course a status-only result through resultForRacer", () => {
    const result = resultForRacer(context({ course: null }), racer("r1", { dnfTime: at(100) }), reads("r1", ["tp-finish", 50]));
    expect(result).toMatchObject({ status: "dnf", statusText: "DNF", splits: [], finish: null, time: null, rankKey: null });
  });
});

describe("computeRacerResult: lap race", () => {
  const lapCourse = course([point("start", "start"), point("a", "split", { minSplit: seconds(30) }), point("lap", "lap", { minSplit: seconds(30) })], {
    lapCount: 3,
  });

  it("counts three laps, ignores reads of one pass within min split and skips a missed split", () => {
    const crossings = reads(
      "r1",
      ["tp-a", 100],
      ["tp-a", 110], // same pass as 100 (within 30 s)
      ["tp-lap", 200],
      ["tp-lap", 200.4], // same pass
      ["tp-lap", 229.9], // still within 30 s of 200
      // lap 2: split a missed
      ["tp-lap", 400],
      ["tp-a", 500],
      ["tp-lap", 600],
      ["tp-lap", 700], // after the finish: the lap point never comes again
    );
    const result = computeRacerResult(context({ rules: { timingMode: "lap" }, course: lapCourse }), racer("r1"), crossings);
    expect(result.splits.map((s) => [s.coursePointId, s.lap, s.time])).toEqual([
      ["a", 1, at(100)],
      ["lap", 1, at(200)],
      ["lap", 2, at(400)],
      ["a", 3, at(500)],
      ["lap", 3, at(600)],
    ]);
    expect(result).toMatchObject({ status: "finished", laps: 3, finish: at(600), time: seconds(600) });
  });

  it("accepts a read exactly min split after the last one (closer than min split is the same pass)", () => {
    const result = computeRacerResult(context({ rules: { timingMode: "lap" }, course: lapCourse }), racer("r1"), reads("r1", ["tp-lap", 200], ["tp-lap", 230]));
    expect(result.splits.map((s) => s.time)).toEqual([at(200), at(230)]);
    expect(result.laps).toBe(2);
  });

  it("counts a lap whose lap read was missed once a later lap read proves it", () => {
    // a at 100 (lap 1), a at 250 is lap 2's a (lap 1's lap point was missed), lap at 300 closes lap 2
    const result = computeRacerResult(
      context({ rules: { timingMode: "lap" }, course: lapCourse }),
      racer("r1"),
      reads("r1", ["tp-a", 100], ["tp-a", 250], ["tp-lap", 300]),
    );
    expect(result.splits.map((s) => [s.coursePointId, s.lap])).toEqual([
      ["a", 1],
      ["a", 2],
      ["lap", 2],
    ]);
    expect(result).toMatchObject({ status: "oncourse", laps: 2 });
  });

  it("is on course after two of three laps", () => {
    const result = computeRacerResult(context({ rules: { timingMode: "lap" }, course: lapCourse }), racer("r1"), reads("r1", ["tp-lap", 200], ["tp-lap", 400]));
    expect(result).toMatchObject({ status: "oncourse", laps: 2, finish: null });
  });

  it("treats start-mat reads right after the start as the start pass when the start and lap points share a mat", () => {
    const shared = course([point("start", "start", { timingPointId: "tp-mat" }), point("lap", "lap", { timingPointId: "tp-mat", minSplit: seconds(60) })], {
      lapCount: 2,
    });
    const result = computeRacerResult(
      context({ rules: { timingMode: "lap" }, course: shared }),
      racer("r1"),
      reads("r1", ["tp-mat", 3], ["tp-mat", 300], ["tp-mat", 600]),
    );
    expect(result.splits.map((s) => s.time)).toEqual([at(300), at(600)]);
    expect(result.time).toBe(seconds(600));
  });
});

describe("computeRacerResult: time limit", () => {
  const limitRules = { timingMode: "timelimit" as const };
  const loop = (overrides: Partial<Course>) => course([point("a", "split"), point("lap", "lap")], { maxLapCount: 5, timeLimitEnd: at(1000), ...overrides });
  const laps = (...times: number[]) => reads("r1", ...times.map((t): [string, number] => ["tp-lap", t]));

  it("counts the lap completed first after the time limit, and none after it", () => {
    const result = computeRacerResult(context({ rules: limitRules, course: loop({}) }), racer("r1", { bib: 4 }), laps(300, 600, 900, 1200, 1500));
    expect(result).toMatchObject({ status: "finished", laps: 4, finish: at(1200), time: seconds(1200) });
    expect(result.splits.map((s) => s.time)).toEqual([at(300), at(600), at(900), at(1200)]);
    expect(result.rankKey).toEqual([-4, seconds(1200)]);
    expect(result.key).toEqual([0, -4, seconds(1200), 4, 0]);
  });

  it("lets a lap completed exactly at the limit start one more", () => {
    const result = computeRacerResult(context({ rules: limitRules, course: loop({}) }), racer("r1"), laps(500, 1000, 1400, 1800));
    expect(result).toMatchObject({ laps: 3, finish: at(1400) });
  });

  it("stops at the max lap count", () => {
    const result = computeRacerResult(
      context({ rules: limitRules, course: loop({ timeLimitEnd: null }) }),
      racer("r1"),
      laps(100, 200, 300, 400, 500, 600, 700),
    );
    expect(result).toMatchObject({ laps: 5, finish: at(500), time: seconds(500) });
  });

  it("has no lap limit when the max lap count is not set", () => {
    const many = Array.from({ length: 40 }, (_, i) => (i + 1) * 100);
    const result = computeRacerResult(context({ rules: limitRules, course: loop({ maxLapCount: null, timeLimitEnd: null }) }), racer("r1"), laps(...many));
    expect(result).toMatchObject({ laps: 40, finish: at(4000) });
  });

  it("is a finisher from its first lap, with the last counted lap as its finish", () => {
    const result = computeRacerResult(context({ rules: limitRules, course: loop({}) }), racer("r1"), reads("r1", ["tp-lap", 300], ["tp-a", 450]));
    expect(result).toMatchObject({ status: "finished", laps: 1, finish: at(300) });
    const none = computeRacerResult(context({ rules: limitRules, course: loop({}) }), racer("r1"), reads("r1", ["tp-a", 150]));
    expect(none).toMatchObject({ status: "oncourse", laps: 0, finish: null, rankKey: null });
  });

  it("ranks more laps first, then the earlier time", () => {
    const ctx = context({ rules: limitRules, course: loop({}) });
    const fourLaps = computeRacerResult(ctx, racer("r1"), laps(300, 600, 900, 1200));
    const threeLapsSooner = computeRacerResult(ctx, racer("r1"), laps(250, 500, 1100));
    expect(compareKeys(fourLaps.key, threeLapsSooner.key)).toBeLessThan(0);
  });
});

describe("computeRacerResult: start", () => {
  const chipCourse = course([point("cs", "chipstart"), point("finish", "lap")]);

  it("starts a chip start racer at the first read at the chip start point", () => {
    const result = computeRacerResult(
      context({ rules: { startOption: "chipstart" }, course: chipCourse }),
      racer("r1"),
      reads("r1", ["tp-cs", 15], ["tp-cs", 16], ["tp-finish", 615]),
    );
    expect(result).toMatchObject({ start: at(15), finish: at(615), time: seconds(600) });
  });

  it("uses the gun when the start option is gun, whatever the mat read", () => {
    const result = computeRacerResult(context({ course: chipCourse }), racer("r1"), reads("r1", ["tp-cs", 15], ["tp-finish", 615]));
    expect(result).toMatchObject({ start: GUN, time: seconds(615) });
  });

  it("uses the gun while a chip start racer has no mat read, and is on course with only the mat read", () => {
    const ctx = context({ rules: { startOption: "chipstart" }, course: chipCourse });
    expect(computeRacerResult(ctx, racer("r1"), [])).toMatchObject({ start: GUN, status: "notstarted" });
    const matRead = computeRacerResult(ctx, racer("r1"), reads("r1", ["tp-cs", 15]));
    expect(matRead).toMatchObject({ start: at(15), status: "oncourse", splits: [] });
    expect(matRead.key).toEqual([1, 0, 0, Number.MAX_SAFE_INTEGER, 0]); // no splits: 0, never -0
  });

  it("uses a start-mode point for the chip start when the course has no chipstart point", () => {
    const result = computeRacerResult(context({ rules: { startOption: "chipstart" } }), racer("r1"), reads("r1", ["tp-start", 20], ["tp-finish", 920]));
    expect(result).toMatchObject({ start: at(20), time: seconds(900) });
  });

  it("starts an individual start racer at their own start time", () => {
    const result = computeRacerResult(context({ rules: { startMode: "individual" } }), racer("r1", { startTime: at(60) }), reads("r1", ["tp-finish", 960]));
    expect(result).toMatchObject({ start: at(60), time: seconds(900) });
  });

  it("has no start for an individual start racer with neither own time nor start group", () => {
    const result = computeRacerResult(context({ rules: { startMode: "individual" } }), racer("r1"), reads("r1", ["tp-finish", 960]));
    expect(result).toMatchObject({ start: null, splits: [], status: "notstarted" });
  });

  it("takes a start group's time by priority recorded > assigned > scheduled > race", () => {
    const full = startGroup("g", { recordedStartTime: at(30), assignedStartTime: at(20), scheduledStartTime: at(10) });
    const startOf = (group: StartGroup) => computeRacerResult(context({ startGroups: [group] }), racer("r1", { startGroupId: "g" }), []).start;
    expect(startOf(full)).toBe(at(30));
    expect(startOf({ ...full, recordedStartTime: null })).toBe(at(20));
    expect(startOf({ ...full, recordedStartTime: null, assignedStartTime: null })).toBe(at(10));
    expect(startOf({ ...full, recordedStartTime: null, assignedStartTime: null, scheduledStartTime: null })).toBe(GUN);
  });

  it("follows the start group's start mode over the race's", () => {
    const individualGroup = startGroup("g", { startMode: "individual", scheduledStartTime: at(100) });
    const ctx = context({ startGroups: [individualGroup] });
    expect(computeRacerResult(ctx, racer("r1", { startGroupId: "g", startTime: at(130) }), []).start).toBe(at(130));
    expect(computeRacerResult(ctx, racer("r1", { startGroupId: "g" }), []).start).toBe(at(100));
    const massGroup = startGroup("g", { startMode: "mass", scheduledStartTime: at(100) });
    const massCtx = context({ rules: { startMode: "individual" }, startGroups: [massGroup] });
    expect(computeRacerResult(massCtx, racer("r1", { startGroupId: "g", startTime: at(130) }), []).start).toBe(at(100));
  });

  it("treats a start group the race does not have as none", () => {
    expect(computeRacerResult(context(), racer("r1", { startGroupId: "missing" }), []).start).toBe(GUN);
  });
});

describe("computeRacerResult: result time", () => {
  const finishAt600 = reads("r1", ["tp-finish", 600]);
  const timeOf = (overrides: Partial<Racer>, ruleOverrides: Partial<RaceRules> = {}) =>
    computeRacerResult(context({ rules: ruleOverrides }), racer("r1", overrides), finishAt600).time;

  it("adds a penalty, takes off a bonus and an add back (microseconds: 5 s is 5_000_000)", () => {
    expect(timeOf({ penalty: seconds(30) })).toBe(seconds(630));
    expect(timeOf({ bonus: seconds(10) })).toBe(seconds(590));
    expect(timeOf({ addBack: 5_000_000 })).toBe(seconds(595));
  });

  it("applies a para factor as a percent of the elapsed time, before penalty, bonus and add back", () => {
    expect(timeOf({ paraFactor: 90 })).toBe(seconds(540));
    expect(timeOf({ paraFactor: 90, penalty: seconds(30), bonus: seconds(10), addBack: 5_000_000 })).toBe(seconds(555));
  });

  it("rounds the para-factored time to the nearest microsecond", () => {
    const result = computeRacerResult(context(), racer("r1", { paraFactor: 90 }), [
      { seq: 1, racerId: "r1", timingPointId: "tp-finish", time: GUN + 1_000_005 },
    ]);
    expect(result.time).toBe(900_005); // 900_004.5 rounds up
  });

  it("truncates to the race precision: 12.3456789 s at precision 1 is 12.3 s", () => {
    const result = computeRacerResult(context({ rules: { precision: 1 } }), racer("r1"), reads("r1", ["tp-a", 5.99], ["tp-finish", 12.3456789]));
    expect(result.time).toBe(12_300_000);
    expect(result.splits.map((s) => s.elapsed)).toEqual([5_900_000, 12_300_000]);
  });

  it("refuses a precision above 6", () => {
    expect(() => timeOf({}, { precision: 7 })).toThrow("Precision above 6 is unsupported in truncation");
  });

  it("ranks at the calc precision: times equal there share a rank key", () => {
    const ctx = context({ rules: { precision: 2, calcPrecision: 1 } });
    const a = computeRacerResult(ctx, racer("r1", { bib: 2 }), reads("r1", ["tp-finish", 12.34]));
    const b = computeRacerResult(ctx, racer("r2", { bib: 1 }), reads("r2", ["tp-finish", 12.36]));
    expect([a.time, b.time]).toEqual([12_340_000, 12_360_000]);
    expect(a.rankKey).toEqual(b.rankKey);
    expect(compareKeys(b.key, a.key)).toBeLessThan(0); // tie at calc precision: lower bib first
  });
});

describe("computeRacerResult: statuses", () => {
  const crossings = reads("r1", ["tp-a", 300], ["tp-b", 550], ["tp-finish", 900]);

  it("hides crossings after the dnf time when the dnf option is hide", () => {
    const result = computeRacerResult(context({ rules: { dnfOption: "hide" } }), racer("r1", { dnfTime: at(500) }), crossings);
    expect(result).toMatchObject({ status: "dnf", statusText: "DNF", finish: null, time: null, rankKey: null });
    expect(result.splits.map((s) => s.coursePointId)).toEqual(["a"]);
  });

  it("keeps them, and the time, when the dnf option is time; still unranked", () => {
    const result = computeRacerResult(context({ rules: { dnfOption: "time" } }), racer("r1", { dnfTime: at(500) }), crossings);
    expect(result).toMatchObject({ status: "dnf", statusText: "DNF", finish: at(900), time: seconds(900), rankKey: null });
    expect(result.splits).toHaveLength(3);
  });

  it("hides after the dsq time by the dsq option", () => {
    const hidden = computeRacerResult(context({ rules: { dsqOption: "hide" } }), racer("r1", { dsqTime: at(400) }), crossings);
    expect(hidden).toMatchObject({ status: "dsq", statusText: "DSQ", time: null });
    const shown = computeRacerResult(context({ rules: { dsqOption: "time" } }), racer("r1", { dsqTime: at(400) }), crossings);
    expect(shown).toMatchObject({ status: "dsq", time: seconds(900) });
  });

  it("keeps a crossing exactly at the dnf time", () => {
    const result = computeRacerResult(context(), racer("r1", { dnfTime: at(550) }), crossings);
    expect(result.splits.map((s) => s.coursePointId)).toEqual(["a", "b"]);
  });

  it("gives the status text by priority DSQ > DNS > DNF whatever flags are set together", () => {
    const ctx = context();
    const all = racer("r1", { dsqTime: at(10), isDns: true, dnfTime: at(20) });
    expect(computeRacerResult(ctx, all, [])).toMatchObject({ status: "dsq", statusText: "DSQ" });
    expect(computeRacerResult(ctx, { ...all, dsqTime: null }, [])).toMatchObject({ status: "dns", statusText: "DNS" });
    expect(computeRacerResult(ctx, { ...all, isDns: false }, [])).toMatchObject({ status: "dsq", statusText: "DSQ" });
    expect(computeRacerResult(ctx, { ...all, dsqTime: null, isDns: false }, [])).toMatchObject({ status: "dnf", statusText: "DNF" });
  });

  it("sorts finishers, then on course, not started, and then dnf, dsq, dns", () => {
    const ctx = (order: number) => context({ order, rules: { dnfOption: "time", dsqOption: "time" } });
    const byStatus: RacerResult[] = [
      computeRacerResult(ctx(0), racer("dns", { bib: 1, isDns: true }), []),
      computeRacerResult(ctx(1), racer("dsq", { bib: 2, dsqTime: at(1) }), crossings),
      computeRacerResult(ctx(2), racer("dnf", { bib: 3, dnfTime: at(1) }), crossings),
      computeRacerResult(ctx(3), racer("notstarted", { bib: 4 }), []),
      computeRacerResult(ctx(4), racer("oncourse", { bib: 5 }), reads("oncourse", ["tp-a", 100])),
      computeRacerResult(ctx(5), racer("finished", { bib: 6 }), crossings),
    ];
    const sorted = [...byStatus].sort((a, b) => compareKeys(a.key, b.key));
    expect(sorted.map((r) => r.status)).toEqual(["finished", "oncourse", "notstarted", "dnf", "dsq", "dns"]);
  });

  it("breaks a tie in time and bib by the racer's order", () => {
    const a = computeRacerResult(context({ order: 5 }), racer("a"), reads("a", ["tp-finish", 600]));
    const b = computeRacerResult(context({ order: 2 }), racer("b"), reads("b", ["tp-finish", 600]));
    expect(compareKeys(b.key, a.key)).toBeLessThan(0);
    expect(a.rankKey).toEqual(b.rankKey);
  });
});
