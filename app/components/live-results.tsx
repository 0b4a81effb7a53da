import { memo, useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { Form, Link, useSubmit } from "@remix-run/react";
import { formatRaceTime } from "../../core/time/format";
import type { TeamResult } from "../../core/timing/relay";
import { splitCellTime } from "../../core/timing/result-columns";
import type { FormatSnapshot, ResultRow } from "../../schema/wire/race-socket";
import {
  isSplitColumn,
  WINDOW_PAGE_SIZE,
  windowSearch,
  type GroupWindow,
  type ResultsWindow,
  type WindowEntry,
  type WindowQuery,
} from "../../schema/wire/results-window";
import { useLiveWindow } from "../hooks/use-live-window";
import { LiveStatus } from "./live-status";
import type { GroupView } from "../results/results-state";
import { columnCell, diffCell, legRacer, legTime, paceCell, teamTimeCell, timeCell, withStageColumns } from "../results/result-cells";

/** Typing in the search box searches after this pause (the form still submits on Enter without JavaScript). */
const SEARCH_PAUSE_MS = 350;

/**
 * A result format's results, one group and one page at a time (decision 0044): server-rendered, every control
 * a plain link or GET form (so it works before hydration and can be shared), kept live by the race socket.
 */
export function LiveResults({ raceId, initial }: { raceId: string; initial: ResultsWindow }) {
  const [liveOn, setLiveOn] = useState(true);
  const { live, window, changed } = useLiveWindow(raceId, initial, liveOn);
  const { format, query, current } = window;
  const multistage = query.ranking === "multistage" && format.stage !== undefined;
  const stageNumber = multistage ? (format.stage?.number ?? 0) : 0;
  const precision = format.displayPrecision;
  const href = (changes: Partial<WindowQuery>) => windowSearch({ ...query, racer: null, ...changes }, format.formatId) || "?";
  return (
    <div className="live-results">
      <LiveStatus state={live} onToggle={() => setLiveOn((on) => !on)} />
      {format.isAnnouncer ? <LatestFinishers rows={window.latest ?? []} precision={precision} /> : null}
      {window.groups.length > 1 ? (
        <nav aria-label="Result groups">
          <ul className="format-links group-tabs">
            {window.groups.map((g) => (
              <li key={g.id}>
                <Link to={href({ group: g.id, page: 1, sort: null })} aria-current={g.id === query.group ? "page" : undefined} preventScrollReset>
                  {g.name} <span className="count">({g.total.toLocaleString("en")})</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <ResultsSearch formatId={format.formatId} query={query} />
      <nav aria-label="Times shown" className="view-toggle">
        <ul className="format-links">
          <li>
            <Link to={href({ behind: false })} aria-current={!query.behind ? "page" : undefined} preventScrollReset>
              Elapsed times
            </Link>
          </li>
          <li>
            <Link to={href({ behind: true })} aria-current={query.behind ? "page" : undefined} preventScrollReset>
              Time behind
            </Link>
          </li>
        </ul>
      </nav>
      {current && !current.teams && stageNumber === 0 && current.group.columns.some(isSplitColumn) ? (
        <nav aria-labelledby="order-by" className="narrow-only order-links">
          <span id="order-by" className="order-label">
            Order by
          </span>
          <ul className="format-links">
            {[{ index: null, name: "Rank" }, ...current.group.columns.filter(isSplitColumn)].map((c) => (
              <li key={c.index ?? "rank"}>
                <Link to={href({ sort: c.index, page: 1 })} aria-current={query.sort === c.index ? "page" : undefined} preventScrollReset>
                  {c.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {current === null || (window.groups.every((g) => g.total === 0) && query.search === "") ? (
        <p className="empty-state">No racers yet. Results appear here as racers cross the timing points.</p>
      ) : current.teams && format.relay ? (
        <TeamTable window={current} teams={current.teams} relay={format.relay} precision={precision} searching={query.search !== ""} />
      ) : (
        <GroupTable
          window={current}
          query={query}
          stageNumber={stageNumber}
          precision={precision}
          showDiffs={format.displayDiffs}
          sameTimeLabel={format.sameTimeDisplay}
          changed={changed}
          href={href}
          racerBase={`/races/${raceId}/racers`}
          formatId={format.formatId}
        />
      )}
      {current ? <Pager window={current} href={href} /> : null}
    </div>
  );
}

/** The search: a GET form (Enter works without JavaScript); with it, results follow the typing after a pause. */
function ResultsSearch({ formatId, query }: { formatId: string; query: WindowQuery }) {
  const searchId = useId();
  const submit = useSubmit();
  const pause = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(pause.current ?? undefined), []);
  const hidden: [string, string | null][] = [
    ["format", formatId],
    ["group", query.group],
    ["ranking", query.ranking === "default" ? null : query.ranking],
    ["view", query.behind ? "behind" : null],
    ["sort", query.sort === null ? null : String(query.sort)],
  ];
  return (
    <Form method="get" className="search" role="search" preventScrollReset>
      {hidden.map(([name, value]) => (value === null ? null : <input key={name} type="hidden" name={name} value={value} />))}
      <label htmlFor={searchId}>Find a racer</label>
      <div className="search-row">
        <input
          id={searchId}
          type="search"
          name="q"
          inputMode="search"
          placeholder="Name, bib or club"
          defaultValue={query.search}
          maxLength={80}
          autoComplete="off"
          onChange={(e) => {
            const form = e.currentTarget.form;
            clearTimeout(pause.current ?? undefined);
            pause.current = setTimeout(() => form && submit(form, { replace: true, preventScrollReset: true }), SEARCH_PAUSE_MS);
          }}
        />
        <button type="submit" className="button-secondary">
          Search
        </button>
      </div>
    </Form>
  );
}

/** "Showing 51–100 of 27,000" and links to the pages around this one. */
function Pager({ window, href }: { window: GroupWindow; href: (changes: Partial<WindowQuery>) => string }) {
  if (window.matched === 0) return null;
  const first = (window.page - 1) * WINDOW_PAGE_SIZE + 1;
  const last = Math.min(window.matched, window.page * WINDOW_PAGE_SIZE);
  const of = window.matched === window.total ? window.total.toLocaleString("en") : `${window.matched.toLocaleString("en")} found`;
  const pages = [...new Set([1, window.page - 2, window.page - 1, window.page, window.page + 1, window.page + 2, window.pages])]
    .filter((p) => p >= 1 && p <= window.pages)
    .sort((a, b) => a - b);
  return (
    <nav aria-label="Pages of results" className="pager">
      <p className="pager-count">{`Showing ${first.toLocaleString("en")}–${last.toLocaleString("en")} of ${of}`}</p>
      {window.pages > 1 ? (
        <ul className="format-links">
          {window.page > 1 ? (
            <li>
              <Link to={href({ page: window.page - 1 })} rel="prev">
                ← Previous
              </Link>
            </li>
          ) : null}
          {pages.map((p, i) => (
            <li key={p}>
              {i > 0 && p > pages[i - 1]! + 1 ? <span aria-hidden="true">… </span> : null}
              <Link to={href({ page: p })} aria-current={p === window.page ? "page" : undefined} aria-label={`Page ${p}`}>
                {p}
              </Link>
            </li>
          ))}
          {window.page < window.pages ? (
            <li>
              <Link to={href({ page: window.page + 1 })} rel="next">
                Next →
              </Link>
            </li>
          ) : null}
        </ul>
      ) : null}
    </nav>
  );
}

/** A page of a group as the shared cell formatters read it (result-cells.ts). */
function viewOf(window: Pick<GroupWindow, "group" | "standings" | "leaderLaps" | "total">, behind: boolean): GroupView {
  const standings = window.standings ? new Map(window.standings.map((s) => [s.index, { best: s.best, ranks: new Map(Object.entries(s.places)) }])) : undefined;
  // Times behind: each split shows the gap to the fastest there.
  const group = { ...window.group, splitGaps: window.group.splitGaps || behind };
  return { group, ranked: [], total: window.total, leaderLaps: window.leaderLaps, standings };
}

/**
 * A relay group: one row per team, a column per leg with its racer and the leg's time (the racer's own leg,
 * or the team's time at that handover, by team_lap_time_display), and the team's time.
 */
function TeamTable(props: { window: GroupWindow; teams: TeamResult[]; relay: NonNullable<FormatSnapshot["relay"]>; precision: number; searching: boolean }) {
  const { teams, precision } = props;
  const rows = new Map(props.window.entries.map((e) => [e.row.racerId, e.row]));
  const legs = Array.from({ length: props.relay.memberCount }, (_, i) => i);
  const empty =
    teams.length === 0 ? (props.searching ? "No team matches that search." : "No teams in this group yet. A racer joins a team through the team field.") : null;
  return (
    <ResultSection name={props.window.group.name} empty={empty}>
      <div className="table-scroll">
        <table className="data-table results-table relay-table">
          <thead>
            <tr>
              <th scope="col" className="num">
                Rank
              </th>
              <th scope="col">Team</th>
              {legs.map((i) => (
                <th scope="col" key={i} className="wide-only">{`Leg ${i + 1}`}</th>
              ))}
              <th scope="col" className="num">
                Time
              </th>
            </tr>
          </thead>
          <tbody>
            {teams.map((team) => {
              const teamStart = team.legs[0]?.start ?? null;
              return (
                <tr key={team.team} data-team={team.team}>
                  <td className="num">{team.rank ?? ""}</td>
                  <th scope="row">{team.team}</th>
                  {legs.map((i) => {
                    const leg = team.legs[i];
                    const row = leg ? rows.get(leg.racerId) : undefined;
                    if (!leg || !row) return <td key={i} className="wide-only" />;
                    return (
                      <td key={i} className="wide-only">
                        <span className="leg-racer">{legRacer(row)}</span> <span className="num">{legTime(leg, teamStart, props.relay, precision)}</span>
                      </td>
                    );
                  })}
                  <td className="num result-time">{teamTimeCell(team, precision)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </ResultSection>
  );
}

/** The group's section, named for screen readers (the tabs name it for everyone else): the empty state or the table. */
function ResultSection(props: { name: string; empty: string | null; children: ReactNode }) {
  return (
    <section aria-label={props.name} className="result-group">
      {props.empty !== null ? <p className="empty-state">{props.empty}</p> : props.children}
    </section>
  );
}

function GroupTable(props: {
  window: GroupWindow;
  query: WindowQuery;
  stageNumber: number;
  precision: number;
  showDiffs: boolean;
  sameTimeLabel: string;
  changed: ReadonlySet<string>;
  href: (changes: Partial<WindowQuery>) => string;
  /** The racers' pages: `${racerBase}/{racerId}`; plain links, so they work before hydration and add no client code. */
  racerBase: string;
  formatId: string;
}) {
  const { query, precision, window } = props;
  const { stageNumber, sameTimeLabel, showDiffs, racerBase, formatId } = props;
  // One context for every row, rebuilt only when what the rows show changes: a frame that patches some rows
  // leaves it (and every other row) as it was, so only the patched rows render again.
  const { group, standings, sortPlaces, leaderLaps, total } = window;
  const line = useMemo<LineContext>(() => {
    const base = viewOf({ group, standings, leaderLaps, total }, query.behind);
    const view = stageNumber > 0 ? withStageColumns(base, stageNumber) : base;
    return { view, query, stageNumber, precision, sameTimeLabel, showDiffs, sortPlaces, racerBase, formatId };
  }, [group, standings, sortPlaces, leaderLaps, total, query, stageNumber, precision, sameTimeLabel, showDiffs, racerBase, formatId]);
  const view = line.view;
  const searching = query.search !== "";
  const empty = window.entries.length === 0 ? (searching ? "No racer matches that search." : "No racers in this group yet.") : null;
  return (
    <ResultSection name={view.group.name} empty={empty}>
      <div className="table-scroll">
        <table className="data-table results-table">
          <thead>
            <tr>
              <th scope="col" className="num" aria-sort={query.sort === null ? "ascending" : undefined}>
                {query.sort === null ? "Rank" : <Link to={props.href({ sort: null, page: 1 })}>Rank</Link>}
              </th>
              <th scope="col" className="num">
                Bib
              </th>
              <th scope="col">Name</th>
              <th scope="col" className="wide-only">
                Club
              </th>
              {view.group.columns.map((c) => (
                <th scope="col" key={c.index} className="num wide-only" aria-sort={query.sort === c.index ? "ascending" : undefined}>
                  {isSplitColumn(c) && props.stageNumber === 0 && query.sort !== c.index ? (
                    <Link to={props.href({ sort: c.index, page: 1 })} title={`Order by ${c.name}`}>
                      {c.name}
                    </Link>
                  ) : (
                    c.name
                  )}
                </th>
              ))}
              <th scope="col" className="num">
                {query.behind ? "Behind" : (view.group.timeLabel ?? "Time")}
              </th>
              {view.group.pace ? (
                <th scope="col" className="num">
                  Pace
                </th>
              ) : null}
              {props.showDiffs && !query.behind ? (
                <th scope="col" className="num">
                  Diff
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {window.entries.map((entry) => (
              <ResultLine
                key={entry.row.racerId}
                entry={entry}
                marked={props.changed.has(entry.row.racerId) || query.racer === entry.row.racerId}
                line={line}
              />
            ))}
          </tbody>
        </table>
      </div>
    </ResultSection>
  );
}

/** What every row of a page shares: how cells read, and where racers' pages are. */
interface LineContext {
  view: GroupView;
  query: WindowQuery;
  stageNumber: number;
  precision: number;
  sameTimeLabel: string;
  showDiffs: boolean;
  sortPlaces: Record<string, number> | undefined;
  racerBase: string;
  formatId: string;
}

/** A cell as the page shows it; the ordered column's also says the place by it (unless the group's places are shown). */
function lineCell(line: LineContext, row: ResultRow, column: GroupView["group"]["columns"][number]): string {
  const cell = columnCell(row, column, line.view, line.stageNumber, line.precision);
  const place = line.query.sort === column.index && !line.view.group.splitRanks ? line.sortPlaces?.[row.racerId] : undefined;
  return place === undefined || cell === "" ? cell : `${cell} (${place})`;
}

/** One racer's row; rendered again only when its entry (or what every row shares) changes. */
const ResultLine = memo(function ResultLine({ entry, marked, line }: { entry: WindowEntry; marked: boolean; line: LineContext }) {
  const { view, query, precision } = line;
  const r = { ...entry, result: entry.row };
  const row = entry.row;
  return (
    <tr id={`r-${row.racerId}`} data-bib={row.bib ?? ""} className={marked ? "just-changed" : undefined}>
      <td className="num">{r.rank ?? ""}</td>
      <td className="num">{row.bib ?? ""}</td>
      <td>
        <a href={`${line.racerBase}/${row.racerId}?format=${line.formatId}`}>{row.name}</a>
        <LatestSplit row={row} line={line} />
      </td>
      <td className="wide-only">{row.club ?? ""}</td>
      {view.group.columns.map((c) => (
        <td key={c.index} className="num wide-only">
          {lineCell(line, row, c)}
        </td>
      ))}
      <td className="num result-time">
        {query.behind && r.rank !== null && r.rank > 1 && row.statusText === ""
          ? diffCell(r, view, precision)
          : timeCell(row, r.shownTime, r.sameTime, line.sameTimeLabel, precision)}
      </td>
      {view.group.pace ? <td className="num">{paceCell(row, r.shownTime, view.group.pace)}</td> : null}
      {line.showDiffs && !query.behind ? <td className="num">{diffCell(r, view, precision)}</td> : null}
    </tr>
  );
});

/**
 * On a phone the split columns fold away: under the name, the split the page is ordered by, or else a racer
 * on course's latest split, as its cell reads on a wide screen.
 */
function LatestSplit({ row, line }: { row: ResultRow; line: LineContext }) {
  const columns = line.view.group.columns;
  const sortedBy = line.query.sort;
  const column =
    sortedBy !== null
      ? columns.find((c) => c.index === sortedBy)
      : row.status === "finished"
        ? undefined
        : [...columns].reverse().find((c) => isSplitColumn(c) && splitCellTime(row.splits, c) !== null);
  const cell = column ? lineCell(line, row, column) : "";
  if (!column || cell === "") return null;
  return (
    <span className="narrow-only latest-split">
      {column.name} {cell}
    </span>
  );
}

function LatestFinishers({ rows, precision }: { rows: ResultRow[]; precision: number }) {
  return (
    <section aria-labelledby="latest-finishers" className="latest-finishers">
      <h3 id="latest-finishers">Latest finishers</h3>
      {rows.length === 0 ? (
        <p className="empty-state">No finishers yet.</p>
      ) : (
        <ol aria-live="polite">
          {rows.map((row) => (
            <li key={row.racerId}>
              <strong>{row.bib ?? ""}</strong> {row.name} {row.club ? <span className="race-meta-inline">{row.club}</span> : null}{" "}
              <span className="num">{row.time !== null ? formatRaceTime(row.time, precision) : ""}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
