import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { migrateRaceStorage } from "../../durable/race/room-storage";
import { RaceStore } from "../../durable/race/store";
import { openDb } from "../../schema/d1";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { createTimedRace, evictRoom, evictShard, openRaceSocket, postReads, SECOND } from "./timing-fixtures";

const worker = exports.default;

function identity(id = crypto.randomUUID()) {
  return { id, clubId: crypto.randomUUID(), name: "Storage Test Race", startTime: 1_800_000_000_000, timezone: "America/Toronto" };
}

describe("RaceRoom storage", () => {
  it("runs its own migrations when it starts", async () => {
    const stub = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(crypto.randomUUID()));
    expect(await stub.storageVersion()).toBe(10);
    const tables = await runInDurableObject(stub, (_instance, state) =>
      state.storage.sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .toArray()
        .map((r) => r.name),
    );
    expect(tables).toContain("race_setup");
    expect(tables).toContain("_race_migrations");
  });

  it("moves the list revision with every write of a racer, a setup document or the race, never with reads, and keeps it across an eviction", async () => {
    const t = await createTimedRace({ racers: 2 });
    let last = await t.room.listRevision();
    const moved = async (what: string) => {
      const now = await t.room.listRevision();
      expect(now, what).toBeGreaterThan(last);
      last = now;
    };
    expect((await t.room.saveRacer(t.racerIds[0]!, { club: "Nordic" })).ok).toBe(true);
    await moved("a racer saved");
    expect((await t.room.importRacers([{ first_name: "New", last_name: "Racer", bib: 77 }])).ok).toBe(true);
    await moved("a racer imported");
    expect((await t.room.saveDocument("StartGroup", null, { name: "Wave 1" })).ok).toBe(true);
    await moved("a start group made");
    expect((await t.room.updateSettings({ is_last_name_first: true })).ok).toBe(true);
    await moved("the race's settings");
    const entity = await t.room.raceEntity();
    expect(await t.room.changeRace({ name: "Renamed Race" }, entity?.mtimes ?? null)).not.toBeNull();
    await moved("the race renamed");
    const reads = [{ seq: 1, chip: "C1", time: t.startMicros + 90 * SECOND, channel: 2 }];
    expect((await postReads(t.host, t.race.id, t.credential.token, { reads })).status).toBe(200);
    await t.room.flushLive();
    expect(await t.room.listRevision(), "a device's read").toBe(last);
    await evictRoom(t.room);
    expect(await t.room.listRevision(), "after an eviction").toBe(last);
    expect(await t.room.deleteRacer(t.racerIds[1]!)).toBe(true);
    await moved("a racer deleted");
  });

  it("rebuilds its results for a setting they read, not for who may see the start list nor for a save that changes nothing", async () => {
    const t = await createTimedRace({ racers: 2 });
    const reads = [{ seq: 1, chip: "C1", time: t.startMicros + 90 * SECOND, channel: 2 }];
    expect((await postReads(t.host, t.race.id, t.credential.token, { reads })).status).toBe(200);
    await t.room.flushLive();
    let rebuilds = 0;
    await runInDurableObject(t.room, (instance) => {
      const live = (instance as unknown as { feed: { results: () => { reload: () => void } } }).feed.results();
      const reload = live.reload.bind(live);
      live.reload = () => {
        rebuilds += 1;
        reload();
      };
    });
    const before = await t.room.listRevision();
    expect((await t.room.updateSettings({ start_list_visibility: "public" })).ok).toBe(true);
    expect((await t.room.updateSettings({ start_list_visibility: "public" })).ok).toBe(true);
    expect(await t.room.settings()).toMatchObject({ start_list_visibility: "public" });
    // Saved all the same: the start list's copies are named by the revision.
    expect(await t.room.listRevision()).toBeGreaterThan(before);
    expect(rebuilds).toBe(0);
    expect((await t.room.updateSettings({ display_precision: 3 })).ok).toBe(true);
    expect(rebuilds).toBe(1);
  });

  it("gives racers stored before step 7 a handle each, and a new racer the next one", async () => {
    const stub = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(crypto.randomUUID()));
    await stub.open(identity());
    const handles = await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      // The storage as step 6 left it, with three racers.
      sql.exec("DROP INDEX racers_handle");
      sql.exec("ALTER TABLE racers DROP COLUMN handle");
      sql.exec("ALTER TABLE live_push DROP COLUMN next_handle");
      sql.exec("DELETE FROM _race_migrations WHERE version = 7");
      for (const id of ["a", "b", "c"]) sql.exec("INSERT INTO racers (id, bib, data) VALUES (?, NULL, '{}')", id);
      migrateRaceStorage(state);
      return sql.exec<{ id: string; handle: number }>("SELECT id, handle FROM racers ORDER BY id").toArray();
    });
    expect(new Set(handles.map((r) => r.handle)).size).toBe(3);
    const saved = await stub.saveRacer(null, { first_name: "New", last_name: "Racer" });
    expect(saved.ok && saved.value.handle).toBe(Math.max(...handles.map((r) => r.handle)) + 1);
  });

  it("copies the names of racers stored before step 9 beside their documents, so the racers list finds and orders them", async () => {
    const stub = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(crypto.randomUUID()));
    await stub.open(identity());
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      // The racers table as step 8 left it, with three racers.
      sql.exec("DROP INDEX racers_list");
      sql.exec("CREATE INDEX racers_bib ON racers (bib)");
      for (const column of ["first_name", "last_name", "fullname"]) sql.exec(`ALTER TABLE racers DROP COLUMN ${column}`);
      sql.exec("DELETE FROM _race_migrations WHERE version = 9");
      const racer = (handle: number, bib: number | null, data: Record<string, unknown>) =>
        sql.exec("INSERT INTO racers (id, bib, data, handle) VALUES (?, ?, ?, ?)", `r${handle}`, bib, JSON.stringify({ bib, ...data }), handle);
      racer(1, null, { first_name: "Zoé", last_name: "Young" });
      racer(2, 7, { first_name: "Anna", last_name: "Côté" });
      racer(3, null, { fullname: "Team Aurora" });
      migrateRaceStorage(state);
      const plan = sql.exec<{ detail: string }>("EXPLAIN QUERY PLAN SELECT id, bib, first_name, last_name, fullname FROM racers").toArray();
      expect(plan.map((step) => step.detail).join()).toContain("COVERING INDEX racers_list");
    });
    const page = await stub.racerPage({ q: "", page: 1, perPage: 10 });
    expect(page.racers.map((r) => r.id)).toEqual(["r2", "r3", "r1"]);
    expect((await stub.racerPage({ q: "ZOÉ", page: 1, perPage: 10 })).racers.map((r) => r.id)).toEqual(["r1"]);
    expect((await stub.racerPage({ q: "aurora", page: 1, perPage: 10 })).racers.map((r) => r.id)).toEqual(["r3"]);
  });

  it("keeps every read stored before step 8, and still knows a resent read by device, boot and number", async () => {
    const stub = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(crypto.randomUUID()));
    await stub.open(identity());
    const after = await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      // The crossing log as step 7 left it: a text read_key, nullable boot and number.
      sql.exec("DROP TABLE crossings");
      sql.exec(`CREATE TABLE crossings (seq INTEGER PRIMARY KEY AUTOINCREMENT, read_key TEXT NOT NULL UNIQUE, device_id TEXT NOT NULL,
        device_seq INTEGER, timing_point_id TEXT, chip TEXT, bib INTEGER, channel INTEGER, device_time INTEGER NOT NULL, time INTEGER NOT NULL,
        racer_id TEXT, state TEXT NOT NULL, received_at INTEGER NOT NULL, device_boot TEXT)`);
      const old =
        "INSERT INTO crossings (seq, read_key, device_id, device_seq, device_boot, chip, device_time, time, state, received_at) VALUES (?, ?, ?, ?, ?, ?, 1, 1, 'unmatched', 1)";
      sql.exec(old, 3, "dev-a:1", "dev-a", 1, null, "A1");
      sql.exec(old, 5, "dev-a:boot-2:1", "dev-a", 1, "boot-2", "A2");
      sql.exec(old, 9, "manual:kp-7", "manual", null, null, null);
      sql.exec("DELETE FROM _race_migrations WHERE version = 8");
      migrateRaceStorage(state);
      const rows = sql
        .exec<{
          seq: number;
          device_id: string;
          device_boot: string;
          device_seq: number;
          chip: string | null;
        }>("SELECT seq, device_id, device_boot, device_seq, chip FROM crossings ORDER BY seq")
        .toArray();
      const columns = sql
        .exec<{ name: string }>("SELECT name FROM pragma_table_info('crossings')")
        .toArray()
        .map((c) => c.name);
      const store = new RaceStore(sql);
      const read = {
        deviceId: "dev-a",
        deviceSeq: 1,
        timingPointId: null,
        bib: null,
        channel: null,
        deviceTime: 1,
        time: 1,
        racerId: null,
        state: "unmatched" as const,
        receivedAt: 2,
      };
      const newBoot = store.insertCrossing({ ...read, deviceBoot: "boot-3", chip: "A3" });
      const resent = store.insertCrossing({ ...read, deviceBoot: null, chip: "A1" });
      return { rows, columns, resent, newBoot, lastInFirstBoot: store.lastDeviceSeq("dev-a", null) };
    });
    expect(after.rows).toEqual([
      { seq: 3, device_id: "dev-a", device_boot: "", device_seq: 1, chip: "A1" },
      { seq: 5, device_id: "dev-a", device_boot: "boot-2", device_seq: 1, chip: "A2" },
      { seq: 9, device_id: "manual", device_boot: "kp-7", device_seq: 0, chip: null },
    ]);
    expect(after.columns).not.toContain("read_key");
    // The same device, no boot, number 1: a repeat. A new boot's number 1: a new read, after the highest seq.
    expect(after.resent).toBeNull();
    expect(after.newBoot).toBe(10);
    expect(after.lastInFirstBoot).toBe(1);
  });

  it("keeps the first race it is opened for", async () => {
    const stub = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(crypto.randomUUID()));
    expect(await stub.getSetup()).toBeNull();
    const first = identity();
    await stub.open(first);
    const again = await stub.open({ ...first, name: "Renamed" });
    expect(again.name).toBe("Storage Test Race");
    const stored = await runInDurableObject(stub, (_instance, state) =>
      state.storage.sql.exec<{ name: string; field_mtimes: string }>("SELECT name, field_mtimes FROM race_setup").one(),
    );
    expect(stored.name).toBe("Storage Test Race");
    expect(Object.keys(JSON.parse(stored.field_mtimes))).toEqual(["club", "name", "start_time", "timezone"]);
  });

  it("recalculates zero time from the start time and refuses setting it by hand", async () => {
    const stub = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(crypto.randomUUID()));
    // 2027-01-16 15:00 UTC is 10:00 in Toronto; zero time is that day's midnight there, 05:00 UTC.
    const start = Date.UTC(2027, 0, 16, 15, 0, 0);
    await stub.open({ ...identity(), startTime: start });
    expect((await stub.settings())?.zero_time).toBe(Date.UTC(2027, 0, 16, 5, 0, 0) * 1000);
    const entity = await stub.raceEntity();
    await stub.changeRace({ start_time: start + 86_400_000 }, entity!.mtimes);
    expect((await stub.settings())?.zero_time).toBe(Date.UTC(2027, 0, 17, 5, 0, 0) * 1000);
    await stub.changeRace({ timezone: "Europe/Oslo" }, (await stub.raceEntity())!.mtimes);
    expect((await stub.settings())?.zero_time).toBe(Date.UTC(2027, 0, 16, 23, 0, 0) * 1000);
    const refused = await stub.updateSettings({ zero_time: 0 });
    expect(refused.ok).toBe(false);
  });

  it("refuses an identity that is not a race", async () => {
    const stub = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(crypto.randomUUID()));
    const refused = await runInDurableObject(stub, (instance) =>
      instance.open({ ...identity(), id: "not-a-uuid" }).then(
        () => "opened",
        () => "refused",
      ),
    );
    expect(refused).toBe("refused");
    expect(await stub.getSetup()).toBeNull();
  });
});

