import { describe, expect, it } from "vitest";
import type { Course } from "./model";
import { statusOfRound, timedEntityFromStorage, timedEntityOf, timedEntityToStorage, timeListKey, variantKeys } from "./timed-entity";

const course: Course = {
  id: "c1",
  name: "10 km",
  lapCount: 2,
  maxLapCount: null,
  timeLimitEnd: null,
  points: [
    { id: "p0", timingPointId: "start-mat", mode: "chipstart", name: "Start", minSplit: 0 },
    { id: "p1", timingPointId: "hill", mode: "split", name: "Hill", minSplit: 0 },
    { id: "p2", timingPointId: "finish", mode: "lap", name: "Finish", minSplit: 0 },
  ],
};
const base = { racerId: "r1", startGroupId: "g1", courseId: "c1", dnfTime: null, dsqTime: null, isDns: false };

describe("TimedEntity", () => {
  it("files biathlon misses as lap_{n}_biathlon_dict and penalty loops under the lap they follow", () => {
    const biathlon = {
      ...course,
      biathlon: { penaltyType: "lap" as const, perMiss: 60, minLoop: 5, penaltyTimingPointId: "loop", resultCalculation: "total" as const },
    };
    const entity = timedEntityOf({ ...base, rangeMisses: [2, null], lapCloses: [1_000, 2_000] }, biathlon, [
      { timingPointId: "loop", time: 500, deviceId: "rec" },
      { timingPointId: "loop", time: 1_200, deviceId: "rec" },
      { timingPointId: "loop", time: 1_400, deviceId: "rec" },
    ]);
    expect(entity.biathlon).toEqual({ lap_1_biathlon_dict: { misses: 2 } });
    expect(entity.penaltyTimes).toEqual({
      penalty_times_1_list: [
        { time: 1_200, device: "rec" },
        { time: 1_400, device: "rec" },
      ],
    });
    expect(timedEntityToStorage(entity)).toMatchObject({
      lap_1_biathlon_dict: { misses: 2 },
      penalty_times_1_list: [
        { time: 1_200, device: "rec" },
        { time: 1_400, device: "rec" },
      ],
    });
  });

  it("names crossing lists by point index, with a round prefix after round 1", () => {
    expect(timeListKey(0)).toBe("time_0_list");
    expect(timeListKey(3, 1)).toBe("time_3_list");
    expect(timeListKey(2, 2)).toBe("round_2_time_2_list");
    expect(variantKeys(2)).toEqual({ dnf: "dnf_2_time", dsq: "dsq_2_time", dns: "is_dns_2" });
  });

  it("puts every pass of a lap point in that point's list, in time order, with its device", () => {
    const entity = timedEntityOf(base, course, [
      { timingPointId: "finish", time: 2_000, deviceId: "d-finish" },
      { timingPointId: "start-mat", time: 100, deviceId: "d-start" },
      { timingPointId: "finish", time: 1_000, deviceId: null },
      { timingPointId: "elsewhere", time: 500, deviceId: "d-x" },
    ]);
    expect(entity.timeLists).toEqual({
      time_0_list: [{ time: 100, device: "d-start" }],
      time_2_list: [
        { time: 1_000, device: null },
        { time: 2_000, device: "d-finish" },
      ],
    });
    expect(entity.runNum).toBe(1);
    expect(entity.roundNum).toBe(1);
  });

  it("keeps a later round's crossings in round-prefixed lists", () => {
    const entity = timedEntityOf(base, course, [{ timingPointId: "hill", time: 7, deviceId: "d" }], { roundNum: 3 });
    expect(Object.keys(entity.timeLists)).toEqual(["round_3_time_1_list"]);
  });

  it("round-trips through the flat storage names, per-round statuses included", () => {
    const entity = timedEntityOf(
      { ...base, dnfTime: 9, variants: { 2: { dnfTime: null, dsqTime: 55, isDns: false }, 3: { dnfTime: null, dsqTime: null, isDns: true } } },
      course,
      [{ timingPointId: "finish", time: 1_000, deviceId: "d" }],
    );
    const stored = timedEntityToStorage(entity);
    expect(stored).toMatchObject({ racer: "r1", dnf_time: 9, dsq_2_time: 55, dnf_2_time: null, is_dns_3: true, time_2_list: [{ time: 1_000, device: "d" }] });
    expect(timedEntityFromStorage(stored)).toEqual(entity);
  });

  it("uses a round's own status when it has one, else the entity's", () => {
    const entity = timedEntityOf({ ...base, isDns: true, variants: { 2: { dnfTime: 5, dsqTime: null, isDns: false } } }, course, []);
    expect(statusOfRound(entity, 2)).toEqual({ dnfTime: 5, dsqTime: null, isDns: false });
    expect(statusOfRound(entity, 1)).toEqual({ dnfTime: null, dsqTime: null, isDns: true });
  });
});
