import { describe, expect, it } from "vitest";
import { RecentAnswers } from "./recent-answers";

describe("RecentAnswers", () => {
  it("answers from memory until the answer is keepMs old, then not", () => {
    const kept = new RecentAnswers<string>(5_000, 10);
    kept.set("race-1", "row", 1_000);
    expect(kept.get("race-1", 1_000)).toBe("row");
    expect(kept.get("race-1", 5_999)).toBe("row");
    expect(kept.get("race-1", 6_000)).toBeUndefined();
    expect(kept.get("race-2", 1_000)).toBeUndefined();
  });

  it("keeps a pure answer (keepMs Infinity) whatever the time", () => {
    const kept = new RecentAnswers<number>(Infinity, 10);
    kept.set("a", 1);
    expect(kept.get("a")).toBe(1);
    expect(kept.get("a", Number.MAX_SAFE_INTEGER)).toBe(1);
  });

  it("never holds more than max: a new key past the bound starts again from empty", () => {
    const kept = new RecentAnswers<number>(Infinity, 3);
    for (const key of ["a", "b", "c"]) kept.set(key, 1);
    kept.set("b", 2);
    expect(kept.size).toBe(3);
    kept.set("d", 4);
    expect(kept.size).toBe(1);
    expect(kept.get("a")).toBeUndefined();
    expect(kept.get("d")).toBe(4);
  });

  it("forgets one key, or every answer a change makes stale", () => {
    const kept = new RecentAnswers<{ site: string }>(Infinity, 10);
    kept.set("a.example", { site: "s1" });
    kept.set("b.example", { site: "s1" });
    kept.set("c.example", { site: "s2" });
    kept.delete("c.example");
    expect(kept.get("c.example")).toBeUndefined();
    kept.deleteWhere((value) => value.site === "s1");
    expect(kept.size).toBe(0);
  });
});
