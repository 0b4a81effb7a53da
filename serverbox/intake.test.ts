import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Intake } from "./intake";
import { BoxRace } from "./race";
import { ReadLog } from "./store";
import { pkg, START_US } from "./test-race";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function open(file?: string) {
  const where = file ?? path.join(mkdtempSync(path.join(tmpdir(), "serverbox-intake-")), "reads.jsonl");
  if (!file) dirs.push(path.dirname(where));
  const log = new ReadLog(where);
  const race = new BoxRace(pkg, log.all());
  return { file: where, log, race, intake: new Intake(race, log, () => 7) };
}

const batch = {
  boot: "reader-1",
  reads: [
    { seq: 1, chip: "C2", time: START_US + 61_000_000 },
    { seq: 2, chip: "C1", time: START_US + 65_500_000 },
    { seq: 3, chip: "NOBODY", time: START_US + 70_000_000 },
  ],
};

describe("the box's intake", () => {
  it("takes a device's batch as the timing API does, writes it, and ranks it with the race's engine", () => {
    const { intake, log, race } = open();
    expect(intake.take("reader", batch)).toEqual({
      ok: true,
      receipt: { accepted: 3, duplicates: 0, unassigned: 1, outside: 0, last_seq: 3, boot: "reader-1" },
    });
    expect(log.length).toBe(3);
    expect(log.all().map((r) => r.n)).toEqual([1, 2, 3]);
    expect(race.racerResults()).toEqual([
      { id: "r1", status: "finished", time: 65_500_000 },
      { id: "r2", status: "finished", time: 61_000_000 },
      { id: "r3", status: "notstarted", time: null },
    ]);
    const [results] = race.snapshots();
    expect(results!.name).toBe("Results");
    expect(results!.rows.filter((r) => r.status === "finished")).toHaveLength(2);
  });

  it("counts a resend once, before and after the box restarts, and refuses a used number for another read", () => {
    const first = open();
    first.intake.take("reader", batch);
    expect(first.intake.take("reader", batch)).toMatchObject({ ok: true, receipt: { accepted: 0, duplicates: 3 } });
    first.log.close();
    const again = open(first.file);
    expect(again.race.racerResults()[1]).toEqual({ id: "r2", status: "finished", time: 61_000_000 });
    expect(again.intake.take("reader", batch)).toMatchObject({ ok: true, receipt: { accepted: 0, duplicates: 3 } });
    const reused = again.intake.take("reader", { boot: "reader-1", reads: [{ seq: 2, chip: "C3", time: START_US + 80_000_000 }] });
    expect(reused).toMatchObject({ ok: false, status: 409, error: "seq_reused" });
    expect(!reused.ok && reused.message).toContain('must send a new "boot" id');
    expect(again.log.length).toBe(3);
  });

  it("takes times of day on the race's day, and keeps reads before the start as outside the race", () => {
    const { intake, race } = open();
    // 09:01:30 in Toronto on the race day is 90 s after the 14:00 UTC start.
    expect(intake.take("reader", { reads: [{ seq: 1, bib: 3, tod: "09:01:30" }] })).toMatchObject({ ok: true, receipt: { accepted: 1, unassigned: 0 } });
    expect(race.racerResults()[2]).toEqual({ id: "r3", status: "finished", time: 90_000_000 });
    expect(intake.take("reader", { reads: [{ seq: 2, chip: "C1", time: START_US - 5_000_000 }] })).toMatchObject({ ok: true, receipt: { outside: 1 } });
  });

  it("refuses garbage and strangers with the timing API's errors, writing nothing", () => {
    const { intake, log } = open();
    expect(intake.take("someone", batch)).toMatchObject({ ok: false, status: 400, error: "unknown_device" });
    expect(intake.take("reader", { reads: [] })).toMatchObject({ ok: false, status: 400, error: "invalid_batch" });
    expect(intake.take("reader", "nonsense")).toMatchObject({ ok: false, status: 400, error: "invalid_batch" });
    expect(intake.take("reader", { reads: [{ seq: 1, chip: "C1", tod: "25:00:00" }] })).toMatchObject({ ok: false, status: 400, error: "invalid_batch" });
    expect(intake.take("reader", { boot: "bad boot!", reads: [{ seq: 1, chip: "C1", time: 1 }] })).toMatchObject({ ok: false, error: "invalid_batch" });
    expect(log.length).toBe(0);
  });
});
