/**
 * The incremental engine against the from-scratch reference on random races: after every step (a batch
 * of crossings, a racer edit, clear times, a setup change) every result, every group's order, its ranking
 * and the reported Change must be exactly what computeFull gives.
 */
import { describe, expect, it } from "vitest";
import { ResultsEngine, type Change } from "./engine";
import { computeFull, type FullResults } from "./full";
import type { Course, CoursePoint, Criterion, Crossing, RaceInput, Racer, ResultGroupSpec, StartGroup } from "./model";
import { SeededRandom } from "../random/seeded";
import { MULTI_RUN_MODES } from "./multi-run";
import { rankSorted } from "./rank";
import { at, GUN, seconds } from "./test-races";
import { triathlonCourse } from "./triathlon";

class Random extends SeededRandom {
  /** Seconds with quarter-second steps, so ties and same-pass reads are common. */
  quarterSeconds(low: number, high: number): number {
    return this.int(low * 4, high * 4) / 4;
  }
}

const TIMING_POINTS = ["tp1", "tp2", "tp3", "tp4"];

/** A triathlon course (one point per section, random lap counts, 0 skipping a leg) as the engine runs it. */
function randomTriathlonCourse(random: Random, id: string): Course {
  const points: CoursePoint[] = [{ id: `${id}-s`, timingPointId: random.pick(TIMING_POINTS), mode: "start", name: "Start", minSplit: 0 }];
  for (const section of [1, 2, 3, 4, 5]) {
    points.push({
      id: `${id}-x${section}`,
      timingPointId: random.pick(TIMING_POINTS),
      mode: section % 2 === 1 ? "lap" : "split",
      name: `S${section}`,
      minSplit: seconds(random.pick([0, 2, 10])),
      section,
    });
  }
  const counts = { swimLapCount: random.int(0, 2), bikeLapCount: random.int(0, 2), runLapCount: random.int(1, 2) };
  return triathlonCourse({ id, name: id, points, lapCount: 1, maxLapCount: null, timeLimitEnd: null }, counts).course;
}

/** A biathlon course: laps with range in and out points, time penalties or loops on a recorder's point. */
function randomBiathlonCourse(random: Random, id: string): Course {
  const points: CoursePoint[] = [
    { id: `${id}-ri`, timingPointId: "tp1", mode: "split", name: "Range in", minSplit: seconds(random.pick([0, 2])), rangeRole: "in" },
    { id: `${id}-ro`, timingPointId: random.pick(["tp2", "tp3"]), mode: "split", name: "Range out", minSplit: 0, rangeRole: "out" },
    { id: `${id}-f`, timingPointId: random.pick(["tp3", "tp4"]), mode: "lap", name: "Lap", minSplit: seconds(random.pick([0, 10])) },
  ];
  return {
    id,
    name: id,
    points,
    lapCount: random.int(2, 4),
    maxLapCount: null,
    timeLimitEnd: null,
    biathlon: {
      penaltyType: random.pick(["lap", "time"] as const),
      perMiss: seconds(random.pick([60, 30])),
      minLoop: seconds(random.pick([5, 0])),
      penaltyTimingPointId: random.pick(["tp4", "tp2", null]),
      resultCalculation: random.pick(["total", "ski", "range"] as const),
    },
  };
}

/**
 * An enduro course: timed segments (a start then its finish, with a minimum descent time), sometimes a
 * transfer point between; or a free-order course group, its segments ridden in any or the listed order.
 */
function randomEnduroCourse(random: Random, id: string): Course {
  const points: CoursePoint[] = [];
  for (let i = 0; i < random.int(1, 3); i++) {
    if (random.chance(0.3)) points.push({ id: `${id}-t${i}`, timingPointId: random.pick(TIMING_POINTS), mode: "split", name: `T${i}`, minSplit: 0 });
    points.push({
      id: `${id}-s${i}`,
      timingPointId: random.pick(TIMING_POINTS),
      mode: random.pick(["start", "chipstart"] as const),
      name: `S${i}`,
      minSplit: 0,
    });
    points.push({
      id: `${id}-f${i}`,
      timingPointId: random.pick(TIMING_POINTS),
      mode: random.pick(["split", "lap"] as const),
      name: `F${i}`,
      minSplit: seconds(random.pick([0, 5, 30])),
    });
  }
  const freeOrder = random.chance(0.4) ? { ordered: random.chance(0.5) } : null;
  return { id, name: id, points, lapCount: 1, maxLapCount: null, timeLimitEnd: null, freeOrder };
}

