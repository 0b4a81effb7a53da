/**
 * What each cell of a results table says, as text: the public results page renders these and the CSV and
 * PDF downloads write them, so a download reads exactly as the page does.
 */
import { formatDiff, formatRaceTime } from "../../core/time/format";
import { legShownTime } from "../../core/timing/leg-time";
import type { LegResult, TeamResult } from "../../core/timing/relay";
import { paceDistanceKm, splitCellTime, stageColumns } from "../../core/timing/result-columns";
import type { FormatSnapshot, ResultGroupWire, ResultRow } from "../../schema/wire/race-socket";
import type { GroupView } from "./results-state";

/** A column's cell: a stage's, an enduro segment's, a run's, a biathlon shooting's misses, or a split's. */
export function columnCell(row: ResultRow, column: ResultGroupWire["columns"][number], view: GroupView, stageNumber: number, precision: number): string {
  if (column.stage !== undefined) return stageCell(row, column.stage, stageNumber, precision);
  if (column.segment !== undefined) return segmentCell(row, column.segment, column.cumulative === true, precision);
  if (column.run !== undefined) return runCell(row.runs?.[column.run - 1], precision);
  if (column.shooting !== undefined) return String(row.biathlon?.misses[column.shooting - 1] ?? "");
  return splitCell(row, column, view, precision);
}

/** A relay leg's racer: bib and name. */
export function legRacer(row: ResultRow): string {
  return row.bib !== null ? `${row.bib} ${row.name}` : row.name;
}

/** A relay leg's time (the racer's own leg or the team's at the handover), or its status when out. */
export function legTime(leg: LegResult, teamStart: number | null, relay: NonNullable<FormatSnapshot["relay"]>, precision: number): string {
  if (leg.status === "dnf" || leg.status === "dsq" || leg.status === "dns") return leg.status.toUpperCase();
  const shown = legShownTime(leg, teamStart, relay.lapTimeDisplay);
  return shown !== null ? formatRaceTime(shown, precision) : "";
}

/** A team's time: its status when out, its time when finished, else the legs done so far. */
export function teamTimeCell(team: TeamResult, precision: number): string {
  if (team.status === "dnf" || team.status === "dsq" || team.status === "dns") return team.status.toUpperCase();
  if (team.status === "finished" && team.time !== null) return formatRaceTime(team.time, precision);
  return team.legsCompleted > 0 ? `(${team.legsCompleted} ${team.legsCompleted === 1 ? "leg" : "legs"})` : "";
}

/** The All Stages view of a group: "Stage 1" … "Stage N" columns and "Total Time" as the time. */
export function withStageColumns(view: GroupView, stageNumber: number): GroupView {
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
export function paceCell(row: ResultRow, time: number | null, pace: NonNullable<ResultGroupWire["pace"]>): string {
  const km = paceDistanceKm({ courseDistanceKm: pace.courseKm, lapDistanceKm: pace.lapKm }, Math.max(row.laps, 1));
  if (time === null || km === null || row.status !== "finished") return "";
  return `${formatRaceTime(Math.round(time / km), 0)} /km`;
}

/** The gap to the leader; with laps behind (time limit), a racer on fewer laps shows how many. */
export function diffCell(r: GroupView["ranked"][number], view: GroupView, precision: number): string {
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
export function timeCell(row: ResultRow, shownTime: number | null, sameTime: boolean, sameTimeLabel: string, precision: number): string {
  if (row.statusText) return row.statusText;
  if (row.status === "finished")
    return shownTime === null ? "" : sameTime ? `${formatRaceTime(shownTime, precision)} ${sameTimeLabel}` : formatRaceTime(shownTime, precision);
  const last = row.splits[row.splits.length - 1];
  if (last) return `(${formatRaceTime(last.elapsed, precision)})`;
  return "";
}
