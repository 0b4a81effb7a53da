import { describe, expect, it } from "vitest";
import { readPointsFile, writePointsFile } from "./points-file";
import { standingsCsv } from "./standings-csv";
import { computeStandings } from "./standings";
import { racerIdentity } from "./identity";

describe("points file", () => {
  it("reads category, name, club and points, in any column order", () => {
    const read = readPointsFile("Name,Points,Category,Club\r\nAnna Virtanen,12.5,Women,Nordic\nBea,30,Women,\n");
    expect(read).toEqual({
      ok: true,
      rows: [
        { identity: racerIdentity({ name: "Anna Virtanen", club: "Nordic" }), name: "Anna Virtanen", club: "Nordic", category: "Women", points: 1250 },
        { identity: racerIdentity({ name: "Bea", club: null }), name: "Bea", club: null, category: "Women", points: 3000 },
      ],
    });
  });

  it("refuses the whole file with a message per bad row", () => {
    const read = readPointsFile("Category,Name,Points\nWomen,,10\nWomen,Anna,ten\nWomen,Anna,5\nWomen,anna,6\n");
    expect(read).toEqual({
      ok: false,
      errors: ["Row 2: Name is required", "Row 3: Points must be a number with at most two decimals", "Row 5: anna in Women is already on row 4"],
    });
  });

  it("says which columns are missing, and refuses what is not CSV", () => {
    expect(readPointsFile("Who,What\nx,y\n")).toEqual({ ok: false, errors: ["The first row must name the columns; missing: Category, Name, Points"] });
    expect(readPointsFile('Category,Name,Points\n"Women,Anna,1\n')).toEqual({ ok: false, errors: ["The file is not valid CSV: Unterminated quoted cell"] });
    expect(readPointsFile("")).toEqual({ ok: false, errors: ["The file is empty"] });
    expect(readPointsFile("PK\u0003\u0004\u0000\u0000")).toEqual({ ok: false, errors: ["The file is not a CSV text file"] });
  });

  it("reads back what it writes, formula-like names included", () => {
    const rows = [{ identity: racerIdentity({ name: "=cmd", club: null }), name: "=cmd", club: null, category: "Open", points: -150 }];
    const text = writePointsFile(rows);
    expect(text).toContain(`"'=cmd"`);
    expect(readPointsFile(text)).toEqual({ ok: true, rows });
  });

  it("reads a standings export by its Total column", () => {
    const standings = computeStandings({ rule: { method: "table", table: [100, 80] }, ties: "share", statusPoints: { dnf: 0, dns: 0, dsq: 0 }, bestOf: 1 }, [
      {
        id: "a",
        name: "Opener",
        order: 1,
        scale: 1,
        entries: [{ identity: "x", name: "Anna", club: "Nordic", category: "Women", outcome: { kind: "placed", place: 2, time: null } }],
      },
      {
        id: "b",
        name: "=Final",
        order: 2,
        scale: 1,
        entries: [{ identity: "x", name: "Anna", club: "Nordic", category: "Women", outcome: { kind: "placed", place: 1, time: null } }],
      },
    ]);
    const csv = standingsCsv(standings);
    expect(csv).toBe('\uFEFF"Category","Rank","Name","Club","Total","Opener","\'=Final"\r\n"Women","1","Anna","Nordic","100","(80)","100"\r\n');
    const read = readPointsFile(csv);
    expect(read.ok && read.rows.map((r) => [r.name, r.points])).toEqual([["Anna", 10000]]);
  });
});