function randomCourse(random: Random, id: string): Course {
  if (random.chance(0.25)) return randomTriathlonCourse(random, id);
  if (random.chance(0.25)) return randomBiathlonCourse(random, id);
  const points: CoursePoint[] = [];
  const startMode = random.pick(["none", "start", "chipstart"] as const);
  if (startMode !== "none")
    points.push({ id: `${id}-s`, timingPointId: random.pick(TIMING_POINTS), mode: startMode, name: "Start", minSplit: seconds(random.pick([0, 5])) });
  const count = random.int(1, 4);
  for (let i = 0; i < count; i++) {
    const mode = i === count - 1 ? (random.chance(0.9) ? "lap" : "split") : random.chance(0.15) ? "lap" : "split";
    points.push({ id: `${id}-p${i}`, timingPointId: random.pick(TIMING_POINTS), mode, name: `P${i}`, minSplit: seconds(random.pick([0, 0, 2, 10, 30])) });
  }
  return {
    id,
    name: id,
    points,
    lapCount: random.int(1, 3),
    maxLapCount: random.chance(0.3) ? null : random.int(1, 4),
    timeLimitEnd: random.chance(0.3) ? null : at(random.int(100, 600)),
  };
}

function randomStartGroup(random: Random, id: string, ordinal: number): StartGroup {
  const maybeTime = () => (random.chance(0.5) ? null : at(random.int(-10, 60)));
  return {
    id,
    ordinal,
    startMode: random.pick([null, "mass", "individual"] as const),
    scheduledStartTime: maybeTime(),
    assignedStartTime: maybeTime(),
    recordedStartTime: maybeTime(),
    startInterval: seconds(30),
    startSize: 1,
    isStartSizeEnabled: false,
  };
}

function randomRacer(random: Random, id: string, courses: Course[], startGroups: StartGroup[]): Racer {
  const maybe = <T>(probability: number, value: () => T): T | null => (random.chance(probability) ? value() : null);
  return {
    id,
    bib: random.chance(0.15) ? null : random.int(1, 40), // duplicates and missing bibs on purpose
    chips: [],
    firstName: random.pick(["Anna", "Bo", "Cai"]),
    lastName: random.pick(["Berg", "Dahl"]),
    courseId: random.chance(0.05) ? null : random.chance(0.03) ? "no-such-course" : random.pick(courses).id,
    startGroupId: random.chance(0.2) ? null : random.chance(0.03) ? "no-such-group" : random.pick(startGroups).id,
    startTime: maybe(0.6, () => at(random.int(0, 120))),
    isDns: random.chance(0.05),
    dnfTime: maybe(0.07, () => at(random.int(0, 800))),
    dsqTime: maybe(0.04, () => at(random.int(0, 800))),
    penalty: random.chance(0.1) ? seconds(random.int(1, 60)) : 0,
    bonus: random.chance(0.1) ? seconds(random.int(1, 20)) : 0,
    addBack: random.chance(0.05) ? random.int(1, 5_000_000) : 0,
    paraFactor: maybe(0.1, () => random.int(70, 100) + random.pick([0, 0.5])),
    runStatuses: Array.from({ length: random.int(0, 2) }, () =>
      random.chance(0.5)
        ? null
        : { isDns: random.chance(0.3), dnfTime: maybe(0.4, () => at(random.int(0, 800))), dsqTime: maybe(0.2, () => at(random.int(0, 800))) },
    ),
    rangeMisses: Array.from({ length: random.int(0, 3) }, () => (random.chance(0.2) ? null : random.int(0, 5))),
    fields: {
      sex: random.pick(["M", "F", "f", null]),
      age: random.chance(0.5) ? random.int(10, 70) : String(random.int(10, 70)),
      category: random.pick(["Senior", "Junior", "", "master"]),
    },
  };
}

function randomCriterion(random: Random): Criterion {
  return random.pick<Criterion>([
    { field: "sex", op: "eq", value: random.pick(["m", "F"]) },
    { field: "sex", op: "ne", value: "M" },
    { field: "category", op: "in", value: ["senior", "MASTER"] },
    { field: "age", op: random.pick(["lt", "le", "gt", "ge"] as const), value: random.int(20, 60) },
    { field: "category", op: random.pick(["blank", "notblank"] as const), value: null },
    { field: "bib", op: "le", value: random.int(5, 35) },
  ]);
}

