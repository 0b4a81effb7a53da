/**
 * The builder's ordered list of fields. Every row has Edit, Move up, Move down and Delete as plain links
 * and form posts, so it works from the keyboard and before hydration; once hydrated, rows can also be
 * dragged, and a drop posts the same "move" intent with the new position through a fetcher.
 */
import { Link } from "@remix-run/react";
import { useDragReorder } from "./drag-reorder";
import { RowButton } from "./race-setup-form";

export interface ElementRowView {
  id: string;
  typeLabel: string;
  caption: string;
  prices: (string | null)[];
  flags: string[];
}

function pricesText(prices: readonly (string | null)[]): string {
  if (prices.every((p) => p === null)) return "";
  return prices.map((p) => p ?? "—").join(" / ");
}

export function ElementList({ registrationId, rows, mayEdit }: { registrationId: string; rows: readonly ElementRowView[]; mayEdit: boolean }) {
  const base = `/registration/${registrationId}/admin`;
  const { shown, draggable, announcement, rowProps } = useDragReorder({ rows, enabled: mayEdit, intent: "move", action: `${base}?index`, describe: (row) => row.caption || row.typeLabel });

  if (rows.length === 0) return <p className="empty-state">No fields yet. Add the first one below.</p>;
  return (
    <>
      {draggable ? <p className="hint">Drag a row to move it, or use its Move up and Move down buttons.</p> : null}
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      <div className="table-scroll">
        <table className="data-table element-list">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Field</th>
              <th scope="col">Type</th>
              <th scope="col">Prices (tier 1 / 2 / 3)</th>
              <th scope="col">Flags</th>
              {mayEdit ? (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {shown.map((row, index) => (
              <tr key={row.id} data-element-id={row.id} {...rowProps(row, index)}>
                <td>
                  {draggable ? (
                    <span className="drag-handle" aria-hidden="true">
                      ⠿
                    </span>
                  ) : null}
                  {index + 1}
                </td>
                <th scope="row">{row.caption || <span className="empty-state">(no caption)</span>}</th>
                <td>{row.typeLabel}</td>
                <td className="num">{pricesText(row.prices)}</td>
                <td>
                  {row.flags.length > 0 ? (
                    <ul className="flag-list">
                      {row.flags.map((flag) => (
                        <li key={flag}>{flag}</li>
                      ))}
                    </ul>
                  ) : null}
                </td>
                {mayEdit ? (
                  <td className="row-actions">
                    <RowActions base={base} row={row} index={index} count={shown.length} />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function RowActions({ base, row, index, count }: { base: string; row: ElementRowView; index: number; count: number }) {
  const name = row.caption || row.typeLabel;
  return (
    <>
      <span className="row-links">
        <Link to={`${base}/elements/${row.id}`} aria-label={`Edit ${name}`}>
          Edit
        </Link>
        <Link to={`${base}?delete=${row.id}`} aria-label={`Delete ${name}`} className="danger-link">
          Delete…
        </Link>
      </span>
      <RowButton intent="move" target={row.id} extra={{ direction: "up" }} label="↑ Move up" accessibleLabel={`Move ${name} up`} disabled={index === 0} />
      <RowButton intent="move" target={row.id} extra={{ direction: "down" }} label="↓ Move down" accessibleLabel={`Move ${name} down`} disabled={index === count - 1} />
    </>
  );
}
