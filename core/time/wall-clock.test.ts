import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { epochOfLocalInput, isTimeZone, localInputOf, offsetAt, wallClockOf } from "./wall-clock";
import { fcParams } from "../testing/fast-check";

const TORONTO = "America/Toronto";

describe("wall clocks in a time zone", () => {
  it("knows IANA zones and refuses made-up ones", () => {
    expect(isTimeZone(TORONTO)).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(() => wallClockOf(0, "Mars/Olympus_Mons")).toThrow(RangeError);
  });

  it("reads an instant's local date and time, summer and winter", () => {
    expect(localInputOf(Date.UTC(2026, 5, 1, 13, 30), TORONTO)).toBe("2026-06-01T09:30");
    expect(localInputOf(Date.UTC(2026, 0, 15, 14, 5), TORONTO)).toBe("2026-01-15T09:05");
    expect(offsetAt(Date.UTC(2026, 5, 1), TORONTO)).toBe(-4 * 3_600_000);
    expect(offsetAt(Date.UTC(2026, 0, 1), TORONTO)).toBe(-5 * 3_600_000);
  });

  it("turns a datetime-local value into the instant it names, and back", () => {
    const at = epochOfLocalInput("2026-06-01T09:30", TORONTO);
    expect(at).toBe(Date.UTC(2026, 5, 1, 13, 30));
    expect(localInputOf(at!, TORONTO)).toBe("2026-06-01T09:30");
    expect(epochOfLocalInput("2026-01-15T09:05:30", TORONTO)).toBe(Date.UTC(2026, 0, 15, 14, 5, 30));
  });

  it("reads a wall time skipped by the spring change as an hour later, as clocks do", () => {
    // 2026-03-08 02:30 does not exist in Toronto: clocks go from 02:00 to 03:00.
    expect(localInputOf(epochOfLocalInput("2026-03-08T02:30", TORONTO)!, TORONTO)).toBe("2026-03-08T03:30");
  });

  it("refuses what is not a date and time", () => {
    for (const text of ["", "2026-02-30T10:00", "2026-06-01T24:00", "2026-06-01 09:30", "yesterday"]) {
      expect(epochOfLocalInput(text, TORONTO), text).toBeNull();
    }
  });
});

describe("the autumn change", () => {
  it("reads a wall time that happens twice as the first of the two", () => {
    // 2026-11-01 01:30 happens at 05:30 UTC (EDT) and again at 06:30 UTC (EST).
    expect(epochOfLocalInput("2026-11-01T01:30", TORONTO)).toBe(Date.UTC(2026, 10, 1, 5, 30));
    expect(epochOfLocalInput("2026-11-01T02:30", TORONTO)).toBe(Date.UTC(2026, 10, 1, 7, 30));
  });
});

describe("any instant in any of these zones", () => {
  const zones = ["America/Toronto", "America/St_Johns", "Europe/Paris", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Chatham", "UTC"];
  it("reads back as the same wall time, to the minute", () => {
    const minute = 60_000;
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1) / minute, max: Date.UTC(2040, 0, 1) / minute }), fc.constantFrom(...zones), (minutes, zone) => {
        const text = localInputOf(minutes * minute, zone);
        expect(localInputOf(epochOfLocalInput(text, zone)!, zone)).toBe(text);
      }),
      fcParams(2_000),
    );
  });
});
