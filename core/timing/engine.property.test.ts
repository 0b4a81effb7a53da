/**
 * The incremental engine against the from-scratch reference on random races: after every step (a batch
 * of crossings, a racer edit, clear times, a setup change) every result, every group's order, its ranking
 * and the reported Change must be exactly what computeFull gives. Races are drawn by fast-check as plain
 * data (course kinds, racers, crossings, steps; references by index), so a failing race shrinks.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ResultsEngine, type Change } from "./engine";
import { computeFull, type FullResults } from "./full";
import type { Course, CoursePoint, Criterion, Crossing, RaceInput, Racer, ResultGroupSpec, StartGroup } from "./model";
import { MULTI_RUN_MODES } from "./multi-run";
import { rankSorted } from "./rank";
import { at, GUN, seconds } from "./test-races";
import { triathlonCourse } from "./triathlon";
import { chance, fcParams, maybe } from "../testing/fast-check";

/** What an arbitrary draws. */
type Drawn<A> = A extends fc.Arbitrary<infer T> ? T : never;

const TIMING_POINTS = ["tp1", "tp2", "tp3", "tp4"] as const;
const tp = fc.constantFrom(...TIMING_POINTS);
const secondsOf = (...values: number[]) => fc.constantFrom(...values).map(seconds);
/** Whole seconds after the gun, as an absolute time. */
const atSeconds = (low: number, high: number) => fc.integer({ min: low, max: high }).map(at);
/** Seconds with quarter-second steps, so ties and same-pass reads are common. */
const quarterSeconds = (low: number, high: number) => fc.integer({ min: low * 4, max: high * 4 }).map((q) => seconds(q / 4));

// ---- Courses: drawn as data with a kind, built once their id is known ----

/** A triathlon course (one point per section, random lap counts, 0 skipping a leg) as the engine runs it. */
const triathlonDraw = fc.record({
  kind: fc.constant("triathlon" as const),
  startTp: tp,
  sections: fc.array(fc.record({ tp, minSplit: secondsOf(0, 2, 10) }), { minLength: 5, maxLength: 5 }),
  counts: fc.record({
    swimLapCount: fc.integer({ min: 0, max: 2 }),
    bikeLapCount: fc.integer({ min: 0, max: 2 }),
    runLapCount: fc.integer({ min: 1, max: 2 }),
  }),
});

/** A biathlon course: laps with range in and out points, time penalties or loops on a recorder's point. */
const biathlonDraw = fc.record({
  kind: fc.constant("biathlon" as const),
  inMinSplit: secondsOf(0, 2),
  outTp: fc.constantFrom("tp2", "tp3"),
  lapTp: fc.constantFrom("tp3", "tp4"),
  lapMinSplit: secondsOf(0, 10),
  lapCount: fc.integer({ min: 2, max: 4 }),
  biathlon: fc.record({
    penaltyType: fc.constantFrom("lap" as const, "time" as const),
    perMiss: secondsOf(60, 30),
    minLoop: secondsOf(5, 0),
    penaltyTimingPointId: fc.constantFrom("tp4", "tp2", null),
    resultCalculation: fc.constantFrom("total" as const, "ski" as const, "range" as const),
  }),
});

/**
 * An enduro course: timed segments (a start then its finish, with a minimum descent time), sometimes a
 * transfer point between; or a free-order course group, its segments ridden in any or the listed order.
 */
