import { describe, expect, it } from "vitest";
import { TimingError } from "./errors";
import { checkGroupTime, groupStartTime, individualStartTimes, orderStartGroups } from "./start-times";

const S = 1_000_000;
const none = { recordedStartTime: null, assignedStartTime: null, scheduledStartTime: null };

describe("groupStartTime", () => {
  it("takes recorded, else assigned, else scheduled, else the race start", () => {
    expect(groupStartTime({ recordedStartTime: 3, assignedStartTime: 2, scheduledStartTime: 1 }, 0)).toBe(3);
    expect(groupStartTime({ ...none, assignedStartTime: 2, scheduledStartTime: 1 }, 0)).toBe(2);
    expect(groupStartTime({ ...none, scheduledStartTime: 1 }, 0)).toBe(1);
    expect(groupStartTime(none, 7)).toBe(7);
  });

  it("keeps a recorded time of 0", () => {
    expect(groupStartTime({ ...none, recordedStartTime: 0, assignedStartTime: 5 }, 9)).toBe(0);
  });
});

describe("individualStartTimes", () => {
  const ids = ["a", "b", "c", "d", "e"];

  it("sends racers one at a time, an interval apart, when start size is off", () => {
    const starts = individualStartTimes({ startInterval: 30 * S, startSize: 2, isStartSizeEnabled: false }, ids, 1000 * S);
    expect([...starts]).toEqual([
      ["a", 1000 * S],
      ["b", 1030 * S],
      ["c", 1060 * S],
      ["d", 1090 * S],
      ["e", 1120 * S],
    ]);
  });

  it("sends start-size racers together when start size is on", () => {
    const starts = individualStartTimes({ startInterval: 30 * S, startSize: 2, isStartSizeEnabled: true }, ids, 0);
    expect(ids.map((id) => starts.get(id))).toEqual([0, 0, 30 * S, 30 * S, 60 * S]);
  });

  it("refuses a start size below 1 and a racer listed twice", () => {
    expect(() => individualStartTimes({ startInterval: S, startSize: 0, isStartSizeEnabled: true }, ids, 0)).toThrow(RangeError);
    expect(() => individualStartTimes({ startInterval: S, startSize: 1, isStartSizeEnabled: false }, ["a", "a"], 0)).toThrow(RangeError);
  });
});

describe("checkGroupTime", () => {
  it("throws Invalid group time when the group starts after the race ends", () => {
    expect(() => checkGroupTime(101, 100)).toThrow(TimingError);
    expect(() => checkGroupTime(101, 100)).toThrow("Invalid group time");
  });

  it("allows a start at or before the end, or with no end", () => {
    expect(() => checkGroupTime(100, 100)).not.toThrow();
    expect(() => checkGroupTime(10 ** 15, null)).not.toThrow();
  });
});

describe("orderStartGroups", () => {
  it("orders by assigned time, else scheduled, and renumbers from 1", () => {
    const groups = [
      { id: "late", ordinal: 1, assignedStartTime: 300, scheduledStartTime: 100 },
      { id: "unscheduled", ordinal: 2, assignedStartTime: null, scheduledStartTime: null },
      { id: "planned", ordinal: 3, assignedStartTime: null, scheduledStartTime: 200 },
      { id: "early", ordinal: 4, assignedStartTime: 150, scheduledStartTime: 400 },
    ];
    expect(orderStartGroups(groups).map((g) => [g.id, g.ordinal])).toEqual([
      ["early", 1],
      ["planned", 2],
      ["late", 3],
      ["unscheduled", 4],
    ]);
    expect(groups[0]?.ordinal).toBe(1);
  });

  it("keeps the old order between groups at the same time", () => {
    const groups = [
      { id: "b", ordinal: 5, assignedStartTime: 100, scheduledStartTime: null },
      { id: "a", ordinal: 2, assignedStartTime: 100, scheduledStartTime: null },
      { id: "x", ordinal: 9, assignedStartTime: null, scheduledStartTime: null },
      { id: "w", ordinal: 7, assignedStartTime: null, scheduledStartTime: null },
    ];
    expect(orderStartGroups(groups).map((g) => g.id)).toEqual(["a", "b", "w", "x"]);
  });
});
