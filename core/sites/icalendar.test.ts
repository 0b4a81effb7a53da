import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { calendarDate, calendarDateTime, escapeText, foldLine, unescapeText, unfoldLines, writeCalendar, type CalendarEvent } from "./icalendar";

const octets = (text: string) => new TextEncoder().encode(text).length;
const STAMP = Date.UTC(2027, 0, 5, 9, 30, 0);

const loppet: CalendarEvent = {
  uid: "8f1e6c2a-0000-4000-8000-000000000001@startline-events",
  stamp: STAMP,
  start: { date: "2027-02-14" },
  end: { date: "2027-02-15" },
  summary: "Winter Loppet, 2027; classic & skate",
  description: "Two days\nof racing \\ fun",
  location: "Gatineau Park, Chelsea",
  url: "http://demo.localhost/events/winter-loppet-2027",
  status: "CONFIRMED",
};

describe("iCalendar writer", () => {
  it("writes a VCALENDAR with CRLF line ends and one VEVENT", () => {
    const text = writeCalendar({ productId: "-//Startline//Events//EN", name: "Nordic Demo Club", events: [loppet] });
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    const lines = unfoldLines(text).split("\r\n");
    expect(lines.slice(0, 6)).toEqual([
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Startline//Events//EN",
      "CALSCALE:GREGORIAN",
      "METHOD:PUBLISH",
      "X-WR-CALNAME:Nordic Demo Club",
    ]);
    expect(lines).toContain("UID:8f1e6c2a-0000-4000-8000-000000000001@startline-events");
    expect(lines).toContain("DTSTAMP:20270105T093000Z");
    expect(lines).toContain("SUMMARY:Winter Loppet\\, 2027\\; classic & skate");
    expect(lines).toContain("DESCRIPTION:Two days\\nof racing \\\\ fun");
    expect(lines).toContain("LOCATION:Gatineau Park\\, Chelsea");
    expect(lines).toContain("URL:http://demo.localhost/events/winter-loppet-2027");
    expect(lines).toContain("STATUS:CONFIRMED");
    expect(lines.filter((l) => l === "BEGIN:VEVENT")).toHaveLength(1);
  });

  it("writes all-day events as DATE values with the day after the last as DTEND", () => {
    const text = unfoldLines(writeCalendar({ productId: "x", events: [loppet] }));
    expect(text).toContain("DTSTART;VALUE=DATE:20270214\r\n");
    expect(text).toContain("DTEND;VALUE=DATE:20270216\r\n");
    const oneDay = unfoldLines(writeCalendar({ productId: "x", events: [{ ...loppet, start: { date: "2028-02-28" }, end: undefined }] }));
    expect(oneDay).toContain("DTSTART;VALUE=DATE:20280228\r\nDTEND;VALUE=DATE:20280229\r\n");
    const yearEnd = unfoldLines(writeCalendar({ productId: "x", events: [{ ...loppet, start: { date: "2027-12-31" }, end: { date: "2027-12-30" } }] }));
    expect(yearEnd).toContain("DTEND;VALUE=DATE:20280101\r\n");
  });

  it("writes timed events in UTC", () => {
    const start = Date.UTC(2027, 1, 14, 15, 0, 0);
    const text = writeCalendar({ productId: "x", events: [{ ...loppet, start: { instant: start }, end: { instant: start + 3_600_000 } }] });
    expect(text).toContain("DTSTART:20270214T150000Z\r\nDTEND:20270214T160000Z\r\n");
    expect(calendarDateTime(0)).toBe("19700101T000000Z");
  });

  it("knows real dates", () => {
    expect(calendarDate("2027-02-14")).toBe("20270214");
    expect(calendarDate("2027-02-30")).toBeNull();
    expect(calendarDate("14/02/2027")).toBeNull();
    expect(() => writeCalendar({ productId: "x", events: [{ ...loppet, start: { date: "2027-13-01" } }] })).toThrow();
  });

  it("folds long lines at 75 octets without splitting a character", () => {
    const long = `DESCRIPTION:${"é".repeat(60)}${"😀".repeat(20)}`;
    const folded = foldLine(long);
    for (const line of folded.split("\r\n")) expect(octets(line)).toBeLessThanOrEqual(75);
    expect(
      folded
        .split("\r\n")
        .slice(1)
        .every((line) => line.startsWith(" ")),
    ).toBe(true);
    expect(unfoldLines(folded)).toBe(long);
    expect(foldLine("A".repeat(75))).toBe("A".repeat(75));
    expect(foldLine("A".repeat(76))).toBe(`${"A".repeat(75)}\r\n A`);
  });

  it("drops control characters a TEXT value may not hold, and mends lone surrogates", () => {
    expect(escapeText("a\u0000b\u0007c\td\u007f")).toBe("abc\td");
    expect(escapeText("x\ud800y")).toBe("x\ufffdy");
    expect(escapeText("a\r\nb\rc")).toBe("a\\nb\\nc");
  });

  it("round-trips any text through escaping, folding and unfolding", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), fc.string({ unit: "grapheme", maxLength: 100 }), (binary, graphemes) => {
        for (const text of [binary, graphemes]) {
          const line = `DESCRIPTION:${escapeText(text)}`;
          const folded = foldLine(line);
          for (const physical of folded.split("\r\n")) expect(octets(physical)).toBeLessThanOrEqual(75);
          expect(unfoldLines(folded)).toBe(line);
          const expected = text
            .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
            .replace(/\r\n|\r/g, "\n")
            .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ""); // eslint-disable-line no-control-regex
          expect(unescapeText(unfoldLines(folded).slice("DESCRIPTION:".length))).toBe(expected);
        }
      }),
      fcParams(),
    );
  });
});
