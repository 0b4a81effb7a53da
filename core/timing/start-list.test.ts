import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCsv } from "../entity/csv";
import { fcParams } from "../testing/fast-check";
import {
  buildChipRack,
  buildStartList,
  chipRackOf,
  chipRackTable,
  REPORT_ROWS_PER_PAGE,
  reportCsv,
  reportPage,
  startListTable,
  type ReportRacer,
  type ReportTable,
} from "./start-list";

const SECOND = 1_000_000;
const ZERO = 1_700_000_000 * SECOND;
const at = (hms: string) => {
  const [h, m, s] = hms.split(":").map(Number) as [number, number, number];
  return ZERO + ((h * 60 + m) * 60 + s) * SECOND;
};

function racer(id: string, fields: Partial<ReportRacer> = {}): ReportRacer {
  return {
    id,
    bib: null,
    firstName: `First${id}`,
    lastName: `Last${id}`,
    fullname: "",
    chips: [],
    team: null,
    club: null,
    city: null,
    country: null,
    courseId: "c10",
    startGroupId: "g1",
    scheduledStart: null,
    ...fields,
  };
}

const groups = [
  { id: "g2", name: "Wave 2", ordinal: 2 },
  { id: "g1", name: "Wave 1", ordinal: 1 },
];
const courses = [
  { id: "c5", name: "5 km", ordinal: 2 },
  { id: "c10", name: "10 km", ordinal: 1 },
];
const ids = (list: readonly ReportRacer[]) => list.map((r) => r.id);

describe("buildStartList", () => {
  it("groups by start group then course, in their order", () => {
    const sections = buildStartList(
      [
        racer("a", { startGroupId: "g2", courseId: "c5" }),
        racer("b", { startGroupId: "g1", courseId: "c5" }),
        racer("c", { startGroupId: "g1", courseId: "c10" }),
        racer("d", { startGroupId: "g2", courseId: "c10" }),
      ],
      groups,
      courses,
    );
    expect(sections.map((s) => `${s.startGroup.name}/${s.course?.name}`)).toEqual(["Wave 1/10 km", "Wave 1/5 km", "Wave 2/10 km", "Wave 2/5 km"]);
    expect(sections.map((s) => ids(s.racers))).toEqual([["c"], ["b"], ["d"], ["a"]]);
  });

  it("sorts by scheduled start, then bib, with unscheduled and bib-less racers last", () => {
    const [section] = buildStartList(
      [
        racer("late", { bib: 1, scheduledStart: at("10:01:00") }),
        racer("none-high", { bib: 9 }),
        racer("early-b", { bib: 7, scheduledStart: at("10:00:00") }),
        racer("early-a", { bib: 3, scheduledStart: at("10:00:00") }),
        racer("none-nobib", {}),
        racer("none-low", { bib: 2 }),
      ],
      groups,
      courses,
    );
    expect(ids(section!.racers)).toEqual(["early-a", "early-b", "late", "none-low", "none-high", "none-nobib"]);
  });

  it("shows only entries that have a start group (an unknown group id counts as none)", () => {
    const sections = buildStartList(
      [racer("in", { bib: 1 }), racer("none", { startGroupId: null }), racer("gone", { startGroupId: "deleted" })],
      groups,
      courses,
    );
    expect(sections.flatMap((s) => ids(s.racers))).toEqual(["in"]);
    expect(buildStartList([racer("none", { startGroupId: null })], groups, courses)).toEqual([]);
  });

  it("puts a group's racers without a course after its courses", () => {
    const sections = buildStartList([racer("x", { courseId: null }), racer("y", { courseId: "c5" })], groups, courses);
    expect(sections.map((s) => s.course?.name ?? null)).toEqual(["5 km", null]);
  });

  it("renders rows with the start as a time of day and last-name-first names", () => {
    const sections = buildStartList(
      [racer("a", { bib: 4, scheduledStart: at("09:30:15"), firstName: "Anna", lastName: "Berg", club: "Nordic" })],
      groups,
      courses,
    );
    const table = startListTable(sections, { lastNameFirst: true, zeroTime: ZERO });
    expect(table.sections[0]).toEqual({ heading: "Wave 1 · 10 km", group: ["Wave 1", "10 km"], rows: [["09:30:15", "4", "BERG, Anna", "Nordic", "", ""]] });
  });
});

