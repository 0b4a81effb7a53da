import { describe, expect, it } from "vitest";
import type { FormatSnapshot, ResultRow } from "../../schema/wire/race-socket";
import { resultSections } from "./result-sections";

const S = 1_000_000;

function row(racerId: string, bib: number, time: number | null, overrides: Partial<ResultRow> = {}): ResultRow {
  const finished = time !== null;
  return {
    racerId,
    status: finished ? "finished" : "notstarted",
    statusText: "",
    start: 0,
    laps: finished ? 2 : 0,
    splits: finished
      ? [
          { index: 0, coursePointId: "lap", lap: 1, time: time / 2, elapsed: time / 2 },
          { index: 1, coursePointId: "lap", lap: 2, time, elapsed: time },
        ]
      : [],
    finish: time,
    time,
    key: finished ? [0, time, bib] : [2, bib],
    rankKey: finished ? [time] : null,
    bib,
    name: `Racer ${bib}`,
    club: "Nordic",
    team: null,
    city: null,
    course: null,
    groups: ["women"],
    ...overrides,
  };
}

const snapshot = (rows: ResultRow[], overrides: Partial<FormatSnapshot> = {}): FormatSnapshot => ({
  formatId: "f",
  name: "Results",
  version: "v.0",
  displayPrecision: 1,
  displayDiffs: true,
  sameTimeDisplay: "s/t",
  isAnnouncer: false,
  groups: [
    { id: "women", name: "Women", sameTimeThreshold: 0, columns: [{ index: 0, name: "Lap 1" }] },
    { id: "men", name: "Men", sameTimeThreshold: 0, columns: [] },
    { id: "empty", name: "Juniors", sameTimeThreshold: 0, columns: [] },
  ],
  rows,
  ...overrides,
});

describe("resultSections", () => {
  it("gives each group with racers the page's columns and cells, in rank order", () => {
    const sections = resultSections(
      snapshot([
        row("a", 1, 600 * S),
        row("b", 2, 590.25 * S),
        row("c", 3, null, { statusText: "DNF", status: "dnf" }),
        row("d", 4, 700 * S, { groups: ["men"], club: null }),
      ]),
    );
    expect(sections).toEqual([
      {
        heading: "Women",
        columns: [
          { label: "Rank", numeric: true },
          { label: "Bib", numeric: true },
          { label: "Name" },
          { label: "Club" },
          { label: "Lap 1", numeric: true },
          { label: "Time", numeric: true },
          { label: "Diff", numeric: true },
        ],
        rows: [
          ["1", "2", "Racer 2", "Nordic", "4:55.1", "9:50.2", ""],
          // Times are truncated to the display precision, as on the page: 9.75 s behind shows +9.7.
          ["2", "1", "Racer 1", "Nordic", "5:00.0", "10:00.0", "+9.7"],
          ["", "3", "Racer 3", "Nordic", "", "DNF", ""],
        ],
      },
      {
        heading: "Men",
        columns: [
          { label: "Rank", numeric: true },
          { label: "Bib", numeric: true },
          { label: "Name" },
          { label: "Club" },
          { label: "Time", numeric: true },
          { label: "Diff", numeric: true },
        ],
        rows: [["1", "4", "Racer 4", "", "11:40.0", ""]],
      },
    ]);
  });

  it("writes a relay group as teams, a racer and a time for each leg", () => {
    const legs = [row("a1", 11, 300 * S, { team: "Reds", leg: 1, groups: ["men"] }), row("a2", 12, 610 * S, { team: "Reds", leg: 2, groups: ["men"] })];
    const sections = resultSections(snapshot(legs, { relay: { memberCount: 2, lapTimeDisplay: "team_elapsed" } }));
    expect(sections.map((s) => s.heading)).toEqual(["Men"]);
    expect(sections[0]!.columns.map((c) => c.label)).toEqual(["Rank", "Team", "Leg 1", "Leg 1 time", "Leg 2", "Leg 2 time", "Time"]);
    expect(sections[0]!.rows).toHaveLength(1);
    expect(sections[0]!.rows[0]!.slice(0, 3)).toEqual(["1", "Reds", "11 Racer 11"]);
  });
});
