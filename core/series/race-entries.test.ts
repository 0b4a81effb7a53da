import { describe, expect, it } from "vitest";
import { raceEntries, type ResultRowLike } from "./race-entries";

const row = (name: string, status: string, rankKey: number[] | null, groups = ["w"], club: string | null = null): ResultRowLike => ({
  name,
  club,
  status,
  rankKey,
  time: rankKey ? rankKey[rankKey.length - 1]! * 1_000_000 : null,
  groups,
});
const groups = [
  { id: "w", name: "Women" },
  { id: "m", name: "Men" },
];

describe("a race's rows as series entries", () => {
  it("places finishers by rank key within each group, sharing equal keys, and keeps statuses", () => {
    const rows = [
      row("Bea", "finished", [-1, 610]),
      row("Anna", "finished", [-1, 600]),
      row("Cleo", "finished", [-1, 610]),
      row("Dana", "dnf", null),
      row("Eve", "oncourse", null),
    ];
    expect(raceEntries(groups, rows, []).map((e) => [e.name, e.category, e.outcome])).toEqual([
      ["Anna", "Women", { kind: "placed", place: 1, time: 600 }],
      ["Bea", "Women", { kind: "placed", place: 2, time: 610 }],
      ["Cleo", "Women", { kind: "placed", place: 2, time: 610 }],
      ["Dana", "Women", { kind: "status", status: "dnf" }],
    ]);
  });

  it("scores only the configured categories, matched by folded name, under the configured spelling", () => {
    const rows = [row("Anna", "finished", [1], ["w"]), row("Carl", "finished", [1], ["m"])];
    expect(raceEntries(groups, rows, ["WOMEN"]).map((e) => [e.name, e.category])).toEqual([["Anna", "WOMEN"]]);
  });
});
