import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../../core/testing/fast-check";
import { groupTiming, nextGroupIndex, TV_DEFAULTS, TV_HOLD_END_MS, TV_HOLD_START_MS, tvSettings } from "./tv-plan";

describe("TV mode's settings", () => {
  it("reads the format's fields, with defaults for unset ones and limits for absurd ones", () => {
    expect(tvSettings({ scroll_speed: null, scroll_factor: null, top_x: null })).toEqual({ ...TV_DEFAULTS, topX: null });
    expect(tvSettings({ scroll_speed: 3, scroll_factor: 1.5, top_x: 10 })).toEqual({ rowsPerSecond: 3, scale: 1.5, topX: 10 });
    expect(tvSettings({ scroll_speed: 500, scroll_factor: 0.01, top_x: 0 })).toEqual({ rowsPerSecond: 10, scale: 0.5, topX: null });
    expect(tvSettings({ scroll_speed: -1, scroll_factor: Number.NaN, top_x: null })).toEqual({ ...TV_DEFAULTS, topX: null });
  });
});

describe("a group's time on screen", () => {
  const settings = { rowsPerSecond: 2, scale: 1, topX: null };

  it("holds a group that fits, and scrolls the rows that do not at the set speed", () => {
    expect(groupTiming(8, 12, settings)).toEqual({ overflowRows: 0, scrollMs: 0, dwellMs: TV_HOLD_START_MS });
    expect(groupTiming(32, 12, settings)).toEqual({ overflowRows: 20, scrollMs: 10_000, dwellMs: TV_HOLD_START_MS + 10_000 + TV_HOLD_END_MS });
  });

  it("shows only the top rows when top_x is set", () => {
    expect(groupTiming(500, 12, { ...settings, topX: 20 }).overflowRows).toBe(8);
  });

  it("never scrolls more rows than the group shows, nor a negative number", () => {
    fc.assert(
      fc.property(fc.nat(5000), fc.nat(60), fc.option(fc.integer({ min: 1, max: 100 }), { nil: null }), (rows, visible, topX) => {
        const t = groupTiming(rows, visible, { rowsPerSecond: 1.5, scale: 1, topX });
        const shown = topX === null ? rows : Math.min(rows, topX);
        return t.overflowRows >= 0 && t.overflowRows <= shown && t.dwellMs >= TV_HOLD_START_MS && t.scrollMs >= 0;
      }),
      fcParams(),
    );
  });
});

describe("cycling through the groups", () => {
  it("goes round the groups that have rows, and stays on a lone one", () => {
    expect(nextGroupIndex([5, 0, 3], 0)).toBe(2);
    expect(nextGroupIndex([5, 0, 3], 2)).toBe(0);
    expect(nextGroupIndex([5], 0)).toBe(0);
    expect(nextGroupIndex([0, 0], 1)).toBe(1);
    expect(nextGroupIndex([], 0)).toBe(0);
  });
});
