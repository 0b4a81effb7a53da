import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { readPdf } from "../testing/pdf-reader";
import { A4, drawLine, drawText, newPage, pdfDocument, pdfString } from "./pdf";
import { printFontSize, type PrintSection } from "./print-table";
import { tablePdf } from "./table-pdf";

const latin1 = (bytes: Uint8Array) => Array.from(bytes, (b) => String.fromCharCode(b)).join("");

describe("pdfDocument", () => {
  it("writes each object where the cross-reference table says, and counts the pages", () => {
    const pages = [newPage(A4), newPage(A4), newPage({ width: 300, height: 200 })];
    drawText(pages[0]!, 36, 800, "Première page", { size: 12 });
    drawLine(pages[1]!, 0, 0, 100, 100);
    drawText(pages[2]!, 10, 10, "Last", { size: 9, font: "bold" });
    const bytes = pdfDocument(pages, { title: "Test" });
    const text = latin1(bytes);
    // 5 fixed objects and two per page, plus the free entry 0.
    expect(text).toContain("xref\n0 12\n0000000000 65535 f\r\n");
    const xrefAt = Number(/startxref\n(\d+)/.exec(text)![1]);
    expect(text.slice(xrefAt, xrefAt + 5)).toBe("xref\n");
    const entries = text
      .slice(xrefAt + "xref\n0 12\n".length)
      .split("\r\n")
      .slice(1, 12);
    entries.forEach((entry, i) => expect(text.slice(Number(entry.slice(0, 10)))).toMatch(new RegExp(`^${i + 1} 0 obj\\n`)));
    const read = readPdf(bytes);
    expect(read.pages).toEqual([["Première page"], [], ["Last"]]);
    expect(read.mediaBoxes[2]).toEqual([0, 0, 300, 200]);
    expect(read.title).toBe("Test");
    expect(text).toContain("/Type /Pages /Kids [6 0 R 8 0 R 10 0 R] /Count 3");
    expect(text).toContain("/BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding");
  });

  it("escapes the characters strings reserve: ( ) and \\", () => {
    expect(pdfString("a(b)c\\d")).toBe("(a\\(b\\)c\\\\d)");
    const page = newPage(A4);
    drawText(page, 0, 0, "Smith (Jr.) \\ ) (", { size: 10 });
    expect(page.ops[0]).toContain("(Smith \\(Jr.\\) \\\\ \\) \\() Tj");
    expect(readPdf(pdfDocument([page], { title: "(x)" }))).toMatchObject({ pages: [["Smith (Jr.) \\ ) ("]], title: "(x)" });
  });

  it("reads back any text drawn, the stream lengths and offsets holding", () => {
    const printable = fc.string({ unit: fc.constantFrom(..."abcXYZ 019()\\é€–:.,-'\"/".split("")), maxLength: 40 });
    fc.assert(
      fc.property(fc.array(fc.array(printable, { maxLength: 5 }), { minLength: 1, maxLength: 4 }), (texts) => {
        const pages = texts.map((lines) => {
          const page = newPage(A4);
          lines.forEach((line, i) => drawText(page, 36, 700 - i * 12, line, { size: 10 }));
          return page;
        });
        expect(readPdf(pdfDocument(pages, { title: "t" })).pages).toEqual(texts.map((lines) => lines.filter((l) => l !== "")));
      }),
      fcParams(),
    );
  });

  it("right-aligns text against x and cuts it to a width with an ellipsis", () => {
    const page = newPage(A4);
    drawText(page, 100, 10, "1:02.3", { size: 10, align: "right" });
    // "1:02.3" in Helvetica: 556 + 278 + 556 + 556 + 278 + 556 = 2780 / 1000 em, so 27.8 points at 10 pt.
    expect(page.ops[0]).toContain("72.2 10 Td");
    drawText(page, 0, 0, "Alexandria Konstantinopoulou", { size: 10, maxWidth: 60 });
    expect(readPdf(pdfDocument([page], { title: "t" })).pages[0]![1]).toMatch(/^Alexandria…$|^Alexand.*…$/);
  });
});

