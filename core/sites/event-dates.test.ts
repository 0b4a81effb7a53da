import { describe, expect, it } from "vitest";
import { endsEverywhereAt, formatEventDays, inSiteCalendar, isEventPast, lastDayOf, splitEvents } from "./event-dates";

const at = (iso: string) => Date.parse(iso);

describe("event dates", () => {
  it("takes the end date as the last day, or the start when there is none or it is before the start", () => {
    expect(lastDayOf({ startDate: "2027-02-14", endDate: "2027-02-15" })).toBe("2027-02-15");
    expect(lastDayOf({ startDate: "2027-02-14", endDate: null })).toBe("2027-02-14");
    expect(lastDayOf({ startDate: "2027-02-14", endDate: "2027-02-13" })).toBe("2027-02-14");
    expect(lastDayOf({ startDate: null, endDate: null })).toBeNull();
  });

  it("is past only once its last day has ended in every time zone", () => {
    const event = { startDate: "2027-02-14", endDate: "2027-02-15" };
    expect(endsEverywhereAt(event)).toBe(at("2027-02-16T12:00:00Z"));
    expect(isEventPast(event, at("2027-02-16T11:59:59Z"))).toBe(false);
    expect(isEventPast(event, at("2027-02-16T12:00:00Z"))).toBe(true);
    expect(isEventPast({ startDate: null, endDate: null }, at("2099-01-01T00:00:00Z"))).toBe(false);
  });

  it("lists upcoming soonest first with undated last, and past latest first", () => {
    const events = [
      { title: "Later", startDate: "2027-03-01", endDate: null },
      { title: "Undated", startDate: null, endDate: null },
      { title: "Sooner", startDate: "2027-02-01", endDate: "2027-02-02" },
      { title: "Old", startDate: "2025-01-10", endDate: null },
      { title: "Older", startDate: "2024-01-10", endDate: null },
    ];
    const { upcoming, past } = splitEvents(events, at("2026-11-27T08:00:00Z"));
    expect(upcoming.map((e) => e.title)).toEqual(["Sooner", "Later", "Undated"]);
    expect(past.map((e) => e.title)).toEqual(["Old", "Older"]);
  });

  it("keeps recent past events in the site's calendar for 90 days", () => {
    const event = { startDate: "2027-01-01", endDate: null };
    expect(inSiteCalendar(event, at("2026-12-01T00:00:00Z"))).toBe(true);
    expect(inSiteCalendar(event, at("2027-03-01T00:00:00Z"))).toBe(true);
    expect(inSiteCalendar(event, at("2027-05-01T00:00:00Z"))).toBe(false);
    expect(inSiteCalendar({ startDate: null, endDate: null }, 0)).toBe(false);
  });

  it("writes the days in the site's language", () => {
    expect(formatEventDays({ startDate: "2027-02-14", endDate: null }, "en")).toBe("February 14, 2027");
    expect(formatEventDays({ startDate: "2027-02-14", endDate: "2027-02-15" }, "en")).toMatch(/^February 14\s?–\s?15, 2027$/);
    expect(formatEventDays({ startDate: "2027-02-14", endDate: "2027-02-15" }, "fr")).toMatch(/^14\s?–\s?15 février 2027$/);
    expect(formatEventDays({ startDate: null, endDate: "2027-02-15" }, "en")).toBeNull();
  });
});