const enduroDraw = fc.record({
  kind: fc.constant("enduro" as const),
  segments: fc.array(
    fc.record({
      transferTp: maybe(0.3, tp),
      startTp: tp,
      startMode: fc.constantFrom("start" as const, "chipstart" as const),
      finishTp: tp,
      finishMode: fc.constantFrom("split" as const, "lap" as const),
      finishMinSplit: secondsOf(0, 5, 30),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  freeOrder: maybe(0.4, fc.record({ ordered: fc.boolean() })),
});

/** A point-to-point, lap or time limit course: an optional start, then splits and lap points. */
const plainDraw = fc.record({
  kind: fc.constant("plain" as const),
  startMode: fc.constantFrom("none" as const, "start" as const, "chipstart" as const),
  startTp: tp,
  startMinSplit: secondsOf(0, 5),
  points: fc.array(fc.record({ tp, isLap: chance(0.15), minSplit: secondsOf(0, 0, 2, 10, 30) }), { minLength: 1, maxLength: 4 }),
  lastIsLap: chance(0.9),
  lapCount: fc.integer({ min: 1, max: 3 }),
  maxLapCount: maybe(0.7, fc.integer({ min: 1, max: 4 })),
  timeLimitEnd: maybe(0.7, atSeconds(100, 600)),
});

/** An enduro race mostly runs enduro courses; every other course kind is possible in any mode. */
const courseDraw = fc.record({
  enduro: enduroDraw,
  preferEnduro: chance(0.8),
  other: fc.oneof(
    { withCrossShrink: true },
    { weight: 9, arbitrary: plainDraw },
    { weight: 4, arbitrary: triathlonDraw },
    { weight: 3, arbitrary: biathlonDraw },
  ),
});
type CourseDraw = Drawn<typeof courseDraw>;

function buildCourse(draw: CourseDraw, timingMode: string, id: string): Course {
  const d = timingMode === "enduro" && draw.preferEnduro ? draw.enduro : draw.other;
  const base = { id, name: id, lapCount: 1, maxLapCount: null, timeLimitEnd: null };
  const point = (suffix: string, timingPointId: string, mode: CoursePoint["mode"], minSplit: number, extra: Partial<CoursePoint> = {}): CoursePoint => ({
    id: `${id}-${suffix}`,
    timingPointId,
    mode,
    name: suffix.toUpperCase(),
    minSplit,
    ...extra,
  });
  switch (d.kind) {
    case "triathlon": {
      const points = [
        point("s", d.startTp, "start", 0),
        ...d.sections.map((s, i) => point(`x${i + 1}`, s.tp, i % 2 === 0 ? "lap" : "split", s.minSplit, { section: i + 1 })),
      ];
      return triathlonCourse({ ...base, points }, d.counts).course;
    }
    case "biathlon":
      return {
        ...base,
        points: [
          point("ri", "tp1", "split", d.inMinSplit, { rangeRole: "in" }),
          point("ro", d.outTp, "split", 0, { rangeRole: "out" }),
          point("f", d.lapTp, "lap", d.lapMinSplit),
        ],
        lapCount: d.lapCount,
        biathlon: d.biathlon,
      };
    case "enduro":
      return {
        ...base,
        points: d.segments.flatMap((s, i) => [
          ...(s.transferTp === null ? [] : [point(`t${i}`, s.transferTp, "split", 0)]),
          point(`s${i}`, s.startTp, s.startMode, 0),
          point(`f${i}`, s.finishTp, s.finishMode, s.finishMinSplit),
        ]),
        freeOrder: d.freeOrder,
      };
    case "plain":
      return {
        ...base,
        points: [
          ...(d.startMode === "none" ? [] : [point("s", d.startTp, d.startMode, d.startMinSplit)]),
          ...d.points.map((p, i) => point(`p${i}`, p.tp, (i === d.points.length - 1 ? d.lastIsLap : p.isLap) ? "lap" : "split", p.minSplit)),
        ],
        lapCount: d.lapCount,
        maxLapCount: d.maxLapCount,
        timeLimitEnd: d.timeLimitEnd,
      };
  }
}

// ---- Start groups, racers, groups and the setup ----

const startGroupDraw = fc.record({
  startMode: fc.constantFrom(null, "mass" as const, "individual" as const),
  scheduledStartTime: maybe(0.5, atSeconds(-10, 60)),
  assignedStartTime: maybe(0.5, atSeconds(-10, 60)),
  recordedStartTime: maybe(0.5, atSeconds(-10, 60)),
});

/** A course or start group by index (taken modulo the setup's count), none, or one that does not exist. */
const reference = (none: number, missing: number) =>
  fc.oneof(
    { withCrossShrink: true },
    { weight: 100 - none - missing, arbitrary: fc.nat(2) },
    { weight: none, arbitrary: fc.constant(null) },
    { weight: missing, arbitrary: fc.constant("missing" as const) },
  );
const sometimes = (probability: number, arbitrary: fc.Arbitrary<number>) =>
  fc.oneof(
    { withCrossShrink: true },
    { weight: Math.round((1 - probability) * 100), arbitrary: fc.constant(0) },
    { weight: Math.round(probability * 100), arbitrary },
  );
const statusTime = (probability: number) => maybe(probability, atSeconds(0, 800));

/** Every field of a racer but its id; courses and start groups by reference. */
const racerDraw = fc.record({
  bib: maybe(0.85, fc.integer({ min: 1, max: 40 })), // duplicates and missing bibs on purpose
  firstName: fc.constantFrom("Anna", "Bo", "Cai"),
  lastName: fc.constantFrom("Berg", "Dahl"),
  course: reference(5, 3),
  startGroup: reference(20, 3),
  startTime: maybe(0.6, atSeconds(0, 120)),
  isDns: chance(0.05),
  dnfTime: statusTime(0.07),
  dsqTime: statusTime(0.04),
  penalty: sometimes(0.1, fc.integer({ min: 1, max: 60 }).map(seconds)),
  bonus: sometimes(0.1, fc.integer({ min: 1, max: 20 }).map(seconds)),
  addBack: sometimes(0.05, fc.integer({ min: 1, max: 5_000_000 })),
  paraFactor: maybe(
    0.1,
    fc.tuple(fc.integer({ min: 70, max: 100 }), fc.constantFrom(0, 0.5)).map(([whole, half]) => whole + half),
  ),
  runStatuses: fc.array(maybe(0.5, fc.record({ isDns: chance(0.3), dnfTime: statusTime(0.4), dsqTime: statusTime(0.2) })), { maxLength: 2 }),
  rangeMisses: fc.array(maybe(0.8, fc.integer({ min: 0, max: 5 })), { maxLength: 3 }),
  fields: fc.record({
    sex: fc.constantFrom("M", "F", "f", null),
    age: fc.oneof(fc.integer({ min: 10, max: 70 }), fc.integer({ min: 10, max: 70 }).map(String)),
    category: fc.constantFrom("Senior", "Junior", "", "master"),
  }),
});
type RacerDraw = Drawn<typeof racerDraw>;

const pickId = (ref: number | null | "missing", ids: string[], missing: string) => (ref === null ? null : ref === "missing" ? missing : ids[ref % ids.length]!);

function buildRacer(draw: RacerDraw, id: string, input: Pick<RaceInput, "courses" | "startGroups">): Racer {
  const { course, startGroup, ...rest } = draw;
  const [courseIds, groupIds] = [input.courses.map((c) => c.id), input.startGroups.map((g) => g.id)];
  return {
    ...rest,
    id,
    chips: [],
    courseId: pickId(course, courseIds, "no-such-course"),
    startGroupId: pickId(startGroup, groupIds, "no-such-group"),
  };
}

const criterionDraw: fc.Arbitrary<Criterion> = fc.oneof(
  fc.record({ field: fc.constant("sex"), op: fc.constant("eq" as const), value: fc.constantFrom("m", "F") }),
  fc.constant<Criterion>({ field: "sex", op: "ne", value: "M" }),
  fc.constant<Criterion>({ field: "category", op: "in", value: ["senior", "MASTER"] }),
  fc.record({
    field: fc.constant("age"),
    op: fc.constantFrom("lt" as const, "le" as const, "gt" as const, "ge" as const),
    value: fc.integer({ min: 20, max: 60 }),
  }),
  fc.record({ field: fc.constant("category"), op: fc.constantFrom("blank" as const, "notblank" as const), value: fc.constant(null) }),
  fc.record({ field: fc.constant("bib"), op: fc.constant("le" as const), value: fc.integer({ min: 5, max: 35 }) }),
);

const groupDraw = fc.record({
  course: maybe(0.3, fc.nat(2)),
  startGroup: maybe(0.2, fc.nat(2)),
  criteria: fc.array(criterionDraw, { maxLength: 2 }),
  sameTimeThreshold: maybe(0.5, secondsOf(0, 0.5, 2)),
});

const setupDraw = fc.record({
  rules: fc.record({
    timingMode: fc.constantFrom("p2p" as const, "lap" as const, "timelimit" as const, "enduro" as const),
    fastestLap: fc.boolean(),
    startMode: fc.constantFrom("mass" as const, "individual" as const),
    startOption: fc.constantFrom("gun" as const, "chipstart" as const),
    precision: fc.integer({ min: 0, max: 6 }),
    calcPrecision: fc.integer({ min: 0, max: 6 }),
    sameTimeThreshold: secondsOf(0, 0.25, 1, 3),
    dnfOption: fc.constantFrom("hide" as const, "time" as const),
    dsqOption: fc.constantFrom("hide" as const, "time" as const),
    multiRun: maybe(0.2, fc.record({ runCount: fc.integer({ min: 1, max: 3 }), mode: fc.constantFrom(...MULTI_RUN_MODES) })),
  }),
  courses: fc.array(courseDraw, { minLength: 1, maxLength: 3 }),
  startGroups: fc.array(startGroupDraw, { minLength: 1, maxLength: 3 }),
  groups: fc.array(groupDraw, { minLength: 1, maxLength: 3 }),
});
type SetupDraw = Drawn<typeof setupDraw>;

/** The race's setup but its racers (a setup change keeps the racers, whatever they now point at). */
function buildSetup(draw: SetupDraw): Omit<RaceInput, "racers"> {
  const courses = draw.courses.map((c, i) => buildCourse(c, draw.rules.timingMode, `c${i}`));
  const startGroups: StartGroup[] = draw.startGroups.map((g, i) => ({
    id: `sg${i}`,
    ordinal: i + 1,
    ...g,
    startInterval: seconds(30),
    startSize: 1,
    isStartSizeEnabled: false,
  }));
  const groups: ResultGroupSpec[] = draw.groups.map((g, i) => ({
    id: `g${i}`,
    name: `Group ${i}`,
    ordinal: i,
    courseId: g.course === null ? null : courses[g.course % courses.length]!.id,
    startGroupId: g.startGroup === null ? null : startGroups[g.startGroup % startGroups.length]!.id,
    criteria: g.criteria,
    sameTimeThreshold: g.sameTimeThreshold,
  }));
  return { rules: { ...draw.rules, startTime: GUN, endTime: null }, courses, startGroups, groups };
}

// ---- Crossings and steps ----

/** A new read, the same crossing sent again, or a later read of the same pass; `order` shuffles them. */
const crossingDraw = fc.record({
  order: fc.nat(1000),
  read: fc.oneof(
    { withCrossShrink: true },
    {
      weight: 77,
      arbitrary: fc.record({
        kind: fc.constant("new" as const),
        racer: fc.oneof({ withCrossShrink: true }, { weight: 95, arbitrary: fc.nat() }, { weight: 5, arbitrary: fc.constant("ghost" as const) }),
        timingPointId: fc.oneof({ withCrossShrink: true }, { weight: 95, arbitrary: tp }, { weight: 5, arbitrary: fc.constant("tp-other") }),
        time: quarterSeconds(-20, 800),
      }),
    },
    { weight: 10, arbitrary: fc.record({ kind: fc.constant("again" as const), which: fc.nat() }) },
    { weight: 13, arbitrary: fc.record({ kind: fc.constant("samePass" as const), which: fc.nat(), after: quarterSeconds(0, 3) }) },
  ),
});
type CrossingDraw = Drawn<typeof crossingDraw>;

function buildCrossings(draws: CrossingDraw[], racerIds: string[]): Crossing[] {
  const crossings: { crossing: Crossing; order: number }[] = [];
  let seq = 1;
  for (const { order, read } of draws) {
    const previous = crossings.length > 0 && read.kind !== "new" ? crossings[read.which % crossings.length]!.crossing : null;
    if (read.kind === "new") {
      const racerId = read.racer === "ghost" ? "ghost" : racerIds[read.racer % racerIds.length]!;
      crossings.push({ order, crossing: { seq: seq++, racerId, timingPointId: read.timingPointId, time: GUN + read.time } });
    } else if (previous !== null && read.kind === "again") crossings.push({ order, crossing: previous });
    else if (previous !== null && read.kind === "samePass") crossings.push({ order, crossing: { ...previous, seq: seq++, time: previous.time + read.after } });
  }
  return crossings.sort((a, b) => a.order - b.order).map((c) => c.crossing);
}

/** An edit between batches; `which` picks a racer (modulo the racers there are). */
const editDraw = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("edit" as const), which: fc.nat(), racer: racerDraw, keepFields: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("add" as const), reuseRemoved: fc.boolean(), which: fc.nat(), racer: racerDraw }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("remove" as const), which: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("clear" as const), which: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("setup" as const), setup: setupDraw }) },
);
const stepDraw = fc.record({ batch: fc.integer({ min: 1, max: 30 }), edit: maybe(0.25, editDraw) });

