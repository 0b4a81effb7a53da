/**
 * What a paged results page tells its shard it shows, so the shard sends it only the rows that can change it
 * (decision 0085). A page of 50 rows on a phone does not need the 15,000-racer race's every change: a row
 * matters only if it is on the page, or sorts before the page's last row in the page's group (or the page is not
 * full). That is the rule the browser applies to each frame (app/hooks/window-frames.ts); the shard applies the
 * same one before sending, and the browser keeps applying it after, so a shard that knows nothing (an old page,
 * a search, an order by a split column) simply sends everything as before.
 *
 * No zod here: the browser builds the message with this module (the server checks it with race-socket.ts).
 */
import { compareKeys } from "../../core/timing/rank";
import { RANKING_TYPES, type RankingType } from "../../core/timing/multistage";
import type { ResultRow } from "./race-socket";
import { rankingKey, type ResultsWindow } from "./results-window";

/** Racers on a page are named by this many leading characters of their id: the filter must fit a socket's 2 KB attachment. */
export const FILTER_RACER_CHARS = 12;
/** A page naming more racers than this (a relay page lists every member) is sent everything. */
export const MAX_FILTER_RACERS = 100;

/** The page a socket shows, as the page sends it (`{"type":"window", ...}`). */
export interface WindowFilterMessage {
  type: "window";
  formatId: string;
  /** The version the page was fetched at: frames the old filter held back since then are sent again (`window-rows`). */
  version: string;
  group: string;
  /** The sort key of the page's last row when the page is full; null: every row of the group can land on it. */
  lastKey: number[] | null;
  /** The racers on the page, by their ids' first FILTER_RACER_CHARS characters. */
  racers: string[];
  ranking: RankingType;
  multistage: boolean;
}

/** A page that takes every row now (a search, an order by a split), fetched at `version`. */
export interface WindowAllMessage {
  type: "window-all";
  formatId: string;
  version: string;
}

/** What a page tells its shard: its filter, or that it takes every row. */
export function windowMessageOf(window: ResultsWindow): WindowFilterMessage | WindowAllMessage {
  return windowFilterOf(window) ?? { type: "window-all", formatId: window.format.formatId, version: window.format.version };
}

/** The filter of a page, or null when the page is one the shard cannot judge (a search, an order by a split) and takes every row. */
export function windowFilterOf(window: ResultsWindow): WindowFilterMessage | null {
  const current = window.current;
  if (!current || window.query.search !== "" || window.query.sort !== null) return null;
  const racers = [...new Set(current.entries.map((entry) => entry.row.racerId.slice(0, FILTER_RACER_CHARS)))];
  if (racers.length > MAX_FILTER_RACERS) return null;
  return {
    type: "window",
    formatId: window.format.formatId,
    version: window.format.version,
    group: current.group.id,
    lastKey: current.lastKey,
    racers,
    ranking: window.query.ranking,
    multistage: window.format.stage !== undefined,
  };
}

/**
 * Whether a pushed row can change the page: it is on it, or it sorts into it in the page's group, or its place may
 * have gone back (`fell`). Where a fallen racer was is not in its new row, and if that was ahead of the page, the
 * page's rows each moved up one; so every page takes it and fetches itself again (decision 0087).
 */
export function rowMattersToWindow(filter: Omit<WindowFilterMessage, "type" | "formatId" | "version">, row: ResultRow, onPage: boolean, fell = false): boolean {
  if (onPage || fell) return true;
  if (!row.groups.includes(filter.group)) return false;
  return filter.lastKey === null || compareKeys(rankingKey(row, filter.ranking, filter.multistage), filter.lastKey) < 0;
}

/** Rows of a frame, and the racers among them whose place may have gone back (decision 0087). */
export interface RowsAndFell {
  rows: ResultRow[];
  fell: string[];
}

/** A frame's rows that can change the page the filter describes, in the frame's order, and which of them fell. */
export function rowsForWindow(filter: WindowFilterMessage, rows: readonly ResultRow[], fell: readonly string[] = []): RowsAndFell {
  const racers = new Set(filter.racers);
  const fallen = new Set(fell);
  const kept = rows.filter((row) => rowMattersToWindow(filter, row, racers.has(row.racerId.slice(0, FILTER_RACER_CHARS)), fallen.has(row.racerId)));
  return { rows: kept, fell: kept.filter((row) => fallen.has(row.racerId)).map((row) => row.racerId) };
}

/**
 * Whether a racer's place may have gone back from `before` to `after` (null: removed): a worse key in a ranking a
 * page can order by, or out of a group it was in. A page behind where it stood then moves up (decision 0087).
 */
export function fellBack(before: ResultRow, after: ResultRow | null): boolean {
  if (after === null || before.groups.some((group) => !after.groups.includes(group))) return true;
  return RANKING_TYPES.some((ranking) => compareKeys(rankingKey(after, ranking, true), rankingKey(before, ranking, true)) > 0);
}

/** A frame's `fell` as the wire has it: absent when no racer fell. */
export function fellField(fell: readonly string[]): { fell?: string[] } {
  return fell.length > 0 ? { fell: [...fell] } : {};
}
