import { describe, expect, it } from "vitest";
import { distanceAtKm, lapLengthKm, paceMeasureOf, paceMicrosPerKm, speedKmPerHour, type CourseLengths } from "./split-distance";
import { seconds } from "./test-races";

const threeLaps: CourseLengths = {
  pattern: [
    { mode: "split", distanceKm: 1.5 },
    { mode: "split", distanceKm: null },
    { mode: "lap", distanceKm: null },
  ],
  lapCount: 3,
  courseDistanceKm: null,
  lapDistanceKm: 3.3,
};

describe("distances", () => {
  it("adds whole laps to the distance into the lap", () => {
    expect([0, 1, 2, 3, 5, 8].map((i) => distanceAtKm(threeLaps, i))).toEqual([1.5, null, 3.3, 4.8, 6.6, 9.899999999999999]);
  });

  it("takes a lap's length from the course distance when there is no lap distance", () => {
    const course = { ...threeLaps, lapDistanceKm: null, courseDistanceKm: 15 };
    expect(lapLengthKm(course)).toBe(5);
    expect(distanceAtKm(course, 5)).toBe(10);
    expect(distanceAtKm(course, 3)).toBe(6.5);
  });

  it("knows nothing without lengths", () => {
    const course = { ...threeLaps, lapDistanceKm: null, courseDistanceKm: null };
    expect(distanceAtKm(course, 0)).toBe(1.5);
    expect(distanceAtKm(course, 2)).toBeNull();
    expect(distanceAtKm(course, 3)).toBeNull();
    expect(distanceAtKm({ ...course, pattern: [] }, 0)).toBeNull();
  });
});

describe("pace and speed", () => {
  it("gives pace in whole seconds per km and speed in km/h to a tenth", () => {
    expect(paceMicrosPerKm(seconds(40 * 60 + 10), 10)).toBe(seconds(241));
    expect(speedKmPerHour(seconds(3600 + 1800), 40)).toBe(26.7);
    expect(paceMicrosPerKm(seconds(100), null)).toBeNull();
    expect(speedKmPerHour(0, 10)).toBeNull();
  });

  it("speaks in speed for riders, paddlers and downhill, in pace for the rest", () => {
    expect(["Cycling", "mountain biking", "Kayak", "Alpine Skiing"].map(paceMeasureOf)).toEqual(["speed", "speed", "speed", "speed"]);
    expect(["Running", "Cross Country Skiing", "Triathlon", "Curling"].map(paceMeasureOf)).toEqual(["pace", "pace", "pace", "pace"]);
    expect(paceMeasureOf(null)).toBe("pace");
  });
});
