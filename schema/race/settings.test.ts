import { describe, expect, it } from "vitest";
import { DEFAULT_MASS_START_CUTOFF, raceSettingsChangeSchema, readRaceSettings } from "./settings";

describe("race settings", () => {
  it("a change names only its own fields: defaults are not filled in for the others", () => {
    expect(raceSettingsChangeSchema.parse({ lap_count: 3 })).toEqual({ lap_count: 3 });
    expect(raceSettingsChangeSchema.safeParse({ zero_time: 1 }).success).toBe(false);
    expect(raceSettingsChangeSchema.safeParse({ no_such_field: 1 }).success).toBe(false);
  });

  it("stores bib lists normalised and refuses unreadable ones", () => {
    expect(raceSettingsChangeSchema.parse({ missing_bibs_csv: " 45, 40-44 ,13", reserved_bibs: "" })).toEqual({ missing_bibs_csv: "13, 40-45", reserved_bibs: "" });
    const refused = raceSettingsChangeSchema.safeParse({ reserved_bibs: "13; 14" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({ path: ["reserved_bibs"], message: "Enter bib numbers or ranges separated by commas, like 13, 40-45" });
  });

  it("defaults the pursuit mass start cutoff to 3 minutes, and reads an old unreadable list as empty", () => {
    expect(DEFAULT_MASS_START_CUTOFF).toBe(180_000_000);
    expect(readRaceSettings({}).mass_start_cutoff).toBe(180_000_000);
    expect(readRaceSettings({ missing_bibs_csv: "bad", lap_count: 2 })).toMatchObject({ missing_bibs_csv: "", lap_count: 2 });
  });
});
