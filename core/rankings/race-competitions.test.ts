import { describe, expect, it } from "vitest";
import { raceCompetitions } from "./race-competitions";

const S = 1_000_000;
const row = (racerId: string, status: string, time: number | null, groups = ["w"]) => ({ racerId, status, time, name: racerId, club: null, groups });
const groups = [
  { id: "w", name: "Women" },
  { id: "m", name: "Men" },
];

describe("a race's results as competitions", () => {
  it("scores each chosen group apart: finishers with a time, starters with DNF and DSQ, never DNS or not started", () => {
    const rows = [
      row("a", "finished", 100 * S),
      row("b", "dnf", null),
      row("c", "dsq", 90 * S),
      row("d", "dns", null),
      row("e", "notstarted", null),
      row("f", "finished", 95 * S, ["m"]),
    ];
    const [women, men] = raceCompetitions(groups, rows, [], (r) => r.racerId);
    expect(women!.finishers).toEqual([{ identity: "a", name: "a", club: null, time: 100 }]);
    expect(women!.starters).toEqual(["a", "b", "c"]);
    expect(men!.finishers.map((f) => f.identity)).toEqual(["f"]);
    expect(raceCompetitions(groups, rows, ["men"], (r) => r.racerId)).toHaveLength(1);
  });
});