describe("tablePdf", () => {
  const section = (heading: string, rows: number): PrintSection => ({
    heading,
    columns: [{ label: "Rank", numeric: true }, { label: "Name" }, { label: "Time", numeric: true }],
    rows: Array.from({ length: rows }, (_, i) => [String(i + 1), `Racer ${i + 1}`, `${30 + i}:00.0`]),
  });
  const header = { title: "Spring Classic", details: ["Saturday 28 November 2026", "Nordic Club"], documentName: "Results · Overall" };

  it("starts each section on a new page and repeats the header and column headings on each page", () => {
    const read = readPdf(tablePdf({ header, sections: [section("Women", 3), section("Men", 120)], fontSize: 10, empty: "No results yet." }));
    // At 10 pt a portrait page holds about 50 rows: Women on one page, Men on three.
    expect(read.pages.length).toBe(4);
    expect(read.pages[0]).toEqual(
      expect.arrayContaining(["Spring Classic", "Saturday 28 November 2026 · Nordic Club", "Results · Overall · Women", "Page 1 of 4"]),
    );
    expect(read.pages[0]).toContain("Racer 3");
    expect(read.pages[0]).not.toContain("Racer 4");
    expect(read.pages[1]![2]).toBe("Results · Overall · Men");
    expect(read.pages[2]![2]).toBe("Results · Overall · Men (continued)");
    for (const page of read.pages) expect(page.slice(3, 6)).toEqual(["Rank", "Name", "Time"]);
    expect(read.pages.flat().filter((t) => /^Racer \d+$/.test(t))).toHaveLength(123);
    expect(read.pages[3]).toContain("Page 4 of 4");
    expect(read.mediaBoxes[0]).toEqual([0, 0, 595.28, 841.89]);
  });

  it("turns to landscape for a wide table, and says so when there is nothing to print", () => {
    const wide: PrintSection = {
      heading: "Open",
      columns: Array.from({ length: 14 }, (_, i) => ({ label: `Lap ${i + 1}`, numeric: true })),
      rows: [Array.from({ length: 14 }, () => "1:23:45.6")],
    };
    expect(readPdf(tablePdf({ header, sections: [wide], fontSize: 10, empty: "" })).mediaBoxes[0]).toEqual([0, 0, 841.89, 595.28]);
    const empty = readPdf(tablePdf({ header, sections: [], fontSize: 10, empty: "No results yet." }));
    expect(empty.pages).toEqual([
      ["Spring Classic", "Saturday 28 November 2026 · Nordic Club", "Results · Overall", "No results yet.", "Results · Overall", "Page 1 of 1"],
    ]);
  });

  it("sets the type at the print size: larger type, fewer rows to a page", () => {
    const pagesAt = (printSize: string | null) =>
      readPdf(tablePdf({ header, sections: [section("Open", 200)], fontSize: printFontSize(printSize), empty: "" })).pages.length;
    expect(pagesAt("small")).toBeLessThan(pagesAt(null));
    expect(pagesAt(null)).toBeLessThan(pagesAt("large"));
    expect(tablePdf({ header, sections: [section("Open", 1)], fontSize: printFontSize("large"), empty: "" })).toSatisfy((b: Uint8Array) =>
      latin1(b).includes("/F1 12 Tf"),
    );
  });

  it("never fails on text outside WinAnsi", () => {
    const names: PrintSection = { heading: "Ελληνικά", columns: [{ label: "Name" }], rows: [["Łukasz Żółć"], ["Иван"], ["李雷 🏃"]] };
    expect(readPdf(tablePdf({ header, sections: [names], fontSize: 10, empty: "" })).pages[0]).toEqual(
      expect.arrayContaining(["Lukasz Zólc", "????", "?? ?", "Results · Overall · ????????"]),
    );
  });
});

describe("printFontSize", () => {
  it("reads small, medium, large and points, within 6 to 16", () => {
    expect([null, "", "medium", "small", "LARGE", "9", "9pt", "11.5 pt", "3", "40", "huge"].map(printFontSize)).toEqual([
      10, 10, 10, 8, 12, 9, 9, 11.5, 6, 16, 10,
    ]);
  });
});

describe("column widths", () => {
  it("fit every cell uncut when the page has room", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom(..."0123456789:.+ abcWM"), maxLength: 12 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 6, max: 16 }),
        (cells, size) => {
          const section: PrintSection = { heading: "", columns: cells.map((_, i) => ({ label: `C${i}`, numeric: i % 2 === 0 })), rows: [cells] };
          const drawn = readPdf(tablePdf({ header: { title: "", details: [], documentName: "" }, sections: [section], fontSize: size, empty: "" })).pages[0]!;
          for (const cell of cells.filter((c) => c.trim() !== "")) expect(drawn).toContain(cell);
        },
      ),
      fcParams(50),
    );
  });
});
