import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { fieldChanges } from "./field-changes";

describe("what a write changed", () => {
  it("lists each changed field with its old and new value, and nothing for an unchanged one", () => {
    expect(fieldChanges({ name: "10 km", laps: 2, list: [1, 2] }, { name: "10 km", laps: 3, list: [1, 2], note: "new" })).toEqual([
      { field: "laps", oldValue: 2, newValue: 3 },
      { field: "note", oldValue: null, newValue: "new" },
    ]);
    expect(fieldChanges({ gone: "x" }, {})).toEqual([{ field: "gone", oldValue: "x", newValue: null }]);
  });

  it("applying the changes to the old version gives the new one, and an object compared with itself has none", () => {
    const value = fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.array(fc.integer(), { maxLength: 3 }));
    const object = fc.dictionary(fc.constantFrom("a", "b", "c", "d"), value);
    fc.assert(
      fc.property(object, object, (before, after) => {
        expect(fieldChanges(after, after)).toEqual([]);
        const rebuilt: Record<string, unknown> = { ...before };
        for (const change of fieldChanges(before, after)) {
          if (change.newValue === null && !(change.field in after)) delete rebuilt[change.field];
          else rebuilt[change.field] = change.newValue;
        }
        expect(rebuilt).toEqual(after);
      }),
      fcParams(),
    );
  });
});
