import { describe, expect, it } from "vitest";
import { biathlonColumns, columnStandings, lapColumns, paceDistanceKm, runColumns, splitCellTime, stageColumns } from "./result-columns";
import { course, point } from "./test-races";

describe("biathlonColumns", () => {
  const points = [
    point("ri", "split", { name: "Range in", rangeRole: "in" }),
    point("ro", "split", { name: "Range out", rangeRole: "out" }),
    point("fin", "lap", { name: "Stadium" }),
  ];
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
    expect(names("midlap")).toEqual([
      "Range in 1",
      "Range out 1",
      "Stadium 1",
      "Shooting 1 (P)",
      "Range in 2",
      "Range out 2",
      "Stadium 2",
      "Shooting 2 (S)",
      "Range in 3",
      "Range out 3",
      "Stadium 3",
    ]);
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

describe("lapColumns: time limit and lap options", () => {
  // Two points a lap: a split at the climb, the lap line; 3 laps.
  const lapCourse = course([point("s", "start"), point("climb", "split", { name: "Climb" }), point("line", "lap", { name: "Lap" })], {
    lapCount: 3,
    maxLapCount: 2,
  });
  const lapRace = { timeLimit: false, splitDisplay: "splits", columnOption: "lap", splitTiming: "lap" } as const;

  it("shows every split with lap timing by default: lap n's columns from lap n − 1's line", () => {
    expect(lapColumns(lapCourse, lapRace)).toEqual([
      { index: 0, name: "Climb 1", since: null },
      { index: 1, name: "Lap 1", since: null },
      { index: 2, name: "Climb 2", since: 1 },
      { index: 3, name: "Lap 2", since: 1 },
      { index: 4, name: "Climb 3", since: 3 },
      { index: 5, name: "Lap 3", since: 3 },
    ]);
  });

  it("shows laps only, elapsed or since the previous column, or nothing for finish only", () => {
    expect(lapColumns(lapCourse, { ...lapRace, splitDisplay: "lap", splitTiming: "elapsed" }).map((c) => [c.name, c.since])).toEqual([
      ["Lap 1", null],
      ["Lap 2", null],
      ["Lap 3", null],
    ]);
    expect(lapColumns(lapCourse, { ...lapRace, splitTiming: "prev" }).map((c) => c.since)).toEqual([null, 0, 1, 2, 3, 4]);
    expect(lapColumns(lapCourse, { ...lapRace, splitDisplay: "finish" })).toEqual([]);
  });

  it("in a time limit race reads column_option over the max lap count, and shows no laps with no maximum", () => {
    const timeLimit = { ...lapRace, timeLimit: true };
    expect(lapColumns(lapCourse, { ...timeLimit, columnOption: "major" }).map((c) => c.name)).toEqual(["Lap 1", "Lap 2"]);
    expect(lapColumns(lapCourse, { ...timeLimit, columnOption: "all" }).map((c) => c.name)).toEqual(["Climb 1", "Lap 1", "Climb 2", "Lap 2"]);
    expect(lapColumns(lapCourse, { ...timeLimit, columnOption: "pace" })).toEqual([]);
    expect(lapColumns({ ...lapCourse, maxLapCount: null }, { ...timeLimit, columnOption: "all" })).toEqual([]);
  });

  it("shows none past 40 columns", () => {
    expect(lapColumns({ ...lapCourse, lapCount: 21 }, lapRace)).toEqual([]);
    expect(lapColumns({ ...lapCourse, lapCount: 20 }, lapRace)).toHaveLength(40);
  });
});

describe("paceDistanceKm", () => {
  it("takes the course distance, else laps × lap distance, else none", () => {
    expect(paceDistanceKm({ courseDistanceKm: 10, lapDistanceKm: 2.5 }, 3)).toBe(10);
    expect(paceDistanceKm({ courseDistanceKm: null, lapDistanceKm: 2.5 }, 3)).toBe(7.5);
    expect(paceDistanceKm({ courseDistanceKm: null, lapDistanceKm: null }, 3)).toBeNull();
  });
});

describe("split cells and standings", () => {
  const columns = [
    { index: 0, name: "Lap 1", since: null },
    { index: 1, name: "Lap 2", since: 0 },
  ];
  const S = 1_000_000;
  const rows = [
    {
      racerId: "a",
      splits: [
        { index: 0, elapsed: 300 * S },
        { index: 1, elapsed: 590 * S },
      ],
    },
    {
      racerId: "b",
      splits: [
        { index: 0, elapsed: 290 * S },
        { index: 1, elapsed: 600 * S },
      ],
    },
    { racerId: "c", splits: [{ index: 0, elapsed: 300 * S }] },
  ];

  it("shows a lap's own time from the lap before, and nothing while a split is missing", () => {
    expect(splitCellTime(rows[0]!.splits, columns[1]!)).toBe(290 * S);
    expect(splitCellTime(rows[2]!.splits, columns[1]!)).toBeNull();
    expect(splitCellTime(rows[1]!.splits, columns[0]!)).toBe(290 * S);
  });

  it("places racers at each split by elapsed time (equal times share) and finds the fastest value shown", () => {
    const standings = columnStandings(rows, columns);
    expect([...standings.get(0)!.ranks]).toEqual([
      ["b", 1],
      ["a", 2],
      ["c", 2],
    ]);
    expect(standings.get(0)!.best).toBe(290 * S);
    // Lap 2 on its own: a did it in 290, b in 310; a is placed first at the line.
    expect([...standings.get(1)!.ranks]).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    expect(standings.get(1)!.best).toBe(290 * S);
  });
});

describe("stageColumns", () => {
  it("gives stage 3 of a race a column per stage, this one last", () => {
    expect(stageColumns(3).map((c) => [c.name, c.stage])).toEqual([
      ["Stage 1", 1],
      ["Stage 2", 2],
      ["Stage 3", 3],
    ]);
  });
});
