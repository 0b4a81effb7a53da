import { useEffect, useRef, useState } from "react";
import type { FormatSnapshot } from "../../schema/wire/race-socket";
import { useLiveResults } from "../hooks/use-live-results";
import { groupViews } from "../results/results-state";
import { timeCell } from "../results/result-cells";
import { groupTiming, nextGroupIndex, TV_HOLD_START_MS, type TvSettings } from "../results/tv-plan";
import { LiveStatus } from "./live-status";

/** Row height in rem at scale 1: readable from 3 metres on a 1080p screen. */
const ROW_REM = 3.2;
/** Rows the server assumes a screen holds, until the browser measures it. */
const FIRST_VISIBLE_ROWS = 12;

/**
 * Results for a screen at the venue: one result group at a time in large type, still and then scrolling at
 * the format's speed, top_x rows per group, then the next group, round and round. Rows stay live through the
 * race socket, which reconnects by itself after a network drop and catches up from the version it had.
 */
export function TvResults({ raceId, raceName, snapshot, settings }: { raceId: string; raceName: string; snapshot: FormatSnapshot; settings: TvSettings }) {
  const { live, results } = useLiveResults(raceId, snapshot);
  // A screen shows who has raced: finishers, racers on course and those with a status, not the whole start list.
  const views = groupViews(results, "").map((v) => ({ ...v, ranked: v.ranked.filter((r) => r.rank !== null || r.row.statusText || r.row.splits.length > 0) }));
  const counts = views.map((v) => (settings.topX === null ? v.ranked.length : Math.min(v.ranked.length, settings.topX)));
  const [index, setIndex] = useState(0);
  const [scrolling, setScrolling] = useState(false);
  const [visibleRows, setVisibleRows] = useState(FIRST_VISIBLE_ROWS);
  const screen = useRef<HTMLDivElement>(null);
  const current = views[index % Math.max(1, views.length)];
  const rows = current ? (settings.topX === null ? current.ranked : current.ranked.slice(0, settings.topX)) : [];
  const timing = groupTiming(rows.length, visibleRows, settings);
  const countsKey = counts.join(",");

  // The screen's size decides how many rows fit; measured once mounted and again when it changes.
  useEffect(() => {
    const measure = () => {
      const rowPx = ROW_REM * settings.scale * parseFloat(getComputedStyle(document.documentElement).fontSize);
      const height = screen.current?.clientHeight ?? window.innerHeight;
      setVisibleRows(Math.max(1, Math.floor(height / rowPx)));
    };
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, [settings.scale]);

  // Still at the top, then scrolling, then the next group; restarted whenever the group changes.
  useEffect(() => {
    setScrolling(false);
    const start = window.setTimeout(() => setScrolling(true), TV_HOLD_START_MS);
    const next = window.setTimeout(() => setIndex((i) => nextGroupIndex(countsKey.split(",").map(Number), i)), timing.dwellMs);
    return () => {
      window.clearTimeout(start);
      window.clearTimeout(next);
    };
  }, [index, timing.dwellMs, countsKey]);

  const rowHeight = `${ROW_REM * settings.scale}rem`;
  const offset = scrolling ? `translateY(calc(-${timing.overflowRows} * ${rowHeight}))` : "translateY(0)";
  return (
    <div className="tv-screen" style={{ fontSize: `${2 * settings.scale}rem` }} data-group-id={current?.group.id ?? ""} data-scrolling={String(scrolling)}>
      <header className="tv-header">
        <span className="tv-race">{raceName}</span>
        <span className="tv-group">{current ? current.group.name : "Results"}</span>
        <LiveStatus state={live} />
      </header>
      <div className="tv-rows" ref={screen}>
        {rows.length === 0 ? (
          <p className="tv-empty">Results appear here as racers finish.</p>
        ) : (
          <ol
            className="tv-list"
            style={{ transform: offset, transition: scrolling ? `transform ${timing.scrollMs}ms linear` : "none" }}
            aria-label={`${current?.group.name ?? "Results"}, ${rows.length} racers`}
          >
            {rows.map((r) => (
              <li key={r.row.racerId} className={results.changed.has(r.row.racerId) ? "tv-row just-changed" : "tv-row"} style={{ height: rowHeight }}>
                <span className="tv-rank">{r.rank ?? ""}</span>
                <span className="tv-bib">{r.row.bib ?? ""}</span>
                <span className="tv-name">{r.row.name}</span>
                <span className="tv-time">{timeCell(r.row, r.shownTime, r.sameTime, results.snapshot.sameTimeDisplay, results.snapshot.displayPrecision)}</span>
              </li>
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}
