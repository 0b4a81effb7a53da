/**
 * The public race pages' downloads and printing: links to the CSV and PDF, a Print button, and the page
 * header and numbers of every printed page (CSS page margin boxes, so no script runs to print).
 */

/** Text as a CSS string: every character but plain letters, digits and spaces as a hex escape, so nothing closes the string or the style element. */
export function cssString(text: string): string {
  return `"${[...text].map((c) => (/[A-Za-z0-9 ]/.test(c) ? c : `\\${(c.codePointAt(0) ?? 63).toString(16)} `)).join("")}"`;
}

/** The print rules that carry this page's words: the race header at the top of each page, "Page n of N" at the foot. */
export function pagePrintCss(header: string, printPoints: number): string {
  return `@media print {
  .print-page { --print-size: ${printPoints}pt; }
  @page {
    margin: 16mm 12mm 14mm;
    @top-left { content: ${cssString(header)}; font: 8pt sans-serif; color: #374151; }
    @bottom-right { content: "Page " counter(page) " of " counter(pages); font: 8pt sans-serif; color: #374151; }
  }
}`;
}

/** `printHref`: a page that shows everything to print, for pages that show only part of it (the paged results). */
export function PrintTools(props: { header: string; printPoints: number; csvHref?: string; pdfHref: string; tvHref?: string; printHref?: string }) {
  return (
    <>
      <style dangerouslySetInnerHTML={{ __html: pagePrintCss(props.header, props.printPoints) }} />
      <p className="print-tools actions">
        {props.printHref ? (
          <a href={props.printHref} className="button secondary">
            Print
          </a>
        ) : (
          <button type="button" className="secondary" onClick={() => window.print()}>
            Print
          </button>
        )}
        <a href={props.pdfHref} className="button secondary">
          PDF
        </a>
        {props.csvHref ? (
          <a href={props.csvHref} className="button secondary" download>
            CSV
          </a>
        ) : null}
        {props.tvHref ? (
          <a href={props.tvHref} className="button secondary">
            TV screen
          </a>
        ) : null}
      </p>
    </>
  );
}
