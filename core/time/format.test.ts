import { describe, expect, it } from "vitest";
import { TimingError } from "../timing/errors";
import { MICROS_PER_SECOND } from "../timing/model";
import { exactSeconds, exactTimeOfDay, formatDiff, formatRaceTime, formatTimeOfDay } from "./format";
import { parseRaceTime } from "./parse";

describe("formatRaceTime", () => {
  it("shows seconds under a minute, M:SS under an hour, H:MM:SS above, at precision 1 by default", () => {
    expect(formatRaceTime(12_345_678)).toBe("12.3");
    expect(formatRaceTime(62_345_678)).toBe("1:02.3");
    expect(formatRaceTime(3_723_456_789)).toBe("1:02:03.4");
    expect(formatRaceTime(0)).toBe("0.0");
    expect(formatRaceTime(600_000_000)).toBe("10:00.0");
    expect(formatRaceTime(36_000_000_000)).toBe("10:00:00.0");
  });

  it("truncates to the display precision, never rounding up into the next unit", () => {
    expect(formatRaceTime(59_999_999)).toBe("59.9");
    expect(formatRaceTime(3_599_999_999, 2)).toBe("59:59.99");
    expect(formatRaceTime(12_345_678, 0)).toBe("12");
    expect(formatRaceTime(12_345_678, 3)).toBe("12.345");
    expect(formatRaceTime(12_000_001, 6)).toBe("12.000001");
    expect(formatRaceTime(62_050_000, 2)).toBe("1:02.05");
  });

  it("puts a minus before negative times and truncates them toward zero", () => {
    expect(formatRaceTime(-62_590_000)).toBe("-1:02.5");
    expect(formatRaceTime(-50_000)).toBe("0.0");
  });

  it("refuses a precision above 6 with the spec's error", () => {
    expect(() => formatRaceTime(1, 7)).toThrow(TimingError);
  });

  it("reads back what parseRaceTime parsed", () => {
    for (const text of ["12.3", "1:02.3", "1:02:03.4", "-5.0"]) expect(formatRaceTime(parseRaceTime(text) as number)).toBe(text);
  });
});

describe("formatDiff", () => {
  it("shows a gap behind the leader with a plus", () => {
    expect(formatDiff(62_345_678)).toBe("+1:02.3");
    expect(formatDiff(1_500_000, 2)).toBe("+1.50");
    expect(formatDiff(40_000)).toBe("+0.0");
  });

  it("leaves the leader and the unranked blank", () => {
    expect(formatDiff(0)).toBe("");
    expect(formatDiff(null)).toBe("");
  });
});

describe("formatTimeOfDay", () => {
  it("shows a two-digit clock with the fraction truncated", () => {
    expect(formatTimeOfDay(32_401_299_999)).toBe("09:00:01.2");
    expect(formatTimeOfDay(32_401_299_999, 0)).toBe("09:00:01");
    expect(formatTimeOfDay(0, 3)).toBe("00:00:00.000");
  });

  it("wraps past midnight and before it, as a clock does", () => {
    expect(formatTimeOfDay(86_400_000_000 + 900_000_000)).toBe("00:15:00.0");
    expect(formatTimeOfDay(-50_000)).toBe("23:59:59.9");
  });
});

describe("exactTimeOfDay", () => {
  it("keeps every decimal that is there and no more", () => {
    expect(exactTimeOfDay(9 * 3600 * MICROS_PER_SECOND)).toBe("09:00:00");
    expect(exactTimeOfDay(9 * 3600 * MICROS_PER_SECOND + 250_000)).toBe("09:00:00.25");
    expect(exactTimeOfDay(10 * MICROS_PER_SECOND + 1)).toBe("00:00:10.000001");
  });
});

describe("exactSeconds", () => {
  it("keeps every decimal that is there and signs on request", () => {
    expect(exactSeconds(0)).toBe("0");
    expect(exactSeconds(12_500_000)).toBe("12.5");
    expect(exactSeconds(-1_000_001)).toBe("-1.000001");
    expect(exactSeconds(250_000, true)).toBe("+0.25");
    expect(exactSeconds(null)).toBe("");
  });
});
