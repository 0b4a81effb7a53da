/**
 * Live results across eviction and restarts (docs/decisions/0023). The pinned vitest pool has no
 * evictDurableObject, so an eviction is made the way the runtime makes one: the object's memory is replaced
 * by a fresh instance built over the same storage (its sockets stay, as hibernated sockets do). The
 * wrangler dev test (tests/e2e/live-eviction.spec.ts) sees a real one.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { RaceRoom } from "../../durable/race-room";
import { BUSY_TICK_MS, BUSY_TICK_ROWS, FLOOD_TICK_MS, FLOOD_TICK_ROWS, KEEP_WARM_MS, WARM_WINDOW_MS } from "../../durable/race/live-feed";
import { type SpectatorShard } from "../../durable/spectator-shard";
import { openDb, races } from "../../schema/d1";
import type { FormatFrame } from "../../schema/wire/race-fanout";
import type { ResultRow } from "../../schema/wire/race-socket";
import { createTimedRace, evictRoom, evictShard, openResultsSocket, postReads, SECOND } from "./timing-fixtures";

const finishRead = (seq: number, chip: string, seconds: number, startMicros: number) => ({ seq, chip, time: startMicros + seconds * SECOND, channel: 2 });

/** The next rows frame, noting when the room ticked it by the room's own clock (arrival waits for a busy machine). */
async function rowsAndTickTime(spectator: Awaited<ReturnType<typeof openResultsSocket>>, room: DurableObjectStub<RaceRoom>, tickTimes: number[]) {
  const frame = await spectator.next("rows");
  tickTimes.push(await runInDurableObject(room, (instance: RaceRoom) => (instance as unknown as { feed: { lastTickAt: number } }).feed.lastTickAt));
  return frame;
}

