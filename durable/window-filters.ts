/**
 * A shard's side of paged pages' filters (schema/wire/window-filter.ts, decision 0085): which page each socket
 * shows, the sockets grouped by page so a crowd on page 1 costs one filtered frame, and the rows of the last
 * frames, so a page that sends a new filter is sent what its old one held back since its page was fetched.
 * The filter is in the socket's attachment, so a shard that wakes from hibernation still filters; the recent rows
 * are in memory only, and a shard that has none sends `refresh`, as for any gap.
 */
import type { ResultRow } from "../schema/wire/race-socket";
import { rowsForWindow, type RowsAndFell, type WindowFilterMessage } from "../schema/wire/window-filter";

/** About three seconds of ticks: a page's fetch and its filter's way back take well under that. */
export const RECENT_FRAMES = 30;
/** Rows kept across those frames, per format. */
export const RECENT_ROWS = 20_000;

interface RecentFrame {
  from: string;
  version: string;
  rows: readonly ResultRow[];
  fell: readonly string[];
}

/** A socket's filter and the key that sockets showing the same page share. */
export interface FilterEntry {
  filter: WindowFilterMessage;
  key: string;
}

export function filterEntry(filter: WindowFilterMessage): FilterEntry {
  return { filter, key: JSON.stringify([filter.group, filter.lastKey, filter.racers, filter.ranking, filter.multistage]) };
}

export class WindowFilters {
  /** Read from each socket's attachment once per wake-up (null: the socket takes every row). */
  private readonly bySocket = new WeakMap<WebSocket, FilterEntry | null>();
  private readonly recent = new Map<string, RecentFrame[]>();

  constructor(private readonly read: (ws: WebSocket) => WindowFilterMessage | null) {}

  set(ws: WebSocket, filter: WindowFilterMessage | null): void {
    this.bySocket.set(ws, filter ? filterEntry(filter) : null);
  }

  entryOf(ws: WebSocket): FilterEntry | null {
    let entry = this.bySocket.get(ws);
    if (entry === undefined) {
      const filter = this.read(ws);
      entry = filter ? filterEntry(filter) : null;
      this.bySocket.set(ws, entry);
    }
    return entry;
  }

  /** The sockets that take every row, and the others by the page they show. */
  split(sockets: readonly WebSocket[]): { plain: WebSocket[]; pages: Map<string, { filter: WindowFilterMessage; sockets: WebSocket[] }> } {
    const plain: WebSocket[] = [];
    const pages = new Map<string, { filter: WindowFilterMessage; sockets: WebSocket[] }>();
    for (const ws of sockets) {
      const entry = this.entryOf(ws);
      if (!entry) {
        plain.push(ws);
        continue;
      }
      const page = pages.get(entry.key);
      if (page) page.sockets.push(ws);
      else pages.set(entry.key, { filter: entry.filter, sockets: [ws] });
    }
    return { plain, pages };
  }

  /** Keeps a forwarded frame's rows; one that does not follow the last starts the format's list again. */
  record(formatId: string, from: string, version: string, rows: readonly ResultRow[], fell: readonly string[] = []): void {
    let frames = this.recent.get(formatId);
    if (!frames || frames.at(-1)?.version !== from) {
      frames = [];
      this.recent.set(formatId, frames);
    }
    frames.push({ from, version, rows, fell });
    let total = frames.reduce((sum, frame) => sum + frame.rows.length, 0);
    while (frames.length > RECENT_FRAMES || (frames.length > 1 && total > RECENT_ROWS)) total -= frames.shift()!.rows.length;
  }

  forget(formatId: string): void {
    this.recent.delete(formatId);
  }

  /**
   * Every row that changed after `since` up to `version`, each as at `version`, that the filter lets through (all
   * of them without one), with the racers that fell in any of those frames; null when the recent frames do not
   * reach back to `since`.
   */
  rowsSince(formatId: string, since: string, version: string, filter: WindowFilterMessage | null): RowsAndFell | null {
    const frames = this.recent.get(formatId);
    if (!frames || frames.at(-1)!.version !== version) return null;
    const first = frames.findIndex((frame) => frame.from === since);
    if (first < 0) return null;
    const latest = new Map<string, ResultRow>();
    const fell = new Set<string>();
    for (const frame of frames.slice(first)) {
      for (const row of frame.rows) latest.set(row.racerId, row);
      for (const id of frame.fell) fell.add(id);
    }
    return filter ? rowsForWindow(filter, [...latest.values()], [...fell]) : { rows: [...latest.values()], fell: [...fell] };
  }
}
