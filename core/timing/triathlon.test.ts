import { describe, expect, it } from "vitest";
import { computeFull } from "./full";
import { at, course, point, raceInput, racer, reads, rules, seconds } from "./test-races";
import { sectionTimes, triathlonCourse, triathlonSections } from "./triathlon";

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

describe("a triathlon through the results engine", () => {
  // Swim exit, T1 out, a 2-lap bike (lap mat), T2 out, run finish: the points of each section in order.
  const points = [
    point("swim", "lap", { section: 1 }),
    point("t1", "split", { section: 2 }),
    point("bike", "lap", { section: 3, minSplit: seconds(60) }),
    point("t2", "split", { section: 4 }),
    point("finish", "lap", { section: 5 }),
  ];
  const base = course(points);
  const splitsOf = (crossings: [string, number][], counts = { swimLapCount: 1, bikeLapCount: 2, runLapCount: 1 }) => {
    const { course: run, boundaries } = triathlonCourse(base, counts);
    const input = raceInput({ rules: rules({ timingMode: "lap", precision: 1, calcPrecision: 1 }), courses: [run], racers: [racer("r1")] });
    const result = computeFull(input, reads("r1", ...crossings)).results.get("r1")!;
    const boundaryTimes = boundaries.map((b) => result.splits.find((s) => s.index === b.index)?.time ?? null);
    return { result, boundaries, sections: sectionTimes(result.start, boundaryTimes) };
  };

  it("times each section from the end of the one before, transitions in the total", () => {
    const { result, boundaries, sections } = splitsOf([
      ["tp-swim", 1200],
      ["tp-t1", 1290],
      ["tp-bike", 3090],
      ["tp-bike", 4890],
      ["tp-t2", 4950],
      ["tp-finish", 7350],
    ]);
    expect(boundaries.map((b) => [b.name, b.index])).toEqual([
      ["Swim", 0],
      ["T1", 1],
      ["Bike", 3],
      ["T2", 4],
      ["Run", 5],
    ]);
    expect(result.status).toBe("finished");
    expect(result.time).toBe(seconds(7350));
    expect(sections.sectionTimes).toEqual([1200, 90, 3600, 60, 2400].map(seconds));
    expect(sections.total).toBe(result.time);
  });

  it("is still on course after one bike lap of two", () => {
    const { result, sections } = splitsOf([
      ["tp-swim", 1200],
      ["tp-t1", 1290],
      ["tp-bike", 3090],
    ]);
    expect(result.status).toBe("oncourse");
    expect(sections.sectionTimes).toEqual([seconds(1200), seconds(90), null, null, null]);
  });

  it("skips the swim and T1 when the swim has 0 laps (a bike-run)", () => {
    const { result, boundaries, sections } = splitsOf(
      [
        ["tp-bike", 1800],
        ["tp-t2", 1860],
        ["tp-finish", 3060],
      ],
      { swimLapCount: 0, bikeLapCount: 1, runLapCount: 1 },
    );
    expect(boundaries.map((b) => b.name)).toEqual(["Bike", "T2", "Run"]);
    expect(result.time).toBe(seconds(3060));
    expect(sections.sectionTimes).toEqual([1800, 60, 1200].map(seconds));
  });
});
