import { describe, expect, it } from "vitest";
import type { Crossing } from "../../core/timing/model";
import { raceDocumentSchemas, type RaceDocumentKind, type StoredDocument } from "../../schema/race/documents";
import type { StoredRacer } from "../../schema/race/engine-input";
import { racerSchema } from "../../schema/race/racer";
import { readRaceSettings } from "../../schema/race/settings";
import { LiveResults, type RaceState } from "./live-results";

const GUN_MS = 1_800_000_000_000;
const GUN_US = GUN_MS * 1000;

function doc<K extends RaceDocumentKind>(kind: K, id: string, data: unknown): StoredDocument<K> {
  return { id, kind, ordinal: 1, data: raceDocumentSchemas[kind].parse(data) } as StoredDocument<K>;
}

function racer(id: string, handle: number, data: Record<string, unknown>): StoredRacer {
  return { id, handle, data: racerSchema.parse({ course: "c1", ...data }) };
}

/** A one-lap race with two racers, as the room loads it from storage. */
function stored(settings: Record<string, unknown> = {}): RaceState {
  return {
    settings: readRaceSettings({ timing_mode: "lap", lap_count: 1, ...settings }),
    startTimeMs: GUN_MS,
    endTimeMs: null,
    raceDay: "2027-01-15",
    docs: {
      courses: [doc("Course", "c1", { name: "5 km", lap_count: 1, points_list: [{ id: "lap", point: "tp-finish", mode: "lap", name: "Finish" }] })],
      points: [],
      startGroups: [],
      formats: [doc("ResultFormat", "f1", { name: "Results", group_type: "all" })],
      groups: [],
    },
    racers: [
      racer("r1", 1, { first_name: "Anna", last_name: "Berg", bib: 101, club: "Nordic Demo Club", category: "U20", penalty: 5_000_000 }),
      racer("r2", 2, { first_name: "Ben", last_name: "Côté", bib: 102 }),
    ],
    crossings: [{ seq: 1, racerId: "r1", timingPointId: "tp-finish", time: GUN_US + 1_200_000_000 }] satisfies Crossing[],
    position: 1,
  };
}

describe("LiveResults", () => {
  it("keeps the setup, not the racers and the log it was loaded with", () => {
    const live = new LiveResults(() => stored());
    expect(Object.keys(live.setup)).not.toContain("racers");
    expect(Object.keys(live.setup)).not.toContain("crossings");
    expect(live.racerCount).toBe(2);
  });

  it("draws a row's name, bib, club and course from the racer as loaded, and again when the racer is saved", () => {
    const live = new LiveResults(() => stored());
    const version = "v1";
    const format = stored().docs.formats[0]!;
    const anna = live.snapshot(format, version).rows.find((row) => row.racerId === "r1");
    expect(anna).toMatchObject({ name: "Anna Berg", bib: 101, club: "Nordic Demo Club", course: "5 km", h: 1, status: "finished" });

    live.racerSaved(racer("r1", 1, { first_name: "Anna", last_name: "Berg-Lund", bib: 111, club: "Ottawa Nordic" }));
    const [row] = live.takeDelta(["f1"]).get("f1")!.rows;
    expect(row).toMatchObject({ racerId: "r1", name: "Anna Berg-Lund", bib: 111, club: "Ottawa Nordic", h: 1 });
  });

  it("names racers last name first when the race says so, after a setup change reloads", () => {
    let lastNameFirst = false;
    const live = new LiveResults(() => stored({ is_last_name_first: lastNameFirst }));
    lastNameFirst = true;
    live.reload();
    const rows = live.snapshot(stored().docs.formats[0]!, "v2").rows;
    expect(rows.find((row) => row.racerId === "r2")?.name).toBe("CÔTÉ, Ben");
  });

  it("gives the racer page the category and the racer's adjustments", () => {
    const live = new LiveResults(() => stored());
    const found = live.racerInFormats(["f1"], "r1");
    expect(found?.category).toBe("U20");
    expect(found?.racer.penalty).toBe(5_000_000);
    expect(found?.row.time).toBe(1_205_000_000);
  });
});
