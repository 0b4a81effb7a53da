/**
 * Print sections laid out as a PDF: A4, portrait unless the widest table needs landscape; each section
 * starts a new page; every page has the race header, the section's heading and the column headings, and
 * "Page n of N". Columns too wide for the page are narrowed, their cells cut with an ellipsis.
 */
import { A4, drawLine, drawText, fillRect, newPage, pdfDocument, type Deflate, type PdfPage } from "./pdf";
import type { PrintColumn, PrintSection } from "./print-table";
import { textWidth } from "./winansi";

export interface PrintHeader {
  /** The race's name, large on every page. */
  title: string;
  /** Under it: the date, the club (and the location), joined with " · ". */
  details: string[];
  /** What this document is ("Results · Overall", "Start list"). */
  documentName: string;
}

export interface TablePdfInput {
  header: PrintHeader;
  sections: PrintSection[];
  /** Points; from the result format's print size. */
  fontSize: number;
  /** What a document with no sections says. */
  empty: string;
  /** Deflates the pages' content streams (the Worker passes zlib's); without it they are written plain. */
  deflate?: Deflate;
}

const MARGIN = 36;
/** Columns are never narrowed below this, in ems, so a cut cell still shows a few letters. */
const MIN_COLUMN_EMS = 2.5;

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** Each column's width to fit its heading and longest cell, with padding. */
export function naturalWidths(columns: readonly PrintColumn[], rows: readonly string[][], size: number): number[] {
  const pad = size * 0.8;
  return columns.map(
    (c, i) => rows.reduce((widest, row) => Math.max(widest, textWidth(row[i] ?? "", "regular", size)), textWidth(c.label, "bold", size)) + pad,
  );
}

/** Natural widths narrowed to fit `available`: the widest text column first (names and clubs give way before times), then any. */
export function fitWidths(natural: readonly number[], columns: readonly PrintColumn[], size: number, available: number): number[] {
  const floor = MIN_COLUMN_EMS * size;
  const widths = [...natural];
  let excess = sum(widths) - available;
  for (const textOnly of [true, false]) {
    while (excess > 0.01) {
      const candidates = widths.map((_, i) => i).filter((i) => (!textOnly || !columns[i]!.numeric) && widths[i]! > floor + 0.01);
      if (candidates.length === 0) break;
      const widest = candidates.reduce((a, b) => (widths[b]! > widths[a]! ? b : a));
      const next = Math.max(floor, ...candidates.filter((i) => i !== widest).map((i) => widths[i]!));
      const cut = Math.min(excess, Math.max(widths[widest]! - next, 1), widths[widest]! - floor);
      widths[widest] = widths[widest]! - cut;
      excess -= cut;
    }
  }
  // Still too wide (a great many columns): scale everything down; cells are cut to fit.
  const total = sum(widths);
  return total > available ? widths.map((w) => (w * available) / total) : widths;
}

export function tablePdf(input: TablePdfInput): Uint8Array<ArrayBuffer> {
  const size = input.fontSize;
  const portraitWidth = A4.width - 2 * MARGIN;
  const natural = input.sections.map((s) => naturalWidths(s.columns, s.rows, size));
  const landscape = natural.some((widths) => sum(widths) > portraitWidth);
  const pageSize = landscape ? { width: A4.height, height: A4.width } : A4;
  const available = pageSize.width - 2 * MARGIN;
  const rowHeight = size * 1.45;
  const pages: PdfPage[] = [];

  /** A new page with the race header; returns the y below it. */
  const startPage = (sectionHeading: string | null, continued: boolean): { page: PdfPage; y: number } => {
    const page = newPage(pageSize);
    pages.push(page);
    let y = pageSize.height - MARGIN - size * 1.6;
    drawText(page, MARGIN, y, input.header.title, { font: "bold", size: size * 1.6, maxWidth: available });
    y -= size * 1.5;
    drawText(page, MARGIN, y, input.header.details.filter((d) => d !== "").join(" · "), { size, maxWidth: available });
    y -= size * 1.8;
    const heading = [input.header.documentName, sectionHeading].filter((h) => h !== null && h !== "").join(" · ");
    drawText(page, MARGIN, y, continued ? `${heading} (continued)` : heading, { font: "bold", size: size * 1.2, maxWidth: available });
    y -= size * 0.7;
    drawLine(page, MARGIN, y, pageSize.width - MARGIN, y, 0.75);
    return { page, y: y - size * 0.6 };
  };

  if (input.sections.length === 0) {
    const { page, y } = startPage(null, false);
    drawText(page, MARGIN, y - rowHeight, input.empty, { size, maxWidth: available });
  }

  input.sections.forEach((section, s) => {
    const widths = fitWidths(natural[s]!, section.columns, size, available);
    const tableWidth = sum(widths);
    const pad = size * 0.4;
    const drawRow = (page: PdfPage, y: number, cells: readonly string[], bold: boolean) => {
      let x = MARGIN;
      section.columns.forEach((column, i) => {
        const width = widths[i]!;
        const style = { font: bold ? ("bold" as const) : ("regular" as const), size, maxWidth: width - 2 * pad };
        if (column.numeric) drawText(page, x + width - pad, y, cells[i] ?? "", { ...style, align: "right" });
        else drawText(page, x + pad, y, cells[i] ?? "", style);
        x += width;
      });
    };
    /** Column headings on a grey band; returns the baseline of the first row. */
    const headings = (page: PdfPage, top: number) => {
      fillRect(page, MARGIN, top - rowHeight, tableWidth, rowHeight, 0.88);
      drawRow(
        page,
        top - rowHeight + size * 0.42,
        section.columns.map((c) => c.label),
        true,
      );
      return top - rowHeight * 2 + size * 0.42;
    };
    let { page, y } = startPage(section.heading, false);
    y = headings(page, y);
    const bottom = MARGIN + size * 2.5;
    section.rows.forEach((row, r) => {
      if (y < bottom) {
        ({ page, y } = startPage(section.heading, true));
        y = headings(page, y);
      }
      // A hairline under every row keeps long rows readable across the page.
      if (r > 0) drawLine(page, MARGIN, y + rowHeight - size * 0.38, MARGIN + tableWidth, y + rowHeight - size * 0.38, 0.2);
      drawRow(page, y, row, false);
      y -= rowHeight;
    });
  });

  pages.forEach((page, i) => {
    drawText(page, MARGIN, MARGIN - size * 0.2, input.header.documentName, { size: size * 0.8, maxWidth: available / 2 });
    drawText(page, pageSize.width - MARGIN, MARGIN - size * 0.2, `Page ${i + 1} of ${pages.length}`, { size: size * 0.8, align: "right" });
  });
  return pdfDocument(pages, { title: `${input.header.title} · ${input.header.documentName}` }, input.deflate);
}