describe("live results across eviction", () => {
  it("pushes a crossing that arrives after the race room was evicted, to a socket opened before", async () => {
    const t = await createTimedRace({ racers: 3 });
    const spectator = await openResultsSocket(t.host, t.race.id, t.format.id);
    const snapshot = (await spectator.next("snapshot")).snapshot;
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(1, "C1", 600, t.startMicros)] });
    const first = await spectator.next("rows");
    expect(first.from).toBe(snapshot.version);

    await evictRoom(t.room);
    // The fresh room rebuilds its results from storage; the next read must still count as a change.
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(2, "C2", 590, t.startMicros)] });
    const second = await spectator.next("rows");
    expect(second.from).toBe(first.version);
    expect(second.rows.map((r) => [r.bib, r.time])).toEqual([[2, 590 * SECOND]]);

    // A socket opened after the eviction chains from the same version.
    const late = await openResultsSocket(t.host, t.race.id, t.format.id, second.version);
    expect((await late.next("hello")).version).toBe(second.version);
    await evictRoom(t.room);
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(3, "C3", 580, t.startMicros)] });
    for (const socket of [spectator, late]) {
      const third = await socket.next("rows");
      expect(third.from).toBe(second.version);
      expect(third.rows.map((r) => r.bib)).toEqual([3]);
    }
    expect(late.frames.some((f) => f.type === "snapshot")).toBe(false);
    spectator.socket.close(1000);
    late.socket.close(1000);
  });

  it("pushes a change written just before the room was evicted, when it wakes (the alarm backs the tick up)", async () => {
    const t = await createTimedRace({ racers: 2 });
    const spectator = await openResultsSocket(t.host, t.race.id, t.format.id);
    const snapshot = (await spectator.next("snapshot")).snapshot;
    // Written, then evicted before its tick: nothing of the write is left in memory.
    await runInDurableObject(t.room, async (instance: RaceRoom, state) => {
      const reply = await instance.ingest(t.credential.token, { reads: [finishRead(1, "C2", 700, t.startMicros)] });
      expect(reply.ok).toBe(true);
      (instance as unknown as { feed: { forget(): void } }).feed.forget();
      Object.assign(instance, new RaceRoom(state, env));
    });
    expect(await runDurableObjectAlarm(t.room)).toBe(true);
    const rows = await spectator.next("rows");
    expect(rows.from).toBe(snapshot.version);
    expect(rows.rows.map((r) => [r.bib, r.status, r.time])).toEqual([[2, "finished", 700 * SECOND]]);
    spectator.socket.close(1000);
  });

  it("keeps its results built through a quiet spell while the race is timed, and lets go ten minutes after the last read", async () => {
    const t = await createTimedRace({ racers: 2 });
    const spectator = await openResultsSocket(t.host, t.race.id, t.format.id);
    await spectator.next("snapshot");
    type Feed = { keepsWarm: boolean; warmUntil: number; builtResults(): unknown };
    const feedOf = (instance: RaceRoom) => (instance as unknown as { feed: Feed }).feed;
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(1, "C1", 600, t.startMicros)] });
    await spectator.next("rows");
    // Each alarm in the window sets the next one, KEEP_WARM_MS apart, and the built results stay in memory.
    for (let i = 0; i < 3; i++) {
      expect(await runDurableObjectAlarm(t.room)).toBe(true);
      const next = await runInDurableObject(t.room, async (instance: RaceRoom, state) => {
        expect(feedOf(instance).keepsWarm).toBe(true);
        expect(feedOf(instance).builtResults()).not.toBeNull();
        return state.storage.getAlarm();
      });
      expect(next! - Date.now()).toBeGreaterThan(KEEP_WARM_MS - 1_000);
      expect(next! - Date.now()).toBeLessThanOrEqual(KEEP_WARM_MS);
    }
    // Past the window (ten minutes after the last read): the alarm runs once more and sets no other.
    await runInDurableObject(t.room, (instance: RaceRoom) => {
      expect(feedOf(instance).warmUntil - Date.now()).toBeGreaterThan(WARM_WINDOW_MS - 60_000);
      feedOf(instance).warmUntil = Date.now() - 1;
    });
    expect(await runDurableObjectAlarm(t.room)).toBe(true);
    expect(await runInDurableObject(t.room, (_instance, state) => state.storage.getAlarm())).toBeNull();
    spectator.socket.close(1000);
  });

  it("pushes a racer edit and a status across an eviction", async () => {
    const t = await createTimedRace({ racers: 2 });
    const spectator = await openResultsSocket(t.host, t.race.id, t.format.id);
    await spectator.next("snapshot");
    await runInDurableObject(t.room, async (instance: RaceRoom, state) => {
      expect((await instance.saveRacer(t.racerIds[0]!, { first_name: "Renamed", dnf_time: 1 })).ok).toBe(true);
      (instance as unknown as { feed: { forget(): void } }).feed.forget();
      Object.assign(instance, new RaceRoom(state, env));
    });
    await runDurableObjectAlarm(t.room);
    const rows = await spectator.next("rows");
    expect(rows.rows.map((r) => [r.bib, r.name, r.status])).toEqual([[1, "Renamed Test1", "dnf"]]);
    spectator.socket.close(1000);
  });

  it("a shard that wakes forwards the next frame, and one that missed a frame sends a snapshot instead", async () => {
    const t = await createTimedRace({ racers: 2 });
    const spectator = await openResultsSocket(t.host, t.race.id, t.format.id);
    await spectator.next("snapshot");
    await evictShard(t.race.id, 0);
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(1, "C1", 600, t.startMicros)] });
    const rows = await spectator.next("rows");
    expect(rows.rows.map((r) => r.bib)).toEqual([1]);

    // A tick the shard never received: the next one does not follow, so the page gets the whole format.
    const shard = env.SPECTATOR_SHARD.get(env.SPECTATOR_SHARD.idFromName(`${t.race.id}:0`));
    await runInDurableObject(t.room, (instance: RaceRoom) => {
      const feed = (
        instance as unknown as {
          feed: {
            push: {
              commit(next: { version: number; pushedSeq: number; formatVersions: Record<string, number> }): void;
              read(): { version: number; pushedSeq: number; formatVersions: Record<string, number> };
            };
          };
        }
      ).feed;
      const state = feed.push.read();
      feed.push.commit({
        version: state.version + 1,
        pushedSeq: state.pushedSeq,
        formatVersions: { ...state.formatVersions, [t.format.id]: state.version + 1 },
      });
    });
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(2, "C2", 610, t.startMicros)] });
    const snapshot = (await spectator.next("snapshot")).snapshot;
    expect(snapshot.rows.filter((r) => r.status === "finished").map((r) => r.bib)).toEqual([1, 2]);
    expect(await shard.connectionCount()).toBe(1);
    spectator.socket.close(1000);
  });

  it("spreads a growing audience over more shards, and every spectator gets each crossing", async () => {
    const t = await createTimedRace({ racers: 2 });
    // Shards fill at 4 sockets in these tests (vitest.workers.config.ts).
    const spectators = [];
    for (let i = 0; i < 16; i++) {
      const spectator = await openResultsSocket(t.host, t.race.id, t.format.id);
      await spectator.next("hello");
      spectators.push(spectator);
    }
    const [catalogue] = await openDb(env.DB).select({ shards: races.spectatorShards }).from(races).where(eq(races.id, t.race.id));
    expect(catalogue!.shards).toBeGreaterThan(1);
    expect((await t.room.liveState()).shards).toBe(catalogue!.shards);
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(1, "C2", 650, t.startMicros)] });
    for (const spectator of spectators) {
      const rows = await spectator.next("rows");
      expect(rows.rows.map((r) => [r.bib, r.time])).toEqual([[2, 650 * SECOND]]);
      spectator.socket.close(1000);
    }
  });
});

