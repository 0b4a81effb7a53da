import type { ReportTable } from "../../core/timing/start-list";

/** A race report's sections, one table each under its heading (the start list by start group and course). */
export function ReportSections({ table, empty }: { table: ReportTable; empty: string }) {
  if (table.sections.length === 0) return <p className="empty-state">{empty}</p>;
  return (
    <>
      {table.sections.map((section, index) => (
        <section key={index} aria-label={section.heading}>
          <h3>{section.heading}</h3>
          <div className="table-scroll">
            <table className="data-table">
              <thead>
                <tr>
                  {table.columns.map((c) => (
                    <th key={c} scope="col">
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {section.rows.map((row, i) => (
                  <tr key={i}>
                    {row.map((cell, j) => (
                      <td key={j}>{cell}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </>
  );
}
