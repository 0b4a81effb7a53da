import { describe, expect, it } from "vitest";
import { IsolateMemo } from "./isolate-memo";

const weighed = (capacity: number) => new IsolateMemo<number[]>(capacity, (value) => value.length);

describe("IsolateMemo", () => {
  it("keeps what fits and lets the least recently used go first", () => {
    const memo = weighed(10);
    memo.set("a", [1, 2, 3, 4]);
    memo.set("b", [1, 2, 3, 4]);
    // Reading "a" makes "b" the least recently used.
    expect(memo.get("a")).toEqual([1, 2, 3, 4]);
    memo.set("c", [1, 2, 3]);
    expect(memo.get("b")).toBeUndefined();
    expect(memo.get("a")).toEqual([1, 2, 3, 4]);
    expect(memo.get("c")).toEqual([1, 2, 3]);
    expect(memo.weight).toBe(7);
  });

  it("replaces a key's value and its weight, and forgets on delete and clear", () => {
    const memo = weighed(10);
    memo.set("a", [1, 2, 3, 4, 5, 6]);
    memo.set("a", [1]);
    expect(memo.weight).toBe(1);
    memo.set("b", [1, 2]);
    memo.delete("a");
    expect(memo.get("a")).toBeUndefined();
    expect(memo.weight).toBe(2);
    memo.clear();
    expect(memo.get("b")).toBeUndefined();
    expect(memo.weight).toBe(0);
  });

  it("keeps out a value heavier than the whole memo rather than emptying it", () => {
    const memo = weighed(5);
    memo.set("small", [1, 2]);
    memo.set("huge", [1, 2, 3, 4, 5, 6]);
    expect(memo.get("huge")).toBeUndefined();
    expect(memo.get("small")).toEqual([1, 2]);
  });

  it("builds a missing value once for callers that ask together, and keeps it for later ones", async () => {
    const memo = weighed(10);
    let builds = 0;
    let finish: (value: number[]) => void = () => undefined;
    const build = () => {
      builds++;
      return new Promise<number[]>((resolve) => (finish = resolve));
    };
    const crowd = [memo.through("a", build), memo.through("a", build), memo.through("a", build)];
    finish([1, 2]);
    expect(await Promise.all(crowd)).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
    expect(await memo.through("a", build)).toEqual([1, 2]);
    expect(builds).toBe(1);
    expect(memo.weight).toBe(2);
  });

  it("keeps nothing from a build that fails, so the next caller builds again", async () => {
    const memo = weighed(10);
    await expect(memo.through("a", () => Promise.reject(new Error("room away")))).rejects.toThrow("room away");
    expect(memo.get("a")).toBeUndefined();
    expect(await memo.through("a", () => Promise.resolve([7]))).toEqual([7]);
  });

  it("gives a value too heavy to keep, without keeping it", async () => {
    const memo = weighed(3);
    memo.set("small", [1]);
    expect(await memo.through("big", () => Promise.resolve([1, 2, 3, 4]))).toEqual([1, 2, 3, 4]);
    expect(memo.get("big")).toBeUndefined();
    expect(memo.get("small")).toEqual([1]);
  });
});
