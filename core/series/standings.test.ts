import { describe, expect, it } from "vitest";
import { foldName, racerIdentity } from "./identity";
import type { PointsSystem, RaceOutcome } from "./points";
import { computeStandings, type RaceEntry, type SeriesRace } from "./standings";
import { seriesConfigProblems } from "./config-rules";

const system = (over: Partial<PointsSystem> = {}): PointsSystem => ({
  rule: { method: "table", table: [100, 80, 60, 50, 45, 40] },
  ties: "share",
  statusPoints: { dnf: 0, dns: 0, dsq: 0 },
  bestOf: null,
  ...over,
});
const entry = (name: string, outcome: RaceOutcome | number, category = "Open", club: string | null = null): RaceEntry => ({
  identity: racerIdentity({ name, club }),
  name,
  club,
  category,
  outcome: typeof outcome === "number" ? { kind: "placed", place: outcome, time: null } : outcome,
});
const race = (id: string, order: number, entries: RaceEntry[], scale = 1): SeriesRace => ({ id, name: `Race ${id}`, order, scale, entries });
const summary = (rows: readonly { rank: number; name: string; total: number }[]) => rows.map((r) => `${r.rank} ${r.name} ${r.total / 100}`);

describe("series standings", () => {
  it("adds each racer's points over the races, per category, ranked by total", () => {
    const standings = computeStandings(system(), [
      race("a", 1, [entry("Anna", 1), entry("Bea", 2), entry("Carl", 1, "Men")]),
      race("b", 2, [entry("Bea", 1), entry("Anna", 3), entry("Dan", 2, "Men")]),
    ]);
    expect(standings.races.map((r) => r.id)).toEqual(["a", "b"]);
    expect(standings.categories.map((c) => c.category)).toEqual(["Open", "Men"]);
    expect(summary(standings.categories[0]!.rows)).toEqual(["1 Bea 180", "2 Anna 160"]);
    expect(summary(standings.categories[1]!.rows)).toEqual(["1 Carl 100", "2 Dan 80"]);
    expect(standings.categories[1]!.rows[0]!.cells).toEqual([{ points: 10000, place: 1, status: null, counted: true }, null]);
  });

  it("counts only the best N results and marks the others dropped", () => {
    const standings = computeStandings(system({ bestOf: 2 }), [
      race("a", 1, [entry("Anna", 4)]),
      race("b", 2, [entry("Anna", 1)]),
      race("c", 3, [entry("Anna", 2)]),
    ]);
    const anna = standings.categories[0]!.rows[0]!;
    expect(anna.total).toBe(18000);
    expect(anna.cells.map((c) => c?.counted)).toEqual([false, true, true]);
  });

  it("scales a final's points", () => {
    const standings = computeStandings(system(), [
      race("a", 1, [entry("Anna", 1), entry("Bea", 2)]),
      race("final", 2, [entry("Bea", 1), entry("Anna", 2)], 1.5),
    ]);
    expect(summary(standings.categories[0]!.rows)).toEqual(["1 Bea 230", "2 Anna 220"]);
  });

  it("breaks equal totals by more wins, then more second places, then the latest race", () => {
    const wins = computeStandings(system({ rule: { method: "table", table: [10, 8, 6, 5, 4, 3] } }), [
      race("a", 1, [entry("Anna", 1), entry("Bea", 2)]),
      race("b", 2, [entry("Bea", 2), entry("Anna", 5)]),
      race("c", 3, [entry("Bea", 4), entry("Anna", 3)]),
    ]);
    // Anna 10 + 4 + 6 = 20, Bea 8 + 8 + 5 = 21: no tie here.
    expect(summary(wins.categories[0]!.rows)).toEqual(["1 Bea 21", "2 Anna 20"]);
    const tied = computeStandings(system(), [race("a", 1, [entry("Anna", 1), entry("Bea", 2)]), race("b", 2, [entry("Bea", 1), entry("Anna", 2)])]);
    // Both 180 with one win and one second: Bea won the latest race.
    expect(summary(tied.categories[0]!.rows)).toEqual(["1 Bea 180", "2 Anna 180"]);
    const countback = computeStandings(system({ rule: { method: "table", table: [10, 8, 6, 4] } }), [
      race("a", 1, [entry("Anna", 1), entry("Bea", 3)]),
      race("b", 2, [entry("Bea", 2), entry("Anna", 4)]),
    ]);
    // Both 14: Anna has a win, though Bea placed better in the latest race.
    expect(summary(countback.categories[0]!.rows)).toEqual(["1 Anna 14", "2 Bea 14"]);
  });

  it("shares a rank when every tie-breaker is equal", () => {
    const standings = computeStandings(system(), [race("a", 1, [entry("Anna", 1), entry("Bea", 1)])]);
    expect(summary(standings.categories[0]!.rows)).toEqual(["1 Anna 100", "1 Bea 100"]);
  });

  it("adds carried points and lists a racer who only has carried points", () => {
    const standings = computeStandings(
      system(),
      [race("a", 1, [entry("Anna", 1)])],
      [
        { identity: racerIdentity({ name: "anna", club: null }), name: "anna", club: null, category: "Open", points: 2550 },
        { identity: racerIdentity({ name: "Eve", club: null }), name: "Eve", club: null, category: "Open", points: 9000 },
      ],
    );
    expect(summary(standings.categories[0]!.rows)).toEqual(["1 Anna 125.5", "2 Eve 90"]);
  });

  it("counts a status as a race taken part in, at the status's points", () => {
    const standings = computeStandings(system({ statusPoints: { dnf: 5, dns: 0, dsq: 0 } }), [
      race("a", 1, [entry("Anna", { kind: "status", status: "dnf" })]),
    ]);
    expect(standings.categories[0]!.rows[0]!.cells[0]).toEqual({ points: 500, place: null, status: "dnf", counted: true });
  });

  it("keeps categories in the configured order, listing an empty one", () => {
    const standings = computeStandings(system(), [race("a", 1, [entry("Anna", 1, "Women")])], [], ["Men", "Women"]);
    expect(standings.categories.map((c) => [c.category, c.rows.length])).toEqual([
      ["Men", 0],
      ["Women", 1],
    ]);
  });
});