describe("device restarts", () => {
  it("accepts reads under a new boot id although their sequence numbers repeat", async () => {
    const t = await createTimedRace({ racers: 3 });
    const post = (body: unknown) => postReads(t.host, t.race.id, t.credential.token, body);
    const first = await post({ boot: "boot-1", reads: [finishRead(1, "C1", 600, t.startMicros), finishRead(2, "C2", 610, t.startMicros)] });
    expect(await first.json()).toEqual({ accepted: 2, duplicates: 0, unassigned: 0, outside: 0, last_seq: 2, boot: "boot-1" });

    // The reader restarted and counts from 1 again: under its new boot id the reads are new.
    const restarted = await post({ boot: "boot-2", reads: [finishRead(1, "C3", 620, t.startMicros)] });
    expect(await restarted.json()).toEqual({ accepted: 1, duplicates: 0, unassigned: 0, outside: 0, last_seq: 1, boot: "boot-2" });
    // A resend of either boot's batch is recognised.
    const resent = await post({ boot: "boot-1", reads: [finishRead(2, "C2", 610, t.startMicros)] });
    expect(await resent.json()).toMatchObject({ accepted: 0, duplicates: 1, last_seq: 2 });
    const results = (await t.room.snapshot(t.format.id))!.rows.filter((r) => r.status === "finished").map((r) => r.bib);
    expect(results.sort()).toEqual([1, 2, 3]);
  });

  it("refuses a batch that reuses sequence numbers without a new boot id, writing none of it", async () => {
    const t = await createTimedRace({ racers: 3 });
    const post = (body: unknown) => postReads(t.host, t.race.id, t.credential.token, body);
    expect((await post({ reads: [finishRead(1, "C1", 600, t.startMicros)] })).status).toBe(200);
    const reused = await post({ reads: [finishRead(2, "C2", 610, t.startMicros), finishRead(1, "C3", 620, t.startMicros)] });
    expect(reused.status).toBe(409);
    expect(await reused.json()).toEqual({
      error: "seq_reused",
      message:
        'Sequence number 1 was already used for a different read from this device. A device that restarts and counts from 1 again must send a new "boot" id with its batches; otherwise continue after last_seq 1.',
    });
    const counts = await t.room.counts();
    expect(counts.crossings).toBe(1);
    // Out of order is not reuse: a late batch with numbers never used is taken.
    expect(await (await post({ reads: [finishRead(0, "C2", 610, t.startMicros)] })).json()).toMatchObject({ accepted: 1, last_seq: 1 });
  });

  it("refuses a boot id that is not one", async () => {
    const t = await createTimedRace({ racers: 1 });
    const response = await postReads(t.host, t.race.id, t.credential.token, { boot: "a b", reads: [finishRead(1, "C1", 600, t.startMicros)] });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "invalid_batch", message: "boot: boot must be 1 to 64 letters, digits, '.', '_', ':' or '-'" });
  });

  it("sends large frames deflated once per shard and small ones as text, across a shard eviction (decision 0039)", async () => {
    const t = await createTimedRace({ racers: 40 });
    const spectator = await openResultsSocket(t.host, t.race.id, t.format.id);
    const snapshot = (await spectator.next("snapshot")).snapshot;
    expect(snapshot.rows).toHaveLength(40);
    // hello is short (text); forty rows are not (packed).
    expect(spectator.carried.slice(0, 2)).toEqual(["text", "binary"]);

    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(1, "C1", 600, t.startMicros)] });
    const one = await spectator.next("rows");
    expect(one.rows.map((r) => r.bib)).toEqual([1]);
    expect(spectator.carried.at(-1)).toBe("text");

    await evictShard(t.race.id, 0);
    const reads = Array.from({ length: 30 }, (_, i) => finishRead(i + 2, `C${i + 2}`, 700 + i, t.startMicros));
    await postReads(t.host, t.race.id, t.credential.token, { reads });
    const many = await spectator.next("rows");
    expect(many.from).toBe(one.version);
    expect(many.rows.map((r) => r.bib ?? 0).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 2));
    expect(spectator.carried.at(-1)).toBe("binary");
    spectator.socket.close(1000);
  });

  it("a shard sent several ticks at once sends each socket one merged frame (decision 0039)", async () => {
    const t = await createTimedRace({ racers: 3 });
    const spectator = await openResultsSocket(t.host, t.race.id, t.format.id);
    const snapshot = (await spectator.next("snapshot")).snapshot;
    const [r1, r2] = snapshot.rows;
    const held = Number(snapshot.version);
    const tick = (from: number, rows: ResultRow[]): FormatFrame => {
      const version = String(from + 1);
      return {
        formatId: t.format.id,
        from: String(from),
        version,
        frame: JSON.stringify({ type: "rows", formatId: t.format.id, from: String(from), version, rows }),
      };
    };
    const shard = env.SPECTATOR_SHARD.get(env.SPECTATOR_SHARD.idFromName(`${t.race.id}:0`));
    await runInDurableObject(shard, async (instance: SpectatorShard) => {
      // Three ticks in one turn: all three wait while the first send is scheduled.
      await Promise.all([
        instance.publish({ kind: "rows", formats: [tick(held, [{ ...r1!, name: "First edit" }])], heats: null }),
        instance.publish({ kind: "rows", formats: [tick(held + 1, [{ ...r2!, name: "Second" }])], heats: null }),
        instance.publish({ kind: "rows", formats: [tick(held + 2, [{ ...r1!, name: "Last edit" }])], heats: null }),
      ]);
    });
    const merged = await spectator.next("rows");
    expect([merged.from, merged.version]).toEqual([String(held), String(held + 3)]);
    expect(merged.rows.map((r) => r.name)).toEqual(["Last edit", "Second"]);
    expect(spectator.frames.filter((f) => f.type === "rows")).toHaveLength(0);
    spectator.socket.close(1000);
  });

  it("stretches the tick to 400 ms after a tick of more than 100 rows, and back to 100 ms after a tick of a few", async () => {
    const t = await createTimedRace({ racers: 130 });
    const spectator = await openResultsSocket(t.host, t.race.id, t.format.id);
    await spectator.next("snapshot");
    // When the room ticked, by its own clock: a frame's arrival here also waits for a busy machine, so the gap
    // between arrivals can be shorter than the gap between ticks (CI saw 296 ms for a 400 ms tick).
    const tickTimes: number[] = [];
    const nextRows = () => rowsAndTickTime(spectator, t.room, tickTimes);
    const burst = Array.from({ length: BUSY_TICK_ROWS + 20 }, (_, i) => finishRead(i + 1, `C${i + 1}`, 600 + i, t.startMicros));
    await postReads(t.host, t.race.id, t.credential.token, { reads: burst });
    expect((await nextRows()).rows).toHaveLength(BUSY_TICK_ROWS + 20);
    // A busy race: the next change waits for the longer tick (a timer never fires early).
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(200, "C125", 900, t.startMicros)] });
    expect((await nextRows()).rows).toHaveLength(1);
    expect(tickTimes[1]! - tickTimes[0]!).toBeGreaterThanOrEqual(BUSY_TICK_MS);
    // That tick carried one row: the one after it is a normal tick again.
    const rowsOfLastTick = await runInDurableObject(
      t.room,
      (instance: RaceRoom) => (instance as unknown as { feed: { lastTickRows: number } }).feed.lastTickRows,
    );
    expect(rowsOfLastTick).toBe(1);
    spectator.socket.close(1000);
  });

  it("waits a whole second after a flood of 1,000 rows or more, so spectators get one frame a second", async () => {
    const t = await createTimedRace({ racers: FLOOD_TICK_ROWS + 1 });
    const spectator = await openResultsSocket(t.host, t.race.id, t.format.id);
    await spectator.next("snapshot");
    const tickTimes: number[] = [];
    const nextRows = () => rowsAndTickTime(spectator, t.room, tickTimes);
    const flood = Array.from({ length: FLOOD_TICK_ROWS }, (_, i) => finishRead(i + 1, `C${i + 1}`, 600 + i, t.startMicros));
    await postReads(t.host, t.race.id, t.credential.token, { reads: flood });
    expect((await nextRows()).rows).toHaveLength(FLOOD_TICK_ROWS);
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(FLOOD_TICK_ROWS + 1, `C${FLOOD_TICK_ROWS + 1}`, 100, t.startMicros)] });
    expect((await nextRows()).rows).toHaveLength(1);
    expect(tickTimes[1]! - tickTimes[0]!).toBeGreaterThanOrEqual(FLOOD_TICK_MS);
    spectator.socket.close(1000);
  }, 30_000);
});
