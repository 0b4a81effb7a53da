/**
 * Paged pages' filters at their shard (decision 0085): a page that says what it shows is sent only the rows that
 * can change it, across a shard's eviction, and a new filter brings the rows the old one held back.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ResultsWindow } from "../../schema/wire/results-window";
import { WINDOW_PAGE_SIZE } from "../../schema/wire/results-window";
import { FILTER_RACER_CHARS, MAX_FILTER_RACERS, windowFilterOf, type WindowFilterMessage } from "../../schema/wire/window-filter";
import type { RaceRoom } from "../../durable/race-room";
import type { SpectatorShard } from "../../durable/spectator-shard";
import { worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";
import { createTimedRace, evictRoom, evictShard, openRaceSocket, postReads, SECOND } from "./timing-fixtures";

const finishRead = (seq: number, chip: string, seconds: number, startMicros: number) => ({ seq, chip, time: startMicros + seconds * SECOND, channel: 2 });

type TimedRace = Awaited<ReturnType<typeof createTimedRace>>;

/** One racer finishes `seconds` after the start, and the room pushes it to its shards now. */
async function finishAndFlush(t: TimedRace, seq: number, chip: string, seconds: number): Promise<void> {
  const response = await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(seq, chip, seconds, t.startMicros)] });
  expect(response.status).toBe(200);
  await t.room.flushLive();
}

async function pageJson(host: string, raceId: string, formatId: string): Promise<ResultsWindow> {
  const response = await worker.fetch(hostRequest(host, `/races/${raceId}/results.json?format=${formatId}`));
  expect(response.status).toBe(200);
  return (await response.json()) as ResultsWindow;
}

/**
 * Waits until the race's first shard holds `count` sockets with a filter in their attachment (the message has no
 * answer), filters that `is` accepts when given.
 */
