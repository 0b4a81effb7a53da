import { describe, expect, it } from "vitest";
import type { FormatSnapshot, ResultRow } from "../../schema/wire/race-socket";
import { followRacerFrame, newer } from "./racer-frames";

const followed = { formatId: "f1", racerId: "r1", groupId: "f1:g1" };
const row = (racerId: string, groups: string[]) => ({ racerId, groups }) as ResultRow;
const rows = (from: string, version: string, ...list: ResultRow[]) => ({ type: "rows" as const, formatId: "f1", from, version, rows: list });

describe("followRacerFrame", () => {
  it("refreshes at once for the racer's own row, soon for the group's, not for other groups", () => {
    expect(followRacerFrame("4", followed, rows("4", "5", row("r1", ["f1:g1"])))).toEqual({ held: "5", refresh: "now", outcome: "current" });
    expect(followRacerFrame("4", followed, rows("4", "5", row("r2", ["f1:g1"])))).toEqual({ held: "5", refresh: "soon", outcome: "current" });
    expect(followRacerFrame("4", followed, rows("4", "5", row("r3", ["f1:g2"])))).toEqual({ held: "5", refresh: "none", outcome: "current" });
  });

  it("takes a frame after a gap without asking for a snapshot, and ignores frames it already passed or of another format", () => {
    expect(followRacerFrame("4", followed, rows("6", "7", row("r1", ["f1:g1"])))).toEqual({ held: "7", refresh: "now", outcome: "current" });
    expect(followRacerFrame("7", followed, rows("4", "5", row("r1", ["f1:g1"])))).toEqual({ held: "7", refresh: "none", outcome: "ok" });
    expect(followRacerFrame("4", followed, { ...rows("4", "5", row("r1", ["f1:g1"])), formatId: "f2" }).refresh).toBe("none");
  });

  it("is current after a hello naming its version, reloads now after another or a refresh, and refreshes on a snapshot", () => {
    const hello = (version?: string) => ({ type: "hello" as const, race_id: "x", name: "Race", server_time: 0, connections: 1, version });
    expect(followRacerFrame("4", followed, hello("4")).outcome).toBe("current");
    // A paged socket brings nothing for the versions missed: the page reloads at once and holds the room's version.
    expect(followRacerFrame("4", followed, hello("9"))).toEqual({ held: "9", refresh: "now", outcome: "current" });
    expect(followRacerFrame("4", followed, { type: "refresh", formatId: followed.formatId, version: "10" })).toEqual({
      held: "10",
      refresh: "now",
      outcome: "current",
    });
    expect(followRacerFrame("4", followed, { type: "refresh", formatId: "another", version: "10" }).refresh).toBe("none");
    expect(followRacerFrame("4", followed, hello()).outcome).toBe("ok");
    const snapshot = { formatId: "f1", version: "9" } as FormatSnapshot;
    expect(followRacerFrame("4", followed, { type: "snapshot", snapshot })).toEqual({ held: "9", refresh: "now", outcome: "current" });
  });

  it("keeps the later of the loader's and the socket's versions", () => {
    expect(newer("12", "9")).toBe("12");
    expect(newer("9", "12")).toBe("12");
  });
});
