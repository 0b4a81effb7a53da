import { describe, expect, it } from "vitest";
import { splitLabel } from "./split-label";
import { course, point } from "./test-races";

describe("splitLabel", () => {
  it("names lap lines by lap, the last one the finish, and splits by their name and lap", () => {
    const laps = course([point("s", "start"), point("hill", "split", { name: "Hill" }), point("line", "lap")], { lapCount: 3 });
    expect([0, 1, 2, 3, 4, 5].map((i) => splitLabel(laps, i))).toEqual(["Hill (lap 1)", "Lap 1", "Hill (lap 2)", "Lap 2", "Hill (lap 3)", "Finish"]);
    const p2p = course([point("s", "start"), point("km5", "split", { name: "5 km" }), point("f", "lap", { name: "" })]);
    expect([0, 1].map((i) => splitLabel(p2p, i))).toEqual(["5 km", "Finish"]);
  });

  it("never calls a time limit lap the finish, and says Split n where it cannot tell", () => {
    expect(splitLabel(course([point("line", "lap")], { lapCount: 99, maxLapCount: 99 }), 98)).toBe("Lap 99");
    expect(splitLabel(null, 2)).toBe("Split 3");
    expect(splitLabel(course([point("s", "start"), point("x", "split", { name: " " })]), 0)).toBe("Split 1");
  });
});
