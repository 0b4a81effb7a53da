import { describe, expect, it } from "vitest";
import { announcerPrecall, announcerResults, LATEST_PER_GROUP } from "./announcer-view";
import type { FormatSnapshot, ResultRow } from "./race-socket";

const S = 1_000_000;

/** A racer of a two-lap race with a start at 0: `laps` are the times (s) they crossed the line. */
function row(bib: number, groups: string[], laps: number[], extra: Partial<ResultRow> = {}): ResultRow {
  const splits = laps.map((t, index) => ({ index, coursePointId: "line", lap: index + 1, time: t * S, elapsed: t * S }));
  const finished = laps.length === 2;
  const time = finished ? laps[1]! * S : null;
  return {
    racerId: `r${bib}`,
    status: finished ? "finished" : laps.length > 0 ? "oncourse" : "notstarted",
    statusText: "",
    start: 0,
    laps: laps.length,
    splits,
    finish: time,
    time,
    key: finished ? [0, time!, bib] : [1, -laps.length, (laps.at(-1) ?? 0) * S, bib],
    rankKey: finished ? [time!] : null,
    bib,
    name: `Racer ${bib}`,
    club: null,
    team: null,
    city: null,
    course: "10 km",
    groups,
    ...extra,
  };
}

function snapshot(rows: ResultRow[]): FormatSnapshot {
  const group = (id: string, name: string) => ({ id, name, sameTimeThreshold: 0, columns: [] });
  return {
    formatId: "f",
    name: "Announcer",
    version: "3",
    displayPrecision: 1,
    displayDiffs: true,
    sameTimeDisplay: "s/t",
    isAnnouncer: true,
    groups: [group("all", "Overall"), group("w", "Women 10 km")],
    rows,
  };
}

const lapName = (_racerId: string, index: number) => (index === 1 ? "Finish" : `Lap ${index + 1}`);

describe("the announcer view", () => {
  it("keeps each group's latest finishers newest first with the group's places, and its own leader changes", () => {
    // 1 (a man) leads overall from lap 1; 2 (a woman) leads the women until 4 passes her at the line.
    const rows = [row(1, ["all"], [100, 200]), row(2, ["all", "w"], [110, 230]), row(4, ["all", "w"], [120, 220]), row(5, ["all", "w"], [130])];
    const view = announcerResults(snapshot(rows), lapName);
    expect(view.latest.map((f) => [f.groupId, f.bib, f.rank])).toEqual([
      ["all", 2, 3],
      ["all", 4, 2],
      ["all", 1, 1],
      ["w", 2, 2],
      ["w", 4, 1],
    ]);
    expect(view.leaders.map((c) => [c.groupId, c.bib, c.at, c.previous?.bib ?? null, c.time / S])).toEqual([
      ["all", 1, "Lap 1", null, 100],
      ["w", 4, "Finish", 2, 220],
      ["w", 2, "Lap 1", null, 110],
    ]);
    expect(view.groups).toEqual([
      { id: "all", name: "Overall" },
      { id: "w", name: "Women 10 km" },
    ]);
  });

  it("keeps at most the newest finishers of each group", () => {
    const rows = Array.from({ length: LATEST_PER_GROUP + 5 }, (_, i) => row(i + 1, ["all"], [100, 200 + i]));
    const latest = announcerResults(snapshot(rows), lapName).latest;
    expect(latest).toHaveLength(LATEST_PER_GROUP);
    expect(latest[0]!.bib).toBe(LATEST_PER_GROUP + 5);
  });

  it("places a precall racer in each of their groups at their last split, on their course, and names the next point", () => {
    const rows = [row(1, ["all"], [100]), row(2, ["all", "w"], [110]), row(4, ["all", "w"], [120]), row(6, ["all", "w"], [90], { course: "5 km" })];
    const reads = [{ racerId: "r4", pointId: "pre", time: 190 * S }];
    const [entry] = announcerPrecall(snapshot(rows), reads, { point: () => "Precall 300 m", split: lapName }, 195 * S);
    expect(entry).toMatchObject({ bib: 4, point: "Precall 300 m", next: "Finish", groups: ["all", "w"] });
    expect(entry!.places).toEqual([
      { groupId: "all", rank: 3, of: 3, at: "Lap 1" },
      { groupId: "w", rank: 2, of: 2, at: "Lap 1" },
    ]);
  });
});
