import { describe, expect, it } from "vitest";
import {
  defaultStartOption,
  DELETE_BLOCKED_PUBLIC_RESULTS,
  DELETE_BLOCKED_START_LIST,
  deletionBlocked,
  PRECISION_RANGE,
  RACE_DEFAULTS,
  validateLapCount,
  validatePrecision,
  validateSetupMode,
} from "./validation";

describe("validateLapCount", () => {
  it("accepts a whole number from 1", () => {
    expect(validateLapCount("3")).toBe(3);
    expect(validateLapCount(" 12 ")).toBe(12);
    expect(validateLapCount(1)).toBe(1);
  });

  it("says Must be a Number for anything else", () => {
    for (const bad of ["", "  ", "three", "3 laps", "0x3", null, undefined, Number.NaN])
      expect(validateLapCount(bad), String(bad)).toEqual({ error: "Must be a Number" });
  });

  it("says Must be at least 1 below 1", () => {
    expect(validateLapCount("0")).toEqual({ error: "Must be at least 1" });
    expect(validateLapCount(-2)).toEqual({ error: "Must be at least 1" });
    expect(validateLapCount("0.5")).toEqual({ error: "Must be at least 1" });
  });

  it("refuses a fraction of a lap", () => {
    expect(validateLapCount("2.5")).toEqual({ error: "Must be a whole number" });
  });
});

describe("validateSetupMode", () => {
  it("refuses none and empty with the spec's message", () => {
    for (const mode of ["none", "None", "", " ", null, undefined]) expect(validateSetupMode(mode)).toEqual({ error: "Setup mode cannot be none" });
  });

  it("passes a mode through", () => {
    expect(validateSetupMode("lap")).toBe("lap");
  });
});

describe("validatePrecision", () => {
  it("accepts 0 to 6", () => {
    expect(validatePrecision("0")).toBe(0);
    expect(validatePrecision(6)).toBe(6);
  });

  it("refuses 7, negatives and fractions", () => {
    for (const bad of ["7", -1, "1.5"]) expect(validatePrecision(bad)).toEqual({ error: PRECISION_RANGE });
    expect(validatePrecision("x")).toEqual({ error: "Must be a Number" });
  });
});

describe("RACE_DEFAULTS", () => {
  it("holds the spec's defaults", () => {
    expect(RACE_DEFAULTS).toEqual({
      timingMode: "lap",
      startMode: "mass",
      startSize: 1,
      displayPrecision: 1,
      sameTimeDisplay: "s/t",
      teamLapTimeDisplay: "racer_at_lap_finish",
      startlistDisplaySort: "time",
      seedFunction: "random",
      starttimeSort: "bib",
      splitDisplay: "splits",
      splitTiming: "lap",
      rankDisplay: "finish",
      displayDiffs: "no-display",
      defaultResultFields: ["club", "team", "city"],
    });
  });

  it("forces chip start for individual starts, gun otherwise", () => {
    expect(defaultStartOption("individual")).toBe("chipstart");
    expect(defaultStartOption("mass")).toBe("gun");
  });
});

describe("deletionBlocked", () => {
  it("allows deleting a race with private results and a hidden start list", () => {
    expect(deletionBlocked({ resultFormats: [{ isPublic: false }], startListVisibility: "hidden" })).toBeNull();
    expect(deletionBlocked({ resultFormats: [], startListVisibility: null })).toBeNull();
  });

  it("refuses when any result format is public or unlisted", () => {
    expect(deletionBlocked({ resultFormats: [{ isPublic: false }, { isPublic: true }], startListVisibility: "hidden" })).toBe(DELETE_BLOCKED_PUBLIC_RESULTS);
    expect(deletionBlocked({ resultFormats: [{ isPublic: false, isUnlisted: true }], startListVisibility: "hidden" })).toBe(DELETE_BLOCKED_PUBLIC_RESULTS);
  });

  it("refuses when the start list is visible", () => {
    expect(deletionBlocked({ resultFormats: [], startListVisibility: "public" })).toBe(DELETE_BLOCKED_START_LIST);
    expect(deletionBlocked({ resultFormats: [], startListVisibility: true })).toBe(DELETE_BLOCKED_START_LIST);
  });
});
