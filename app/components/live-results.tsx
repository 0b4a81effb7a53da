import { useId, useState, type ReactNode } from "react";
import { formatDiff, formatRaceTime } from "../../core/time/format";
import type { RankingType } from "../../core/timing/multistage";
import { legShownTime, type TeamResult } from "../../core/timing/relay";
import { paceDistanceKm, splitCellTime, stageColumns } from "../../core/timing/result-columns";
import type { FormatSnapshot, ResultGroupWire, ResultRow } from "../../schema/wire/race-socket";
import { useLiveResults } from "../hooks/use-live-results";
import { LiveStatus } from "./live-status";
import { groupViews, latestFinishers, type GroupView } from "../results/results-state";

/** Finishers the announcer view lists. */
const ANNOUNCER_LATEST = 10;

/** A result format's groups, server-rendered from the snapshot and kept live by the race socket. */
export function LiveResults({ raceId, snapshot, ranking = "default" }: { raceId: string; snapshot: FormatSnapshot; ranking?: RankingType }) {
  const { live, results } = useLiveResults(raceId, snapshot);
  const [query, setQuery] = useState("");
  const searchId = useId();
  const views = groupViews(results, query, ranking);
  // All Stages: a column per stage (the earlier ones, then this one) and the total as the time.
  const stageNumber = ranking === "multistage" ? (results.snapshot.stage?.number ?? 0) : 0;
  const precision = results.snapshot.displayPrecision;
  const hasRows = results.rows.size > 0;
  return (
    <div className="live-results">
      <LiveStatus state={live} />
      {results.snapshot.isAnnouncer ? <LatestFinishers rows={latestFinishers(results, ANNOUNCER_LATEST)} precision={precision} /> : null}
      <div className="search" role="search">
        <label htmlFor={searchId}>Find a racer</label>
        <input
          id={searchId}
          type="search"
          inputMode="search"
          placeholder="Name or bib"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          autoComplete="off"
        />
      </div>
      {!hasRows ? <p className="empty-state">No racers yet. Results appear here as racers cross the timing points.</p> : null}
      {views.map((view) =>
        view.teams && results.snapshot.relay ? (
          <TeamTable
            key={view.group.id}
            view={view}
            teams={view.teams}
            rows={results.rows}
            relay={results.snapshot.relay}
            showHeading={views.length > 1}
            precision={precision}
            searching={query.trim() !== ""}
          />
        ) : (
          <GroupTable
            key={view.group.id}
            view={stageNumber > 0 ? withStageColumns(view, stageNumber) : view}
            stageNumber={stageNumber}
            showHeading={views.length > 1}
            precision={precision}
            showDiffs={results.snapshot.displayDiffs}
            sameTimeLabel={results.snapshot.sameTimeDisplay}
            changed={results.changed}
            searching={query.trim() !== ""}
            racerHref={(racerId) => `/races/${raceId}/racers/${racerId}?format=${results.snapshot.formatId}`}
          />
        ),
      )}
    </div>
  );
}

/**
 * A relay group: one row per team, a column per leg with its racer and the leg's time (the racer's own leg,
 * or the team's time at that handover, by team_lap_time_display), and the team's time.
 */
