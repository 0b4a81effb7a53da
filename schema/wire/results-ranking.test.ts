import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { FormatSnapshot, ResultGroupWire, ResultRow } from "./race-socket";
import { readWindowQuery, WINDOW_PAGE_SIZE, windowSearch, windowSortKey, type WindowQuery } from "./results-window";
import { groupWindow, rankGroup, resultsWindow } from "./results-ranking";

const S = 1_000_000;
const GROUP: ResultGroupWire = {
  id: "g",
  name: "All",
  sameTimeThreshold: 0,
  columns: [
    { index: 0, name: "Lap 1", since: null },
    { index: 1, name: "Lap 2", since: 0 },
  ],
};

/** A finisher over two laps (lap 1 then lap 2), or a racer still out (no finish) or not started. */
function row(n: number, lap1: number | null, lap2: number | null, extra: Partial<ResultRow> = {}): ResultRow {
  const splits = [];
  if (lap1 !== null) splits.push({ index: 0, coursePointId: "p", lap: 1, time: lap1, elapsed: lap1 });
  if (lap1 !== null && lap2 !== null) splits.push({ index: 1, coursePointId: "p", lap: 2, time: lap1 + lap2, elapsed: lap1 + lap2 });
  const time = lap1 !== null && lap2 !== null ? lap1 + lap2 : null;
  return {
    racerId: `r${n}`,
    status: time !== null ? "finished" : lap1 !== null ? "oncourse" : "notstarted",
    statusText: "",
    start: 0,
    laps: splits.length,
    splits,
    finish: time,
    time,
    key: time !== null ? [0, time, n] : lap1 !== null ? [1, -1, lap1, n] : [2, n],
    rankKey: time !== null ? [time] : null,
    bib: n,
    name: `Racer ${n}`,
    club: n % 2 === 0 ? "Ottawa Nordic" : "Chelsea Nordiq",
    team: null,
    city: null,
    course: null,
    groups: ["g"],
    ...extra,
  };
}

const FORMAT: Omit<FormatSnapshot, "rows" | "groups"> = {
  formatId: "f",
  name: "Results",
  version: "7",
  displayPrecision: 1,
  displayDiffs: true,
  sameTimeDisplay: "s/t",
  isAnnouncer: false,
};
const query = (changes: Partial<WindowQuery> = {}): WindowQuery => ({ ...readWindowQuery(new URLSearchParams()), ...changes });
const ranked = (rows: ResultRow[]) => rankGroup({}, GROUP, rows, "default");