describe("chip rack", () => {
  it("is the hundreds of the bib", () => {
    expect(chipRackOf(0)).toBe("0");
    expect(chipRackOf(99)).toBe("0");
    expect(chipRackOf(100)).toBe("1");
    expect(chipRackOf(199)).toBe("1");
    expect(chipRackOf(1250)).toBe("12");
    expect(chipRackOf(null)).toBeNull();
  });

  it("groups by chip rack in rack order, sorted by bib, racers without a bib last", () => {
    const sections = buildChipRack([
      racer("b205", { bib: 205 }),
      racer("b12", { bib: 12 }),
      racer("nobib"),
      racer("b1000", { bib: 1000 }),
      racer("b3", { bib: 3 }),
      racer("b150", { bib: 150 }),
    ]);
    expect(sections.map((s) => s.rack)).toEqual(["0", "1", "2", "10", null]);
    expect(sections.map((s) => ids(s.racers))).toEqual([["b3", "b12"], ["b150"], ["b205"], ["b1000"], ["nobib"]]);
  });

  it("lists bib, chip rack, chips, names, team, club, city, country", () => {
    const table = chipRackTable(
      buildChipRack([
        racer("a", {
          bib: 101,
          chips: ["C1", "C2"],
          firstName: "Anna",
          lastName: "Berg",
          team: "T",
          club: "K",
          city: "Oslo",
          country: "NOR",
          startGroupId: null,
        }),
      ]),
      { lastNameFirst: false },
    );
    expect(table.columns).toEqual(["Bib", "Chip rack", "Chips", "Name", "Team", "Club", "City", "Country"]);
    expect(table.sections).toEqual([{ heading: "Rack 1", group: [], rows: [["101", "1", "C1, C2", "Anna Berg", "T", "K", "Oslo", "NOR"]] }]);
  });
});

describe("report CSV", () => {
  it("writes a report with its group columns first", () => {
    const table = startListTable(buildStartList([racer("a", { bib: 1 }), racer("b", { bib: 2, startGroupId: "g2" })], groups, courses), {
      lastNameFirst: false,
      zeroTime: ZERO,
    });
    const rows = parseCsv(reportCsv(table).slice(1)).map((r) => r.map((c) => c.text));
    expect(rows).toEqual([
      ["Start group", "Course", "Start", "Bib", "Name", "Club", "Team", "City"],
      ["Wave 1", "10 km", "", "1", "Firsta Lasta", "", "", ""],
      ["Wave 2", "10 km", "", "2", "Firstb Lastb", "", "", ""],
    ]);
  });
});

describe("report pages", () => {
  const tableOf = (sizes: readonly number[]): ReportTable => ({
    groupColumns: ["Start group"],
    columns: ["Bib"],
    sections: sizes.map((size, s) => ({ heading: `Wave ${s + 1}`, group: [`Wave ${s + 1}`], rows: Array.from({ length: size }, (_, r) => [`${s}.${r}`]) })),
  });

  it("shows 500 rows a page, a section running over the break headed on both pages", () => {
    const table = tableOf([300, 450]);
    const first = reportPage(table, 1);
    expect(REPORT_ROWS_PER_PAGE).toBe(500);
    expect(first).toMatchObject({ page: 1, pages: 2, rows: 750 });
    expect(first.table.sections.map((s) => [s.heading, s.rows.length])).toEqual([
      ["Wave 1", 300],
      ["Wave 2", 200],
    ]);
    const second = reportPage(table, 2);
    expect(second.table.sections.map((s) => [s.heading, s.rows.length])).toEqual([["Wave 2", 250]]);
    expect(second.table.sections[0]!.rows[0]).toEqual(["1.200"]);
    expect(second.table.columns).toEqual(["Bib"]);
  });

  it("shows the nearest page for one out of range, and one empty page for an empty report", () => {
    expect(reportPage(tableOf([10]), 9).page).toBe(1);
    expect(reportPage(tableOf([10]), 0).page).toBe(1);
    expect(reportPage(tableOf([10]), Number.NaN).page).toBe(1);
    expect(reportPage(tableOf([]), 1)).toMatchObject({ page: 1, pages: 1, rows: 0, table: { sections: [] } });
  });

  it("pages hold every row once, in report order, under its own heading", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 6 }), fc.integer({ min: 1, max: 25 }), (sizes, perPage) => {
        const table = tableOf(sizes);
        const { pages } = reportPage(table, 1, perPage);
        const seen: [string, string][] = [];
        for (let page = 1; page <= pages; page++) {
          const shown = reportPage(table, page, perPage).table.sections;
          const rows = shown.reduce((n, s) => n + s.rows.length, 0);
          expect(rows).toBeLessThanOrEqual(perPage);
          if (page < pages) expect(rows).toBe(perPage);
          for (const section of shown) {
            expect(section.rows.length).toBeGreaterThan(0);
            for (const row of section.rows) seen.push([section.heading, row[0]!]);
          }
        }
        expect(seen).toEqual(table.sections.flatMap((s) => s.rows.map((row): [string, string] => [s.heading, row[0]!])));
      }),
      fcParams(),
    );
  });
});
