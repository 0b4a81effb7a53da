import { describe, expect, it } from "vitest";
import { at, seconds } from "./test-races";
import { sectionTimes, triathlonSections } from "./triathlon";

const namesAndPasses = (counts: Parameters<typeof triathlonSections>[0]) => triathlonSections(counts).map((s) => [s.number, s.name, s.passes]);

describe("triathlonSections", () => {
  it("runs all five sections, transitions one pass each", () => {
    expect(namesAndPasses({ swimLapCount: 2, bikeLapCount: 3, runLapCount: 2 })).toEqual([
      [1, "Swim", 2],
      [2, "T1", 1],
      [3, "Bike", 3],
      [4, "T2", 1],
      [5, "Run", 2],
    ]);
  });

  it("swim 0 skips Swim and T1", () => {
    expect(namesAndPasses({ swimLapCount: 0, bikeLapCount: 1, runLapCount: 1 })).toEqual([
      [3, "Bike", 1],
      [4, "T2", 1],
      [5, "Run", 1],
    ]);
  });

  it("bike 0 skips Bike and T2", () => {
    expect(namesAndPasses({ swimLapCount: 1, bikeLapCount: 0, runLapCount: 1 })).toEqual([
      [1, "Swim", 1],
      [2, "T1", 1],
      [5, "Run", 1],
    ]);
  });

  it("run 0 skips Run only", () => {
    expect(namesAndPasses({ swimLapCount: 1, bikeLapCount: 1, runLapCount: 0 })).toEqual([
      [1, "Swim", 1],
      [2, "T1", 1],
      [3, "Bike", 1],
      [4, "T2", 1],
    ]);
  });

  it("refuses a negative or fractional lap count", () => {
    expect(() => triathlonSections({ swimLapCount: -1, bikeLapCount: 1, runLapCount: 1 })).toThrow(RangeError);
    expect(() => triathlonSections({ swimLapCount: 1, bikeLapCount: 1.5, runLapCount: 1 })).toThrow(RangeError);
  });
});

describe("sectionTimes", () => {
  // Swim out at 25:20.3, T1 out at 26:51, bike in at 1:26:51, T2 out at 1:27:36.25, finish at 2:07:36.25.
  const boundaries = [at(1520.3), at(1611), at(5211), at(5256.25), at(7656.25)];

  it("full triathlon: 25:20.3 + 1:30.7 + 1:00:00 + 45.25 + 40:00 = 2:07:36.25, transitions included", () => {
    expect(sectionTimes(at(0), boundaries)).toEqual({
      sectionTimes: [seconds(1520.3), seconds(90.7), seconds(3600), seconds(45.25), seconds(2400)],
      total: seconds(7656.25),
    });
  });

  it("swim 0: Bike, T2 and Run from the start", () => {
    expect(sectionTimes(at(0), [at(3600), at(3645), at(6045)])).toEqual({ sectionTimes: [seconds(3600), seconds(45), seconds(2400)], total: seconds(6045) });
  });

  it("a missing boundary leaves that section and later ones null, and no total", () => {
    const missingT2 = [at(1520.3), at(1611), at(5211), null, at(7656.25)];
    expect(sectionTimes(at(0), missingT2)).toEqual({ sectionTimes: [seconds(1520.3), seconds(90.7), seconds(3600), null, null], total: null });
  });

  it("a boundary before the previous one counts as missing", () => {
    expect(sectionTimes(at(0), [at(1520.3), at(1500), at(5211)])).toEqual({ sectionTimes: [seconds(1520.3), null, null], total: null });
  });

  it("no start gives no times", () => {
    expect(sectionTimes(null, boundaries)).toEqual({ sectionTimes: [null, null, null, null, null], total: null });
    expect(sectionTimes(at(0), [])).toEqual({ sectionTimes: [], total: null });
  });
});
