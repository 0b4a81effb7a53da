/**
 * What the race's pages read of its results, in one place: a format's snapshot, a page of it, the announcer's
 * view, a racer's page, and the version a format's frames chain from. Each is built from the live results and
 * storage (never memory alone), and the caches of pages and announcer views sit beside the snapshot they came
 * from. The RaceRoom's RPC methods only call these.
 */
import { packEntries, raceEntries, type PackedEntry } from "../../core/series/race-entries";
import { byBibThenLastName, matchesRacerSearch } from "../../core/timing/racer-name";
import type { AnnouncerView } from "../../schema/wire/announcer-view";
import type { StoredRacer } from "../../schema/race/engine-input";
import { reportRacerOf } from "../../schema/race/report-racer";
import type { ReportRacer } from "../../core/timing/start-list";
import type { FormatSnapshot } from "../../schema/wire/race-socket";
import type { ResultsWindow, WindowQuery } from "../../schema/wire/results-window";
import { AnnouncerViews } from "./announcer";
import type { LiveFeed } from "./live-feed";
import { racerDetailOf, type RacerDetail } from "./racer-detail";
import { ResultWindows } from "./result-windows";
import type { RaceStore } from "./store";

export interface ResultViewsHost {
  store: RaceStore;
  feed: LiveFeed;
  /** The race's sport, for the racer page's pace or speed. */
  sport(): string | null;
}

export interface RacerView extends StoredRacer {
  status: string;
  statusText: string;
  time: number | null;
}

/** A page of the racers list: `q` as the list searches (core/timing/racer-name.ts), page 1 first. */
export interface RacerQuery {
  q: string;
  page: number;
  perPage: number;
}

export interface RacerPage {
  racers: RacerView[];
  /** Racers matching the search. */
  total: number;
  /** Racers in the race. */
  all: number;
  /** The page given, clamped to the pages there are. */
  page: number;
  pages: number;
}

/** Some of the field, in the order racers were added, and where the next slice starts. */
export interface Slice<T> {
  racers: T[];
  /** The cursor to ask after for the next slice; null when this one ends the field. */
  next: number | null;
}

export type RacerSlice = Slice<RacerView>;

/** The racers list's order (core/timing/racer-name.ts), for views. */
export function byBibThenName(a: RacerView, b: RacerView): number {
  return byBibThenLastName({ bib: a.data.bib, lastName: a.data.last_name }, { bib: b.data.bib, lastName: b.data.last_name });
}

/** The most racers one page carries: a page of views stays far below RPC's 32 MiB (decision 0096). */
export const MAX_RACERS_PER_PAGE = 2_000;

export class ResultViews {
  private readonly windows = new ResultWindows();
  private readonly announcer = new AnnouncerViews();

  constructor(private readonly host: ResultViewsHost) {}

  snapshot(formatId: string): FormatSnapshot | null {
    const format = this.host.store.document("ResultFormat", formatId);
    return format ? this.host.feed.snapshot(format) : null;
  }

  /** A format's results as a points series scores them, packed: a series reads 5,000 racers' entries, not their rows. */
  seriesEntries(formatId: string, categories: readonly string[]): PackedEntry[] | null {
    const snapshot = this.snapshot(formatId);
    return snapshot ? packEntries(raceEntries(snapshot.groups, snapshot.rows, categories)) : null;
  }

  window(formatId: string, query: WindowQuery): ResultsWindow | null {
    const snapshot = this.snapshot(formatId);
    return snapshot ? this.windows.window(snapshot, query) : null;
  }

  /** Null for a format that is not an announcer format. */
  announcerView(formatId: string, now: number): AnnouncerView | null {
    const format = this.host.store.document("ResultFormat", formatId);
    if (!format?.data.is_announcer) return null;
    const { store, feed } = this.host;
    return this.announcer.view({ store, live: feed.results(), snapshot: feed.snapshot(format), now });
  }

  racerDetail(racerId: string, formatIds: string[]): RacerDetail | null {
    const versions = this.host.feed.push.read().formatVersions;
    const formats = this.host.store.documents("ResultFormat");
    const source = { live: this.host.feed.results(), formats, versionOf: (id: string) => String(versions[id] ?? 0), sport: this.host.sport() };
    return racerDetailOf(source, racerId, formatIds);
  }

  /** The wanted format (null: the first public one) and its results version; null when there is none. */
  scoredFormat(wanted: string | null): { formatId: string; version: string } | null {
    const formats = this.host.store.documents("ResultFormat");
    // Only null means "the public one": an id that names nothing (an empty one too) scores nothing.
    const format = wanted !== null ? formats.find((f) => f.id === wanted) : formats.find((f) => f.data.is_public);
    return format ? { formatId: format.id, version: String(this.host.feed.push.read().formatVersions[format.id] ?? 0) } : null;
  }

  /**
   * One page of the racers list, searched and paged here: the whole field of a big race passes the 32 MiB an RPC
   * carries (near 40,000 racers), and a page of 50 needs none of it outside the room. The search and the order
   * read bibs and names alone; only the page's documents are parsed.
   */
  racerPage(query: RacerQuery): RacerPage {
    const lastNameFirst = this.host.feed.results().setup.settings.is_last_name_first;
    const names = this.host.store.racerNames();
    const matches = names
      .filter((racer) => matchesRacerSearch(racer, query.q, lastNameFirst))

      .sort(byBibThenLastName);
    const perPage = Math.min(Math.max(1, Math.floor(query.perPage) || 1), MAX_RACERS_PER_PAGE);
    const pages = Math.max(1, Math.ceil(matches.length / perPage));
    const page = Math.min(Math.max(1, Math.floor(query.page) || 1), pages);
    const shown = matches.slice((page - 1) * perPage, page * perPage).map((racer) => racer.id);
    return { racers: this.viewsOf(this.host.store.racersById(shown)), total: matches.length, all: names.length, page, pages };
  }

  /**
   * Up to `limit` racers after the cursor `after` (0 first), and the cursor to ask after next (null at the end):
   * the whole field in slices that each stay far below RPC's 32 MiB, each costing only its own racers.
   */
  racerSlice(after: number, limit: number): RacerSlice {
    return this.slice(after, limit, (racers) => this.viewsOf(racers));
  }

  /** As racerSlice, each racer as the reports read it: a few fields where a view carries the whole document. */
  reportRacerSlice(after: number, limit: number, countryKey: string | null): Slice<ReportRacer> {
    return this.slice(after, limit, (racers) => racers.map((racer) => reportRacerOf(racer, countryKey)));
  }

  private slice<T>(after: number, limit: number, draw: (racers: StoredRacer[]) => T[]): Slice<T> {
    const count = Math.min(Math.max(1, Math.floor(limit) || 1), MAX_RACERS_PER_PAGE);
    const rows = this.host.store.racersAfter(after, count);
    return { racers: draw(rows.map((r) => r.racer)), next: rows.length < count ? null : rows[rows.length - 1]!.row };
  }

  private viewsOf(stored: StoredRacer[]): RacerView[] {
    const live = this.host.feed.results();
    return stored.map((r) => {
      const result = live.result(r.id);
      return { ...r, status: result?.status ?? "notstarted", statusText: result?.statusText ?? "", time: result?.time ?? null };
    });
  }
}