function TeamTable(props: {
  view: GroupView;
  teams: TeamResult[];
  rows: ReadonlyMap<string, ResultRow>;
  relay: NonNullable<FormatSnapshot["relay"]>;
  showHeading: boolean;
  precision: number;
  searching: boolean;
}) {
  const { view, teams, precision } = props;
  const legs = Array.from({ length: props.relay.memberCount }, (_, i) => i);
  const empty =
    teams.length === 0 ? (props.searching ? "No team matches that search." : "No teams in this group yet. A racer joins a team through the team field.") : null;
  return (
    <ResultSection view={view} showHeading={props.showHeading} empty={empty}>
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
                    const row = leg ? props.rows.get(leg.racerId) : undefined;
                    if (!leg || !row) return <td key={i} className="wide-only" />;
                    const shown = legShownTime(leg, teamStart, props.relay.lapTimeDisplay);
                    const out = leg.status === "dnf" || leg.status === "dsq" || leg.status === "dns" ? leg.status.toUpperCase() : "";
                    return (
                      <td key={i} className="wide-only">
                        <span className="leg-racer">{row.bib !== null ? `${row.bib} ${row.name}` : row.name}</span>{" "}
                        <span className="num">{out || (shown !== null ? formatRaceTime(shown, precision) : "")}</span>
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

/** One group's section: its heading when the format has several, and the empty state or the table. */
function ResultSection(props: { view: GroupView; showHeading: boolean; empty: string | null; children: ReactNode }) {
  const headingId = useId();
  if (props.view.total === 0 && !props.showHeading) return null;
  return (
    <section aria-labelledby={props.showHeading ? headingId : undefined} className="result-group">
      {props.showHeading ? <h3 id={headingId}>{props.view.group.name}</h3> : null}
      {props.empty !== null ? <p className="empty-state">{props.empty}</p> : props.children}
    </section>
  );
}

/** A team's time: its status when out, its time when finished, else the legs done so far. */
function teamTimeCell(team: TeamResult, precision: number): string {
  if (team.status === "dnf" || team.status === "dsq" || team.status === "dns") return team.status.toUpperCase();
  if (team.status === "finished" && team.time !== null) return formatRaceTime(team.time, precision);
  return team.legsCompleted > 0 ? `(${team.legsCompleted} ${team.legsCompleted === 1 ? "leg" : "legs"})` : "";
}

function GroupTable(props: {
  view: GroupView;
  stageNumber: number;
  showHeading: boolean;
  precision: number;
  showDiffs: boolean;
  sameTimeLabel: string;
  changed: ReadonlySet<string>;
  searching: boolean;
  /** The racer's page; a plain link, so it works before hydration and adds no client code. */
  racerHref: (racerId: string) => string;
}) {
  const { view, precision } = props;
  const empty = view.ranked.length === 0 ? (props.searching ? "No racer matches that search." : "No racers in this group yet.") : null;
  return (
    <ResultSection view={view} showHeading={props.showHeading} empty={empty}>
      <div className="table-scroll">
        <table className="data-table results-table">
          <thead>
            <tr>
              <th scope="col" className="num">
                Rank
              </th>
              <th scope="col" className="num">
                Bib
              </th>
              <th scope="col">Name</th>
              <th scope="col" className="wide-only">
                Club
              </th>
              {view.group.columns.map((c) => (
                <th scope="col" key={c.index} className="num wide-only">
                  {c.name}
                </th>
              ))}
              <th scope="col" className="num">
                {view.group.timeLabel ?? "Time"}
              </th>
              {view.group.pace ? (
                <th scope="col" className="num">
                  Pace
                </th>
              ) : null}
              {props.showDiffs ? (
                <th scope="col" className="num">
                  Diff
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {view.ranked.map((r) => (
              <tr key={r.row.racerId} data-bib={r.row.bib ?? ""} className={props.changed.has(r.row.racerId) ? "just-changed" : undefined}>
                <td className="num">{r.rank ?? ""}</td>
                <td className="num">{r.row.bib ?? ""}</td>
                <td>
                  <a href={props.racerHref(r.row.racerId)}>{r.row.name}</a>
                </td>
                <td className="wide-only">{r.row.club ?? ""}</td>
                {view.group.columns.map((c) => {
                  if (c.stage !== undefined)
                    return (
                      <td key={c.index} className="num wide-only">
                        {stageCell(r.row, c.stage, props.stageNumber, precision)}
                      </td>
                    );
                  if (c.segment !== undefined)
                    return (
                      <td key={c.index} className="num wide-only">
                        {segmentCell(r.row, c.segment, c.cumulative === true, precision)}
                      </td>
                    );
                  if (c.run !== undefined)
                    return (
                      <td key={c.index} className="num wide-only">
                        {runCell(r.row.runs?.[c.run - 1], precision)}
                      </td>
                    );
                  if (c.shooting !== undefined)
                    return (
                      <td key={c.index} className="num wide-only">
                        {r.row.biathlon?.misses[c.shooting - 1] ?? ""}
                      </td>
                    );
                  return (
                    <td key={c.index} className="num wide-only">
                      {splitCell(r.row, c, view, precision)}
                    </td>
                  );
                })}
                <td className="num result-time">{timeCell(r.row, r.shownTime, r.sameTime, props.sameTimeLabel, precision)}</td>
                {view.group.pace ? <td className="num">{paceCell(r.row, r.shownTime, view.group.pace)}</td> : null}
                {props.showDiffs ? <td className="num">{diffCell(r, view, precision)}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </ResultSection>
  );
}

/** The All Stages view of a group: "Stage 1" … "Stage N" columns and "Total Time" as the time. */
function withStageColumns(view: GroupView, stageNumber: number): GroupView {
  return { ...view, group: { ...view.group, columns: stageColumns(stageNumber), timeLabel: "Total Time" } };
}

/** A stage's cell: an earlier stage's time from the racer's stage times, this stage's own result. */
function stageCell(row: ResultRow, stage: number, stageNumber: number, precision: number): string {
  const time = stage === stageNumber ? (row.status === "finished" ? row.time : null) : (row.stageTimes?.[stage - 1] ?? null);
  return time === null ? "" : formatRaceTime(time, precision);
}

/**
 * A split cell: its time (a section's or lap's own time when the column counts from an earlier split), or
 * with split gaps the gap to the column's fastest; with split places, the place there in brackets.
 */
function splitCell(row: ResultRow, column: ResultGroupWire["columns"][number], view: GroupView, precision: number): string {
  const time = splitCellTime(row.splits, column);
  if (time === null) return "";
  const standing = view.standings?.get(column.index);
  const best = standing?.best ?? null;
  const shown = view.group.splitGaps && best !== null && time > best ? formatDiff(time - best, precision) : formatRaceTime(time, precision);
  const place = view.group.splitRanks ? standing?.ranks.get(row.racerId) : undefined;
  return place === undefined ? shown : `${shown} (${place})`;
}

/** Minutes and seconds per km over the distance the racer covered; blank without a time. */
function paceCell(row: ResultRow, time: number | null, pace: NonNullable<ResultGroupWire["pace"]>): string {
  const km = paceDistanceKm({ courseDistanceKm: pace.courseKm, lapDistanceKm: pace.lapKm }, Math.max(row.laps, 1));
  if (time === null || km === null || row.status !== "finished") return "";
  return `${formatRaceTime(Math.round(time / km), 0)} /km`;
}

/** The gap to the leader; with laps behind (time limit), a racer on fewer laps shows how many. */
function diffCell(r: GroupView["ranked"][number], view: GroupView, precision: number): string {
  if (r.rank === null) return "";
  if (view.group.lapsBehind && view.leaderLaps !== null && r.row.laps < view.leaderLaps) {
    const behind = view.leaderLaps - r.row.laps;
    return `-${behind} ${behind === 1 ? "lap" : "laps"}`;
  }
  return r.diff ? formatDiff(r.diff, precision) : "";
}

/** An enduro segment's cell: its counted time, or the total of the segments through it once each has one. */
function segmentCell(row: ResultRow, segment: number, cumulative: boolean, precision: number): string {
  const segments = row.segments ?? [];
  const through = cumulative ? segments.slice(0, segment) : [segments[segment - 1]];
  if (through.some((s) => !s || s.time === null)) return "";
  return formatRaceTime(
    through.reduce((sum, s) => sum + (s?.time ?? 0), 0),
    precision,
  );
}

/** A run's cell: its time when finished, its status when out, else nothing yet. */
function runCell(run: NonNullable<ResultRow["runs"]>[number] | undefined, precision: number): string {
  if (!run) return "";
  if (run.status === "finished" && run.time !== null) return formatRaceTime(run.time, precision);
  return run.status === "dnf" || run.status === "dsq" || run.status === "dns" ? run.status.toUpperCase() : "";
}

/** What the time column says: the status (DNF, DSQ, DNS), the time (with s/t), or progress on course. */
function timeCell(row: ResultRow, shownTime: number | null, sameTime: boolean, sameTimeLabel: string, precision: number): string {
  if (row.statusText) return row.statusText;
  if (row.status === "finished")
    return shownTime === null ? "" : sameTime ? `${formatRaceTime(shownTime, precision)} ${sameTimeLabel}` : formatRaceTime(shownTime, precision);
  const last = row.splits[row.splits.length - 1];
  if (last) return `(${formatRaceTime(last.elapsed, precision)})`;
  return "";
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
