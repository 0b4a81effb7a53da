import { describe, expect, it } from "vitest";
import { fieldErrorsOf } from "./field-errors";

describe("fieldErrorsOf", () => {
  const issues = [
    { path: ["name"], message: "Enter a name" },
    { path: ["name"], message: "At most 200 characters" },
    { path: ["points_list", 0, "point"], message: "Required" },
    { path: [], message: "Each read needs a chip or a bib, not both" },
  ];

  it("keeps the first message per top-level field, and whole-object issues under form", () => {
    expect(fieldErrorsOf(issues)).toEqual({ name: "Enter a name", points_list: "Required", form: "Each read needs a chip or a bib, not both" });
  });

  it("keys nested fields by their full path on request", () => {
    expect(fieldErrorsOf(issues, { fullPath: true })).toEqual({
      name: "Enter a name",
      "points_list.0.point": "Required",
      form: "Each read needs a chip or a bib, not both",
    });
  });
});
