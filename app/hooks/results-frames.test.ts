import { describe, expect, it } from "vitest";
import type { FormatSnapshot, RaceServerMessage, ResultRow, RowChange } from "../../schema/wire/race-socket";
import { stateFromSnapshot } from "../results/results-state";
import { followResultsFrame, type FollowedResults } from "./results-frames";

function row(racerId: string, time: number | null): ResultRow {
  return {
    racerId,
    status: time === null ? "notstarted" : "finished",
    statusText: "",
    start: 0,
    laps: time === null ? 0 : 1,
    splits: [],
    finish: time,
    time,
    key: time === null ? [2] : [0, time],
    rankKey: time === null ? null : [time],
    bib: 1,
    name: racerId,
    club: null,
    team: null,
    city: null,
    course: null,
    groups: ["g"],
  };
}

function snapshot(version: string, rows: ResultRow[], formatId = "f"): FormatSnapshot {
  return {
    formatId,
    name: "Results",
    version,
    displayPrecision: 1,
    displayDiffs: true,
    sameTimeDisplay: "s/t",
    isAnnouncer: false,
    groups: [{ id: "g", name: "All", sameTimeThreshold: 0, columns: [] }],
    rows,
  };
}

const holding = (version: string, target: string | null = null): FollowedResults => ({
  results: stateFromSnapshot(snapshot(version, [row("a", null)])),
  target,
});
const hello = (version?: string): RaceServerMessage => ({
  type: "hello",
  race_id: "r",
  name: "Race",
  server_time: 0,
  connections: 1,
  ...(version === undefined ? {} : { version }),
});
const rows = (from: string, version: string, changed: ResultRow[], formatId = "f"): RaceServerMessage => ({
  type: "rows",
  formatId,
  from,
  version,
  rows: changed,
});

describe("a results page deciding what a frame means", () => {
  it("applies rows that follow the version held and moves to theirs", () => {
    const step = followResultsFrame(holding("b.3"), "f", rows("b.3", "b.4", [row("a", 90)]));
    expect(step.outcome).toBe("current");
    expect(step.followed.results.snapshot.version).toBe("b.4");
    expect(step.followed.results.rows.get("a")?.time).toBe(90);
  });

  it("asks for a resync when rows start from a version it does not hold (a push was missed)", () => {
    const followed = holding("b.3");
    const step = followResultsFrame(followed, "f", rows("b.4", "b.5", [row("a", 90)]));
    expect(step.outcome).toBe("resync");
    expect(step.followed).toBe(followed);
  });

  it("does not take a version ordering from the strings: another boot's rows are a resync too", () => {
    expect(followResultsFrame(holding("b.3"), "f", rows("c.0", "c.1", [])).outcome).toBe("resync");
  });

  it("ignores a repeated frame that ends at the version held", () => {
    const followed = holding("b.4");
    expect(followResultsFrame(followed, "f", rows("b.3", "b.4", [row("a", 90)]))).toEqual({ followed, outcome: "ok" });
  });

  it("ignores a frame the server numbered at or below the version held: it came inside a newer snapshot", () => {
    const followed = holding("12");
    expect(followResultsFrame(followed, "f", rows("9", "11", [row("a", 90)]))).toEqual({ followed, outcome: "ok" });
    expect(followResultsFrame(followed, "f", rows("12", "13", [row("a", 90)])).outcome).toBe("current");
    expect(followResultsFrame(followed, "f", rows("13", "14", [row("a", 90)])).outcome).toBe("resync");
  });

  it("ignores frames of another format", () => {
    const followed = holding("b.3");
    expect(followResultsFrame(followed, "f", rows("x.1", "x.2", [], "other")).followed).toBe(followed);
    expect(followResultsFrame(followed, "f", { type: "snapshot", snapshot: snapshot("x.2", [], "other") }).outcome).toBe("ok");
  });

  it("is current after a hello naming the version held: the server sends nothing more", () => {
    const followed = holding("b.3");
    expect(followResultsFrame(followed, "f", hello("b.3"))).toEqual({ followed, outcome: "current" });
  });

  it("is behind after a hello naming another version, until a snapshot arrives", () => {
    const behind = followResultsFrame(holding("b.3"), "f", hello("b.7"));
    expect(behind.outcome).toBe("behind");
    expect(behind.followed.target).toBe("b.7");
    const caught = followResultsFrame(behind.followed, "f", { type: "snapshot", snapshot: snapshot("b.7", [row("a", 80)]) });
    expect(caught.outcome).toBe("current");
    expect(caught.followed).toEqual({ results: expect.objectContaining({ snapshot: expect.objectContaining({ version: "b.7" }) }), target: null });
  });

  it("catches up through rows from the version it sent as `since`, current once it reaches the hello's", () => {
    let followed = followResultsFrame(holding("b.3"), "f", hello("b.5")).followed;
    const first = followResultsFrame(followed, "f", rows("b.3", "b.4", [row("a", 95)]));
    expect(first.outcome).toBe("behind");
    followed = first.followed;
    const second = followResultsFrame(followed, "f", rows("b.4", "b.5", [row("a", 90)]));
    expect(second.outcome).toBe("current");
    expect(second.followed.target).toBeNull();
    expect(second.followed.results.rows.get("a")?.time).toBe(90);
  });

  it("leaves the copy alone for frames that are not about results", () => {
    const followed = holding("b.3");
    for (const message of [
      { type: "pong" },
      { type: "info", race_id: "r", connections: 2 },
      { type: "error", message: "Unknown message" },
      hello(),
    ] as RaceServerMessage[]) {
      expect(followResultsFrame(followed, "f", message)).toEqual({ followed, outcome: "ok" });
    }
  });
});

