import { describe, expect, it } from "vitest";
import { positionChart } from "./position-chart";

describe("positionChart", () => {
  it("draws the lap lines, first place at the top and the last place passed at the bottom", () => {
    const chart = positionChart([
      { name: "Mid 1", rank: 4, passed: 9, isLap: false },
      { name: "Lap 1", rank: 5, passed: 9, isLap: true },
      { name: "Mid 2", rank: 2, passed: 8, isLap: false },
      { name: "Lap 2", rank: 1, passed: 8, isLap: true },
      { name: "Lap 3", rank: 9, passed: 9, isLap: true },
    ])!;
    expect(chart.worst).toBe(9);
    expect(chart.points).toEqual([
      { name: "Lap 1", rank: 5, x: 36, y: 72 },
      { name: "Lap 2", rank: 1, x: 172, y: 12 },
      { name: "Lap 3", rank: 9, x: 308, y: 132 },
    ]);
    expect(chart.path).toBe("36,72 172,12 308,132");
  });

  it("draws every split of a one-lap course, one point in the middle, nothing without points", () => {
    expect(positionChart([{ name: "Finish", rank: 1, passed: 1, isLap: true }])!.points).toEqual([{ name: "Finish", rank: 1, x: 172, y: 12 }]);
    expect(
      positionChart([
        { name: "5 km", rank: 2, passed: 3, isLap: false },
        { name: "Finish", rank: 3, passed: 3, isLap: true },
      ])!.path,
    ).toBe("36,72 308,132");
    expect(positionChart([])).toBeNull();
  });
});
