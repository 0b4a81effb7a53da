import { describe, expect, it } from "vitest";
import { formatDateTime, formatRaceDate } from "./format";

describe("date formatting", () => {
  it("shows a moment in UTC with its zone", () => {
    expect(formatDateTime(Date.UTC(2026, 10, 21, 14, 5))).toMatch(/Nov 21, 2026.*02:05.*UTC/);
  });
  it("shows a race start in the race's own time zone", () => {
    expect(formatRaceDate(Date.UTC(2026, 11, 5, 15, 0), "America/Toronto")).toMatch(/Dec 5, 2026.*10:00.*EST/);
  });
});
