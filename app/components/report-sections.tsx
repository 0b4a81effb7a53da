import type { PrintSection } from "../../core/print/print-table";
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

/** Print sections (a result format's groups), each with its own columns: the whole results as the PDF holds them. */
export function PrintSections({ sections, empty }: { sections: readonly PrintSection[]; empty: string }) {
  if (sections.length === 0) return <p className="empty-state">{empty}</p>;
  return (
    <>
      {sections.map((section, index) => (
        <section key={index} aria-label={section.heading} className="result-group">
          <h3>{section.heading}</h3>
          <table className="data-table results-table">
            <thead>
              <tr>
                {section.columns.map((c) => (
                  <th key={c.label} scope="col" className={c.numeric ? "num" : undefined}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {section.rows.map((row, i) => (
                <tr key={i}>
                  {row.map((cell, j) => (
                    <td key={j} className={section.columns[j]?.numeric ? "num" : undefined}>
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </>
  );
}
