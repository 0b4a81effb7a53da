import { describe, expect, it } from "vitest";
import { TimingError } from "./errors";
import { seededRng, seedRacers, type SeedRacer } from "./seeding";
import {
  DEFAULT_STARTLIST_DISPLAY_SORT,
  DEFAULT_STARTTIME_SORT,
  InvalidGroupTimeError,
  orderForStart,
  planStartTimes,
  STARTTIME_SORTS,
  startTimeSortFor,
  type PlanGroup,
  type PlanRace,
  type SortRacer,
} from "./start-plan";

const S = 1_000_000;
const NINE = 1_800_000_000 * S; // the race's start
const race: PlanRace = {
  startTime: NINE,
  endTime: null,
  zeroTime: NINE - 9 * 3600 * S,
  startMode: "individual",
  startInterval: 30 * S,
  startSize: 1,
  isStartSizeEnabled: false,
  startGap: 60 * S,
};

function group(id: string, ordinal: number, racerIds: string[], fields: Partial<PlanGroup> = {}): PlanGroup {
  return {
    id,
    ordinal,
    startMode: null,
    scheduledStartTime: null,
    assignedStartTime: null,
    startInterval: null,
    startSize: null,
    startGap: null,
    racerIds,
    ...fields,
  };
}

describe("start-time sorts", () => {
  const racers: SortRacer[] = [
    { id: "a", bib: 3, random: 0.7, firstName: "Ann", lastName: "Zed" },
    { id: "b", bib: 1, random: 0.2, firstName: "Bo", lastName: "Young" },
    { id: "c", bib: null, random: null, firstName: "Cy", lastName: "Young" },
    { id: "d", bib: 2, random: 0.5, firstName: "Al", lastName: "Young" },
  ];

  it("defaults to bib, lists every sort with a label, and shows start lists by time", () => {
    expect(DEFAULT_STARTTIME_SORT).toBe("bib");
    expect(DEFAULT_STARTLIST_DISPLAY_SORT).toBe("time");
    expect(STARTTIME_SORTS.map((s) => s.key)).toEqual(["bib", "seed", "random", "name", "custom"]);
    expect(startTimeSortFor({ starttime_sort: null }, { starttime_sort: "name" })).toBe("name");
    expect(startTimeSortFor({ starttime_sort: "random" }, { starttime_sort: "name" })).toBe("random");
    expect(startTimeSortFor({ starttime_sort: "unknown" }, {})).toBe("bib");
  });

  it("orders by bib (none last), random value, name, the seed order and a custom order", () => {
    expect(orderForStart("bib", racers)).toEqual(["b", "d", "a", "c"]);
    expect(orderForStart("random", racers)).toEqual(["b", "d", "a", "c"]);
    expect(orderForStart("name", racers)).toEqual(["d", "b", "c", "a"]);
    expect(orderForStart("seed", racers, { seedOrder: ["c", "a"] })).toEqual(["c", "a", "b", "d"]);
    // Custom: listed ids first; unknown ids in the list are ignored; racers not listed follow by bib.
    expect(orderForStart("custom", racers, { customOrder: ["a", "gone", "c"] })).toEqual(["a", "c", "b", "d"]);
  });
});

