import { describe, expect, it } from "vitest";
import type { RacerView } from "../durable/race-room";
import { racerSchema } from "../schema/race/racer";
import { readRaceSettings } from "../schema/race/settings";
import { changedFields, NOT_NEGATIVE, PERCENT_RANGE, racerChangesFrom, racerFormValues, type RacerSetup } from "./racers.server";
import { previewImport } from "./racer-import.server";

const SECOND = 1_000_000;
const ZERO = 1_700_000_000 * SECOND;

const setup: RacerSetup = {
  settings: readRaceSettings({}),
  courses: [{ id: "c10", name: "10 km", ordinal: 0 }],
  startGroups: [{ id: "g1", name: "Wave 1", ordinal: 0 }],
  metaStartGroups: [],
  points: [],
  fields: [{ key: "shirt", display: "Shirt size", type: "option", options: ["S", "M"] }],
  zeroTime: ZERO,
};

const existing = (bib: number, chip: string): RacerView => ({
  id: `r${bib}`,
  data: racerSchema.parse({ bib, chip }),
  status: "notstarted",
  statusText: "",
  time: null,
});

describe("racer form", () => {
  it("reads seconds with decimals as microseconds and refuses negatives", () => {
    const parsed = racerChangesFrom({ penalty: "2.5", bonus: "", add_back: "-1" }, setup);
    expect(parsed).toEqual({ ok: false, errors: { add_back: NOT_NEGATIVE } });
    const ok = racerChangesFrom({ penalty: "2.5", bonus: "0.000001" }, setup);
    expect(ok.ok && ok.changes).toMatchObject({ penalty: 2_500_000, bonus: 1, add_back: 0 });
  });

  it("checks the para factor, the bib and the status time", () => {
    const parsed = racerChangesFrom({ para_factor: "250", bib: "12a", status: "dnf", status_time: "" }, setup);
    expect(parsed).toEqual({
      ok: false,
      errors: { para_factor: PERCENT_RANGE, bib: "Must be a whole number", status_time: "A DNF needs the time it happened" },
    });
  });

  it("sets one status and clears the others", () => {
    const parsed = racerChangesFrom({ status: "dsq", status_time: "11:00:00" }, setup);
    expect(parsed.ok && parsed.changes).toMatchObject({ dns: false, dnf_time: null, dsq_time: ZERO + 11 * 3600 * SECOND });
  });

  it("reads the seeding fields: licences as text, points and seed as numbers, manual seed as the checkbox, blank as null", () => {
    const ok = racerChangesFrom(
      { ccc_licence: " CCC-123 ", licence: "L9", cpl_distance_pts: "412.5", cpl_sprint_pts: "0", seed: "3", is_manual_seed: "on" },
      setup,
    );
    expect(ok.ok && ok.changes).toMatchObject({
      ccc_licence: "CCC-123",
      licence: "L9",
      cpl_distance_pts: 412.5,
      cpl_sprint_pts: 0,
      seed: 3,
      is_manual_seed: true,
    });
    const blank = racerChangesFrom({ ccc_licence: "", licence: " ", cpl_distance_pts: "", cpl_sprint_pts: "", seed: "" }, setup);
    expect(blank.ok && blank.changes).toMatchObject({
      ccc_licence: null,
      licence: null,
      cpl_distance_pts: null,
      cpl_sprint_pts: null,
      seed: null,
      is_manual_seed: false,
    });
    const bad = racerChangesFrom({ cpl_distance_pts: "12 pts", cpl_sprint_pts: "-4", seed: "first" }, setup);
    expect(bad).toEqual({ ok: false, errors: { cpl_distance_pts: "Must be a Number", cpl_sprint_pts: NOT_NEGATIVE, seed: "Must be a Number" } });
  });

  it("gives back the stored values exactly, so an unchanged save changes nothing", () => {
    const doc = racerSchema.parse({
      first_name: "Anna",
      bib: 7,
      penalty: 1_250_000,
      dnf_time: ZERO + 3600 * SECOND + 5,
      chip_list: ["A", "B"],
      custom: { shirt: "M" },
      ccc_licence: "C1",
      cpl_distance_pts: 87.25,
      seed: 4,
      is_manual_seed: true,
    });
    const values = racerFormValues(doc, setup);
    expect(values).toMatchObject({ penalty: "1.25", status: "dnf", status_time: "01:00:00.000005", chip_list: "A, B", "custom.shirt": "M" });
    expect(values).toMatchObject({ ccc_licence: "C1", licence: "", cpl_distance_pts: "87.25", cpl_sprint_pts: "", seed: "4", is_manual_seed: "on" });
    const parsed = racerChangesFrom(values, setup);
    expect(parsed.ok && changedFields(parsed.changes, doc)).toEqual({});
  });
});

describe("CSV import preview", () => {
  it("maps headers by name, course and start group by name, and reports problems by file row", () => {
    const text = [
      "First Name,LAST_NAME,Bib,Course,Start Group,Shirt size,Notes",
      "Ann,Able,1,10 km,wave 1,s,x",
      "Bob,Baker,5,5 km,,XL,",
      "Cy,Cole,7,,,,",
      "Di,Dunn,7,,,,",
    ].join("\n");
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

  it("imports the seeding columns by field name or label, checked as the form checks them", () => {
    const text = [
      "Bib,CCC Licence,licence,CPL distance points,cpl_sprint_pts,Seed,Manual seed",
      "1,CCC-1,L1,310.5,42,2,yes",
      "2,,,,,,",
      "3,,,lots,-1,x,maybe",
    ].join("\n");
    const preview = previewImport(text, setup, []);
    expect(preview.fileError).toBeNull();
    expect(preview.mapped.map((m) => m.field)).toEqual(["Bib", "CCC licence", "Licence", "CPL distance points", "CPL sprint points", "Seed", "Manual seed"]);
    expect(preview.ignored).toEqual([]);
    expect(preview.rows[0]!.changes).toEqual({
      bib: 1,
      ccc_licence: "CCC-1",
      licence: "L1",
      cpl_distance_pts: 310.5,
      cpl_sprint_pts: 42,
      seed: 2,
      is_manual_seed: true,
    });
    expect(preview.rows[1]!.changes).toEqual({
      bib: 2,
      ccc_licence: null,
      licence: null,
      cpl_distance_pts: null,
      cpl_sprint_pts: null,
      seed: null,
      is_manual_seed: false,
    });
    expect(preview.rows[2]!.errors).toEqual([
      { field: "CPL distance points", message: "Must be a Number" },
      { field: "CPL sprint points", message: NOT_NEGATIVE },
      { field: "Seed", message: "Must be a Number" },
      { field: "Manual seed", message: "Must be yes or no" },
    ]);
    const snake = previewImport("ccc_licence,cpl_distance_pts,cpl_sprint_pts,seed\nA7,5,6,7", setup, []);
    expect(snake.rows[0]!.changes).toEqual({ ccc_licence: "A7", cpl_distance_pts: 5, cpl_sprint_pts: 6, seed: 7 });
  });

  it("says what is wrong with the file as a whole", () => {
    expect(previewImport("bib\n", setup, []).fileError).toContain("header row and at least one racer");
    expect(previewImport('bib\n"1', setup, []).fileError).toContain("not valid CSV");
    expect(previewImport("foo,bar\n1,2", setup, []).fileError).toContain("No column");
  });
});
