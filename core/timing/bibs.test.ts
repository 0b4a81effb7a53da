import { describe, expect, it } from "vitest";
import { assignBibs, BIB_LIST_FORMAT, BIB_RANGE_TOO_LONG, BIB_TOO_LARGE, BIBS_RUN_OUT, formatBibList, MAX_BIB, normaliseBibList, parseBibList } from "./bibs";

describe("parseBibList", () => {
  it("reads numbers and ranges separated by commas, sorted and unique", () => {
    expect(parseBibList("13, 40-45")).toEqual([13, 40, 41, 42, 43, 44, 45]);
    expect(parseBibList(" 45 - 47 ,13,13 , 2")).toEqual([2, 13, 45, 46, 47]);
    expect(parseBibList("7-7")).toEqual([7]);
  });

  it("reads empty and blank text, and empty entries, as nothing", () => {
    expect(parseBibList("")).toEqual([]);
    expect(parseBibList("   ")).toEqual([]);
    expect(parseBibList("1,,2,")).toEqual([1, 2]);
  });

  it("refuses anything else with a message that shows the format", () => {
    for (const text of ["a", "13;14", "1-2-3", "-4", "4-", "1.5", "12 13", "13 and 14"]) expect(parseBibList(text), text).toEqual({ error: BIB_LIST_FORMAT });
    expect(BIB_LIST_FORMAT).toBe("Enter bib numbers or ranges separated by commas, like 13, 40-45");
  });

  it("refuses reversed ranges, ranges over 100,000 bibs and bibs above the highest", () => {
    expect(parseBibList("45-40")).toEqual({ error: "The range 45-40 runs backwards; write it 40-45" });
    expect(parseBibList("1-100000")).toHaveLength(100_000);
    expect(parseBibList("1-100001")).toEqual({ error: BIB_RANGE_TOO_LONG });
    expect(BIB_RANGE_TOO_LONG).toBe("A range may hold at most 100,000 bibs");
    expect(parseBibList(String(MAX_BIB + 1))).toEqual({ error: BIB_TOO_LARGE });
  });
});

describe("formatBibList and normaliseBibList", () => {
  it("writes runs as ranges", () => {
    expect(formatBibList([45, 13, 40, 41, 42, 43, 44])).toBe("13, 40-45");
    expect(formatBibList([1, 2, 4])).toBe("1-2, 4");
    expect(formatBibList([])).toBe("");
  });

  it("normalises a typed list, or says why it cannot", () => {
    expect(normaliseBibList(" 40-45,13 ")).toBe("13, 40-45");
    expect(normaliseBibList("")).toBe("");
    expect(normaliseBibList("x")).toEqual({ error: BIB_LIST_FORMAT });
  });
});

describe("assignBibs", () => {
  const ids = ["a", "b", "c", "d", "e"];

  it("numbers from first_bib (1 when not set), in order", () => {
    expect([...assignBibs(ids, { firstBib: null, skip: new Set(), backwards: false })]).toEqual([
      ["a", 1],
      ["b", 2],
      ["c", 3],
      ["d", 4],
      ["e", 5],
    ]);
    expect(ids.map((id) => assignBibs(ids, { firstBib: 100, skip: new Set(), backwards: false }).get(id))).toEqual([100, 101, 102, 103, 104]);
  });

  it("never gives a skipped (missing or reserved) bib, nor one another racer keeps", () => {
    const skip = new Set(parseBibList("13, 2-3") as number[]);
    const bibs = assignBibs(ids, { firstBib: 1, skip, backwards: false, taken: new Set([5]) });
    expect(ids.map((id) => bibs.get(id))).toEqual([1, 4, 6, 7, 8]);
    const around13 = assignBibs(ids, { firstBib: 11, skip, backwards: false });
    expect(ids.map((id) => around13.get(id))).toEqual([11, 12, 14, 15, 16]);
  });

  it("backwards: the last racer in the order wears the first bib", () => {
    const bibs = assignBibs(ids, { firstBib: 10, skip: new Set([11]), backwards: true });
    expect(ids.map((id) => bibs.get(id))).toEqual([15, 14, 13, 12, 10]);
    expect([...bibs.keys()]).toEqual(ids);
  });

  it("refuses to pass the highest bib and a racer listed twice", () => {
    expect(() => assignBibs(["a", "b"], { firstBib: MAX_BIB, skip: new Set(), backwards: false })).toThrow(BIBS_RUN_OUT);
    expect(() => assignBibs(["a", "a"], { firstBib: 1, skip: new Set(), backwards: false })).toThrow(RangeError);
  });

  it("numbers 2,000 racers around a long missing list quickly", () => {
    const many = Array.from({ length: 2000 }, (_, i) => `r${i}`);
    const skip = new Set(parseBibList("13, 40-45, 100-199, 666, 1000-1099") as number[]);
    const started = performance.now();
    const bibs = assignBibs(many, { firstBib: 1, skip, backwards: false });
    expect(performance.now() - started).toBeLessThan(50);
    expect(new Set(bibs.values()).size).toBe(2000);
    for (const bib of bibs.values()) expect(skip.has(bib)).toBe(false);
  });
});
