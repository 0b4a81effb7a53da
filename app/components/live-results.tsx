import { useId, useState, type ReactNode } from "react";
import { formatRaceTime } from "../../core/time/format";
import type { RankingType } from "../../core/timing/multistage";
import type { TeamResult } from "../../core/timing/relay";
import type { FormatSnapshot, ResultRow } from "../../schema/wire/race-socket";
import { useLiveResults } from "../hooks/use-live-results";
import { LiveStatus } from "./live-status";
import { groupViews, latestFinishers, type GroupView } from "../results/results-state";
import { columnCell, diffCell, legRacer, legTime, paceCell, teamTimeCell, timeCell, withStageColumns } from "../results/result-cells";

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
                {view.group.columns.map((c) => (
                  <td key={c.index} className="num wide-only">
                    {columnCell(r.row, c, view, props.stageNumber, precision)}
                  </td>
                ))}
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