describe("planStartTimes", () => {
  it("sends an individual group's racers an interval apart from the race's start", () => {
    const plan = planStartTimes(race, [group("g1", 1, ["a", "b", "c"])]);
    expect(["a", "b", "c"].map((id) => plan.starts.get(id))).toEqual([NINE, NINE + 30 * S, NINE + 60 * S]);
    expect(plan.groups).toEqual([
      { id: "g1", ordinal: 1, startMode: "individual", assignedStartTime: NINE, firstStartTime: NINE, lastStartTime: NINE + 60 * S, racers: 3 },
    ]);
    expect(plan.zeroTime).toBe(race.zeroTime);
  });

  it("starts the next individual group at the previous group's last start plus the gap (the group's, else the race's)", () => {
    const plan = planStartTimes(race, [
      group("g1", 1, ["a", "b"]),
      group("g2", 2, ["c", "d"], { startInterval: 15 * S }),
      group("g3", 3, ["e"], { startGap: 5 * 60 * S }),
    ]);
    expect(plan.groups.map((g) => [g.id, g.firstStartTime - NINE, g.lastStartTime - NINE])).toEqual([
      ["g1", 0, 30 * S],
      ["g2", 90 * S, 105 * S],
      ["g3", 405 * S, 405 * S],
    ]);
    expect(plan.starts.get("d")).toBe(NINE + 105 * S);
  });

  it("uses start size only when it is enabled", () => {
    const ids = ["a", "b", "c", "d", "e"];
    const off = planStartTimes({ ...race, startSize: 2 }, [group("g", 1, ids)]);
    expect(ids.map((id) => (off.starts.get(id)! - NINE) / S)).toEqual([0, 30, 60, 90, 120]);
    const on = planStartTimes({ ...race, startSize: 2, isStartSizeEnabled: true }, [group("g", 1, ids)]);
    expect(ids.map((id) => (on.starts.get(id)! - NINE) / S)).toEqual([0, 0, 30, 30, 60]);
    const groupSize = planStartTimes({ ...race, isStartSizeEnabled: true }, [group("g", 1, ids, { startSize: 3 })]);
    expect(ids.map((id) => (groupSize.starts.get(id)! - NINE) / S)).toEqual([0, 0, 0, 30, 30]);
  });

  it("starts a mass group at its scheduled time, else its assigned one, else the race's start; everyone together", () => {
    const plan = planStartTimes({ ...race, startMode: "mass" }, [
      group("none", 1, ["a", "b"]),
      group("assigned", 2, ["c"], { assignedStartTime: NINE + 600 * S }),
      group("scheduled", 3, ["d"], { scheduledStartTime: NINE + 300 * S, assignedStartTime: NINE + 900 * S }),
    ]);
    expect(["a", "b", "c", "d"].map((id) => (plan.starts.get(id)! - NINE) / S)).toEqual([0, 0, 600, 300]);
    // Ordered by earliest assigned time and renumbered.
    expect(plan.groups.map((g) => [g.id, g.ordinal])).toEqual([
      ["none", 1],
      ["scheduled", 2],
      ["assigned", 3],
    ]);
  });

  it("an individual group with a scheduled time starts then; a mass group before it sets the previous last start", () => {
    const plan = planStartTimes(race, [
      group("mass", 1, ["m1", "m2"], { startMode: "mass", scheduledStartTime: NINE + 60 * S }),
      group("ind", 2, ["a", "b"]),
      group("fixed", 3, ["c"], { scheduledStartTime: NINE + 3600 * S }),
    ]);
    expect(plan.groups.map((g) => [g.id, (g.firstStartTime - NINE) / S])).toEqual([
      ["mass", 60],
      ["ind", 120],
      ["fixed", 3600],
    ]);
  });

  it("places pursuit racers at their offsets after the group's first start", () => {
    const plan = planStartTimes(race, [
      group("p", 1, ["x", "y"], {
        offsets: new Map([
          ["x", 0],
          ["y", 45 * S],
        ]),
      }),
    ]);
    expect(plan.starts.get("y")).toBe(NINE + 45 * S);
    expect(plan.groups[0]?.lastStartTime).toBe(NINE + 45 * S);
  });

  it("throws Invalid group time when a group would start after the race's end", () => {
    const ending = { ...race, endTime: NINE + 60 * S };
    expect(() => planStartTimes(ending, [group("g1", 1, ["a", "b", "c"]), group("g2", 2, ["d"])])).toThrow(TimingError);
    expect(() => planStartTimes(ending, [group("g1", 1, ["a", "b", "c"]), group("g2", 2, ["d"])])).toThrow("Invalid group time");
    try {
      planStartTimes(ending, [group("g1", 1, ["a", "b", "c"]), group("g2", 2, ["d"])]);
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidGroupTimeError);
      expect((error as InvalidGroupTimeError).groupId).toBe("g2");
      expect((error as InvalidGroupTimeError).start).toBe(NINE + 120 * S);
    }
    expect(() => planStartTimes(ending, [group("g1", 1, ["a"], { startMode: "mass", scheduledStartTime: NINE + 60 * S })])).not.toThrow();
  });

  it("seeds and assigns 2,000 racers in 4 groups in a few milliseconds", () => {
    const racers: SeedRacer[] = Array.from({ length: 2000 }, (_, i) => ({
      id: `r${i}`,
      bib: i + 1,
      random: null,
      seed: null,
      isManualSeed: false,
      cplDistancePts: (i * 37) % 300,
      cplSprintPts: null,
      licence: null,
      qualifierRank: null,
      categoryCount: 1,
      previousTime: null,
    }));
    const started = performance.now();
    const groups = [0, 1, 2, 3].map((g) => {
      const mine = racers.slice(g * 500, (g + 1) * 500);
      return group(`g${g}`, g + 1, seedRacers("cpl_individual", mine, { rng: seededRng(g) }).order);
    });
    const plan = planStartTimes(race, groups);
    expect(performance.now() - started).toBeLessThan(100);
    expect(plan.starts.size).toBe(2000);
    // Four groups of 500, 499 intervals each, and three gaps between them.
    expect(plan.groups[3]!.lastStartTime).toBe(NINE + (4 * 499 * 30 + 3 * 60) * S);
  });
});
