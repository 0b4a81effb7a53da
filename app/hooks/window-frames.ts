/**
 * What a race socket frame does to a paged results page (one group, one page of rows). Rows on the page
 * are patched at once; whether the page must be fetched again is decided with the sort key the room pages
 * by (schema/wire/results-window.ts), so a crowd on page 1 of a marathon fetches nothing while the field
 * finishes behind the racers it shows.
 */
import { compareKeys } from "../../core/timing/rank";
import type { RaceServerMessage, ResultRow } from "../../schema/wire/race-socket";
import { searchMatcher, windowSortKey, type ResultsWindow } from "../../schema/wire/results-window";
import type { FrameOutcome } from "./race-socket";
import { notAfter } from "./versions";

/**
 * - `now`: the page cannot follow the frames (a gap, a new shape, another version at connect): fetch it now;
 * - `soon`: pushed rows move the page (a place, a new racer on it): fetch it after a short, spread-out wait.
 */
export type Refetch = "now" | "soon" | null;

export interface WindowStep {
  /** The same object when the frame changed nothing on the page. */
  window: ResultsWindow;
  /** Racers on the page whose row the frame changed, for a brief highlight. */
  changed: ReadonlySet<string> | null;
  outcome: FrameOutcome;
  refetch: Refetch;
  /**
   * The version the socket said exists, when the page is behind it: the fetch asks for at least this one (`v`),
   * so neither the edge's cache nor the browser's answers with the page held already.
   */
  target?: string;
}

export function followWindowFrame(window: ResultsWindow, message: RaceServerMessage): WindowStep {
  const held = window.format.version;
  const formatId = window.format.formatId;
  const unchanged: WindowStep = { window, changed: null, outcome: "ok", refetch: null };
  switch (message.type) {
    case "hello":
      // A hello without a version is a socket that follows no format.
      if (message.version === undefined || message.version === held) return { ...unchanged, outcome: message.version === held ? "current" : "ok" };
      return { ...unchanged, refetch: "now", target: message.version };
    case "refresh":
      return message.formatId === formatId && message.version !== held ? { ...unchanged, refetch: "now", target: message.version } : unchanged;
    case "snapshot":
      // Only whole-format sockets are sent these; a page that gets one anyway fetches its page.
      return message.snapshot.formatId === formatId && message.snapshot.version !== held
        ? { ...unchanged, refetch: "now", target: message.snapshot.version }
        : unchanged;
    case "rows":
    case "window-rows": {
      // `window-rows` (decision 0085): every row that can change a page that told its shard what it shows, each as
      // at `version`. Ticks with nothing for the page are not sent, so there is no chain to follow, and it applies
      // over a page already at `version`; a page fetched since (newer) has them already.
      const chained = message.type === "rows";
      const older = notAfter(message.version, held) && message.version !== held;
      if (message.formatId !== formatId || older || (chained && message.version === held)) return unchanged;
      if (chained && message.from !== held) return { ...unchanged, refetch: "now", target: message.version };
      const { next, changed, moves } = applyToPage(window, message.rows, message.fell ?? []);
      return { window: { ...next, format: { ...next.format, version: message.version } }, changed, outcome: "current", refetch: moves ? "soon" : null };
    }
    default:
      return unchanged;
  }
}

/** Patches the page's rows that changed, and says whether any pushed row can move what the page shows. */
function applyToPage(
  window: ResultsWindow,
  rows: readonly ResultRow[],
  fell: readonly string[],
): { next: ResultsWindow; changed: Set<string>; moves: boolean } {
  const current = window.current;
  if (!current) return { next: window, changed: new Set(), moves: false };
  const pushed = new Map(rows.map((row) => [row.racerId, row]));
  const changed = new Set<string>();
  const entries = current.entries.map((entry) => {
    const row = pushed.get(entry.row.racerId);
    if (!row) return entry;
    changed.add(row.racerId);
    return { ...entry, row: row.groups.length === 0 ? entry.row : row };
  });
  const matches = searchMatcher(window.query.search);
  const multistage = window.format.stage !== undefined;
  const lastKey = current.lastKey;
  // A racer on the page can change place; another one moves it only by sorting before its last row (or onto a page
  // that is not full), or by falling back from where it was, which its new row does not say (decision 0087).
  const moves =
    changed.size > 0 ||
    fell.length > 0 ||
    rows.some(
      (row) =>
        row.groups.includes(current.group.id) &&
        matches(row) &&
        (lastKey === null || compareKeys(windowSortKey(row, current.group, window.query, multistage), lastKey) < 0),
    );
  return { next: changed.size > 0 ? { ...window, current: { ...current, entries } } : window, changed, moves };
}
