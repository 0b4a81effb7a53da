import { describe, expect, it } from "vitest";
import type { FormatSnapshot, ResultRow } from "../../schema/wire/race-socket";
import { applyRows, groupViews, stateFromSnapshot } from "./results-state";
import { latestFinishers } from "../../schema/wire/results-ranking";

const S = 1_000_000;

function row(racerId: string, bib: number, time: number | null, overrides: Partial<ResultRow> = {}): ResultRow {
  const finished = time !== null;
  return {
    racerId,
    status: finished ? "finished" : "notstarted",
    statusText: "",
    start: 0,
    laps: finished ? 1 : 0,
    splits: [],
    finish: time,
    time,
    key: finished ? [0, time, bib] : [2, bib],
    rankKey: finished ? [time] : null,
    bib,
    name: `Racer ${bib}`,
    club: null,
    team: null,
    city: null,
    course: null,
    groups: ["g"],
    ...overrides,
  };
}

function snapshot(rows: ResultRow[]): FormatSnapshot {
  return {
    formatId: "f",
    name: "Results",
    version: "v.0",
    displayPrecision: 1,
    displayDiffs: true,
    sameTimeDisplay: "s/t",
    isAnnouncer: false,
    groups: [{ id: "g", name: "All Racers", sameTimeThreshold: 0, columns: [] }],
    rows,
  };
}

describe("results page state", () => {
  it("ranks a pushed finisher between the others, as a reload would", () => {
    const state = stateFromSnapshot(snapshot([row("a", 1, 100 * S), row("b", 2, 120 * S), row("c", 3, null)]));
    const next = applyRows(state, "v.0", "v.1", [row("c", 3, 110 * S)])!;
    const [view] = groupViews(next, "");
    expect(view!.ranked.map((r) => [r.row.bib, r.rank, r.diff])).toEqual([
      [1, 1, 0],
      [3, 2, 10 * S],
      [2, 3, 20 * S],
    ]);
    expect([...next.changed]).toEqual(["c"]);
  });

  it("refuses a frame that does not follow its version", () => {
    const state = stateFromSnapshot(snapshot([row("a", 1, 100 * S)]));
    expect(applyRows(state, "v.5", "v.6", [row("a", 1, 90 * S)])).toBeNull();
  });

  it("drops a racer whose row has no groups left", () => {
    const state = stateFromSnapshot(snapshot([row("a", 1, 100 * S), row("b", 2, 120 * S)]));
    const next = applyRows(state, "v.0", "v.1", [row("a", 1, 100 * S, { groups: [] })])!;
    expect(groupViews(next, "")[0]!.ranked.map((r) => r.row.bib)).toEqual([2]);
  });

  it("searches by name or exact bib, keeping the ranks of the full list", () => {
    const state = stateFromSnapshot(snapshot([row("a", 1, 100 * S), row("b", 12, 120 * S), row("c", 2, 130 * S)]));
    expect(groupViews(state, "racer 12")[0]!.ranked.map((r) => [r.row.bib, r.rank])).toEqual([[12, 2]]);
    expect(groupViews(state, "2")[0]!.ranked.map((r) => [r.row.bib, r.rank])).toEqual([[2, 3]]);
    expect(groupViews(state, "2")[0]!.total).toBe(3);
  });

  it("lists the latest finishers first for the announcer", () => {
    const state = stateFromSnapshot(snapshot([row("a", 1, 100 * S), row("b", 2, 130 * S), row("c", 3, 120 * S), row("d", 4, null)]));
    expect(latestFinishers(state.rows.values(), 2).map((r) => r.bib)).toEqual([2, 3]);
  });
});