const raceDraw = fc.record({
  setup: setupDraw,
  racers: fc.array(racerDraw, { minLength: 1, maxLength: 60, size: "max" }),
  crossings: fc.array(crossingDraw, { maxLength: 400, size: "max" }),
  /** Percent of the crossings the engine is built with. */
  initialPercent: fc.nat(100),
  steps: fc.array(stepDraw, { maxLength: 40, size: "max" }),
  /** Racers carry an `order` (the room's handles: increasing, never reused) or take their place in the list. */
  handles: fc.boolean(),
});
type RaceDraw = Drawn<typeof raceDraw>;

// ---- Checking ----

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

/** Runs one drawn race, checking after every step; `maxBlock` is the groups' block size. Returns the steps run. */
function runRace(draw: RaceDraw, maxBlock?: number): number {
  const setup = buildSetup(draw.setup);
  let nextHandle = 1;
  const handled = (racer: Racer): Racer => (draw.handles ? { ...racer, order: nextHandle++ } : racer);
  let input: RaceInput = { ...setup, racers: draw.racers.map((r, i) => handled(buildRacer(r, `r${i}`, setup))) };
  const racerIds = input.racers.map((r) => r.id);
  const pending = buildCrossings(draw.crossings, racerIds);
  let applied: Crossing[] = pending.splice(0, Math.round((pending.length * draw.initialPercent) / 100));
  const removed = new Set<string>();
  const engine = new ResultsEngine(input, applied, { maxBlock });
  let full = expectSameAsFull(engine, input, applied, removed, "build");
  let steps = 0;

  /** Applies one step to the engine and the model, then checks results and the reported Change. */
  const step = (label: string, act: () => Change, exact = true) => {
    const before = snapshot(full, input);
    const change = act();
    full = expectSameAsFull(engine, input, applied, removed, `step ${steps} ${label}`);
    const after = snapshot(full, input);
    if (exact) {
      expect([...change.racerIds].sort(), `step ${steps} ${label}: changed racers`).toEqual(changedKeys(before.racers, after.racers));
      expect([...change.groupIds].sort(), `step ${steps} ${label}: changed groups`).toEqual(changedKeys(before.groups, after.groups));
    }
    steps++;
  };
  const addBatch = (batch: Crossing[]) =>
    step("crossings", () => {
      applied = [...applied, ...batch];
      return engine.addCrossings(batch);
    });
  const addRacer = (added: Racer) =>
    step("add racer", () => {
      removed.delete(added.id);
      input = { ...input, racers: [...input.racers, added] };
      return engine.upsertRacer(added);
    });

  for (const { batch: size, edit } of draw.steps) {
    const batch = pending.splice(0, size);
    if (batch.length > 0) addBatch(batch);
    if (edit === null) continue;
    const existing = input.racers.length > 0 && edit.kind !== "setup" ? input.racers[edit.which % input.racers.length]! : null;
    if (edit.kind === "edit" && existing !== null) {
      const edited = {
        ...buildRacer(edit.racer, existing.id, input),
        ...(edit.keepFields ? { fields: existing.fields } : {}),
        ...(existing.order === undefined ? {} : { order: existing.order }),
      };
      step("edit racer", () => {
        input = { ...input, racers: input.racers.map((r) => (r.id === edited.id ? edited : r)) };
        return engine.upsertRacer(edited);
      });
    } else if (edit.kind === "edit" || edit.kind === "add") {
      // An edit with no racer left to edit adds one instead.
      const reuse = edit.kind === "add" && edit.reuseRemoved && removed.size > 0 ? [...removed][edit.which % removed.size]! : null;
      addRacer(handled(buildRacer(edit.racer, reuse ?? `new${steps}`, input)));
    } else if (edit.kind === "remove" && existing !== null) {
      step("remove racer", () => {
        removed.add(existing.id);
        input = { ...input, racers: input.racers.filter((r) => r.id !== existing.id) };
        return engine.removeRacer(existing.id);
      });
    } else if (edit.kind === "clear" && existing !== null) {
      step("clear times", () => {
        applied = applied.filter((c) => c.racerId !== existing.id);
        return engine.clearTimes(existing.id);
      });
    } else if (edit.kind === "setup") {
      const changed = { ...buildSetup(edit.setup), racers: input.racers };
      // Which racers and groups a setup change touches is not reported exactly, only the results are checked.
      step(
        "setup",
        () => {
          input = changed;
          return engine.setInput(input);
        },
        false,
      );
    }
  }
  if (pending.length > 0) addBatch(pending.splice(0));
  return steps;
}

/** Runs `runs` drawn races (scaled by FC_RUNS), the groups' block size drawn by `blocks`. */
function runRaces(runs: number, blocks: fc.Arbitrary<number | undefined>): void {
  let steps = 0;
  const params = fcParams<[RaceDraw, number | undefined]>(runs);
  fc.assert(
    fc.property(raceDraw, blocks, (draw, maxBlock) => {
      steps += runRace(draw, maxBlock);
    }),
    params,
  );
  // The races really ran many steps, not just builds.
  expect(steps).toBeGreaterThan(params.numRuns! * 5);
}

describe("ResultsEngine against computeFull", () => {
  it("agrees on random races after every step", () => runRaces(50, fc.constant(undefined)), 120_000);

  // A small block size makes the groups' lists split and merge all the time.
  it("agrees with groups kept in blocks of 2 to 5 members", () => runRaces(25, fc.integer({ min: 2, max: 5 })), 120_000);
});
