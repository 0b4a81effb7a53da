/**
 * A result format's groups as print sections (core/print): the columns and cells of the public results
 * page, one section per group that has racers, for the CSV and PDF downloads.
 */
import type { RankingType } from "../../core/timing/multistage";
import type { PrintColumn, PrintSection } from "../../core/print/print-table";
import type { FormatSnapshot } from "../../schema/wire/race-socket";
import { columnCell, diffCell, legRacer, legTime, paceCell, teamTimeCell, timeCell, withStageColumns } from "./result-cells";
import { groupViews, stateFromSnapshot, type GroupView } from "./results-state";

const text = (label: string): PrintColumn => ({ label });
const numeric = (label: string): PrintColumn => ({ label, numeric: true });

export function resultSections(snapshot: FormatSnapshot, ranking: RankingType = "default"): PrintSection[] {
  const state = stateFromSnapshot(snapshot);
  const stageNumber = ranking === "multistage" ? (snapshot.stage?.number ?? 0) : 0;
  const precision = snapshot.displayPrecision;
  return groupViews(state, "", ranking).flatMap((view): PrintSection[] => {
    if (view.teams && snapshot.relay) {
      if (view.teams.length === 0) return [];
      const relay = snapshot.relay;
      const legs = Array.from({ length: relay.memberCount }, (_, i) => i);
      return [
        {
          heading: view.group.name,
          columns: [numeric("Rank"), text("Team"), ...legs.flatMap((i) => [text(`Leg ${i + 1}`), numeric(`Leg ${i + 1} time`)]), numeric("Time")],
          rows: view.teams.map((team) => {
            const teamStart = team.legs[0]?.start ?? null;
            const legCells = legs.flatMap((i) => {
              const leg = team.legs[i];
              const row = leg ? state.rows.get(leg.racerId) : undefined;
              return leg && row ? [legRacer(row), legTime(leg, teamStart, relay, precision)] : ["", ""];
            });
            return [String(team.rank ?? ""), team.team, ...legCells, teamTimeCell(team, precision)];
          }),
        },
      ];
    }
    if (view.ranked.length === 0) return [];
    const shown: GroupView = stageNumber > 0 ? withStageColumns(view, stageNumber) : view;
    const group = shown.group;
    return [
      {
        heading: group.name,
        columns: [
          numeric("Rank"),
          numeric("Bib"),
          text("Name"),
          text("Club"),
          ...group.columns.map((c) => numeric(c.name)),
          numeric(group.timeLabel ?? "Time"),
          ...(group.pace ? [numeric("Pace")] : []),
          ...(snapshot.displayDiffs ? [numeric("Diff")] : []),
        ],
        rows: shown.ranked.map((r) => [
          String(r.rank ?? ""),
          String(r.row.bib ?? ""),
          r.row.name,
          r.row.club ?? "",
          ...group.columns.map((c) => columnCell(r.row, c, shown, stageNumber, precision)),
          timeCell(r.row, r.shownTime, r.sameTime, snapshot.sameTimeDisplay, precision),
          ...(group.pace ? [paceCell(r.row, r.shownTime, group.pace)] : []),
          ...(snapshot.displayDiffs ? [diffCell(r, shown, precision)] : []),
        ]),
      },
    ];
  });
}
