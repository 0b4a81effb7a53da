/**
 * Patch frames (decision 0059): a socket holding a whole format that asks for them (`?patch=1`) is sent what
 * changed in each row, not the row again; every other socket of the same shard still gets whole rows, and a
 * shard that wakes without its copy of the rows sends whole rows once, fetches a copy, and patches again.
 */
import { describe, expect, it } from "vitest";
import { applyRowChange } from "../../schema/wire/race-row-patch";
import type { ResultRow } from "../../schema/wire/race-socket";
import { createTimedRace, evictShard, openRaceSocket, postReads, SECOND } from "./timing-fixtures";

const byHandle = (rows: ReadonlyMap<string, ResultRow>, h: number | undefined): ResultRow => {
  const row = [...rows.values()].find((r) => h !== undefined && r.h === h);
  if (!row) throw new Error(`no row has the handle ${h}`);
  return row;
};

const finishRead = (seq: number, chip: string, seconds: number, startMicros: number) => ({ seq, chip, time: startMicros + seconds * SECOND, channel: 2 });

describe("patch frames", () => {
  it("carry only what a crossing changed to a socket that asks for them, and whole rows to the others", async () => {
    const t = await createTimedRace({ racers: 3 });
    const patcher = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, patch: true });
    const plain = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id });
    const paged = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, window: true, patch: true });
    const held = new Map((await patcher.next("snapshot")).snapshot.rows.map((row) => [row.racerId, row]));
    await plain.next("snapshot");
    await paged.next("hello");

    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(1, "C1", 600, t.startMicros)] });
    const patch = await patcher.next("patch");
    const rows = await plain.next("rows");
    expect([patch.from, patch.version]).toEqual([rows.from, rows.version]);
    expect(patch.rows).toEqual([]);
    expect(patch.changes).toHaveLength(1);
    const [change] = patch.changes;
    // The name, bib and groups did not change, so they are not sent again.
    expect(Object.keys(change!)).not.toContain("name");
    expect(Object.keys(change!)).not.toContain("groups");
    expect(change!.time).toBe(600 * SECOND);
    // The racer is named by its handle, which every row carries, not by its 36-character id.
    expect(change!.racerId).toBeUndefined();
    expect(new Set([...held.values()].map((row) => row.h)).size).toBe(held.size);
    expect(applyRowChange(byHandle(held, change!.h), change!)).toStrictEqual(rows.rows[0]);
    // A paged page holds one page of rows, so it is never sent patches.
    expect((await paged.next("rows")).rows).toStrictEqual(rows.rows);
    expect(patcher.frames.some((f) => f.type === "rows")).toBe(false);
    for (const s of [patcher, plain, paged]) s.socket.close(1000);
  });

  it("never give a deleted racer's handle to another racer: a page still holding the deleted row is not misled", async () => {
    const t = await createTimedRace({ racers: 3 });
    const patcher = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, patch: true });
    const rows = (await patcher.next("snapshot")).snapshot.rows;
    expect(rows.every((row) => Number.isInteger(row.h) && row.h! > 0)).toBe(true);
    const last = rows.reduce((a, b) => (b.h! > a.h! ? b : a));
    expect(await t.room.deleteRacer(last.racerId)).toBe(true);
    expect((await t.room.saveRacer(null, { first_name: "Late", last_name: "Entry", bib: 9, chip: "C9", course: t.course.id })).ok).toBe(true);
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(1, "C9", 600, t.startMicros)] });
    // The late racer arrives whole (the page never held it), under a handle no racer had before.
    let late: ResultRow | undefined;
    while (!late) late = (await patcher.next("patch")).rows.find((row) => row.name.includes("Late"));
    expect(late.h).toBe(last.h! + 1);
    patcher.socket.close(1000);
  });

  it("carry on after a setup change sent every page the whole format again", async () => {
    const t = await createTimedRace({ racers: 3 });
    const patcher = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, patch: true });
    await patcher.next("snapshot");
    expect((await t.room.updateSettings({ precision: 2 })).ok).toBe(true);
    const reset = (await patcher.next("snapshot")).snapshot;
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(1, "C1", 600, t.startMicros)] });
    const patch = await patcher.next("patch");
    expect(patch.from).toBe(reset.version);
    expect(patcher.frames.some((f) => f.type === "rows")).toBe(false);
    patcher.socket.close(1000);
  });

  it("follow on across a shard eviction: whole rows for the first frame after it, then changes again", async () => {
    const t = await createTimedRace({ racers: 3 });
    const patcher = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, patch: true });
    const rows = new Map<string, ResultRow>((await patcher.next("snapshot")).snapshot.rows.map((row) => [row.racerId, row]));
    await evictShard(t.race.id, 0);

    // The woken shard has no copy of the rows to make changes from: whole rows, and it fetches a copy.
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(1, "C1", 600, t.startMicros)] });
    const whole = await patcher.next("rows");
    for (const row of whole.rows) rows.set(row.racerId, row);
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(2, "C2", 590, t.startMicros)] });
    const patch = await patcher.next("patch");
    expect(patch.from).toBe(whole.version);
    for (const change of patch.changes) {
      const before = byHandle(rows, change.h);
      rows.set(before.racerId, applyRowChange(before, change));
    }

    // What the socket now holds is what a fresh page is sent whole.
    const fresh = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id });
    const snapshot = (await fresh.next("snapshot")).snapshot;
    expect(snapshot.version).toBe(patch.version);
    expect(new Map(snapshot.rows.map((row) => [row.racerId, row]))).toStrictEqual(rows);
    for (const s of [patcher, fresh]) s.socket.close(1000);
  });
});
