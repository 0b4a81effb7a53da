/**
 * The list tables of the setup pages (courses, timing points, devices, start groups, racer fields, result
 * formats): an empty state, a scrolling table whose first column names the row, and an actions column.
 */
import type { ReactNode } from "react";

export interface Column<T> {
  header: string;
  /** `index`: the row's place in the list (lists whose rows are posted back by position). */
  cell: (item: T, index: number) => ReactNode;
}

export function SetupTable<T>(props: {
  items: readonly T[];
  /** Each row's React key. */
  keyOf: (item: T, index: number) => string;
  empty: string;
  /** A column before the name (a course's "#"). */
  lead?: Column<T>;
  /** The first column is the row's header (its name). */
  columns: readonly [Column<T>, ...Column<T>[]];
  actions?: (item: T, index: number) => ReactNode;
}) {
  if (props.items.length === 0) return <p className="empty-state">{props.empty}</p>;
  const [name, ...rest] = props.columns;
  const { lead, actions } = props;
  return (
    <div className="table-scroll">
      <table className="data-table">
        <TableHead lead={lead?.header} headers={props.columns.map((c) => c.header)} actions={actions !== undefined} />
        <tbody>
          {props.items.map((item, i) => (
            <tr key={props.keyOf(item, i)}>
              {lead ? <td>{lead.cell(item, i)}</td> : null}
              <th scope="row">{name.cell(item, i)}</th>
              {rest.map((c) => (
                <td key={c.header}>{c.cell(item, i)}</td>
              ))}
              {actions ? <td className="row-actions">{actions(item, i)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

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

/** The "Add a …" section under a list, headed so screen readers can jump to it. */
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
