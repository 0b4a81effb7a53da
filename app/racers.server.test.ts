import { describe, expect, it } from "vitest";
import type { RacerView } from "../durable/race-room";
import { racerSchema } from "../schema/race/racer";
import { readRaceSettings } from "../schema/race/settings";
import { changedFields, NOT_NEGATIVE, PERCENT_RANGE, previewImport, racerChangesFrom, racerFormValues, type RacerSetup } from "./racers.server";

const SECOND = 1_000_000;
const ZERO = 1_700_000_000 * SECOND;

const setup: RacerSetup = {
  settings: readRaceSettings({}),
  courses: [{ id: "c10", name: "10 km", ordinal: 0 }],
  startGroups: [{ id: "g1", name: "Wave 1", ordinal: 0 }],
  points: [],
  fields: [{ key: "shirt", display: "Shirt size", type: "option", options: ["S", "M"] }],
  zeroTime: ZERO,
};

const existing = (bib: number, chip: string): RacerView => ({ id: `r${bib}`, data: racerSchema.parse({ bib, chip }), status: "notstarted", statusText: "", time: null });

describe("racer form", () => {
  it("reads seconds with decimals as microseconds and refuses negatives", () => {
    const parsed = racerChangesFrom({ penalty: "2.5", bonus: "", add_back: "-1" }, setup);
    expect(parsed).toEqual({ ok: false, errors: { add_back: NOT_NEGATIVE } });
    const ok = racerChangesFrom({ penalty: "2.5", bonus: "0.000001" }, setup);
    expect(ok.ok && ok.changes).toMatchObject({ penalty: 2_500_000, bonus: 1, add_back: 0 });
  });

  it("checks the para factor, the bib and the status time", () => {
    const parsed = racerChangesFrom({ para_factor: "250", bib: "12a", status: "dnf", status_time: "" }, setup);
    expect(parsed).toEqual({ ok: false, errors: { para_factor: PERCENT_RANGE, bib: "Must be a whole number", status_time: "A DNF needs the time it happened" } });
  });

  it("sets one status and clears the others", () => {
    const parsed = racerChangesFrom({ status: "dsq", status_time: "11:00:00" }, setup);
    expect(parsed.ok && parsed.changes).toMatchObject({ dns: false, dnf_time: null, dsq_time: ZERO + 11 * 3600 * SECOND });
  });

  it("gives back the stored values exactly, so an unchanged save changes nothing", () => {
    const doc = racerSchema.parse({ first_name: "Anna", bib: 7, penalty: 1_250_000, dnf_time: ZERO + 3600 * SECOND + 5, chip_list: ["A", "B"], custom: { shirt: "M" } });
    const values = racerFormValues(doc, setup);
    expect(values).toMatchObject({ penalty: "1.25", status: "dnf", status_time: "01:00:00.000005", chip_list: "A, B", "custom.shirt": "M" });
    const parsed = racerChangesFrom(values, setup);
    expect(parsed.ok && changedFields(parsed.changes, doc)).toEqual({});
  });
});

describe("CSV import preview", () => {
  it("maps headers by name, course and start group by name, and reports problems by file row", () => {
    const text = ["First Name,LAST_NAME,Bib,Course,Start Group,Shirt size,Notes", "Ann,Able,1,10 km,wave 1,s,x", "Bob,Baker,5,5 km,,XL,", "Cy,Cole,7,,,,", "Di,Dunn,7,,,,"].join("\n");
    const preview = previewImport(text, setup, [existing(5, "C5")]);
    expect(preview.fileError).toBeNull();
    expect(preview.mapped.map((m) => m.field)).toEqual(["First name", "Last name", "Bib", "Course", "Start group", "Shirt size"]);
    expect(preview.ignored).toEqual(["Notes"]);
    expect(preview.rows[0]!.changes).toMatchObject({ first_name: "Ann", bib: 1, course: "c10", setupgroup_id: "g1", custom: { shirt: "S" } });
    expect(preview.rows.map((r) => [r.row, r.errors])).toEqual([
      [2, []],
      [
        3,
        [
          { field: "Course", message: "No course named “5 km”" },
          { field: "Shirt size", message: "Must be one of: S, M" },
        ],
      ],
      [4, []],
      [5, [{ field: "Bib", message: "Bib 7 is also on row 4" }]],
    ]);
  });

  it("says what is wrong with the file as a whole", () => {
    expect(previewImport("bib\n", setup, []).fileError).toContain("header row and at least one racer");
    expect(previewImport('bib\n"1', setup, []).fileError).toContain("not valid CSV");
    expect(previewImport("foo,bar\n1,2", setup, []).fileError).toContain("No column");
  });
});
