import { useId } from "react";
import { formatDiff, formatRaceTime, formatTimeOfDay } from "../../core/time/format";
import { RACER_STATUS_LABELS } from "../../core/timing/status";
import type { RacerDetail, RacerPoint } from "../../durable/race/racer-detail";
import { positionChart } from "../results/position-chart";

/** What a racer's page says in place of splits when there are none (decision 0035 records the words). */
export function noSplitsText(racer: RacerDetail["racer"]): string {
  if (racer.status === "dns") return "Did not start.";
  if (racer.status === "notstarted") return "Not started yet. Splits appear here as the racer passes the timing points.";
  if (racer.status === "dnf") return "Did not finish. No timing point was passed.";
  if (racer.status === "dsq") return "Disqualified. No timing point was passed.";
  return "No splits yet. Splits appear here as the racer passes the timing points.";
}

/** The racer's header facts: bib, club, category, start, status, result, place and adjustments; empty ones are left out. */
export function RacerFacts({ detail }: { detail: RacerDetail }) {
  const { racer, finish, displayPrecision: precision } = detail;
  const time = (micros: number) => formatRaceTime(micros, precision);
  const facts: [string, string | null][] = [
    ["Bib", racer.bib === null ? null : String(racer.bib)],
    ["Club", racer.club],
    ["Category", racer.category],
    ["Course", racer.course],
    ["Start group", racer.startGroup],
    ["Start time", racer.startTimeOfDay === null ? null : formatTimeOfDay(racer.startTimeOfDay, precision)],
    ["Status", racer.statusText || RACER_STATUS_LABELS[racer.status]],
    ["Time", racer.status === "finished" && racer.time !== null ? time(racer.time) : null],
    ["Rank", finish.rank === null ? null : `${finish.rank} of ${finish.ranked} in ${detail.group.name}`],
    ["Behind the leader", finish.behind === null ? null : finish.behind === 0 ? "Leader" : formatDiff(finish.behind, precision)],
    ["Penalty", racer.penalty > 0 ? `+${time(racer.penalty)}` : null],
    ["Bonus", racer.bonus > 0 ? `-${time(racer.bonus)}` : null],
    ["Time given back", racer.addBack > 0 ? `-${time(racer.addBack)}` : null],
  ];
  return (
    <dl className="racer-facts">
      {facts
        .filter((fact): fact is [string, string] => fact[1] !== null && fact[1] !== "")
        .map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd data-fact={term}>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

/** Each point passed: time, split and lap times, place there, gap to the leader there, pace or speed. */
export function SplitsTable({ detail }: { detail: RacerDetail }) {
  const precision = detail.displayPrecision;
  const hasLaps = detail.points.some((p) => p.lapTime !== null);
  const hasRate = detail.points.some((p) => p.pace !== null || p.speed !== null);
  return (
    <div className="table-scroll">
      <table className="data-table results-table racer-splits">
        <caption>{`Splits of ${detail.racer.name} (places among ${detail.group.name} on the same course)`}</caption>
        <thead>
          <tr>
            <th scope="col">Point</th>
            <th scope="col" className="num">
              Time
            </th>
            <th scope="col" className="num">
              Split
            </th>
            {hasLaps ? (
              <th scope="col" className="num">
                Lap
              </th>
            ) : null}
            <th scope="col" className="num">
              Rank
            </th>
            <th scope="col" className="num">
              Behind
            </th>
            {hasRate ? (
              <th scope="col" className="num">
                {detail.measure === "speed" ? "Speed" : "Pace"}
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {detail.points.map((p) => (
            <tr key={p.index} data-point={p.name}>
              <th scope="row">{p.distanceKm === null ? p.name : `${p.name} (${formatKm(p.distanceKm)} km)`}</th>
              <td className="num">{formatRaceTime(p.elapsed, precision)}</td>
              <td className="num">{formatRaceTime(p.sinceLast, precision)}</td>
              {hasLaps ? <td className="num">{p.lapTime === null ? "" : formatRaceTime(p.lapTime, precision)}</td> : null}
              <td className="num">{`${p.rank} of ${p.passed}`}</td>
              <td className="num">{p.behind === 0 ? "Leader" : formatDiff(p.behind, precision)}</td>
              {hasRate ? <td className="num">{rateText(p)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Place at each lap (each split on a one-lap course) as a line, drawn on the server; the table above is the content. */
export function PositionChart({ detail }: { detail: RacerDetail }) {
  const titleId = useId();
  const chart = positionChart(detail.points.map((p) => ({ name: p.name, rank: p.rank, passed: p.passed, isLap: p.isLap })));
  const byLap = detail.points.filter((p) => p.isLap).length >= 2;
  if (!chart) return null;
  const { plot } = chart;
  const summary = chart.points.map((p) => `${p.name}: ${p.rank}`).join(", ");
  return (
    <figure className="position-chart">
      <svg viewBox={`0 0 ${chart.width} ${chart.height}`} role="img" aria-labelledby={titleId} width={chart.width} height={chart.height}>
        <title id={titleId}>{`Position of ${detail.racer.name} ${byLap ? "by lap" : "at each point"}: ${summary}`}</title>
        <line x1={plot.left} y1={plot.top} x2={plot.left} y2={plot.bottom} className="axis" />
        <line x1={plot.left} y1={plot.bottom} x2={plot.right} y2={plot.bottom} className="axis" />
        <text x={plot.left - 6} y={plot.top + 4} textAnchor="end" className="tick">
          1
        </text>
        <text x={plot.left - 6} y={plot.bottom + 4} textAnchor="end" className="tick">
          {chart.worst}
        </text>
        <polyline points={chart.path} className="line" fill="none" />
        {chart.points.map((p) => (
          <circle key={p.name} cx={p.x} cy={p.y} r={3.5} className="dot" />
        ))}
        <text x={plot.left} y={chart.height - 8} className="tick">
          {chart.points[0]!.name}
        </text>
        {chart.points.length > 1 ? (
          <text x={plot.right} y={chart.height - 8} textAnchor="end" className="tick">
            {chart.points.at(-1)!.name}
          </text>
        ) : null}
      </svg>
      <figcaption>{byLap ? "Position by lap (1 is the top)" : "Position at each point (1 is the top)"}</figcaption>
    </figure>
  );
}

function rateText(p: RacerPoint): string {
  if (p.pace !== null) return `${formatRaceTime(p.pace, 0)} /km`;
  return p.speed !== null ? `${p.speed.toFixed(1)} km/h` : "";
}

function formatKm(km: number): string {
  return String(Math.round(km * 100) / 100);
}
