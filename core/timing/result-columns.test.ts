import { describe, expect, it } from "vitest";
import { biathlonColumns, runColumns } from "./result-columns";
import { course, point } from "./test-races";

describe("biathlonColumns", () => {
  const points = [point("ri", "split", { name: "Range in", rangeRole: "in" }), point("ro", "split", { name: "Range out", rangeRole: "out" }), point("fin", "lap", { name: "Stadium" })];
  const threeLaps = course(points, { lapCount: 3 });
  const names = (option: Parameters<typeof biathlonColumns>[1]) => biathlonColumns(threeLaps, option, "PS").map((c) => c.name);

  it("shows lap times, each from the lap before, with each shooting after its lap", () => {
    expect(biathlonColumns(threeLaps, "laps", "PS")).toEqual([
      { index: 2, name: "Lap 1", since: null },
      { index: 10_001, name: "Shooting 1 (P)", shooting: 1 },
      { index: 5, name: "Lap 2", since: 2 },
      { index: 10_002, name: "Shooting 2 (S)", shooting: 2 },
      { index: 8, name: "Lap 3", since: 5 },
    ]);
  });

  it("shows every point for mid-lap splits and totals, only shootings for finish only", () => {
    expect(names("midlap")).toEqual(["Range in 1", "Range out 1", "Stadium 1", "Shooting 1 (P)", "Range in 2", "Range out 2", "Stadium 2", "Shooting 2 (S)", "Range in 3", "Range out 3", "Stadium 3"]);
    expect(biathlonColumns(threeLaps, "midlap", "PS")[4]).toEqual({ index: 3, name: "Range in 2", since: 2 });
    expect(biathlonColumns(threeLaps, "total", "PS")[4]).toEqual({ index: 3, name: "Range in 2" });
    expect(names("finish")).toEqual(["Shooting 1 (P)", "Shooting 2 (S)"]);
  });
});

describe("runColumns", () => {
  it("gives one Run n column per run, keyed above every split and shooting", () => {
    expect(runColumns(2)).toEqual([
      { index: 20_001, name: "Run 1", run: 1 },
      { index: 20_002, name: "Run 2", run: 2 },
    ]);
  });
});
