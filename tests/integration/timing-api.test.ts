import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";
import { createTimedRace, openResultsSocket, postReads, SECOND } from "./timing-fixtures";

async function crossingRows(room: Awaited<ReturnType<typeof createTimedRace>>["room"]) {
  return runInDurableObject(room, (_instance, state) =>
    state.storage.sql
      .exec<{
        seq: number;
        device_seq: number;
        time: number;
        state: string;
        racer_id: string | null;
      }>("SELECT seq, device_seq, time, state, racer_id FROM crossings ORDER BY seq")
      .toArray(),
  );
}

describe("timing API: device reads", () => {
  it("writes a batch, acknowledges it, and recognises a resent read", async () => {
    const t = await createTimedRace();
    const reads = [
      { seq: 1, chip: "C1", time: t.startMicros + 600 * SECOND, channel: 2 },
      { seq: 2, chip: "C2", time: t.startMicros + 610 * SECOND, channel: 2 },
    ];
    const first = await postReads(t.host, t.race.id, t.credential.token, { reads });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ accepted: 2, duplicates: 0, unassigned: 0, outside: 0, last_seq: 2 });
    const again = await postReads(t.host, t.race.id, t.credential.token, {
      reads: [...reads, { seq: 3, chip: "C3", time: t.startMicros + 620 * SECOND, channel: 2 }],
    });
    expect(await again.json()).toEqual({ accepted: 1, duplicates: 2, unassigned: 0, outside: 0, last_seq: 3 });
    const rows = await crossingRows(t.room);
    expect(rows.map((r) => r.device_seq)).toEqual([1, 2, 3]);
    expect(rows.map((r) => r.racer_id)).toEqual(t.racerIds);
  });

  it("refuses the old credential once a device is given a new one, though it was just accepted", async () => {
    const t = await createTimedRace();
    const read = (seq: number) => ({ reads: [{ seq, chip: "C1", time: t.startMicros + (600 + seq) * SECOND, channel: 2 }] });
    expect((await postReads(t.host, t.race.id, t.credential.token, read(1))).status).toBe(200);
    const renewed = (await t.room.issueDeviceCredential(t.device.id))!;
    const old = await postReads(t.host, t.race.id, t.credential.token, read(2));
    expect(old.status).toBe(401);
    expect(await old.json()).toEqual({ error: "invalid_device", message: "Unknown device or wrong credential" });
    expect((await postReads(t.host, t.race.id, renewed.token, read(2))).status).toBe(200);
  });

  it("refuses a batch for a race deleted a moment ago, though the race was just found, and leaves its room closed", async () => {
    const t = await createTimedRace();
    const read = (seq: number) => ({ reads: [{ seq, chip: "C1", time: t.startMicros + (600 + seq) * SECOND, channel: 2 }] });
    expect((await postReads(t.host, t.race.id, t.credential.token, read(1))).status).toBe(200);
    // What deleteRace does: the catalogue row first, then the room forgets everything.
    await env.DB.prepare("DELETE FROM races WHERE id = ?").bind(t.race.id).run();
    await t.room.discard();
    const late = await postReads(t.host, t.race.id, t.credential.token, read(2));
    expect(late.status).toBe(404);
    expect(await late.json()).toEqual({ error: "not_found", message: "No such race" });
    expect(await t.room.getSetup()).toBeNull();
  });

  it("matches reads by bib as well as chip, in batch order, and counts a read sent twice in one batch once", async () => {
    const t = await createTimedRace();
    const reads = [
      { seq: 1, bib: 2, time: t.startMicros + 600 * SECOND, channel: 2 },
      { seq: 2, chip: "C1", time: t.startMicros + 610 * SECOND, channel: 2 },
      { seq: 3, bib: 77, time: t.startMicros + 615 * SECOND, channel: 2 },
      { seq: 2, chip: "C1", time: t.startMicros + 610 * SECOND, channel: 2 },
    ];
    const reply = await postReads(t.host, t.race.id, t.credential.token, { reads });
    expect(await reply.json()).toEqual({ accepted: 3, duplicates: 1, unassigned: 1, outside: 0, last_seq: 3 });
    const rows = await crossingRows(t.room);
    expect(rows.map((r) => [r.device_seq, r.racer_id, r.state])).toEqual([
      [1, t.racerIds[1], "assigned"],
      [2, t.racerIds[0], "assigned"],
      [3, null, "unmatched"],
    ]);
    // A different read under a number this batch already used refuses the whole batch.
    const clash = await postReads(t.host, t.race.id, t.credential.token, {
      reads: [
        { seq: 4, chip: "C3", time: t.startMicros + 620 * SECOND, channel: 2 },
        { seq: 4, chip: "C2", time: t.startMicros + 621 * SECOND, channel: 2 },
      ],
    });
    expect(clash.status).toBe(409);
    expect(await crossingRows(t.room)).toHaveLength(3);
  });

  it("writes every column of every read, whether the whole batch shares the value or each read has its own", async () => {
    const t = await createTimedRace();
    const columns = "device_id, device_boot, device_seq, timing_point_id, chip, bib, channel, device_time, time, racer_id, state, received_at";
    const everyColumn = () =>
      runInDurableObject(t.room, (_instance, state) => state.storage.sql.exec(`SELECT ${columns} FROM crossings ORDER BY seq`).toArray());
    // Chip and bib, point and channel, racer, state and time differ from read to read; device, boot and arrival are shared.
    const mixed = await postReads(t.host, t.race.id, t.credential.token, {
      boot: "b-1",
      reads: [
        { seq: 1, chip: "C1", time: t.startMicros + 600 * SECOND, channel: 2 },
        { seq: 2, bib: 77, time: t.startMicros + 610 * SECOND, channel: 2 },
        { seq: 3, chip: "C2", time: t.startMicros - 3600 * SECOND, channel: 1 },
      ],
    });
    expect(mixed.status).toBe(200);
    // A batch of one read shares every column.
    const single = await postReads(t.host, t.race.id, t.credential.token, {
      boot: "b-2",
      reads: [{ seq: 1, bib: 2, time: t.startMicros + 620 * SECOND, channel: 2 }],
    });
    expect(single.status).toBe(200);
    const rows = await everyColumn();
    const read = (boot: string, seq: number, chip: string | null, bib: number | null, channel: number, at: number, racerId: string | null, state: string) => ({
      device_id: t.device.id,
      device_boot: boot,
      device_seq: seq,
      timing_point_id: channel === 1 ? t.start.id : t.finish.id,
      chip,
      bib,
      channel,
      device_time: t.startMicros + at,
      time: t.startMicros + at,
      racer_id: racerId,
      state,
      received_at: expect.any(Number),
    });
    expect(rows).toEqual([
      read("b-1", 1, "C1", null, 2, 600 * SECOND, t.racerIds[0]!, "assigned"),
      read("b-1", 2, null, 77, 2, 610 * SECOND, null, "unmatched"),
      read("b-1", 3, "C2", null, 1, -3600 * SECOND, null, "outside"),
      read("b-2", 1, null, 2, 2, 620 * SECOND, t.racerIds[1]!, "assigned"),
    ]);
    // The shared values are stored as the types SQLite stores the read ones: a resent one-read batch is known again.
    const resent = await postReads(t.host, t.race.id, t.credential.token, {
      boot: "b-2",
      reads: [{ seq: 1, bib: 2, time: t.startMicros + 620 * SECOND, channel: 2 }],
    });
    expect(await resent.json()).toEqual({ accepted: 0, duplicates: 1, unassigned: 0, outside: 0, last_seq: 1, boot: "b-2" });
    expect(await everyColumn()).toHaveLength(4);
  });

  it("refuses a missing or wrong credential and writes nothing", async () => {
    const t = await createTimedRace();
    const body = { reads: [{ seq: 1, chip: "C1", time: t.startMicros + SECOND, channel: 2 }] };
    const missing = await postReads(t.host, t.race.id, null, body);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("WWW-Authenticate")).toContain("Bearer");
    const wrong = await postReads(t.host, t.race.id, `${t.device.id}.not-the-secret`, body);
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: string }).error).toBe("invalid_device");
    const otherDevice = await postReads(t.host, t.race.id, `${crypto.randomUUID()}.${t.credential.token.split(".")[1]}`, body);
    expect(otherDevice.status).toBe(401);
    expect(await crossingRows(t.room)).toEqual([]);
  });

  it("refuses a malformed batch whole, saying which read is wrong", async () => {
    const t = await createTimedRace();
    const good = { seq: 1, chip: "C1", time: t.startMicros + SECOND, channel: 2 };
    const cases: [unknown, string][] = [
      [{ reads: [good, { seq: 2, time: t.startMicros }] }, "reads[1]: Each read needs a chip or a bib, not both"],
      [{ reads: [good, { seq: 2, chip: "C2", bib: 2, time: t.startMicros }] }, "Each read needs a chip or a bib"],
      [{ reads: [good, { seq: -1, chip: "C2", time: t.startMicros }] }, "reads[1].seq"],
      [{ reads: [good, { seq: 2, chip: "C2", tod: "25:00:00" }] }, "reads[1].tod: Hours must be below 24"],
      [{ reads: [] }, "A batch needs at least one read"],
      [{ reads: Array.from({ length: 1001 }, (_, i) => ({ ...good, seq: i })) }, "A batch holds at most 1000 reads"],
      [{ reads: [{ ...good, extra: 1 }] }, "reads[0]"],
    ];
    for (const [body, message] of cases) {
      const response = await postReads(t.host, t.race.id, t.credential.token, body);
      expect(response.status).toBe(400);
      const reply = (await response.json()) as { error: string; message: string };
      expect(reply.error).toBe("invalid_batch");
      expect(reply.message).toContain(message);
    }
    expect(await crossingRows(t.room)).toEqual([]);
    const notJson = await worker.fetch(
      hostRequest(t.host, `/timing-api/races/${t.race.id}/reads`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${t.credential.token}` },
        body: "{reads:",
      }),
    );
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: string }).error).toBe("invalid_json");
  });

  it("applies the device's offset, keeps reads outside the race window unassigned, and keeps unknown chips for later", async () => {
    const t = await createTimedRace({ offset: -2 * SECOND });
    const response = await postReads(t.host, t.race.id, t.credential.token, {
      reads: [
        { seq: 10, chip: "C1", time: t.startMicros + 100 * SECOND, channel: 2 },
        { seq: 11, chip: "C2", time: t.startMicros - 3600 * SECOND, channel: 2 },
        { seq: 12, chip: "C9", time: t.startMicros + 120 * SECOND, channel: 2 },
      ],
    });
    expect(await response.json()).toEqual({ accepted: 3, duplicates: 0, unassigned: 1, outside: 1, last_seq: 12 });
    const rows = await crossingRows(t.room);
    expect(rows.map((r) => [r.time - t.startMicros, r.state])).toEqual([
      [98 * SECOND, "assigned"],
      [-3602 * SECOND, "outside"],
      [118 * SECOND, "unmatched"],
    ]);
    // A racer given chip C9 later claims its read.
    const saved = await t.room.saveRacer(null, { first_name: "Late", last_name: "Entry", bib: 9, chip: "C9", course: t.course.id });
    expect(saved.ok).toBe(true);
    const after = await crossingRows(t.room);
    expect(after[2]!.state).toBe("assigned");
    expect(after[2]!.racer_id).toBe((saved as unknown as { value: { id: string } }).value.id);
  });

  it("accepts a time of day on the race's day in its time zone", async () => {
    const t = await createTimedRace();
    const local = new Intl.DateTimeFormat("en-GB", {
      timeZone: "America/Toronto",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    }).format(new Date(t.race.startTime + 60_000));
    const response = await postReads(t.host, t.race.id, t.credential.token, { reads: [{ seq: 1, chip: "C1", tod: `${local}.25`, channel: 2 }] });
    expect(response.status).toBe(200);
    const [row] = await crossingRows(t.room);
    const expected = Math.floor((t.race.startTime + 60_000) / 1000) * SECOND + 250_000;
    expect(row!.time).toBe(expected);
  });
});

describe("timing API: live results over the race socket", () => {
  it("sends a snapshot, then only the rows a batch changed", async () => {
    const t = await createTimedRace({ racers: 3 });
    const spectator = await openResultsSocket(t.host, t.race.id, t.format.id);
    const hello = await spectator.next("hello");
    const snapshot = await spectator.next("snapshot");
    expect(snapshot.snapshot.rows).toHaveLength(3);
    expect(snapshot.snapshot.version).toBe(hello.version);
    await postReads(t.host, t.race.id, t.credential.token, { reads: [{ seq: 1, chip: "C2", time: t.startMicros + 600 * SECOND, channel: 2 }] });
    const delta = await spectator.next("rows");
    expect(delta.from).toBe(snapshot.snapshot.version);
    expect(delta.rows).toHaveLength(1);
    expect(delta.rows[0]).toMatchObject({ racerId: t.racerIds[1], bib: 2, status: "finished", time: 600 * SECOND, name: "Racer2 Test2" });
    spectator.socket.close(1000, "done");
  });

  it("sends no snapshot to a page that is already current", async () => {
    const t = await createTimedRace({ racers: 1 });
    const snapshot = await t.room.snapshot(t.format.id);
    const spectator = await openResultsSocket(t.host, t.race.id, t.format.id, snapshot!.version);
    await spectator.next("hello");
    await postReads(t.host, t.race.id, t.credential.token, { reads: [{ seq: 1, chip: "C1", time: t.startMicros + 61 * SECOND, channel: 2 }] });
    await spectator.next("rows");
    expect(spectator.frames.some((f) => f.type === "snapshot")).toBe(false);
    spectator.socket.close(1000, "done");
  });

  it("refuses a format that does not exist", async () => {
    const t = await createTimedRace({ racers: 1 });
    const response = await worker.fetch(
      hostRequest(t.host, `/timing-api/races/${t.race.id}/socket?format=${crypto.randomUUID()}`, { headers: { Upgrade: "websocket" } }),
    );
    expect(response.status).toBe(404);
  });
});

describe("racer import into the RaceRoom", () => {
  it("refuses a batch whose rows share a bib or a chip, writing none of it", async () => {
    const t = await createTimedRace({ racers: 1 });
    const rows = [
      { first_name: "Ada", bib: 20, chip: "X1", course: t.course.id },
      { first_name: "Bo", bib: 21, chip: "X1", course: t.course.id },
      { first_name: "Cy", bib: 20, chip: "X3", course: t.course.id },
      { first_name: "Di", bib: 1, chip: "X4", course: t.course.id },
    ];
    const refused = await t.room.importRacers(rows);
    expect(refused).toEqual({
      ok: false,
      rows: [
        { row: 2, errors: { chip: "Chip X1 is also on row 1" } },
        { row: 3, errors: { bib: "Bib 20 is also on row 1" } },
        { row: 4, errors: { bib: "Bib 1 is already taken" } },
      ],
    });
    expect((await t.room.counts()).racers).toBe(1);
    expect(await t.room.importRacers(rows.slice(0, 1))).toMatchObject({ ok: true, created: 1 });
  });
});

describe("result groups made from a racer field", () => {
  it("gains a group when a racer brings a new value, and ranks each group on its own", async () => {
    const t = await createTimedRace({ racers: 2 });
    const format = (await t.room.saveDocument("ResultFormat", null, {
      name: "By sex",
      is_public: true,
      group_type: "field",
      group_field: "sex",
    })) as unknown as { value: { id: string } };
    expect((await t.room.snapshot(format.value.id))!.groups).toEqual([]);
    await t.room.saveRacer(t.racerIds[0]!, { sex: "F" });
    await t.room.saveRacer(t.racerIds[1]!, { sex: "M" });
    await postReads(t.host, t.race.id, t.credential.token, {
      reads: [
        { seq: 1, chip: "C1", time: t.startMicros + 700 * SECOND, channel: 2 },
        { seq: 2, chip: "C2", time: t.startMicros + 650 * SECOND, channel: 2 },
      ],
    });
    const snapshot = (await t.room.snapshot(format.value.id))!;
    expect(snapshot.groups.map((g) => g.name)).toEqual(["F", "M"]);
    const inGroup = (name: string) =>
      snapshot.rows.filter((r) => r.groups.includes(snapshot.groups.find((g) => g.name === name)!.id)).map((r) => [r.bib, r.time]);
    expect(inGroup("F")).toEqual([[1, 700 * SECOND]]);
    expect(inGroup("M")).toEqual([[2, 650 * SECOND]]);
  });

  it("shows a racer's reads as a TimedEntity with a crossing list per course point", async () => {
    const t = await createTimedRace();
    await postReads(t.host, t.race.id, t.credential.token, {
      reads: [
        { seq: 1, chip: "C1", time: t.startMicros + 5 * SECOND, channel: 1 },
        { seq: 2, chip: "C1", time: t.startMicros + 600 * SECOND, channel: 2 },
        { seq: 3, chip: "C2", time: t.startMicros + 601 * SECOND, channel: 2 },
      ],
    });
    const entity = await t.room.timedEntity(t.racerIds[0]!);
    expect(entity).toMatchObject({
      racer: t.racerIds[0],
      course: t.course.id,
      run_num: 1,
      round_num: 1,
      is_dns: false,
      time_0_list: [{ time: t.startMicros + 5 * SECOND, device: t.device.id }],
      time_1_list: [{ time: t.startMicros + 600 * SECOND, device: t.device.id }],
    });
    expect(await t.room.timedEntity("no-such-racer")).toBeNull();
  });
});

describe("deleting a race's setup documents", () => {
  it("refuses, saying what still uses it, a device, a timing point or a course in use, and deletes one that is free", async () => {
    const t = await createTimedRace({ racers: 2 });
    expect(await t.room.deleteDocument("TimingDevice", t.device.id)).toEqual({
      ok: false,
      status: 409,
      message: "The timing point “Start” uses this device. Take it off the timing point first.",
    });
    expect(await t.room.deleteDocument("TimingPoint", t.finish.id)).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringContaining("uses this timing point"),
    });
    expect(await t.room.deleteDocument("Course", t.course.id)).toEqual({ ok: false, status: 409, message: "2 racers are in this course. Move them first." });
    // With the racers moved out, the course goes; a document that is gone is a 404.
    for (const id of t.racerIds) expect(await t.room.deleteRacer(id)).toBe(true);
    expect(await t.room.deleteDocument("Course", t.course.id)).toEqual({ ok: true });
    expect(await t.room.deleteDocument("Course", t.course.id)).toEqual({ ok: false, status: 404, message: "Not found" });
    expect((await t.room.documents("Course")).map((c) => c.id)).toEqual([]);
  });
});