describe("race sockets", () => {
  it("says hello first, then answers pings and requests", async () => {
    const { race } = await createSiteWithRace(openDb(env.DB), { hostname: "live.localhost", siteName: "Live", raceName: "Live Race" });
    const { socket, nth: next } = await openRaceSocket("live.localhost", race.id);
    const hello = await next(1);
    expect(hello).toMatchObject({ type: "hello", race_id: race.id, name: "Live Race", connections: 1 });
    socket.send(JSON.stringify({ type: "ping" }));
    expect(await next(2)).toEqual({ type: "pong" });
    socket.send(JSON.stringify({ type: "info" }));
    expect(await next(3)).toEqual({ type: "info", race_id: race.id, connections: 1 });
    socket.send("not json");
    expect(await next(4)).toEqual({ type: "error", message: "Messages must be JSON" });
    socket.send(JSON.stringify({ type: "crossing", bib: 7 }));
    expect(await next(5)).toEqual({ type: "error", message: "Unknown message" });
    socket.close(1000, "done");
  });

  it("counts every spectator connected to the race", async () => {
    const { race } = await createSiteWithRace(openDb(env.DB), { hostname: "crowd.localhost", siteName: "Crowd", raceName: "Crowd Race" });
    const first = await openRaceSocket("crowd.localhost", race.id);
    await first.nth(1);
    const second = await openRaceSocket("crowd.localhost", race.id);
    expect(await second.nth(1)).toMatchObject({ type: "hello", connections: 2 });
    first.socket.close(1000);
    second.socket.close(1000);
  });

  it("keeps the count through closes and a shard's restart (counted once per wake-up, not per connection)", async () => {
    const { race } = await createSiteWithRace(openDb(env.DB), { hostname: "count.localhost", siteName: "Count", raceName: "Count Race" });
    const first = await openRaceSocket("count.localhost", race.id);
    await first.nth(1);
    const second = await openRaceSocket("count.localhost", race.id);
    await second.nth(1);
    second.socket.close(1000);
    const shard = env.SPECTATOR_SHARD.get(env.SPECTATOR_SHARD.idFromName(`${race.id}:0`));
    // The close reaches the shard on its own turn: wait until it has been counted.
    await vi.waitFor(async () => expect(await shard.connectionCount()).toBe(1));
    const third = await openRaceSocket("count.localhost", race.id);
    expect(await third.nth(1)).toMatchObject({ type: "hello", connections: 2 });
    await evictShard(race.id, 0);
    const fourth = await openRaceSocket("count.localhost", race.id);
    expect(await fourth.nth(1)).toMatchObject({ type: "hello", connections: 3 });
    for (const s of [first, third, fourth]) s.socket.close(1000);
  });

  it("opens no socket for a race of another site, a private race, or a plain request", async () => {
    const db = openDb(env.DB);
    const mine = await createSiteWithRace(db, { hostname: "mine.localhost", siteName: "Mine", raceName: "Mine" });
    await createSiteWithRace(db, { hostname: "yours.localhost", siteName: "Yours", raceName: "Yours" });
    const hidden = await createSiteWithRace(db, { hostname: "hidden.localhost", siteName: "Hidden", raceName: "Hidden", visibility: "private" });
    const crossSite = await worker.fetch(hostRequest("yours.localhost", `/timing-api/races/${mine.race.id}/socket`, { headers: { Upgrade: "websocket" } }));
    expect(crossSite.status).toBe(404);
    const privateRace = await worker.fetch(
      hostRequest("hidden.localhost", `/timing-api/races/${hidden.race.id}/socket`, { headers: { Upgrade: "websocket" } }),
    );
    expect(privateRace.status).toBe(404);
    const plain = await worker.fetch(hostRequest("mine.localhost", `/timing-api/races/${mine.race.id}/socket`));
    expect(plain.status).toBe(426);
  });
});

