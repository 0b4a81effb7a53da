import { describe, expect, it } from "vitest";
import { allRacersGroup, groupsByCourse, groupsByStartOrder, groupsFromField, inGroup } from "./groups";
import type { Criterion } from "./model";
import { course, group, racer, startGroup } from "./test-races";

const anna = racer("r1", {
  bib: 12,
  firstName: "Anna",
  lastName: "Berg",
  courseId: "c10k",
  startGroupId: "wave1",
  fields: { sex: "F", age: 34, category: "Senior", club: "", team: null, ageText: "34" },
});

function holds(...criteria: Criterion[]): boolean {
  return inGroup(group("g", { criteria }), anna);
}

describe("inGroup", () => {
  it("requires the group's course and start group when set", () => {
    expect(inGroup(group("g", { courseId: "c10k" }), anna)).toBe(true);
    expect(inGroup(group("g", { courseId: "c5k" }), anna)).toBe(false);
    expect(inGroup(group("g", { startGroupId: "wave1" }), anna)).toBe(true);
    expect(inGroup(group("g", { startGroupId: "wave2" }), anna)).toBe(false);
    expect(inGroup(group("g", { courseId: "c10k" }), { ...anna, courseId: null })).toBe(false);
  });

  it("compares eq and ne ignoring case for text, and numerically for numbers", () => {
    expect(holds({ field: "sex", op: "eq", value: "f" })).toBe(true);
    expect(holds({ field: "sex", op: "ne", value: "M" })).toBe(true);
    expect(holds({ field: "sex", op: "ne", value: "F" })).toBe(false);
    expect(holds({ field: "age", op: "eq", value: "34.0" })).toBe(true);
    expect(holds({ field: "age", op: "eq", value: 35 })).toBe(false);
    expect(holds({ field: "ageText", op: "eq", value: 34 })).toBe(true);
  });

  it("matches in against a list of values", () => {
    expect(holds({ field: "category", op: "in", value: ["junior", "SENIOR"] })).toBe(true);
    expect(holds({ field: "category", op: "in", value: ["junior", "master"] })).toBe(false);
  });

  it("compares lt, le, gt and ge as numbers, parsing text fields, and never matches a non-number", () => {
    expect(holds({ field: "age", op: "lt", value: 35 })).toBe(true);
    expect(holds({ field: "age", op: "le", value: 34 })).toBe(true);
    expect(holds({ field: "age", op: "gt", value: 34 })).toBe(false);
    expect(holds({ field: "age", op: "ge", value: "34" })).toBe(true);
    expect(holds({ field: "ageText", op: "gt", value: 9 })).toBe(true); // as numbers, not "34" < "9" as text
    expect(holds({ field: "category", op: "lt", value: 100 })).toBe(false);
    expect(holds({ field: "category", op: "ge", value: 0 })).toBe(false);
    expect(holds({ field: "missing", op: "lt", value: 100 })).toBe(false);
  });

  it("treats null, missing and the empty string as blank", () => {
    expect(holds({ field: "club", op: "blank", value: null })).toBe(true);
    expect(holds({ field: "team", op: "blank", value: null })).toBe(true);
    expect(holds({ field: "missing", op: "blank", value: null })).toBe(true);
    expect(holds({ field: "sex", op: "blank", value: null })).toBe(false);
    expect(holds({ field: "sex", op: "notblank", value: null })).toBe(true);
    expect(holds({ field: "club", op: "notblank", value: null })).toBe(false);
  });

  it("knows the built-in names bib, course, startgroup, first_name and last_name", () => {
    expect(holds({ field: "bib", op: "ge", value: 10 }, { field: "bib", op: "lt", value: 20 })).toBe(true);
    expect(holds({ field: "course", op: "eq", value: "C10K" })).toBe(true);
    expect(holds({ field: "startgroup", op: "eq", value: "wave1" })).toBe(true);
    expect(holds({ field: "first_name", op: "eq", value: "anna" })).toBe(true);
    expect(holds({ field: "last_name", op: "in", value: ["Berg", "Dahl"] })).toBe(true);
    expect(inGroup(group("g", { criteria: [{ field: "bib", op: "blank", value: null }] }), { ...anna, bib: null })).toBe(true);
  });

  it("needs every criterion to hold", () => {
    expect(holds({ field: "sex", op: "eq", value: "F" }, { field: "age", op: "ge", value: 40 })).toBe(false);
    expect(holds({ field: "sex", op: "eq", value: "F" }, { field: "age", op: "ge", value: 30 })).toBe(true);
  });
});

describe("result group builders", () => {
  it("puts everyone in All Racers", () => {
    expect(allRacersGroup()).toEqual({ id: "all", name: "All Racers", ordinal: 0, courseId: null, startGroupId: null, criteria: [], sameTimeThreshold: null });
    expect(inGroup(allRacersGroup(), anna)).toBe(true);
  });

  it("makes one group per course", () => {
    const groups = groupsByCourse([course([], { id: "c5k", name: "5 km" }), course([], { id: "c10k", name: "10 km" })]);
    expect(groups.map((g) => [g.id, g.name, g.ordinal, g.courseId])).toEqual([
      ["course:c5k", "5 km", 0, "c5k"],
      ["course:c10k", "10 km", 1, "c10k"],
    ]);
    expect(groups.map((g) => inGroup(g, anna))).toEqual([false, true]);
  });

  it("makes one group per start group, in start order", () => {
    const groups = groupsByStartOrder([startGroup("wave2", { ordinal: 2 }), startGroup("wave1", { ordinal: 1 })]);
    expect(groups.map((g) => [g.id, g.name, g.ordinal, g.startGroupId])).toEqual([
      ["startgroup:wave1", "Start Group 1", 0, "wave1"],
      ["startgroup:wave2", "Start Group 2", 1, "wave2"],
    ]);
    expect(groups.map((g) => inGroup(g, anna))).toEqual([true, false]);
  });

  it("makes one group per distinct field value, named by the value, skipping blanks", () => {
    const groups = groupsFromField("sex", ["F", "M", "f", "", null, "M"]);
    expect(groups.map((g) => [g.id, g.name, g.ordinal])).toEqual([
      ["field:sex:F", "F", 0],
      ["field:sex:M", "M", 1],
    ]);
    expect(groups[0]?.criteria).toEqual([{ field: "sex", op: "eq", value: "F" }]);
    expect(groups.map((g) => inGroup(g, anna))).toEqual([true, false]);
  });
});
