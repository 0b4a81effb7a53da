import { describe, expect, it } from "vitest";
import type { RaceServerMessage, ResultGroupWire, ResultRow } from "../../schema/wire/race-socket";
import { readWindowQuery, type ResultsWindow } from "../../schema/wire/results-window";
import { rankGroup, resultsWindow } from "../../schema/wire/results-ranking";
import { followWindowFrame } from "./window-frames";

const S = 1_000_000;
const GROUP: ResultGroupWire = { id: "g", name: "All", sameTimeThreshold: 0, columns: [] };

function row(n: number, time: number | null, groups = ["g"]): ResultRow {
  return {
    racerId: `r${n}`,
    status: time === null ? "oncourse" : "finished",
    statusText: "",
    start: 0,
    laps: time === null ? 0 : 1,
    splits: [],
    finish: time,
    time,
    key: time === null ? [1, n] : [0, time, n],
    rankKey: time === null ? null : [time],
    bib: n,
    name: `Racer ${n}`,
    club: null,
    team: null,
    city: null,
    course: null,
    groups,
  };
}

/** A page 1 of 120 finishers (racer n in 100+n s): full, so its last row is racer 50. */
function pageOne(version = "5", search = ""): ResultsWindow {
  const rows = Array.from({ length: 120 }, (_, i) => row(i + 1, (100 + i + 1) * S));
  const format = { formatId: "f", name: "Results", version, displayPrecision: 1, displayDiffs: true, sameTimeDisplay: "s/t", isAnnouncer: false };
  const query = { ...readWindowQuery(new URLSearchParams()), search };
  return resultsWindow(format, [{ group: GROUP, total: rows.length }], () => rankGroup({}, GROUP, rows, "default"), query);
}

const frame = (from: string, version: string, rows: ResultRow[], formatId = "f"): RaceServerMessage => ({ type: "rows", formatId, from, version, rows });
const hello = (version?: string): RaceServerMessage => ({
  type: "hello",
  race_id: "r",
  name: "Race",
  server_time: 0,
  connections: 1,
  ...(version === undefined ? {} : { version }),
});

describe("a paged results page following its race socket", () => {
  it("fetches nothing when a racer finishes behind the page's last row", () => {
    const step = followWindowFrame(pageOne(), frame("5", "6", [row(500, 900 * S)]));
    expect(step.refetch).toBeNull();
    expect(step.window.format.version).toBe("6");
    expect(step.outcome).toBe("current");
  });

  it("fetches the page soon when a racer finishes ahead of its last row", () => {
    expect(followWindowFrame(pageOne(), frame("5", "6", [row(500, 120 * S)])).refetch).toBe("soon");
  });

  it("patches a racer on the page at once, and fetches soon for their new place", () => {
    const step = followWindowFrame(pageOne(), frame("5", "6", [{ ...row(3, 103 * S), club: "Ottawa Nordic" }]));
    expect(step.window.current?.entries.find((e) => e.row.racerId === "r3")?.row.club).toBe("Ottawa Nordic");
    expect(step.changed).toEqual(new Set(["r3"]));
    expect(step.refetch).toBe("soon");
  });

  it("ignores a racer of another group, or one the search leaves out", () => {
    expect(followWindowFrame(pageOne(), frame("5", "6", [row(500, 50 * S, ["other"])])).refetch).toBeNull();
    expect(followWindowFrame(pageOne("5", "Racer 1"), frame("5", "6", [{ ...row(500, 50 * S), name: "Someone" }])).refetch).toBeNull();
  });

  it("fetches now when a frame does not follow the version held (a push was missed)", () => {
    const step = followWindowFrame(pageOne(), frame("6", "7", [row(500, 900 * S)]));
    expect(step.refetch).toBe("now");
    expect(step.target).toBe("7");
    expect(step.window.format.version).toBe("5");
  });

  it("skips a frame it already holds", () => {
    const held = pageOne("9");
    const step = followWindowFrame(held, frame("5", "6", [row(1, 1 * S)]));
    expect(step.refetch).toBeNull();
    expect(step.window).toBe(held);
  });

  it("fetches now when the room holds another version at connect, or says the format changed shape", () => {
    // The fetch names the version the room said it holds, so no cache answers with the page held already.
    expect(followWindowFrame(pageOne(), hello("8"))).toMatchObject({ refetch: "now", target: "8" });
    expect(followWindowFrame(pageOne(), hello("5"))).toMatchObject({ refetch: null, outcome: "current" });
    expect(followWindowFrame(pageOne(), { type: "refresh", formatId: "f", version: "6" }).refetch).toBe("now");
    expect(followWindowFrame(pageOne(), { type: "refresh", formatId: "other", version: "6" }).refetch).toBeNull();
  });
});
