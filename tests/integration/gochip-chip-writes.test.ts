/**
 * The depots' chips when D1 refuses them after the RaceRoom saved the racer (decision 0083): the racer is saved,
 * the writes are queued, and the queued job writes them once, however often it runs. Without the queue the chip
 * stayed in its rack for good, as a second send of the same form finds the racer already holding it.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Db } from "../../schema/d1";
import { runJob } from "../../workers/jobs";
import { replaceChip } from "../../workers/services/gochip-replacements";
import { saveRacerChip } from "../../workers/services/racer-chips";
import { eq } from "drizzle-orm";
import { gochipReplacements } from "../../schema/d1";
import { db } from "./auth-fixtures";
import { atPickup, chip } from "./gochip-fixtures";

/** The real database, whose batches fail while `down` is true (reads go through). */
function flakyDb() {
  const state = { down: true };
  const real = db();
  const flaky = new Proxy(real, {
    get: (target, key) =>
      key === "batch" && state.down ? () => Promise.reject(new Error("D1_ERROR: Network connection lost.")) : (Reflect.get(target, key, target) as unknown),
  }) as Db;
  return { flaky, state };
}

/** The environment with a queue that keeps what it is sent. */
function queueKeeping() {
  const sent: unknown[] = [];
  const queue = {
    send: async (body: unknown) => void sent.push(body),
    sendBatch: async (batch: { body: unknown }[]) => void sent.push(...batch.map((m) => m.body)),
  };
  return { sent, keeping: Object.assign(Object.create(env) as Env, { JOBS_QUEUE: queue }) };
}

describe("the depots' chips when D1 fails after the racer was saved", () => {
  it("queues the chip's issue and the bib it follows, and the job writes each once", { timeout: 60_000 }, async () => {
    const { d, race, timed, rack, shipment } = await atPickup(`flaky-${crypto.randomUUID().slice(0, 4)}`, "Flaky 10K");
    const { flaky, state } = flakyDb();
    const { sent, keeping } = queueKeeping();
    const first = timed.racerIds[0]!;
    const before = Date.now();

    const saved = await saveRacerChip(keeping, flaky, race.id, timed.room, (await timed.room.racer(first))!, { chip: "0000a1" });
    expect(saved.ok).toBe(true);
    expect((await timed.room.racer(first))!.data.chip).toBe("0000A1");
    // D1 refused: the chip is still in its rack, and its issue waits in the queue.
    expect(await chip(d.depot.id, "0000A1")).toMatchObject({ rackId: rack, issuedRacerId: null });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ kind: "chip-writes", raceId: race.id, issue: [{ chip: { hexCode: "0000A1" }, racer: { id: first, bib: 1 } }] });

    // The queue delivers it (D1 is back), and again (at least once): one issue, at the time of the save.
    state.down = false;
    expect(await runJob(env, sent[0])).toBe("done");
    const issued = await chip(d.depot.id, "0000A1");
    expect(issued).toMatchObject({
      rackId: null,
      slot: null,
      issuedRaceId: race.id,
      issuedRacerId: first,
      issuedBib: 1,
      issuedRackId: rack,
      issuedShipmentId: shipment,
    });
    expect(issued.issuedAt).toBeGreaterThanOrEqual(before);
    expect(issued.issuedAt).toBeLessThanOrEqual(Date.now());
    expect(await runJob(env, sent[0])).toBe("done");
    expect(await chip(d.depot.id, "0000A1")).toEqual(issued);

    // A new bib while D1 is down: the racer has it, and the chip follows when the job runs.
    state.down = true;
    expect((await saveRacerChip(keeping, flaky, race.id, timed.room, (await timed.room.racer(first))!, { bib: 71 })).ok).toBe(true);
    expect((await chip(d.depot.id, "0000A1")).issuedBib).toBe(1);
    expect(sent[1]).toMatchObject({ kind: "chip-writes", follow: [{ id: first, bib: 71 }] });
    expect(await runJob(env, sent[1])).toBe("done");
    expect((await chip(d.depot.id, "0000A1")).issuedBib).toBe(71);
  });

  it("queues a chip replacement's record, and the job writes the session, the old chip's mark and the issue once", { timeout: 60_000 }, async () => {
    const { d, club, race, timed, rack } = await atPickup(`flaky-r-${crypto.randomUUID().slice(0, 4)}`, "Flaky 5K");
    const { flaky } = flakyDb();
    const { sent, keeping } = queueKeeping();
    const timer = { userId: "timer-1", roles: [{ id: "g", type: "race_timer" as const, clubId: club.id, siteId: null, scope: race.id, config: {} }] };
    const submission = crypto.randomUUID();
    const second = timed.racerIds[1]!;
    const replacement = { submission, racer: { bib: 2 }, newChip: "0000A3", reason: "faulty" as const, userId: "timer-1" };
    expect(await replaceChip(keeping, flaky, timer, race, timed.room, replacement)).toEqual({ ok: true });
    expect((await timed.room.racer(second))!.data.chip).toBe("0000A3");
    const sessions = () => db().select().from(gochipReplacements).where(eq(gochipReplacements.raceId, race.id));
    expect(await sessions()).toHaveLength(0);
    expect(await chip(d.depot.id, "0000A3")).toMatchObject({ rackId: rack, issuedRacerId: null });
    expect(sent).toEqual([expect.objectContaining({ kind: "chip-replacement", submission, oldChip: "C2", newChip: "0000A3", racer: { id: second, bib: 2 } })]);

    for (let run = 0; run < 2; run++) expect(await runJob(env, sent[0])).toBe("done");
    expect((await sessions()).map((s) => [s.id, s.oldChip, s.newChip, s.reason, s.userId])).toEqual([[submission, "C2", "0000A3", "faulty", "timer-1"]]);
    expect(await chip(d.depot.id, "0000A3")).toMatchObject({ rackId: null, issuedRaceId: race.id, issuedRacerId: second, issuedBib: 2 });
    // The form sent again once D1 is back finds its session: done, nothing more written.
    expect(await replaceChip(keeping, db(), timer, race, timed.room, replacement)).toEqual({ ok: true });
    expect(await sessions()).toHaveLength(1);
    expect(sent).toHaveLength(1);
  });

  it("retries while D1 is still down, and drops a malformed job", async () => {
    const flakyEnv = Object.assign(Object.create(env) as Env, {
      DB: { prepare: () => ({ bind: () => ({}) }), batch: () => Promise.reject(new Error("D1_ERROR: Network connection lost.")) },
    });
    const job = { kind: "chip-writes", raceId: "r", at: 1, issue: [], giveBack: [], follow: [{ id: "x", bib: 1 }] };
    expect(await runJob(flakyEnv, job)).toBe("retry");
    expect(await runJob(env, { ...job, at: -1 })).toBe("drop");
    expect(await runJob(env, { ...job, follow: Array.from({ length: 201 }, () => ({ id: "x", bib: 1 })) })).toBe("drop");
  });
});