function randomGroups(random: Random, courses: Course[], startGroups: StartGroup[]): ResultGroupSpec[] {
  return Array.from({ length: random.int(1, 3) }, (_, i) => ({
    id: `g${i}`,
    name: `Group ${i}`,
    ordinal: i,
    courseId: random.chance(0.3) ? random.pick(courses).id : null,
    startGroupId: random.chance(0.2) ? random.pick(startGroups).id : null,
    criteria: Array.from({ length: random.pick([0, 0, 1, 2]) }, () => randomCriterion(random)),
    sameTimeThreshold: random.chance(0.5) ? null : seconds(random.pick([0, 0.5, 2])),
  }));
}

function randomSetup(random: Random, racers: Racer[] | null): RaceInput {
  const timingMode = random.pick(["p2p", "lap", "timelimit", "enduro"] as const);
  const courses = Array.from({ length: random.int(1, 3) }, (_, i) =>
    timingMode === "enduro" && random.chance(0.8) ? randomEnduroCourse(random, `c${i}`) : randomCourse(random, `c${i}`),
  );
  const startGroups = Array.from({ length: random.int(1, 3) }, (_, i) => randomStartGroup(random, `sg${i}`, i + 1));
  return {
    rules: {
      timingMode,
      fastestLap: random.chance(0.5),
      startMode: random.pick(["mass", "individual"] as const),
      startOption: random.pick(["gun", "chipstart"] as const),
      startTime: GUN,
      endTime: null,
      precision: random.int(0, 6),
      calcPrecision: random.int(0, 6),
      sameTimeThreshold: seconds(random.pick([0, 0.25, 1, 3])),
      dnfOption: random.pick(["hide", "time"] as const),
      dsqOption: random.pick(["hide", "time"] as const),
      multiRun: random.chance(0.2) ? { runCount: random.int(1, 3), mode: random.pick(MULTI_RUN_MODES) } : null,
    },
    courses,
    startGroups,
    racers: racers ?? Array.from({ length: random.int(1, 60) }, (_, i) => randomRacer(random, `r${i}`, courses, startGroups)),
    groups: randomGroups(random, courses, startGroups),
  };
}

/** Reads at random points and times, with repeated reads of one pass and the same crossing sent twice. */
function randomCrossings(random: Random, racerIds: string[]): Crossing[] {
  const crossings: Crossing[] = [];
  let seq = 1;
  const count = random.int(0, 400);
  while (crossings.length < count) {
    const previous = crossings.length > 0 ? random.pick(crossings) : null;
    if (previous !== null && random.chance(0.1)) {
      crossings.push(previous); // the same crossing again
    } else if (previous !== null && random.chance(0.15)) {
      crossings.push({ ...previous, seq: seq++, time: previous.time + seconds(random.quarterSeconds(0, 3)) }); // same pass
    } else {
      const racerId = random.chance(0.05) ? "ghost" : random.pick(racerIds);
      const timingPointId = random.chance(0.05) ? "tp-other" : random.pick(TIMING_POINTS);
      crossings.push({ seq: seq++, racerId, timingPointId, time: at(random.quarterSeconds(-20, 800)) });
    }
  }
  return random.shuffle(crossings);
}

/** Results as text: -0 and 0 alike, undefined for a racer not (or no longer) in the race. */
function snapshot(full: FullResults, input: RaceInput) {
  const racers = new Map<string, string>();
  for (const racer of input.racers)
    racers.set(
      racer.id,
      JSON.stringify([full.results.get(racer.id), input.groups.filter((g) => full.groups.get(g.id)?.some((r) => r.racerId === racer.id)).map((g) => g.id)]),
    );
  const groups = new Map<string, string>();
  for (const spec of input.groups) groups.set(spec.id, JSON.stringify(full.groups.get(spec.id)));
  return { racers, groups };
}

function changedKeys(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((key) => before.get(key) !== after.get(key)).sort();
}

