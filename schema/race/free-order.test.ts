import { describe, expect, it } from "vitest";
import { computeFull } from "../../core/timing/full";
import { groupsByCourse } from "../../core/timing/groups";
import { at, racer, reads, rules, seconds } from "../../core/timing/test-races";
import type { Crossing } from "../../core/timing/model";
import { courseOf } from "./engine-input";
import { courseGroupDocs, defaultCourseGroup, plannedStartGroups, racerCourseOf, segmentCourseData } from "./free-order";
import { raceSettingsSchema, type RaceSettings } from "./settings";

/**
 * A free-order race of three segments (A, B, C; each a start point and a finish point, minimum 30 s) and two
 * course groups: "Long" rides all three in any order, "Short" rides A then B in the segment list's order.
 */
const settings: RaceSettings = raceSettingsSchema.parse({
  timing_mode: "enduro",
  is_free_segment: true,
  segments_list: ["a", "b", "c"].map((id) => ({
    id,
    name: `Segment ${id.toUpperCase()}`,
    start_point: `tp-${id}s`,
    finish_point: `tp-${id}f`,
    min_time: seconds(30),
  })),
  meta_courses_list: [
    { ...defaultCourseGroup("long"), name: "Long" },
    {
      ...defaultCourseGroup("short"),
      name: "Short",
      segment_order_type: "fixed",
      segment_order_list: ["b", "a"],
      criteria: [{ field: "category", op: "eq", value: "U14" }],
    },
  ],
});

const courses = courseGroupDocs(settings).map((doc) => courseOf(doc, settings));
let seq = 0;
const renumber = (crossings: Crossing[]): Crossing[] => crossings.map((c) => ({ ...c, seq: ++seq }));

describe("a free-order race with two course groups", () => {
  const input = {
    rules: rules({ timingMode: "enduro", precision: 1, calcPrecision: 1 }),
    courses,
    startGroups: [],
    racers: [
      racer("ana", { bib: 1, courseId: "long" }),
      racer("ben", { bib: 2, courseId: "long" }),
      racer("cy", { bib: 3, courseId: "short" }),
      // Di names no course group; her category places her in Short.
      racer("di", { bib: 4, courseId: null, fields: { category: "U14" } }),
    ].map((r) => ({ ...r, courseId: racerCourseOf(settings)!(r) })),
    groups: groupsByCourse(courses),
  };
  const crossings = renumber([
    // Ana: C (2:00), then A (3:00; a finish read 10 s after the start is too soon to be a run), then B (2:30) = 7:30.
    ...reads("ana", ["tp-cs", 100], ["tp-cf", 220], ["tp-as", 500], ["tp-af", 510], ["tp-af", 680], ["tp-bs", 900], ["tp-bf", 1050]),
    // Ben: A (2:50), B (2:20), C (2:15) = 7:25.
    ...reads("ben", ["tp-as", 100], ["tp-af", 270], ["tp-bs", 400], ["tp-bf", 540], ["tp-cs", 800], ["tp-cf", 935]),
    // Cy rides B (2:30) before A (2:40), then B again (2:20): in the listed order only the second B counts = 5:00.
    ...reads("cy", ["tp-bs", 100], ["tp-bf", 250], ["tp-as", 300], ["tp-af", 460], ["tp-bs", 600], ["tp-bf", 740]),
    // Di: A (2:30), then into B with no finish yet.
    ...reads("di", ["tp-as", 100], ["tp-af", 250], ["tp-bs", 400]),
  ]);
  const full = computeFull(input, crossings);

  it("makes one course per group from its segments' start and finish pairs, named by the segments", () => {
    expect(courses.map((c) => [c.name, c.points.map((p) => p.timingPointId).join(" "), c.freeOrder])).toEqual([
      ["Long", "tp-as tp-af tp-bs tp-bf tp-cs tp-cf", { ordered: false }],
      ["Short", "tp-as tp-af tp-bs tp-bf", { ordered: true }],
    ]);
    expect(courses[1]!.points.filter((p) => p.mode === "split").map((p) => [p.name, p.minSplit])).toEqual([
      ["Segment A", seconds(30)],
      ["Segment B", seconds(30)],
    ]);
  });

  it("ranks Long in any order: Ben 7:25 ahead of Ana 7:30, who rode C first", () => {
    const long = full.groups.get("course:long")!;
    expect(long.map((r) => [r.racerId, r.status, r.time])).toEqual([
      ["ben", "finished", seconds(445)],
      ["ana", "finished", seconds(450)],
    ]);
    expect(full.results.get("ana")!.segments).toEqual([
      { time: seconds(180), runs: 1 },
      { time: seconds(150), runs: 1 },
      { time: seconds(120), runs: 1 },
    ]);
    expect(full.results.get("ana")).toMatchObject({ start: at(100), finish: at(1050) });
  });

  it("ranks Short in the listed order: Cy's B before A does not count, his later B does (2:40 + 2:20 = 5:00)", () => {
    const short = full.groups.get("course:short")!;
    expect(short.map((r) => [r.racerId, r.status, r.time, r.laps])).toEqual([
      ["cy", "finished", seconds(300), 2],
      ["di", "oncourse", null, 1],
    ]);
    expect(full.results.get("cy")!.segments).toEqual([
      { time: seconds(160), runs: 1 },
      { time: seconds(140), runs: 1 },
    ]);
  });
});

describe("free-order setup documents", () => {
  it("stores one course per segment: its start, and its finish with the minimum time", () => {
    const data = segmentCourseData(settings.segments_list[0]!, null);
    expect(data).toMatchObject({ name: "Segment A", timing_mode: "enduro", segment_id: "a" });
    expect(data.points_list.map((p) => [p.point, p.mode, p.min_split])).toEqual([
      ["tp-as", "start", 10_000_000],
      ["tp-af", "split", seconds(30)],
    ]);
  });

  it("plans one start group per segment, or per segment and meta start group", () => {
    expect(plannedStartGroups(settings).map((g) => [g.name, g.metagroup_id])).toEqual([
      ["Segment A", null],
      ["Segment B", null],
      ["Segment C", null],
    ]);
    const waves = raceSettingsSchema.parse({
      ...settings,
      meta_startgroups_list: [
        { id: "w1", name: "Wave 1", first_start_time: at(0) },
        { id: "w2", name: "Wave 2" },
      ],
    });
    expect(plannedStartGroups(waves).map((g) => [g.segment_id, g.metagroup_id, g.name, g.scheduled_start_time])).toEqual([
      ["a", "w1", "Wave 1 – Segment A", at(0)],
      ["a", "w2", "Wave 2 – Segment A", null],
      ["b", "w1", "Wave 1 – Segment B", at(0)],
      ["b", "w2", "Wave 2 – Segment B", null],
      ["c", "w1", "Wave 1 – Segment C", at(0)],
      ["c", "w2", "Wave 2 – Segment C", null],
    ]);
  });

  it("places no one by course group outside a free-order race", () => {
    expect(racerCourseOf({ ...settings, is_free_segment: false })).toBeNull();
  });
});
