/**
 * The list tables of the setup pages (courses, timing points, devices, start groups, racer fields, result
 * formats): an empty state, a scrolling table whose first column names the row, and an actions column.
 */
import type { ReactNode } from "react";

export interface Column<T> {
  header: string;
  cell: (item: T) => ReactNode;
}

export function SetupTable<T>(props: {
  items: readonly T[];
  /** Each row's React key. */
  keyOf: (item: T) => string;
  empty: string;
  /** The first column is the row's header (its name). */
  columns: readonly [Column<T>, ...Column<T>[]];
  actions?: (item: T) => ReactNode;
}) {
  if (props.items.length === 0) return <p className="empty-state">{props.empty}</p>;
  const [name, ...rest] = props.columns;
  return (
    <div className="table-scroll">
      <table className="data-table">
        <TableHead headers={props.columns.map((c) => c.header)} actions={props.actions !== undefined} />
        <tbody>
          {props.items.map((item) => (
            <tr key={props.keyOf(item)}>
              <th scope="row">{name.cell(item)}</th>
              {rest.map((c) => (
                <td key={c.header}>{c.cell(item)}</td>
              ))}
              {props.actions ? <td>{props.actions(item)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The "Add a …" section under a list, headed so screen readers can jump to it. */
/** A data table's header row: its column headers, then a hidden "Actions" header when rows carry buttons. */
export function TableHead({ headers, actions, lead }: { headers: readonly string[]; actions: boolean; lead?: string }) {
  return (
    <thead>
      <tr>
        {lead !== undefined ? <th scope="col">{lead}</th> : null}
        {headers.map((header) => (
          <th key={header} scope="col">
            {header}
          </th>
        ))}
        {actions ? (
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}

export function AddSection({ id, heading, shown = true, children }: { id: string; heading: string; shown?: boolean; children: ReactNode }) {
  // `shown`: the add form is only for those who may edit; the others see the list alone.
  if (!shown) return null;
  return (
    <section aria-labelledby={id}>
      <h3 id={id}>{heading}</h3>
      {children}
    </section>
  );
}
