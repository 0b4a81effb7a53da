/**
 * The builder's ordered list of fields. Every row has Edit, Move up, Move down and Delete as plain links
 * and form posts, so it works from the keyboard and before hydration; once hydrated, rows can also be
 * dragged, and a drop posts the same "move" intent with the new position through a fetcher.
 */
import { Link } from "@remix-run/react";
import { ReorderableTable } from "./reorderable-table";

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
  const nameOf = (row: ElementRowView) => row.caption || row.typeLabel;
  return (
    <ReorderableTable
      rows={rows}
      mayEdit={mayEdit}
      intent="move"
      action={`${base}?index`}
      nameOf={nameOf}
      empty="No fields yet. Add the first one below."
      className="element-list"
      headers={["Field", "Type", "Prices (tier 1 / 2 / 3)", "Flags"]}
      numeric={["Prices (tier 1 / 2 / 3)"]}
      rowData={(row) => ({ "data-element-id": row.id })}
      cells={(row) => [
        row.caption || <span className="empty-state">(no caption)</span>,
        row.typeLabel,
        pricesText(row.prices),
        row.flags.length > 0 ? (
          <ul className="flag-list">
            {row.flags.map((flag) => (
              <li key={flag}>{flag}</li>
            ))}
          </ul>
        ) : null,
      ]}
      links={(row) => (
        <span className="row-links">
          <Link to={`${base}/elements/${row.id}`} aria-label={`Edit ${nameOf(row)}`}>
            Edit
          </Link>
          <Link to={`${base}?delete=${row.id}`} aria-label={`Delete ${nameOf(row)}`} className="danger-link">
            Delete…
          </Link>
        </span>
      )}
    />
  );
}
