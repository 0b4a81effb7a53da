import { describe, expect, it } from "vitest";
import { biathlonSetupOf, DEFAULT_MASS_START_CUTOFF, raceSettingsChangeSchema, readRaceSettings, runCountOf, settingsChangeReachesResults } from "./settings";

describe("race settings", () => {
  it("a change names only its own fields: defaults are not filled in for the others", () => {
    expect(raceSettingsChangeSchema.parse({ lap_count: 3 })).toEqual({ lap_count: 3 });
    expect(raceSettingsChangeSchema.safeParse({ zero_time: 1 }).success).toBe(false);
    expect(raceSettingsChangeSchema.safeParse({ no_such_field: 1 }).success).toBe(false);
  });

  it("stores bib lists normalised and refuses unreadable ones", () => {
    expect(raceSettingsChangeSchema.parse({ missing_bibs_csv: " 45, 40-44 ,13", reserved_bibs: "" })).toEqual({
      missing_bibs_csv: "13, 40-45",
      reserved_bibs: "",
    });
    const refused = raceSettingsChangeSchema.safeParse({ reserved_bibs: "13; 14" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({ path: ["reserved_bibs"], message: "Enter bib numbers or ranges separated by commas, like 13, 40-45" });
  });

  it("defaults the pursuit mass start cutoff to 3 minutes, and reads an old unreadable list as empty", () => {
    expect(DEFAULT_MASS_START_CUTOFF).toBe(180_000_000);
    expect(readRaceSettings({}).mass_start_cutoff).toBe(180_000_000);
    expect(readRaceSettings({ missing_bibs_csv: "bad", lap_count: 2 })).toMatchObject({ missing_bibs_csv: "", lap_count: 2 });
  });

  it("counts runs only in a fixed multi-run race, 2 when no count is set", () => {
    const settings = readRaceSettings({});
    expect(runCountOf(settings)).toBe(0);
    expect(runCountOf({ ...settings, multi_run_option: "fixed" })).toBe(2);
    expect(runCountOf({ ...settings, multi_run_option: "fixed", run_count: 3 })).toBe(3);
  });

  it("checks the penalty-lap recorder only when misses are paid with loops", () => {
    const settings = readRaceSettings({ biathlon_penalty_type: "time", lap_count: 3, biathlon_penalty_device: "gone", biathlon_range_device: "pad" });
    expect(biathlonSetupOf(settings)).toEqual({
      penaltyType: "time",
      lapCount: 3,
      isRelay: false,
      relayMemberCount: null,
      penaltyDeviceId: null,
      rangeDeviceId: "pad",
    });
    expect(biathlonSetupOf({ ...settings, biathlon_penalty_type: "lap" }).penaltyDeviceId).toBe("gone");
  });

  it("a change reaches the results unless it only says who may see the start list", () => {
    const settings = readRaceSettings({});
    expect(settingsChangeReachesResults(settings, readRaceSettings({}))).toBe(false);
    expect(settingsChangeReachesResults(settings, { ...settings, start_list_visibility: "public" })).toBe(false);
    expect(settingsChangeReachesResults(settings, { ...settings, display_precision: settings.display_precision + 1 })).toBe(true);
    expect(settingsChangeReachesResults(settings, { ...settings, start_list_visibility: "public", lap_count: 4 })).toBe(true);
  });
});
