import { describe, expect, it } from "vitest";
import { enduroSegments } from "./enduro";
import { TIMING_ERRORS } from "./errors";
import {
  courseGroupOf,
  courseGroupProblem,
  DEFAULT_COURSE_GROUP_NAME,
  freeOrderWarnings,
  nextSegmentName,
  segmentName,
  segmentsOfGroup,
  type CourseGroupSetup,
  type FreeSegment,
} from "./free-order";
import { course, point, racer } from "./test-races";

const segment = (id: string): FreeSegment => ({ id, name: id, startPointId: `${id}-s`, finishPointId: `${id}-f`, minTime: 0 });
const group = (id: string, overrides: Partial<CourseGroupSetup> = {}): CourseGroupSetup => ({
  id,
  name: id,
  orderType: "any",
  segmentIds: [],
  criteria: [],
  ...overrides,
});

describe("free-order names", () => {
  it("uses the spec's defaults: Segment #N, and All Racers for the one course group", () => {
    expect(segmentName(2)).toBe("Segment #2");
    expect(DEFAULT_COURSE_GROUP_NAME).toBe("All Racers");
  });

  it("names a new segment one past the list, skipping a name already taken", () => {
    expect(nextSegmentName([])).toBe("Segment #1");
    expect(nextSegmentName([{ name: "Segment #2" }])).toBe("Segment #3");
    expect(nextSegmentName([{ name: "Rock garden" }, { name: "Segment #3" }])).toBe("Segment #4");
  });

  it("names a course group's segments by their finish point, an enduro's by Stage #N", () => {
    const points = [point("s", "start"), point("f", "split", { name: "Rock garden" }), point("s2", "start"), point("f2", "split", { name: "" })];
    expect(enduroSegments(course(points, { freeOrder: { ordered: false } })).map((s) => s.name)).toEqual(["Rock garden", "Segment #2"]);
    expect(enduroSegments(course(points)).map((s) => s.name)).toEqual(["Stage #1", "Stage #2"]);
  });
});

describe("segmentsOfGroup", () => {
  const segments = [segment("a"), segment("b"), segment("c")];

  it("rides every segment when the group lists none, and its own in the segment list's order", () => {
    expect(segmentsOfGroup(group("g"), segments).map((s) => s.id)).toEqual(["a", "b", "c"]);
    expect(segmentsOfGroup(group("g", { segmentIds: ["c", "a"] }), segments).map((s) => s.id)).toEqual(["a", "c"]);
  });

  it("refuses a segment the race does not have: That segment does not exist", () => {
    expect(() => segmentsOfGroup(group("g", { segmentIds: ["a", "x"] }), segments)).toThrow(TIMING_ERRORS.noSuchSegment);
    expect(courseGroupProblem([group("g", { segmentIds: ["x"] })], segments)).toBe("That segment does not exist");
    expect(courseGroupProblem([group("g", { segmentIds: ["b"] })], segments)).toBeNull();
  });
});

describe("courseGroupOf", () => {
  const groups = [group("long"), group("short", { criteria: [{ field: "category", op: "eq", value: "U14" }] })];

  it("takes the group the racer's course names, else the first whose criteria hold", () => {
    expect(courseGroupOf(racer("r", { courseId: "long", fields: { category: "U14" } }), groups)).toBe("long");
    expect(courseGroupOf(racer("r", { courseId: null, fields: { category: "u14" } }), groups)).toBe("short");
  });

  it("places no one by a group without criteria unless it is the race's only group", () => {
    expect(courseGroupOf(racer("r", { courseId: null, fields: { category: "Open" } }), groups)).toBeNull();
    expect(courseGroupOf(racer("r", { courseId: null }), [group("all")])).toBe("all");
    expect(courseGroupOf(racer("r", { courseId: "gone" }), [group("all")])).toBeNull();
  });
});

describe("freeOrderWarnings", () => {
  it("names racers without a start group, a course or a metagroup", () => {
    const groups = [group("long"), group("short")];
    const warnings = freeOrderWarnings(
      [
        { label: "bib 1", racer: racer("a", { courseId: "long" }), metastartId: "w1" },
        { label: "bib 2", racer: racer("b", { courseId: "long" }), metastartId: null },
        { label: "bib 3", racer: racer("c", { courseId: null }), metastartId: "w1" },
        { label: "bib 4", racer: racer("d", { courseId: "old-course" }), metastartId: "w9" },
      ],
      { groups, metaStartIds: ["w1"] },
    );
    expect(warnings).toEqual([
      "Free-order racer bib 2 has no start group",
      "Free-order racer bib 3 has no course",
      "Free-order racer bib 4 has no start group",
      "Free-order racer bib 4 has no metagroup: course old-course is not a course group",
    ]);
  });

  it("asks for no start group when the race has no meta start groups", () => {
    expect(
      freeOrderWarnings([{ label: "bib 1", racer: racer("a", { courseId: null }), metastartId: null }], { groups: [group("all")], metaStartIds: [] }),
    ).toEqual([]);
  });
});
