import { describe, expect, it } from "vitest";
import { absoluteFromTimeOfDay, zeroTimeOf } from "./zero-time";

const micros = (iso: string) => Date.parse(iso) * 1000;

describe("zeroTimeOf", () => {
  it("is midnight UTC for a UTC race", () => {
    expect(zeroTimeOf(micros("2024-02-10T10:30:00.123456Z") + 456, "UTC")).toBe(micros("2024-02-10T00:00:00Z"));
  });

  it("uses midnight's offset, not the start's, on the day clocks spring forward (Toronto)", () => {
    // 10:00 EDT (-4) on 10 March 2024; midnight that day was still EST (-5).
    expect(zeroTimeOf(micros("2024-03-10T14:00:00Z"), "America/Toronto")).toBe(micros("2024-03-10T05:00:00Z"));
  });

  it("uses midnight's offset on the day clocks fall back (Toronto)", () => {
    // 10:00 EST (-5) on 3 November 2024; midnight that day was EDT (-4).
    expect(zeroTimeOf(micros("2024-11-03T15:00:00Z"), "America/Toronto")).toBe(micros("2024-11-03T04:00:00Z"));
  });

  it("handles Oslo in winter, in summer and on the day of the change", () => {
    expect(zeroTimeOf(micros("2024-01-15T09:00:00Z"), "Europe/Oslo")).toBe(micros("2024-01-14T23:00:00Z"));
    expect(zeroTimeOf(micros("2024-07-01T08:00:00Z"), "Europe/Oslo")).toBe(micros("2024-06-30T22:00:00Z"));
    expect(zeroTimeOf(micros("2024-03-31T08:00:00Z"), "Europe/Oslo")).toBe(micros("2024-03-30T23:00:00Z"));
  });

  it("takes the local day, not the UTC day, of the start", () => {
    // 00:30 on 16 January in Oslo is still 15 January in UTC.
    expect(zeroTimeOf(micros("2024-01-15T23:30:00Z"), "Europe/Oslo")).toBe(micros("2024-01-15T23:00:00Z"));
    // 21:00 on 15 January in Toronto is already 16 January in UTC.
    expect(zeroTimeOf(micros("2024-01-16T02:00:00Z"), "America/Toronto")).toBe(micros("2024-01-15T05:00:00Z"));
  });

  it("starts the day at the first instant when midnight is skipped (Santiago, 8 September 2024)", () => {
    expect(zeroTimeOf(micros("2024-09-08T14:00:00Z"), "America/Santiago")).toBe(micros("2024-09-08T04:00:00Z"));
  });

  it("refuses an unknown time zone", () => {
    expect(() => zeroTimeOf(0, "Mars/Olympus")).toThrow('Unknown time zone "Mars/Olympus"');
  });
});

describe("absoluteFromTimeOfDay", () => {
  it("counts a time of day from zero time", () => {
    const zero = micros("2024-03-10T05:00:00Z");
    expect(absoluteFromTimeOfDay(zero, 9 * 3_600_000_000 + 1_200_000)).toBe(micros("2024-03-10T14:00:01.2Z"));
  });
});