describe("racer identity", () => {
  it("folds case, accents, punctuation and word order", () => {
    expect(foldName("Virtanen, Änna ")).toBe("anna virtanen");
    expect(racerIdentity({ name: "Anna Virtanen", club: "Nordic SC" })).toBe(racerIdentity({ name: "VIRTANEN Anna", club: "nordic sc" }));
    expect(racerIdentity({ name: "Anna Virtanen", club: "Nordic SC" })).not.toBe(racerIdentity({ name: "Anna Virtanen", club: "Lake SC" }));
    expect(racerIdentity({ name: "Anna", club: null, personId: "u1" })).toBe("p:u1");
  });
});

describe("series config rules", () => {
  const table = (t: number[]) => ({ method: "table" as const, table: t });
  it("refuses a rising table, best N over the races, a race twice and a floor over the top", () => {
    expect(seriesConfigProblems({ points: table([100, 80, 90]), best_of: null, races: [] })).toEqual({
      "config.points.table": "The points table must not rise from one place to the next: place 3 has more points than place 2",
    });
    expect(seriesConfigProblems({ points: table([100]), best_of: 3, races: [{ race: "a" }, { race: "b" }] })).toEqual({
      "config.best_of": "Best N cannot be more than the series' 2 races",
    });
    expect(seriesConfigProblems({ points: table([100]), best_of: 1, races: [] })).toEqual({ "config.best_of": "Add the series' races before setting best N" });
    expect(seriesConfigProblems({ points: { method: "linear", max: 10, step: 1, min: 20 }, best_of: null, races: [{ race: "a" }, { race: "a" }] })).toEqual({
      "config.points.min": "The lowest points are more than the winner's points",
      "config.races": "A race is in the series twice",
    });
    expect(seriesConfigProblems({ points: { method: "formula", formula: "51 - rank" }, best_of: null, races: [] })).toEqual({
      "config.points.formula": "The formula cannot be read: unknown name 'rank' (use place, finishers, time or winner)",
    });
    expect(seriesConfigProblems({ points: table([100, 100, 80]), best_of: 2, races: [{ race: "a" }, { race: "b" }] })).toBeNull();
  });
});
