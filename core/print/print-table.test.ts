import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCsv } from "../entity/csv";
import { fcParams } from "../testing/fast-check";
import { reportSections, sectionsCsv, type PrintSection } from "./print-table";

const records = (csv: string) => parseCsv(csv.slice(1)).map((record) => record.map((cell) => cell.text));

describe("sectionsCsv", () => {
  it("writes one header of every section's columns, each new column after its neighbour, blanks where a section lacks one", () => {
    const sections: PrintSection[] = [
      { heading: "5 km", columns: [{ label: "Rank" }, { label: "Name" }, { label: "Lap 1" }, { label: "Time" }], rows: [["1", "Ann", "10:00.0", "20:00.0"]] },
      {
        heading: "10 km",
        columns: [{ label: "Rank" }, { label: "Name" }, { label: "Lap 1" }, { label: "Lap 2" }, { label: "Time" }],
        rows: [["1", "Bo", "9:00.0", "18:00.0", "27:00.0"]],
      },
      { heading: "Relay", columns: [{ label: "Rank" }, { label: "Team" }, { label: "Lap" }, { label: "Lap" }], rows: [["1", "Reds", "a", "b"]] },
    ];
    const csv = sectionsCsv("Result group", sections);
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(records(csv)).toEqual([
      ["Result group", "Rank", "Team", "Lap", "Lap (2)", "Name", "Lap 1", "Lap 2", "Time"],
      ["5 km", "1", "", "", "", "Ann", "10:00.0", "", "20:00.0"],
      ["10 km", "1", "", "", "", "Bo", "9:00.0", "18:00.0", "27:00.0"],
      ["Relay", "1", "Reds", "a", "b", "", "", "", ""],
    ]);
  });

  it("round-trips any cell through an RFC 4180 parser, formula starts neutralised", () => {
    const cell = fc.string({ unit: fc.constantFrom(..."ab ,\"\r\n\t=+-@'é".split("")), maxLength: 10 });
    fc.assert(
      fc.property(fc.array(fc.tuple(cell, cell), { minLength: 1, maxLength: 5 }), (rows) => {
        const csv = sectionsCsv("Group", [{ heading: "=G", columns: [{ label: "A" }, { label: "B" }], rows: rows.map((r) => [...r]) }]);
        // Every record ends in CRLF; line breaks inside quoted cells are the cells' own.
        expect(csv.endsWith("\r\n")).toBe(true);
        const read = records(csv);
        expect(read[0]).toEqual(["Group", "A", "B"]);
        read.slice(1).forEach((record, i) => {
          const unsafe = (text: string) => /^[=+\-@\t\r]/.test(text) && !/^-\d+(\.\d+)?$/.test(text);
          expect(record).toEqual(["'=G", ...rows[i]!.map((text) => (unsafe(text) ? `'${text}` : text))]);
        });
      }),
      fcParams(),
    );
  });
});

describe("reportSections", () => {
  it("gives every section the report's columns, the named ones numeric", () => {
    const sections = reportSections(
      { groupColumns: ["Start group"], columns: ["Start", "Bib", "Name"], sections: [{ heading: "Open", group: ["Open"], rows: [["10:00:00", "1", "Ann"]] }] },
      ["Start", "Bib"],
    );
    expect(sections).toEqual([
      {
        heading: "Open",
        columns: [
          { label: "Start", numeric: true },
          { label: "Bib", numeric: true },
          { label: "Name", numeric: false },
        ],
        rows: [["10:00:00", "1", "Ann"]],
      },
    ]);
  });
});
