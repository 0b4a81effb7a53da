/**
 * A small PDF 1.4 writer: pages of text in the standard Helvetica fonts, lines and filled boxes, written
 * with a correct cross-reference table. Written here because a PDF library would not fit the Worker's
 * size budget (decision 0033); the standard fonts need no embedding, so a page is only drawing operators.
 */
import { fitWinAnsi, toWinAnsi, winAnsiWidth, type PdfFont } from "./winansi";

export const A4 = { width: 595.28, height: 841.89 } as const;

export interface PdfPage {
  width: number;
  height: number;
  /** Content stream operators, one drawing per entry. */
  ops: string[];
}

export function newPage(size: { width: number; height: number }): PdfPage {
  return { width: size.width, height: size.height, ops: [] };
}

/** A number as PDF writes it: at most two decimals, no exponent, no "-0". */
function num(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return Object.is(rounded, -0) ? "0" : String(rounded);
}

/** A literal string: WinAnsi bytes with the three characters PDF reserves in strings escaped. */
export function pdfString(bytes: string): string {
  return `(${bytes.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

const FONT_NAMES: Record<PdfFont, string> = { regular: "/F1", bold: "/F2" };

export interface TextStyle {
  font?: PdfFont;
  size: number;
  /** Where `x` is: the text's left edge (default) or its right edge. */
  align?: "left" | "right";
  /** Cut the text (with an ellipsis) to this width in points. */
  maxWidth?: number;
}

/** Draws one line of text with its baseline at (x, y) from the page's bottom left. */
export function drawText(page: PdfPage, x: number, y: number, text: string, style: TextStyle): void {
  const font = style.font ?? "regular";
  const bytes = style.maxWidth === undefined ? toWinAnsi(text) : fitWinAnsi(text, font, style.size, style.maxWidth);
  if (bytes === "") return;
  const left = style.align === "right" ? x - winAnsiWidth(bytes, font, style.size) : x;
  page.ops.push(`BT ${FONT_NAMES[font]} ${num(style.size)} Tf ${num(left)} ${num(y)} Td ${pdfString(bytes)} Tj ET`);
}

export function drawLine(page: PdfPage, x1: number, y1: number, x2: number, y2: number, width = 0.5): void {
  page.ops.push(`${num(width)} w ${num(x1)} ${num(y1)} m ${num(x2)} ${num(y2)} l S`);
}

/** A box filled with a grey (0 black, 1 white); drawing goes back to black after it. */
export function fillRect(page: PdfPage, x: number, y: number, width: number, height: number, grey: number): void {
  page.ops.push(`${num(grey)} g ${num(x)} ${num(y)} ${num(width)} ${num(height)} re f 0 g`);
}

/** zlib's deflate (RFC 1950), which a PDF's FlateDecode filter reads; passed in, so core does no I/O of its own. */
export type Deflate = (bytes: Uint8Array) => Uint8Array;

/** Bytes as a string of the same length (each char one byte), so the file is built and measured as one string. */
function byteString(bytes: Uint8Array): string {
  let out = "";
  // In slices: fromCharCode takes its bytes as arguments, and a call has only so many.
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

/** A content stream: its drawing operators as written, or deflated (a results page's text shrinks about sixfold). */
function contentStream(content: string, deflate: Deflate | undefined): string {
  if (!deflate) return `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  const bytes = new Uint8Array(content.length);
  for (let i = 0; i < content.length; i++) bytes[i] = content.charCodeAt(i);
  const packed = byteString(deflate(bytes));
  return `<< /Length ${packed.length} /Filter /FlateDecode >>\nstream\n${packed}\nendstream`;
}

/**
 * The whole file. Objects: 1 catalog, 2 page tree, 3 and 4 the fonts, 5 the document information, then
 * each page and its content stream. Every byte is below 256, so string offsets are byte offsets.
 */
export function pdfDocument(pages: readonly PdfPage[], info: { title: string }, deflate?: Deflate): Uint8Array<ArrayBuffer> {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 6 + i * 2);
  objects.push("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`);
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>");
  objects.push(`<< /Title ${pdfString(toWinAnsi(info.title))} /Producer (Startline) >>`);
  pages.forEach((page, i) => {
    const content = page.ops.join("\n");
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(page.width)} ${num(page.height)}] ` +
        `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageIds[i]! + 1} 0 R >>`,
    );
    objects.push(contentStream(content, deflate));
  });
  // A comment of bytes above 127 on line 2 tells transfer tools the file is binary.
  let out = "%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  // Each cross-reference entry is exactly 20 bytes, its end of line included.
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f\r\n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n\r\n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  const bytes = new Uint8Array(out.length);
  for (let i = 0; i < out.length; i++) bytes[i] = out.charCodeAt(i);
  return bytes;
}
