/**
 * An ordered list as a table whose rows move: each row has Move up and Move down buttons (keyboard use, and
 * before hydration) and, once hydrated, can be dragged; a drop posts `intent` with the row and its new
 * position (useDragReorder). The form builder's fields and a free-order race's segments use it.
 */
import type { ReactNode } from "react";
import { useDragReorder } from "./drag-reorder";
import { RowButton } from "./form-kit";
import { TableHead } from "./setup-table";

export function ReorderableTable<T extends { id: string }>(props: {
  rows: readonly T[];
  mayEdit: boolean;
  /** The move intent the page's action takes (target, and direction or toIndex). */
  intent: string;
  action: string;
  /** The row's name in button labels and the drop announcement. */
  nameOf: (row: T) => string;
  empty: string;
  className: string;
  /** Headers after "#": the first names the row. */
  headers: readonly [string, ...string[]];
  /** Cells under those headers: the first is the row's header cell. */
  cells: (row: T) => readonly [ReactNode, ...ReactNode[]];
  /** Headers of columns whose cells are numbers (set right-aligned). */
  numeric?: readonly string[];
  /** Links before the move buttons (Edit, Delete…). */
  links: (row: T) => ReactNode;
  rowData: (row: T) => Record<`data-${string}`, string>;
}) {
  const { shown, draggable, announcement, rowProps } = useDragReorder({
    rows: props.rows,
    enabled: props.mayEdit,
    intent: props.intent,
    action: props.action,
    describe: props.nameOf,
  });
  if (props.rows.length === 0) return <p className="empty-state">{props.empty}</p>;
  return (
    <>
      {draggable ? <p className="hint">Drag a row to move it, or use its Move up and Move down buttons.</p> : null}
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      <div className="table-scroll">
        <table className={`data-table ${props.className}`}>
          <TableHead lead="#" headers={props.headers} actions={props.mayEdit} />
          <tbody>
            {shown.map((row, index) => {
              const [first, ...rest] = props.cells(row);
              const name = props.nameOf(row);
              return (
                <tr key={row.id} {...props.rowData(row)} {...rowProps(row, index)}>
                  <td>
                    {draggable ? (
                      <span className="drag-handle" aria-hidden="true">
                        ⠿
                      </span>
                    ) : null}
                    {index + 1}
                  </td>
                  <th scope="row">{first}</th>
                  {rest.map((cell, i) => (
                    <td key={props.headers[i + 1]} className={props.numeric?.includes(props.headers[i + 1]!) ? "num" : undefined}>
                      {cell}
                    </td>
                  ))}
                  {props.mayEdit ? (
                    <td className="row-actions">
                      {props.links(row)}
                      <RowButton
                        intent={props.intent}
                        target={row.id}
                        extra={{ direction: "up" }}
                        label="↑ Move up"
                        accessibleLabel={`Move ${name} up`}
                        disabled={index === 0}
                      />
                      <RowButton
                        intent={props.intent}
                        target={row.id}
                        extra={{ direction: "down" }}
                        label="↓ Move down"
                        accessibleLabel={`Move ${name} down`}
                        disabled={index === shown.length - 1}
                      />
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
