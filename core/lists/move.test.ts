import { describe, expect, it } from "vitest";
import { movedTo } from "./move";

const list = ["a", "b", "c", "d"].map((id) => ({ id }));
const ids = (entries: { id: string }[]) => entries.map((e) => e.id).join("");

describe("movedTo", () => {
  it("moves an entry down, up, and clamps past either end", () => {
    expect(ids(movedTo(list, "a", 2))).toBe("bcad");
    expect(ids(movedTo(list, "d", 0))).toBe("dabc");
    expect(ids(movedTo(list, "b", 99))).toBe("acdb");
    expect(ids(movedTo(list, "c", -5))).toBe("cabd");
  });

  it("leaves the list as it was for an unknown id or a position that is not a whole number", () => {
    expect(ids(movedTo(list, "x", 1))).toBe("abcd");
    expect(ids(movedTo(list, "a", 1.5))).toBe("abcd");
    expect(list.map((e) => e.id)).toEqual(["a", "b", "c", "d"]);
  });
});
