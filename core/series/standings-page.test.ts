import { describe, expect, it } from "vitest";
import { shownRow, standingsPage } from "./standings-page";
import type { SeriesStandings, StandingRow } from "./standings";

const row = (rank: number): StandingRow => ({ rank, identity: `r${rank}`, name: `R${rank}`, club: null, total: 1000 - rank, carried: 0, cells: [] });
const standings: SeriesStandings = {
  races: [],
  bestOf: null,
  categories: [
    { category: "Women", rows: Array.from({ length: 250 }, (_, i) => row(i + 1)) },
    { category: "Men", rows: Array.from({ length: 3 }, (_, i) => row(i + 1)) },
  ],
};

describe("a page of the standings", () => {
  it("shows each category's first page when none is chosen", () => {
    const page = standingsPage(standings, null, 3);
    expect(page.standings.categories.map((c) => [c.category, c.rows.length])).toEqual([
      ["Women", 100],
      ["Men", 3],
    ]);
    expect(page.pages).toEqual([
      { category: "Women", page: 1, pages: 3, racers: 250 },
      { category: "Men", page: 1, pages: 1, racers: 3 },
    ]);
  });

  it("shows points as text, a dropped result in brackets and named by its position, a missing one empty", () => {
    const cells = [{ points: 1250, place: 1, status: null, counted: true }, null, { points: 0, place: null, status: "dnf" as const, counted: false }];
    expect(shownRow({ ...row(1), total: 1250, carried: 300, cells })).toEqual({
      rank: 1,
      identity: "r1",
      name: "R1",
      club: null,
      total: "12.5",
      carried: "3",
      cells: ["12.5", "", "(0 DNF)"],
      dropped: [2],
    });
    const carrying = { ...standings, categories: [{ category: "Men", rows: [{ ...row(1), carried: 100 }] }, standings.categories[0]!] };
    expect(standingsPage(carrying, "Women", 1).standings.carried).toBe(true);
    expect(standingsPage(standings, null, 1).standings.carried).toBe(false);
  });

  it("shows the chosen category's page, the last one when asked past it, and ignores a category it does not have", () => {
    const third = standingsPage(standings, "Women", 3);
    expect(third.standings.categories.map((c) => c.rows.map((r) => r.rank))).toEqual([Array.from({ length: 50 }, (_, i) => 201 + i)]);
    expect(standingsPage(standings, "Women", 99).pages[0]!.page).toBe(3);
    expect(standingsPage(standings, "Women", Number.NaN).pages[0]!.page).toBe(1);
    expect(standingsPage(standings, "Juniors", 2).category).toBeNull();
  });
});
