import { describe, expect, it } from "vitest";
import {
  clearAllTimes,
  isClearedByClearAllTimes,
  raceState,
  setRacerStatus,
  type StatusChange,
  STATUS_TIME_REQUIRED,
  STATUS_UNKNOWN,
  statusText,
} from "./status";

const allSet = { id: "r1", isDns: true, dnfTime: 5_000_000, dsqTime: 6_000_000 };

describe("setRacerStatus", () => {
  it("sets dns and clears dnf and dsq", () => {
    expect(setRacerStatus(allSet, "dns", 9)).toEqual({ id: "r1", isDns: true, dnfTime: null, dsqTime: null });
  });

  it("sets dnf or dsq with its time and clears the other two", () => {
    expect(setRacerStatus(allSet, "dnf", 7_000_000)).toEqual({ id: "r1", isDns: false, dnfTime: 7_000_000, dsqTime: null });
    expect(setRacerStatus(allSet, "dsq", 8_000_000)).toEqual({ id: "r1", isDns: false, dnfTime: null, dsqTime: 8_000_000 });
  });

  it("keeps a time of 0 (a dnf at zero time is still a dnf)", () => {
    expect(setRacerStatus(allSet, "dnf", 0)).toMatchObject({ dnfTime: 0 });
  });

  it("clears all three for ok and for empty", () => {
    for (const status of ["ok", ""] as const) expect(setRacerStatus(allSet, status, null)).toEqual({ id: "r1", isDns: false, dnfTime: null, dsqTime: null });
  });

  it("needs a time for dnf and dsq", () => {
    expect(setRacerStatus(allSet, "dnf", null)).toEqual({ error: STATUS_TIME_REQUIRED.dnf });
    expect(setRacerStatus(allSet, "dsq", null)).toEqual({ error: STATUS_TIME_REQUIRED.dsq });
  });

  it("refuses an unknown status", () => {
    expect(setRacerStatus(allSet, "finished" as StatusChange, null)).toEqual({ error: STATUS_UNKNOWN });
  });
});

describe("statusText", () => {
  it("ranks DSQ over DNS over DNF", () => {
    expect(statusText({ isDns: true, dnfTime: 1, dsqTime: 2 })).toBe("DSQ");
    expect(statusText({ isDns: true, dnfTime: 1, dsqTime: null })).toBe("DNS");
    expect(statusText({ isDns: false, dnfTime: 0, dsqTime: null })).toBe("DNF");
    expect(statusText({ isDns: false, dnfTime: null, dsqTime: null })).toBe("");
  });
});

describe("clearAllTimes", () => {
  it("empties times, biathlon data and penalties, drops oncourse and warnings, keeps the rest", () => {
    const entity = {
      racer: "r1",
      dnfTime: 5,
      timeLists: { time_0_list: [{ time: 1, device: "d" }], round_2_time_1_list: [{ time: 2, device: "d" }] },
      biathlon: { lap_1_biathlon_dict: { misses: 2 } },
      penaltyTimes: { penalty_times_1_list: [{ time: 3, device: "d" }] },
      isOncourse: true,
      warnings: ["Missed split"],
    };
    expect(clearAllTimes(entity)).toEqual({ racer: "r1", dnfTime: 5, timeLists: {}, biathlon: {}, penaltyTimes: {}, isOncourse: false, warnings: [] });
    expect(entity.timeLists.time_0_list).toHaveLength(1);
  });

  it("names the storage fields it clears", () => {
    for (const field of ["time_0_list", "round_2_time_13_list", "lap_3_biathlon_dict", "penalty_times_2_list", "is_oncourse", "warnings"]) {
      expect(isClearedByClearAllTimes(field), field).toBe(true);
    }
    for (const field of ["dnf_time", "is_dns", "assigned_start_time", "time_list", "racer"]) expect(isClearedByClearAllTimes(field), field).toBe(false);
  });
});

describe("raceState", () => {
  it("is not started before the start, active until the end, then ended", () => {
    expect(raceState(100, 200, 99)).toBe("not started");
    expect(raceState(100, 200, 100)).toBe("active");
    expect(raceState(100, 200, 199)).toBe("active");
    expect(raceState(100, 200, 200)).toBe("ended");
  });

  it("never ends without an end time, and never starts without a start time", () => {
    expect(raceState(100, null, 10 ** 15)).toBe("active");
    expect(raceState(null, 200, 150)).toBe("not started");
  });
});
