import { describe, expect, it } from "vitest";
import { defaultCourseGroup } from "../schema/race/free-order";
import { courseGroupFormSchema, withoutSegment, withSegment } from "./free-order-setup.server";

const segment = (id: string, name: string) => ({ id, name, start_point: `${id}-s`, finish_point: `${id}-f`, min_time: 0 });

describe("the Segments page's list edits", () => {
  it("names a segment added without a name Segment #N, and changes one in place", () => {
    const list = [segment("a", "Segment #1")];
    const added = withSegment(list, null, { name: "", start_point: "p1", finish_point: "p2", min_time: 30_000_000 });
    expect(added.map((s) => [s.name, s.min_time])).toEqual([
      ["Segment #1", 0],
      ["Segment #2", 30_000_000],
    ]);
    expect(
      withSegment(added, "a", { name: "Rock garden", start_point: "p3", finish_point: "p4", min_time: null }).map((s) => [s.id, s.name, s.start_point]),
    ).toEqual([
      ["a", "Rock garden", "p3"],
      [added[1]!.id, "Segment #2", "p1"],
    ]);
  });

  it("takes a deleted segment out of the course groups that listed it", () => {
    const settings = {
      segments_list: [segment("a", "A"), segment("b", "B")],
      meta_courses_list: [{ ...defaultCourseGroup("g"), segment_order_list: ["a", "b"] }],
    };
    expect(withoutSegment(settings, "a")).toEqual({
      segments_list: [segment("b", "B")],
      meta_courses_list: [{ ...settings.meta_courses_list[0], segment_order_list: ["b"] }],
    });
  });

  it("reads a course group's ticked segments in the segment list's order, and its condition", () => {
    const parsed = courseGroupFormSchema(["a", "b", "c"]).parse({
      name: "Junior",
      segment_order_type: "fixed",
      segment_c: "on",
      segment_a: "on",
      criterion_field: "category",
      criterion_op: "eq",
      criterion_value: "U16",
    });
    expect(parsed).toEqual({
      name: "Junior",
      segment_order_type: "fixed",
      segment_order_list: ["a", "c"],
      criteria: [{ field: "category", op: "eq", value: "U16" }],
    });
    expect(courseGroupFormSchema(["a"]).safeParse({ name: "Junior", segment_order_type: "sideways" }).error?.issues[0]?.message).toBe(
      "Choose the order racers ride the segments in",
    );
  });
});