describe("a page of results", () => {
  // 120 finishers, in bib order overall; lap 2 alone orders them the other way round.
  const field = Array.from({ length: 120 }, (_, i) => row(i + 1, (100 + i) * S, (300 - i / 2) * S));

  it("ranks the whole group and shows one page of it, with places over the whole group", () => {
    const first = groupWindow(ranked(field), query(), false);
    expect(first.total).toBe(120);
    expect(first.pages).toBe(3);
    expect(first.entries).toHaveLength(WINDOW_PAGE_SIZE);
    expect(first.entries[0]!.rank).toBe(1);
    const third = groupWindow(ranked(field), query({ page: 3 }), false);
    expect(third.entries.map((e) => e.rank)).toEqual(Array.from({ length: 20 }, (_, i) => 101 + i));
    expect(third.entries[0]!.diff).toBeGreaterThan(0);
  });

  it("clamps a page past the end to the last one", () => {
    expect(groupWindow(ranked(field), query({ page: 99 }), false).page).toBe(3);
  });

  it("finds racers by part of a name, a club, or an exact bib, keeping their places in the whole group", () => {
    const byBib = groupWindow(ranked(field), query({ search: "12" }), false);
    expect(byBib.entries.map((e) => e.row.bib)).toEqual([12]);
    expect(byBib.matched).toBe(1);
    expect(byBib.total).toBe(120);
    const rank = ranked(field).ranked.find((e) => e.row.bib === 12)!.rank;
    expect(byBib.entries[0]!.rank).toBe(rank);
    expect(groupWindow(ranked(field), query({ search: "ottawa" }), false).matched).toBe(60);
    expect(groupWindow(ranked(field), query({ search: "racer 10" }), false).entries.map((e) => e.row.bib)).toEqual([
      10, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109,
    ]);
  });

  it("orders by a lap column's own time, fastest first, and shows each racer's place there", () => {
    const byLap2 = groupWindow(ranked(field), query({ sort: 1 }), false);
    const lap2 = (e: { row: ResultRow }) => e.row.splits[1]!.elapsed - e.row.splits[0]!.elapsed;
    const times = byLap2.entries.map(lap2);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(byLap2.entries[0]!.row.bib).toBeGreaterThan(100);
    // Places by the lap's own time, over the whole group: the first of page 1 is first.
    expect(byLap2.sortPlaces?.[byLap2.entries[0]!.row.racerId]).toBe(1);
    expect(byLap2.sortPlaces?.[byLap2.entries[49]!.row.racerId]).toBe(50);
  });

  it("puts racers without the sorted split after everyone who has it", () => {
    const rows = [row(1, 100 * S, null), row(2, 90 * S, 200 * S), row(3, null, null), row(4, 95 * S, 190 * S)];
    const byLap2 = groupWindow(ranked(rows), query({ sort: 1 }), false);
    expect(byLap2.entries.map((e) => e.row.bib)).toEqual([4, 2, 1, 3]);
    expect(byLap2.sortPlaces).toEqual({ r4: 1, r2: 2 });
  });

  it("ignores an order by a column the group does not have", () => {
    const window = groupWindow(ranked(field), query({ sort: 42 }), false);
    expect(window.entries.map((e) => e.rank)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it("shows the page holding a racer asked for by id", () => {
    const target = ranked(field).ranked[77]!.row.racerId;
    const window = groupWindow(ranked(field), query({ racer: target }), false);
    expect(window.page).toBe(2);
    expect(window.entries.some((e) => e.row.racerId === target)).toBe(true);
  });

  it("names the last row's sort key only when the page is full", () => {
    expect(groupWindow(ranked(field), query(), false).lastKey).toEqual(field.find((r) => r.racerId === ranked(field).ranked[49]!.row.racerId)!.key);
    expect(groupWindow(ranked(field), query({ page: 3 }), false).lastKey).toBeNull();
  });

  it("offers every group as a tab and opens the first when none or an unknown one is asked for", () => {
    const second: ResultGroupWire = { ...GROUP, id: "h", name: "Women" };
    const rows = [row(1, 100 * S, 100 * S), row(2, 90 * S, 90 * S, { groups: ["g", "h"] })];
    const groups = [
      { group: GROUP, total: 2 },
      { group: second, total: 1 },
    ];
    const rankedOf = (id: string) => rankGroup({}, id === "h" ? second : GROUP, rows, "default");
    const unknown = resultsWindow(FORMAT, groups, rankedOf, query({ group: "nope" }));
    expect(unknown.query.group).toBe("g");
    expect(unknown.groups).toEqual([
      { id: "g", name: "All", total: 2 },
      { id: "h", name: "Women", total: 1 },
    ]);
    expect(resultsWindow(FORMAT, groups, rankedOf, query({ group: "h" })).current?.entries.map((e) => e.row.bib)).toEqual([2]);
  });
});

describe("a results page's address", () => {
  it("falls back to the default for nonsense, and cuts a long search", () => {
    const read = readWindowQuery(new URLSearchParams("page=-3&sort=abc&view=odd&ranking=x&q=" + "a".repeat(500)));
    expect(read).toMatchObject({ page: 1, sort: null, behind: false, ranking: "default" });
    expect(read.search).toHaveLength(80);
    expect(readWindowQuery(new URLSearchParams("page=2.5")).page).toBe(1);
  });

  it("round-trips through its own link", () => {
    const arbitrary = fc.record({
      group: fc.option(fc.stringMatching(/^[\w-]{1,20}$/), { nil: null }),
      search: fc.string({ maxLength: 80 }).map((s) => s.trim()),
      sort: fc.option(fc.integer({ min: 0, max: 99_999 }), { nil: null }),
      page: fc.integer({ min: 1, max: 10_000 }),
      racer: fc.constant(null),
      ranking: fc.constantFrom("default" as const, "multistage" as const),
      behind: fc.boolean(),
    });
    fc.assert(
      fc.property(arbitrary, (q) => {
        const back = readWindowQuery(new URLSearchParams(windowSearch(q, "f")));
        expect(back).toEqual(q);
      }),
    );
  });
});

describe("whether a pushed row can move a page", () => {
  it("sorts a racer without the ordered split after one with it, whatever their overall order", () => {
    const out = row(1, 100 * S, null);
    const finisher = row(2, 120 * S, 200 * S);
    const byLap2 = { sort: 1, ranking: "default" as const };
    expect(windowSortKey(finisher, GROUP, byLap2, false) < windowSortKey(out, GROUP, byLap2, false)).toBe(true);
    expect(windowSortKey(finisher, GROUP, { sort: null, ranking: "default" }, false)).toEqual(finisher.key);
  });
});