describe("a patch frame (decision 0059)", () => {
  const patch = (from: string, version: string, whole: ResultRow[], changes: RowChange[]): RaceServerMessage => ({
    type: "patch",
    formatId: "f",
    from,
    version,
    rows: whole,
    changes,
  });

  it("changes the rows held and takes new racers whole, as the rows frame of the same change would", () => {
    const step = followResultsFrame(
      holding("5"),
      "f",
      patch("5", "6", [row("b", 90)], [{ racerId: "a", status: "finished", laps: 1, finish: 80, time: 80, key: [0, 80], rankKey: [80] }]),
    );
    expect(step.outcome).toBe("current");
    const byRows = followResultsFrame(holding("5"), "f", rows("5", "6", [row("b", 90), row("a", 80)]));
    expect(step.followed.results.rows).toStrictEqual(byRows.followed.results.rows);
    expect(step.followed.results.snapshot.version).toBe("6");
    expect([...step.followed.results.changed].sort()).toEqual(["a", "b"]);
  });

  it("finds the racer a change names by handle, as one named by id", () => {
    const held: FollowedResults = {
      results: stateFromSnapshot(
        snapshot("5", [
          { ...row("a", null), h: 3 },
          { ...row("c", null), h: 4 },
        ]),
      ),
      target: null,
    };
    const step = followResultsFrame(held, "f", patch("5", "6", [], [{ h: 4, status: "finished", laps: 1, finish: 70, time: 70 }]));
    expect(step.outcome).toBe("current");
    expect(step.followed.results.rows.get("c")).toMatchObject({ racerId: "c", h: 4, time: 70 });
    expect(step.followed.results.rows.get("a")?.time).toBeNull();
    expect(followResultsFrame(held, "f", patch("5", "6", [], [{ h: 9, time: 1 }])).outcome).toBe("resync");
  });

  it("asks for a snapshot when it changes a racer the page does not hold, or does not follow the version held", () => {
    expect(followResultsFrame(holding("5"), "f", patch("5", "6", [], [{ racerId: "zz", time: 1 }])).outcome).toBe("resync");
    expect(followResultsFrame(holding("5"), "f", patch("4", "6", [], [{ racerId: "a", time: 1 }])).outcome).toBe("resync");
  });
});
