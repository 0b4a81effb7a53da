/**
 * TV mode's timing (issue 23, decision 0038): how big the rows are, how many a group shows, how long a group
 * stays on screen and how fast it scrolls, from the result format's scroll_speed, scroll_factor and top_x.
 * The spec names the fields and not their units; ours: scroll_speed is rows per second, scroll_factor the
 * size of the type against the standard TV size, top_x the rows shown per group (none: every row).
 */
export interface TvSettings {
  rowsPerSecond: number;
  scale: number;
  topX: number | null;
}

export const TV_DEFAULTS = { rowsPerSecond: 1.5, scale: 1 } as const;
/** Seconds a group is still at the top before it scrolls, and at the bottom before the next group. */
export const TV_HOLD_START_MS = 4000;
export const TV_HOLD_END_MS = 3000;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

export function tvSettings(format: { scroll_speed: number | null; scroll_factor: number | null; top_x: number | null }): TvSettings {
  const speed = format.scroll_speed;
  const factor = format.scroll_factor;
  return {
    rowsPerSecond: speed !== null && Number.isFinite(speed) && speed > 0 ? clamp(speed, 0.2, 10) : TV_DEFAULTS.rowsPerSecond,
    scale: factor !== null && Number.isFinite(factor) && factor > 0 ? clamp(factor, 0.5, 3) : TV_DEFAULTS.scale,
    topX: format.top_x !== null && format.top_x > 0 ? Math.floor(format.top_x) : null,
  };
}

export interface GroupTiming {
  /** Rows hidden below the screen at the start, scrolled into view. */
  overflowRows: number;
  scrollMs: number;
  /** From showing the group to showing the next. */
  dwellMs: number;
}

/** A group of `rows` on a screen that holds `visibleRows`: still, then scrolling its overflow at the set speed. */
export function groupTiming(rows: number, visibleRows: number, settings: TvSettings): GroupTiming {
  const shown = settings.topX === null ? rows : Math.min(rows, settings.topX);
  const overflowRows = Math.max(0, shown - Math.max(1, visibleRows));
  const scrollMs = Math.round((overflowRows / settings.rowsPerSecond) * 1000);
  return { overflowRows, scrollMs, dwellMs: TV_HOLD_START_MS + scrollMs + (overflowRows > 0 ? TV_HOLD_END_MS : 0) };
}

/** The next group to show after `index`: the following one with rows, round and round; the same when alone. */
export function nextGroupIndex(rowCounts: readonly number[], index: number): number {
  for (let step = 1; step <= rowCounts.length; step++) {
    const candidate = (index + step) % rowCounts.length;
    if ((rowCounts[candidate] ?? 0) > 0) return candidate;
  }
  return rowCounts.length === 0 ? 0 : index % rowCounts.length;
}
