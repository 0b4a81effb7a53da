import { describe, expect, it } from "vitest";
import { ageCalcDate, ageOn, parseCalendarDate } from "./age";

describe("parseCalendarDate", () => {
  it("reads real dates only", () => {
    expect(parseCalendarDate("2024-02-29")).toEqual({ year: 2024, month: 2, day: 29 });
    for (const text of ["2023-02-29", "2024-13-01", "2024-04-31", "2024-4-1", "", "2024-01-01T00:00"]) expect(parseCalendarDate(text), text).toBeNull();
  });
});

describe("ageCalcDate", () => {
  const NOW = Date.UTC(2025, 6, 15);

  it("is age_calc_date when set", () => {
    expect(ageCalcDate({ age_calc_date: "2026-01-01", close_time: Date.UTC(2026, 5, 1) }, NOW)).toBe("2026-01-01");
  });

  it("defaults to 31 December of the close year (UTC)", () => {
    expect(ageCalcDate({ age_calc_date: null, close_time: Date.UTC(2026, 5, 1) }, NOW)).toBe("2026-12-31");
    // 31 December 23:30 in Toronto is already the next year in UTC.
    expect(ageCalcDate({ age_calc_date: null, close_time: Date.UTC(2027, 0, 1, 4, 30) }, NOW)).toBe("2027-12-31");
  });

  it("uses the current year when the form never closes, and ignores a malformed date", () => {
    expect(ageCalcDate({ age_calc_date: null, close_time: null }, NOW)).toBe("2025-12-31");
    expect(ageCalcDate({ age_calc_date: "31/12/2026", close_time: null }, NOW)).toBe("2025-12-31");
  });
});

describe("ageOn", () => {
  it("counts whole years, the birthday itself included", () => {
    expect(ageOn("2010-06-15", "2025-06-14")).toBe(14);
    expect(ageOn("2010-06-15", "2025-06-15")).toBe(15);
    expect(ageOn("2010-06-15", "2025-12-31")).toBe(15);
    expect(ageOn("2010-12-31", "2025-01-01")).toBe(14);
  });

  it("turns a 29 February birthday over on 1 March in other years", () => {
    expect(ageOn("2008-02-29", "2025-02-28")).toBe(16);
    expect(ageOn("2008-02-29", "2025-03-01")).toBe(17);
    expect(ageOn("2008-02-29", "2024-02-29")).toBe(16);
  });

  it("is negative when born after the date, null for a date that is not real", () => {
    expect(ageOn("2026-03-01", "2025-12-31")).toBe(-1);
    expect(ageOn("2026-03-01", "2026-03-01")).toBe(0);
    expect(ageOn("2010-02-30", "2025-12-31")).toBeNull();
    expect(ageOn("2010-01-01", "soon")).toBeNull();
  });
});
