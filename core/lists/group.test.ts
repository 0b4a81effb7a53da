import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { groupedBy } from "./group";

describe("groupedBy", () => {
  it("keeps each group in list order and the groups in the order their first entry came", () => {
    const groups = groupedBy(["b1", "a1", "b2", "c1", "a2"], (s) => s[0]);
    expect([...groups]).toEqual([
      ["b", ["b1", "b2"]],
      ["a", ["a1", "a2"]],
      ["c", ["c1"]],
    ]);
  });

  it("puts every entry in exactly one group, its own key's", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 })), (list) => {
        const groups = groupedBy(list, (n) => n % 3);
        expect([...groups.values()].flat().sort()).toEqual([...list].sort());
        for (const [key, group] of groups) expect(group.every((n) => n % 3 === key)).toBe(true);
      }),
      fcParams(),
    );
  });

  it("groups a field of 50,000 into one group with every racer in order", () => {
    const field = Array.from({ length: 50_000 }, (_, i) => ({ i, group: "wave-1" }));
    const group = groupedBy(field, (r) => r.group).get("wave-1")!;
    expect(group).toHaveLength(50_000);
    expect(group.every((r, i) => r.i === i)).toBe(true);
  });
});
