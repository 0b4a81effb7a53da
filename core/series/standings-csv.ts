/**
 * The standings as a spreadsheet (issue 27): one line per racer per category, each race's points, a dropped
 * result in brackets as the page shows it. Cells are formula-safe (core/entity/csv.ts); the file reads back
 * as a points file (its Total column).
 */
import { spreadsheetCsv } from "../entity/csv";
import { formatPoints } from "./points";
import type { RaceCell, SeriesStandings } from "./standings";

/** A race's cell as text: points, a status, brackets when dropped by best-N; empty without a result. */
export function cellText(cell: RaceCell | null): string {
  if (!cell) return "";
  const shown = cell.status ? `${formatPoints(cell.points)} ${cell.status.toUpperCase()}` : formatPoints(cell.points);
  return cell.counted ? shown : `(${shown})`;
}

export function standingsCsv(standings: SeriesStandings): string {
  const carried = standings.categories.some((c) => c.rows.some((r) => r.carried !== 0));
  const header = ["Category", "Rank", "Name", "Club", "Total", ...(carried ? ["Carried"] : []), ...standings.races.map((r) => r.name)];
  const rows = standings.categories.flatMap((c) =>
    c.rows.map((row) => [
      c.category,
      String(row.rank),
      row.name,
      row.club ?? "",
      formatPoints(row.total),
      ...(carried ? [formatPoints(row.carried)] : []),
      ...row.cells.map(cellText),
    ]),
  );
  return spreadsheetCsv(header, rows);
}
