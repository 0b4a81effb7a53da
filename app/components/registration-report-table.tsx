/**
 * A page of a registration report as a table: group headers with their counts and money subtotals, the
 * rows, and the totals row in the footer. Each group starts a row group, so a screen reader announces its
 * heading; the table scrolls sideways inside a focusable region on a narrow screen.
 */
import type { ReportLine } from "../../core/registration/report";

export interface ReportTableColumn {
  key: string;
  label: string;
  /** Right-aligned figures. */
  numeric: boolean;
}

const blankGroup = "(blank)";

function groupHeading(line: Extract<ReportLine, { kind: "group" }>, unit: { one: string; many: string }): string {
  const count = `${line.count} ${line.count === 1 ? unit.one : unit.many}`;
  const subtotals = line.subtotals.map((s) => `${s.label} ${s.text}`);
  return [`${line.label}: ${line.text || blankGroup}${line.continued ? " (continued)" : ""}`, count, ...subtotals].join(" · ");
}

/** Splits the lines into row groups: each group header starts one; rows before any header form the first. */
function rowGroups(lines: readonly ReportLine[]): ReportLine[][] {
  const chunks: ReportLine[][] = [];
  for (const line of lines) {
    if (line.kind === "group" || chunks.length === 0) chunks.push([]);
    chunks.at(-1)!.push(line);
  }
  return chunks;
}

export function RegistrationReportTable(props: {
  id: string;
  caption: string;
  columns: readonly ReportTableColumn[];
  lines: readonly ReportLine[];
  /** The totals row's cells, aligned with the columns. */
  totals: readonly string[];
  unit: { one: string; many: string };
}) {
  const { columns } = props;
  const firstTotal = props.totals.findIndex((cell) => cell.startsWith("Total"));
  return (
    <div className="table-scroll report-scroll" role="region" aria-labelledby={`${props.id}-caption`} tabIndex={0}>
      <table className="data-table report-table" id={props.id}>
        <caption id={`${props.id}-caption`}>{props.caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={c.numeric ? "num" : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        {rowGroups(props.lines).map((chunk, g) => (
          <tbody key={g}>
            {chunk.map((line, i) =>
              line.kind === "group" ? (
                <tr key={i} className={`report-group report-group-${line.level}`}>
                  <th scope="rowgroup" colSpan={columns.length}>
                    {groupHeading(line, props.unit)}
                  </th>
                </tr>
              ) : (
                <tr key={i}>
                  {line.cells.map((cell, j) => (
                    <td key={j} className={columns[j]?.numeric ? "num" : undefined}>
                      {cell}
                    </td>
                  ))}
                </tr>
              ),
            )}
          </tbody>
        ))}
        <tfoot>
          <tr className="report-totals">
            {props.totals.map((cell, j) =>
              j === firstTotal ? (
                <th key={j} scope="row">
                  {cell}
                </th>
              ) : (
                <td key={j} className={columns[j]?.numeric ? "num" : undefined}>
                  {cell}
                </td>
              ),
            )}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
