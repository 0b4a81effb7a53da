import { describe, expect, it } from "vitest";
import {
  isInvalid,
  parseRaceTime,
  parseTimeOfDay,
  TIME_FORMAT,
  TIME_OF_DAY_FORMAT,
  TIME_OF_DAY_HOURS,
  TIME_REQUIRED,
  TIME_TOO_LARGE,
  TIME_UNIT_RANGE,
} from "./parse";

describe("parseRaceTime", () => {
  it("reads seconds, minutes:seconds and hours:minutes:seconds as microseconds", () => {
    expect(parseRaceTime("12")).toBe(12_000_000);
    expect(parseRaceTime("1:02")).toBe(62_000_000);
    expect(parseRaceTime("01:02")).toBe(62_000_000);
    expect(parseRaceTime("1:02:03")).toBe(3_723_000_000);
    expect(parseRaceTime(" 0:00:07 ")).toBe(7_000_000);
  });

  it("reads a fraction of one to six digits as that many decimals", () => {
    expect(parseRaceTime("12.3")).toBe(12_300_000);
    expect(parseRaceTime("0.1")).toBe(100_000);
    expect(parseRaceTime("1:02.05")).toBe(62_050_000);
    expect(parseRaceTime("1:02:03.123456")).toBe(3_723_123_456);
    expect(parseRaceTime("1.0000001")).toEqual({ error: TIME_FORMAT });
  });

  it("negates a leading minus, and -0 is plain zero", () => {
    expect(parseRaceTime("-1:02.5")).toBe(-62_500_000);
    expect(parseRaceTime("-5")).toBe(-5_000_000);
    expect(Object.is(parseRaceTime("-0"), 0)).toBe(true);
  });

  it("lets the first unit exceed 60 but not the units after it", () => {
    expect(parseRaceTime("75")).toBe(75_000_000);
    expect(parseRaceTime("90:00")).toBe(5_400_000_000);
    expect(parseRaceTime("26:00:00")).toBe(93_600_000_000);
    expect(parseRaceTime("1:60")).toEqual({ error: TIME_UNIT_RANGE });
    expect(parseRaceTime("1:60:00")).toEqual({ error: TIME_UNIT_RANGE });
    expect(parseRaceTime("1:00:60")).toEqual({ error: TIME_UNIT_RANGE });
    expect(parseRaceTime("1:59:59.999999")).toBe(7_199_999_999);
  });

  it("refuses empty and malformed text", () => {
    expect(parseRaceTime("  ")).toEqual({ error: TIME_REQUIRED });
    for (const bad of ["abc", "1:2:3:4", "1:002", ".5", "1.", "+5", "--5", "1 :02", "1:02:", "1,5"]) {
      expect(parseRaceTime(bad), bad).toEqual({ error: TIME_FORMAT });
    }
  });

  it("refuses a time beyond exact integer microseconds", () => {
    expect(parseRaceTime("99999999999")).toEqual({ error: TIME_TOO_LARGE });
  });
});

describe("parseTimeOfDay", () => {
  it("reads a clock time as microseconds since midnight", () => {
    expect(parseTimeOfDay("09:00:01.2")).toBe(32_401_200_000);
    expect(parseTimeOfDay("9:00:01")).toBe(32_401_000_000);
    expect(parseTimeOfDay("00:00:00")).toBe(0);
    expect(parseTimeOfDay("23:59:59.999999")).toBe(86_399_999_999);
  });

  it("refuses hours from 24, minutes or seconds from 60, and other shapes", () => {
    expect(parseTimeOfDay("24:00:00")).toEqual({ error: TIME_OF_DAY_HOURS });
    expect(parseTimeOfDay("10:60:00")).toEqual({ error: TIME_UNIT_RANGE });
    expect(parseTimeOfDay("10:00:60")).toEqual({ error: TIME_UNIT_RANGE });
    expect(parseTimeOfDay("10:00")).toEqual({ error: TIME_OF_DAY_FORMAT });
    expect(parseTimeOfDay("-10:00:00")).toEqual({ error: TIME_OF_DAY_FORMAT });
    expect(parseTimeOfDay("")).toEqual({ error: TIME_REQUIRED });
  });
});

describe("isInvalid", () => {
  it("tells a parse error from a time", () => {
    expect(isInvalid(parseRaceTime("x"))).toBe(true);
    expect(isInvalid(parseRaceTime("0"))).toBe(false);
  });
});