function expectSameAsFull(engine: ResultsEngine, input: RaceInput, crossings: Crossing[], removed: Set<string>, label: string): FullResults {
  const full = computeFull(input, crossings);
  for (const racer of input.racers) {
    expect(engine.result(racer.id), `${label}: result of ${racer.id}`).toEqual(full.results.get(racer.id));
    expect(engine.groupsOf(racer.id), `${label}: groups of ${racer.id}`).toEqual(
      input.groups.filter((g) => full.groups.get(g.id)?.includes(full.results.get(racer.id) as never)).map((g) => g.id),
    );
  }
  for (const racerId of removed) expect(engine.result(racerId), `${label}: removed ${racerId}`).toBeUndefined();
  for (const spec of input.groups) {
    const members = full.groups.get(spec.id) ?? [];
    expect(engine.groupResults(spec.id), `${label}: group ${spec.id}`).toEqual(members);
    expect(engine.ranked(spec.id), `${label}: ranking of ${spec.id}`).toEqual(rankSorted(members, spec.sameTimeThreshold ?? input.rules.sameTimeThreshold));
  }
  return full;
}

/** `maxBlock`: the groups' block size; a small one makes the groups' lists split and merge all the time. */
function runRace(seed: number, maxBlock?: number): number {
  const random = new Random(seed);
  let input = randomSetup(random, null);
  const pending = randomCrossings(
    random,
    input.racers.map((r) => r.id),
  );
  let applied: Crossing[] = pending.splice(0, random.int(0, pending.length));
  const removed = new Set<string>();
  const engine = new ResultsEngine(input, applied, { maxBlock });
  let full = expectSameAsFull(engine, input, applied, removed, `seed ${seed} build`);
  let steps = 0;

  /** Applies one step to the engine and the model, then checks results and the reported Change. */
  const step = (label: string, act: () => Change, exact: boolean) => {
    const before = snapshot(full, input);
    const change = act();
    full = expectSameAsFull(engine, input, applied, removed, `seed ${seed} step ${steps} ${label}`);
    const after = snapshot(full, input);
    if (exact) {
      expect([...change.racerIds].sort(), `seed ${seed} step ${steps} ${label}: changed racers`).toEqual(changedKeys(before.racers, after.racers));
      expect([...change.groupIds].sort(), `seed ${seed} step ${steps} ${label}: changed groups`).toEqual(changedKeys(before.groups, after.groups));
    }
    steps++;
  };

  while (pending.length > 0) {
    const batch = pending.splice(0, random.int(1, 30));
    step(
      "crossings",
      () => {
        applied = [...applied, ...batch];
        return engine.addCrossings(batch);
      },
      true,
    );
    if (random.chance(0.25)) {
      const existing = input.racers.length > 0 ? random.pick(input.racers) : null;
      const edit = random.int(0, 9);
      if (edit <= 3 && existing !== null) {
        const edited = { ...randomRacer(random, existing.id, input.courses, input.startGroups), ...(random.chance(0.5) ? { fields: existing.fields } : {}) };
        step(
          "edit racer",
          () => {
            input = { ...input, racers: input.racers.map((r) => (r.id === edited.id ? edited : r)) };
            return engine.upsertRacer(edited);
          },
          true,
        );
      } else if (edit <= 5) {
        const id = removed.size > 0 && random.chance(0.5) ? random.pick([...removed]) : `new${steps}`;
        const added = randomRacer(random, id, input.courses, input.startGroups);
        step(
          "add racer",
          () => {
            removed.delete(id);
            input = { ...input, racers: [...input.racers, added] };
            return engine.upsertRacer(added);
          },
          true,
        );
      } else if (edit <= 7 && existing !== null) {
        step(
          "remove racer",
          () => {
            removed.add(existing.id);
            input = { ...input, racers: input.racers.filter((r) => r.id !== existing.id) };
            return engine.removeRacer(existing.id);
          },
          true,
        );
      } else if (edit === 8 && existing !== null) {
        step(
          "clear times",
          () => {
            applied = applied.filter((c) => c.racerId !== existing.id);
            return engine.clearTimes(existing.id);
          },
          true,
        );
      } else {
        step(
          "setup",
          () => {
            input = randomSetup(random, input.racers);
            return engine.setInput(input);
          },
          false,
        );
      }
    }
  }
  return steps;
}

describe("ResultsEngine against computeFull", () => {
  it("agrees on 200 random races after every step", () => {
    let steps = 0;
    for (let seed = 1; seed <= 200; seed++) steps += runRace(seed);
    expect(steps).toBeGreaterThan(1000); // the races really ran many steps
    // About 3 s alone; a loaded 2-core machine can take several times that, and the seeds make it deterministic.
  }, 60_000);

  it("agrees with groups kept in blocks of 2 to 5 members", () => {
    let steps = 0;
    for (let seed = 1; seed <= 100; seed++) steps += runRace(seed, 2 + (seed % 4));
    expect(steps).toBeGreaterThan(500);
  }, 60_000);
});