describe("RaceRoom as the single writer of its race", () => {
  it("applies the registry's field rules itself, whoever calls it", async () => {
    const stub = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(crypto.randomUUID()));
    await stub.open(identity());
    // Called inside the object, as the existing refusal test does, so a thrown ZodError stays a plain rejection.
    const outcome = (changes: Record<string, unknown>) =>
      runInDurableObject(stub, (instance) =>
        instance.changeRace(changes, null).then(
          () => "written",
          () => "refused",
        ),
      );
    expect(await outcome({ visibility: "secret" })).toBe("refused");
    expect(await outcome({ club: crypto.randomUUID() })).toBe("refused");
    expect(await outcome({ name: "" })).toBe("refused");
    const done = await stub.changeRace({ name: "Renamed", end_time: null }, null);
    expect(done).toMatchObject({ ok: true, changed: { name: "Renamed" } });
    expect((await stub.raceEntity())?.row.name).toBe("Renamed");
  });

  it("keeps a change when the catalogue write fails, and the alarm writes the catalogue once D1 takes it, across an eviction", async () => {
    const { race } = await createSiteWithRace(openDb(env.DB), { hostname: "catalogue.localhost", siteName: "Catalogue", raceName: "Before" });
    const stub = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(race.id));
    await stub.open({ id: race.id, clubId: race.clubId, name: race.name, startTime: race.startTime, timezone: race.timezone });
    const catalogueName = async () => (await env.DB.prepare("SELECT name FROM races WHERE id = ?").bind(race.id).first<{ name: string }>())?.name;
    // D1 refuses this race's row, as an unreachable D1 would fail the write.
    const trigger = `refuse_${race.id.replaceAll("-", "")}`;
    await env.DB.exec(`CREATE TRIGGER ${trigger} BEFORE UPDATE ON races WHEN OLD.id = '${race.id}' BEGIN SELECT RAISE(ABORT, 'D1 down'); END`);
    try {
      expect(await stub.changeRace({ name: "After" }, null)).toMatchObject({ ok: true, changed: { name: "After" } });
      expect(await catalogueName()).toBe("Before");
      const alarmIn = await runInDurableObject(stub, async (_instance, state) => ((await state.storage.getAlarm()) ?? 0) - Date.now());
      expect(alarmIn).toBeGreaterThan(25_000);
      expect(alarmIn).toBeLessThanOrEqual(30_000);
      // The alarm fires while D1 is still down: the mark stays for the next one.
      expect(await runDurableObjectAlarm(stub)).toBe(true);
      expect(await catalogueName()).toBe("Before");
    } finally {
      await env.DB.exec(`DROP TRIGGER IF EXISTS ${trigger}`);
    }
    await evictRoom(stub);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await catalogueName()).toBe("After");
    expect(await runInDurableObject(stub, (_instance, state) => state.storage.get("catalogue-dirty"))).toBeUndefined();
    expect((await stub.raceEntity())?.row.name).toBe("After");
  });
});
