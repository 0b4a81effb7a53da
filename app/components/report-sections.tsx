import { Form, Link } from "@remix-run/react";
import { PageLinks } from "./page-links";
import type { PrintSection } from "../../core/print/print-table";
import type { ReportTable } from "../../core/timing/start-list";

/** A page of a report (app/racer-reports.server.ts reportPageOf): its search, and where it is in the whole. */
export interface ReportPageView {
  q: string;
  page: number;
  pages: number;
  rows: number;
}

/**
 * A report's search (a name or a bib) and, for a report longer than a page, where the page is and the links to
 * the pages beside it. `base` is the page's own path; `downloads` names where the whole report is.
 */
export function ReportFinder({ view, base, downloads }: { view: ReportPageView; base: string; downloads: string }) {
  const { q, page, pages, rows } = view;
  return (
    <>
      <Form method="get" action={base} className="search report-tools" role="search">
        <label htmlFor="report-search">Find a racer by name or bib</label>
        <div className="search-row">
          <input id="report-search" name="q" type="search" defaultValue={q} />
          <button type="submit">Search</button>
        </div>
      </Form>
      <p aria-live="polite" className="report-tools">
        {/* None found: the report's own empty state says "No racer matches", once. */}
        {q && rows > 0 ? `${rows} ${rows === 1 ? "racer matches" : "racers match"} “${q}”. ` : ""}
        {q ? <Link to={base}>Show everyone</Link> : null}
        {pages > 1 ? ` Page ${page} of ${pages}, ${rows} racers. ${downloads} holds them all.` : ""}
      </p>
      <ReportPageLinks view={view} base={base} label="Pages" />
    </>
  );
}

/** The links to the pages beside this one, above a long report and again below it. */
export function ReportPageLinks({ view, base, label }: { view: ReportPageView; base: string; label?: string }) {
  const pageLink = (n: number) => `${base}?${new URLSearchParams({ ...(view.q ? { q: view.q } : {}), page: String(n) })}`;
  return <PageLinks page={view.page} pages={view.pages} link={pageLink} className="actions report-tools" label={label} />;
}

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
