import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Intake } from "./intake";
import { BoxRace, racePackageSchema, type RacePackage } from "./race";
import { ReadLog } from "./store";
import { pkg, START_MS, START_US } from "./test-race";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The test race as a biathlon with a range-data device. */
const biathlon: RacePackage = racePackageSchema.parse({
  ...pkg,
  results_setup: {
    ...pkg.results_setup,
    settings: { ...(pkg.results_setup.settings as object), biathlon_penalty_type: "time", biathlon_range_device: "range" },
    documents: {
      ...pkg.results_setup.documents,
      TimingDevice: [
        ...pkg.results_setup.documents.TimingDevice!,
        { id: "range", kind: "TimingDevice", ordinal: 2, data: { type: "keypad", name: "Range", offset: 0 } },
      ],
    },
  },
});

function open(race: RacePackage = pkg, file?: string) {
  const where = file ?? path.join(mkdtempSync(path.join(tmpdir(), "serverbox-keypad-")), "reads.jsonl");
  if (!file) dirs.push(path.dirname(where));
  const log = new ReadLog(where);
  const box = new BoxRace(race, log.all());
  return { file: where, log, race: box, intake: new Intake(box, log, () => START_MS + 120_000) };
}

const time = (key: string, bib: number, seconds: number) => ({ kind: "time", key, bib, point: "finish", time: START_US + seconds * 1_000_000 });

describe("keypad entries on the box", () => {
  it("takes a keypad's bibs as the platform does, ranks them, and counts a resend once, also after a restart", () => {
    const first = open();
    const batch = { entries: [time("keypad-0001", 2, 64), time("keypad-0002", 9, 70), { kind: "status", key: "keypad-0003", bib: 3, status: "dnf" }] };
    expect(first.intake.takeManual(batch)).toEqual({ ok: true, receipt: { accepted: 3, duplicates: 0, unknown_bibs: ["keypad-0002"] } });
    expect(first.race.racerResults()).toEqual([
      { id: "r1", status: "notstarted", time: null },
      { id: "r2", status: "finished", time: 64_000_000 },
      { id: "r3", status: "dnf", time: null },
    ]);
    // A status without a time gets the time it reached the box, so it means the same when forwarded later.
    const status = first.log.all()[2]!;
    expect(status.kind === "manual" && status.entry).toMatchObject({ kind: "status", time: (START_MS + 120_000) * 1000 });
    expect(first.intake.takeManual(batch)).toMatchObject({ ok: true, receipt: { accepted: 0, duplicates: 3 } });
    first.log.close();
    const again = open(pkg, first.file);
    expect(again.race.racerResults()[2]).toMatchObject({ id: "r3", status: "dnf" });
    expect(again.intake.takeManual(batch)).toMatchObject({ ok: true, receipt: { accepted: 0, duplicates: 3 } });
    expect(again.log.length).toBe(3);
  });

  it("refuses what the platform refuses, with its words, writing nothing", () => {
    const { intake, log } = open();
    expect(intake.takeManual({ entries: [] })).toMatchObject({ ok: false, status: 400, error: "invalid_entries" });
    expect(intake.takeManual("nonsense")).toMatchObject({ ok: false, status: 400, error: "invalid_entries" });
    expect(intake.takeManual({ entries: [{ ...time("keypad-0001", 1, 60), point: "nowhere" }] })).toEqual({
      ok: false,
      status: 400,
      error: "invalid_entries",
      message: "No such timing point: nowhere",
    });
    expect(intake.takeManual({ entries: [{ kind: "time", key: "keypad-0001", bib: 1, point: "finish", tod: "25:00:00" }] })).toMatchObject({
      ok: false,
      error: "invalid_entries",
    });
    expect(intake.takeManual({ entries: [{ kind: "range", key: "keypad-0001", bib: 1, shooting: 1, misses: 9 }] })).toMatchObject({
      ok: false,
      message: expect.stringContaining("Misses must be 0 to 5"),
    });
    expect(log.length).toBe(0);
  });
});

describe("range data on the box", () => {
  it("takes the range device's misses by bib or chip, once by seq, and writes them on the racers", () => {
    const { intake, log, race } = open(biathlon);
    const batch = {
      entries: [
        { seq: 1, bib: 1, shooting: 1, misses: 2 },
        { seq: 2, chip: "C2", shooting: 1, misses: 0 },
        { seq: 3, bib: 77, shooting: 1, misses: 1 },
      ],
    };
    expect(intake.takeRange("range", batch)).toEqual({ ok: true, receipt: { accepted: 3, duplicates: 0, unknown: [3] } });
    expect(intake.takeRange("range", batch)).toMatchObject({ ok: true, receipt: { accepted: 0, duplicates: 3 } });
    // A correction is a new entry with a new number: the later one counts.
    expect(intake.takeRange("range", { entries: [{ seq: 4, bib: 1, shooting: 1, misses: 1 }] })).toMatchObject({ ok: true, receipt: { accepted: 1 } });
    expect(log.length).toBe(4);
    expect(race.missesOf("r1")).toEqual([1]);
    expect(race.missesOf("r2")).toEqual([0]);
  });

  it("refuses a device that is not the race's range device, and a race that is no biathlon", () => {
    expect(open(biathlon).intake.takeRange("reader", { entries: [{ seq: 1, bib: 1, shooting: 1, misses: 0 }] })).toEqual({
      ok: false,
      status: 403,
      error: "not_range_device",
      message: "This device is not the race's range-data device",
    });
    expect(open(pkg).intake.takeRange("reader", { entries: [{ seq: 1, bib: 1, shooting: 1, misses: 0 }] })).toMatchObject({ status: 403 });
    expect(open(biathlon).intake.takeRange("nobody", { entries: [] })).toMatchObject({ status: 400, error: "unknown_device" });
    expect(open(biathlon).intake.takeRange("range", { entries: [{ seq: 1, shooting: 1, misses: 0 }] })).toMatchObject({ status: 400, error: "invalid_batch" });
  });
});