async function filtersHeld(raceId: string, count: number, is: (filter: WindowFilterMessage) => boolean = () => true): Promise<void> {
  const stub = env.SPECTATOR_SHARD.get(env.SPECTATOR_SHARD.idFromName(`${raceId}:0`));
  for (let attempt = 0; attempt < 50; attempt++) {
    const held = await runInDurableObject(stub, (_: SpectatorShard, state) =>
      state.getWebSockets().filter((ws) => {
        const filter = (ws.deserializeAttachment() as { filter?: WindowFilterMessage | null } | null)?.filter;
        return filter && is(filter);
      }),
    );
    if (held.length === count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the shard never held ${count} filtered sockets`);
}

describe("a paged page's filter at its shard", () => {
  it("sends page 1 only the rows that can change it, still after the shard's eviction, and what an old filter held back", async () => {
    // 62 racers: 55 finish (racer n in 1000 - n s, so the highest bib leads); page 1 holds 50 of them and is full.
    const racers = WINDOW_PAGE_SIZE + 12;
    const t = await createTimedRace({ racers });
    const first = Array.from({ length: 55 }, (_, i) => finishRead(i + 1, `C${racers - i}`, 1000 - (racers - i), t.startMicros));
    expect((await postReads(t.host, t.race.id, t.credential.token, { reads: first })).status).toBe(200);
    await t.room.flushLive();
    const page = await pageJson(t.host, t.race.id, t.format.id);
    expect(page.current?.entries).toHaveLength(WINDOW_PAGE_SIZE);
    const filter = windowFilterOf(page)!;

    const paged = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, since: page.format.version, window: true });
    const whole = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, since: page.format.version });
    expect((await paged.next("hello")).version).toBe(page.format.version);
    await whole.next("hello");
    paged.socket.send(JSON.stringify(filter));
    await filtersHeld(t.race.id, 1);

    // Bib 2 finishes last: behind page 1, so the page is sent nothing; the whole format gets the row.
    await finishAndFlush(t, 100, "C2", 2_000);
    const second = await whole.next("rows");
    expect(second.rows.map((r) => r.bib)).toEqual([2]);

    // The shard forgets everything it held in memory; the filter is in the socket's attachment.
    await evictShard(t.race.id, 0);
    await finishAndFlush(t, 101, "C3", 2_001);
    expect((await whole.next("rows")).rows.map((r) => r.bib)).toEqual([3]);

    // Bib 1 wins: ahead of the page's last row, so the page is sent it, as at the newest version. It is the first
    // frame the page gets since its hello: the two before had nothing for it.
    await finishAndFlush(t, 102, "C1", 100);
    const win = await whole.next("rows");
    const ahead = await paged.next("window-rows");
    expect(ahead).toMatchObject({ from: win.from, version: win.version });
    expect(ahead.rows.map((r) => r.bib)).toEqual([1]);
    expect(paged.received.map((f) => f.type)).toEqual(["hello", "window-rows"]);

    // A later bib finishes behind the page; then the page says it shows page 2, fetched at the version after bib
    // 2's frame (the oldest this shard has rows since: it woke after that frame). It is sent, as at the newest
    // version, every row since then that page 2 can use: bibs 3 and 4, held back from page 1, and bib 1, whose win
    // moves page 2's rows.
    await finishAndFlush(t, 103, "C4", 2_002);
    const last = await whole.next("rows");
    const pageTwo = { ...filter, version: second.version, lastKey: null, racers: [] };
    paged.socket.send(JSON.stringify(pageTwo));
    const caughtUp = await paged.next("window-rows");
    expect(caughtUp.from).toBe(second.version);
    expect(caughtUp.version).toBe(last.version);
    expect(caughtUp.rows.map((r) => r.bib).sort((a, b) => a! - b!)).toEqual([1, 3, 4]);
    paged.socket.close(1000);
    whole.socket.close(1000);
  });

  it("sends page 2 a racer from page 1 who does not finish, named as fallen, still when the room is evicted before its push", async () => {
    // 110 racers, 105 finished (racer n in 1000 + n s): pages 1 and 2 of 50 are full.
    const racers = 2 * WINDOW_PAGE_SIZE + 10;
    const t = await createTimedRace({ racers });
    const reads = Array.from({ length: 105 }, (_, i) => finishRead(i + 1, `C${i + 1}`, 1000 + i + 1, t.startMicros));
    expect((await postReads(t.host, t.race.id, t.credential.token, { reads })).status).toBe(200);
    await t.room.flushLive();
    const response = await worker.fetch(hostRequest(t.host, `/races/${t.race.id}/results.json?format=${t.format.id}&page=2`));
    const pageTwo = (await response.json()) as ResultsWindow;
    expect(pageTwo.current?.entries[0]?.row.bib).toBe(WINDOW_PAGE_SIZE + 1);
    const paged = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, since: pageTwo.format.version, window: true });
    const whole = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, since: pageTwo.format.version });
    await paged.next("hello");
    await whole.next("hello");
    paged.socket.send(JSON.stringify(windowFilterOf(pageTwo)));
    await filtersHeld(t.race.id, 1);

    // Bib 3, third on page 1, does not finish: its row now sorts behind page 2, but page 2's rows each move up one.
    const reply = await t.room.manualEntries("jury", {
      entries: [{ kind: "status", key: "bib-3-dnf", bib: 3, status: "dnf", time: t.startMicros + 900 * SECOND }],
    });
    expect(reply).toMatchObject({ ok: true, value: { accepted: 1 } });
    // The room forgets the change it had not pushed yet; the stored mark of it must still say the racer fell.
    await evictRoom(t.room);
    await t.room.flushLive();
    const frame = await whole.next("rows");
    const dropped = frame.rows.find((r) => r.bib === 3)!;
    expect(dropped.status).toBe("dnf");
    expect(frame.fell).toEqual([dropped.racerId]);
    const sent = await paged.next("window-rows");
    expect(sent).toMatchObject({ from: frame.from, version: frame.version, fell: [dropped.racerId] });
    expect(sent.rows.map((r) => r.bib)).toEqual([3]);

    // A finish is a move forward: behind page 2 it is not sent there, and no frame names it as fallen.
    await finishAndFlush(t, 200, `C${racers}`, 3_000);
    const finish = await whole.next("rows");
    expect(finish.fell).toBeUndefined();
    expect(paged.received.map((f) => f.type)).toEqual(["hello", "window-rows"]);
    // A new name moves nobody: the leader's row is sent (it sorts ahead of page 2's last row) but not as fallen.
    const leader = (await t.room.snapshot(t.format.id))!.rows.find((r) => r.bib === 1)!;
    expect((await t.room.saveRacer(leader.racerId, { last_name: "Renamed" })).ok).toBe(true);
    await t.room.flushLive();
    const renamed = await whole.next("rows");
    expect(renamed.rows.map((r) => r.bib)).toEqual([1]);
    expect(renamed.fell).toBeUndefined();
    expect((await paged.next("window-rows")).fell).toBeUndefined();
    // Deleting the leader is a fall for every page behind it, told without an eviction too: its removal goes out.
    expect(await t.room.deleteRacer(leader.racerId)).toBe(true);
    await t.room.flushLive();
    const removed = await whole.next("rows");
    expect(removed.rows.find((r) => r.racerId === leader.racerId)).toMatchObject({ groups: [], status: "notstarted" });
    // Every other racer keeps its key (their order is their lasting handle), so the removal is the frame's one row.
    expect(removed.rows.map((r) => r.racerId)).toEqual([leader.racerId]);
    expect(removed.fell).toEqual([leader.racerId]);
    expect((await paged.next("window-rows")).fell).toEqual([leader.racerId]);
    // A room rebuilt from storage orders the racers exactly as the live one did after the deletion.
    const keysOf = async () => new Map((await t.room.snapshot(t.format.id))!.rows.map((r) => [r.racerId, r.key.join()]));
    const liveKeys = await keysOf();
    await evictRoom(t.room);
    expect(await keysOf()).toEqual(liveKeys);
    // A racer added and deleted between two pushes was never shown anywhere: no removal goes out for it. Both in one
    // turn of the room, so its push (a timer) cannot come between them.
    const addedId = await runInDurableObject(t.room, async (room: RaceRoom) => {
      const added = await room.saveRacer(null, { first_name: "Brief", last_name: "Entry", bib: 999 });
      if (!added.ok || !(await room.deleteRacer(added.value.id))) throw new Error("the brief racer was not added and deleted");
      return added.value.id;
    });
    await finishAndFlush(t, 201, `C${racers - 1}`, 3_001);
    const after = await whole.next("rows");
    expect(after.rows.some((r) => r.racerId === addedId)).toBe(false);
    expect(after.fell).toBeUndefined();
    paged.socket.close(1000);
    whole.socket.close(1000);
  });

  it("refuses a filter too large for a socket, and sends a page it cannot catch up `refresh` to fetch again", async () => {
    const t = await createTimedRace({ racers: 3 });
    await finishAndFlush(t, 1, "C1", 500);
    const page = await pageJson(t.host, t.race.id, t.format.id);
    const paged = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, since: page.format.version, window: true });
    await paged.next("hello");
    const filter = windowFilterOf(page)!;
    paged.socket.send(JSON.stringify({ ...filter, racers: Array.from({ length: 101 }, (_, i) => `r${i}`) }));
    expect(await paged.next("error")).toEqual({ type: "error", message: "Unknown message" });

    // A filter from a version this shard has no rows since (it woke after it): fetch the page again.
    await finishAndFlush(t, 2, "C2", 501);
    const moved = await paged.next("rows"); // no filter held (it was refused): every frame
    await evictShard(t.race.id, 0);
    paged.socket.send(JSON.stringify(filter));
    expect(await paged.next("refresh")).toEqual({ type: "refresh", formatId: t.format.id, version: moved.version });
    paged.socket.close(1000);
  });

  it("keeps the largest filter a page may send in its socket's attachment, so it still filters after the shard's eviction", async () => {
    // 62 racers, 55 finished: page 1 is full, so a finish behind its last row is held back from a filtered page.
    const racers = WINDOW_PAGE_SIZE + 12;
    const t = await createTimedRace({ racers });
    const first = Array.from({ length: 55 }, (_, i) => finishRead(i + 1, `C${racers - i}`, 1000 - (racers - i), t.startMicros));
    await postReads(t.host, t.race.id, t.credential.token, { reads: first });
    await t.room.flushLive();
    const page = await pageJson(t.host, t.race.id, t.format.id);
    const filter = windowFilterOf(page)!;
    const paged = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, since: page.format.version, window: true });
    const whole = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, since: page.format.version });
    await paged.next("hello");
    await whole.next("hello");
    // The most the schema takes (schema/wire/race-socket.ts) fits a socket's 2 KB attachment, so the shard's fallback
    // for a filter too large to keep (the page takes every row) is never needed: first every field at its longest.
    const longest = "9".repeat(64);
    const extreme = {
      ...filter,
      group: longest,
      version: longest,
      racers: Array.from({ length: MAX_FILTER_RACERS }, (_, i) => `y${String(i).padStart(FILTER_RACER_CHARS - 1, "0")}`),
      lastKey: Array.from({ length: 16 }, (_, i) => i + 0.123456789),
    };
    paged.socket.send(JSON.stringify(extreme));
    await filtersHeld(t.race.id, 1, (held) => held.group === longest && held.racers.length === MAX_FILTER_RACERS && held.lastKey?.length === 16);
    // Then the page's own filter grown to the same counts (its racers padded with others), which must still work.
    const largest = {
      ...filter,
      racers: [
        ...filter.racers,
        ...Array.from({ length: MAX_FILTER_RACERS - filter.racers.length }, (_, i) => `x${String(i).padStart(FILTER_RACER_CHARS - 1, "0")}`),
      ],
      lastKey: [...filter.lastKey!, ...Array.from({ length: 16 - filter.lastKey!.length }, (_, i) => i + 0.123456789)],
    };
    expect(JSON.stringify(largest).length).toBeGreaterThan(1_500);
    paged.socket.send(JSON.stringify(largest));
    await filtersHeld(t.race.id, 1, (held) => held.group === filter.group && held.racers.at(-1) === largest.racers.at(-1));
    await evictShard(t.race.id, 0);
    // Bib 2 finishes behind page 1: the whole format gets it, the filtered page nothing.
    await finishAndFlush(t, 100, "C2", 2_000);
    expect((await whole.next("rows")).rows.map((r) => r.bib)).toEqual([2]);
    // A winner lands on page 1 and reaches the page: the frame before it was held back, not lost.
    await finishAndFlush(t, 101, "C1", 100);
    const win = await whole.next("rows");
    expect((await paged.next("window-rows")).version).toBe(win.version);
    expect(paged.received.map((f) => f.type)).toEqual(["hello", "window-rows"]);
    paged.socket.close(1000);
    whole.socket.close(1000);
  });

  it("takes every row again when the page turns to a search, with the rows its filter held back", async () => {
    const t = await createTimedRace({ racers: WINDOW_PAGE_SIZE + 3 });
    const reads = Array.from({ length: WINDOW_PAGE_SIZE + 1 }, (_, i) => finishRead(i + 1, `C${i + 1}`, 500 + i, t.startMicros));
    await postReads(t.host, t.race.id, t.credential.token, { reads });
    await t.room.flushLive();
    const page = await pageJson(t.host, t.race.id, t.format.id);
    const paged = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, since: page.format.version, window: true });
    await paged.next("hello");
    paged.socket.send(JSON.stringify(windowFilterOf(page)));
    await filtersHeld(t.race.id, 1);
    // Behind page 1: held back.
    await finishAndFlush(t, 100, `C${WINDOW_PAGE_SIZE + 2}`, 900);
    // The reader searches: the page was fetched at the version it held, and now takes every row.
    paged.socket.send(JSON.stringify({ type: "window-all", formatId: t.format.id, version: page.format.version }));
    const owed = await paged.next("window-rows");
    expect(owed.from).toBe(page.format.version);
    expect(owed.rows.map((r) => r.bib)).toEqual([WINDOW_PAGE_SIZE + 2]);
    await filtersHeld(t.race.id, 0);
    await finishAndFlush(t, 101, `C${WINDOW_PAGE_SIZE + 3}`, 901);
    const next = await paged.next("rows");
    expect(next.from).toBe(owed.version);
    expect(next.rows.map((r) => r.bib)).toEqual([WINDOW_PAGE_SIZE + 3]);
    paged.socket.close(1000);
  });
});
