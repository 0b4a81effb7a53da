/**
 * The depots' chips when D1 refuses them after the RaceRoom saved the racer (decision 0083): the racer is saved,
 * the writes are queued, and the queued job writes them once, however often it runs. Without the queue the chip
 * stayed in its rack for good, as a second send of the same form finds the racer already holding it.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Db } from "../../schema/d1";
import { runJob } from "../../workers/jobs";
import { saveRacerChip } from "../../workers/services/racer-chips";
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
