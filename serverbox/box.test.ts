import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Serverbox } from "./box";
import { FakeCloud } from "./fake-cloud";
import { boxStatus } from "./local-server";
import { renderPage } from "./page";
import { racePackageSchema } from "./race";
import { pkg, START_US } from "./test-race";

const boxes: { box: Serverbox; dir: string }[] = [];
afterEach(async () => {
  for (const { box, dir } of boxes.splice(0)) {
    await box.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

const pursuit = racePackageSchema.parse({ ...pkg, race: { ...pkg.race, id: "race-2", name: "Box Pursuit" } });

/** A box that believes it is paired, whose platform is a FakeCloud that refuses race-2 with a 404 (deleted in the cloud). */
function pairedBox(dir = mkdtempSync(path.join(tmpdir(), "serverbox-box-"))) {
  const box = new Serverbox({ server: "http://127.0.0.1:9", storeDir: dir, name: "Stadium box", log: () => undefined, backoff: { baseMs: 1, capMs: 1 } });
  boxes.push({ box, dir });
  box.identity = { ...box.identity, token: "sbx_x.y", serverId: "x", clubId: "c" };
  const cloud = new FakeCloud();
  const gone = { kind: "http" as const, status: 404, error: "not_found", message: "No such race", body: {}, retryAfterMs: null };
  box.cloud.postReads = (raceId, ...rest) => (raceId === "race-2" ? Promise.resolve(gone) : cloud.postReads(raceId, ...rest));
  box.cloud.postManual = (raceId, ...rest) => (raceId === "race-2" ? Promise.resolve(gone) : cloud.postManual(raceId, ...rest));
  return { box, cloud, dir };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe("a box timing several races", () => {
  it("syncs each race on its own: a race the platform no longer has stops only itself, and the page says which", async () => {
    const { box, cloud } = pairedBox();
    box.store.saveSetup(pkg.race.id, pkg);
    box.store.saveSetup(pursuit.race.id, pursuit);
    expect(await box.openRace(pkg.race.id)).toBe(true);
    expect(await box.openRace(pursuit.race.id)).toBe(true);
    const reads = { boot: "b", reads: [{ seq: 1, chip: "C1", time: START_US + 60_000_000 }] };
    expect(box.take("race-1", "reads", "reader", reads)).toMatchObject({ ok: true, receipt: { accepted: 1 } });
    expect(box.take("race-2", "reads", "reader", reads)).toMatchObject({ ok: true, receipt: { accepted: 1 } });
    expect(
      box.take("race-1", "manual", null, { entries: [{ kind: "time", key: "keypad-0001", bib: 2, point: "finish", time: START_US + 70_000_000 }] }),
    ).toMatchObject({
      ok: true,
    });
    await until(() => box.timings.get("race-1")!.sync.synced === 2 && box.timings.get("race-2")!.sync.error !== null);
    expect(cloud.applied).toEqual([`reader:${box.timings.get("race-1")!.sync.state.boot}:1`, "keypad-0001"]);
    const status = boxStatus(box);
    expect(status.races).toEqual([
      { id: "race-1", name: "Box Classic", stored: 2, synced: 2, queued: 0, lastSync: expect.any(Number), error: null },
      { id: "race-2", name: "Box Pursuit", stored: 1, synced: 0, queued: 1, lastSync: null, error: "404 not_found: No such race" },
    ]);
    const page = renderPage(status, [], [], null, { urls: [], code: "123456", clients: [] });
    expect(page).toContain("Up to date");
    expect(page).toContain("Sync stopped: 404 not_found: No such race");
  });

  it("keeps the races the timer chose, and reads a box.json of one race (before several) as that race", async () => {
    const { box, dir } = pairedBox();
    box.store.saveIdentity({ ...box.identity, raceId: "race-1", raceIds: [] });
    await box.stop();
    boxes.pop();
    const { box: again } = pairedBox(dir);
    expect(again.identity).toMatchObject({ raceId: null, raceIds: ["race-1"] });
    again.store.saveSetup(pursuit.race.id, pursuit);
    // Offline: the kept setup serves.
    again.cloud.race = async () => ({ kind: "network", message: "ECONNREFUSED" });
    expect(await again.takeRace("race-2")).toEqual({ ok: true });
    expect(again.identity.raceIds).toEqual(["race-1", "race-2"]);
    expect(await again.dropRace("race-2")).toBe(true);
    expect(again.identity.raceIds).toEqual(["race-1"]);
    expect(again.timings.has("race-2")).toBe(false);
  });
});

describe("a box restarted offline", () => {
  it("times again, from its store, the races it was timing, with their keypad entries", async () => {
    const { box, dir } = pairedBox();
    box.identity = { ...box.identity, token: null };
    box.store.saveSetup(pkg.race.id, pkg);
    expect(await box.openRace(pkg.race.id)).toBe(true);
    expect(box.take("race-1", "manual", null, { entries: [{ kind: "status", key: "keypad-0007", bib: 3, status: "dns" }] })).toMatchObject({ ok: true });
    await box.stop();
    boxes.pop();
    const { box: again } = pairedBox(dir);
    expect(again.identity.raceIds).toEqual(["race-1"]);
    expect(await again.openRace("race-1")).toBe(true);
    expect(again.timings.get("race-1")!.race.racerResults()[2]).toMatchObject({ id: "r3", status: "dns" });
  });
});

describe("a box's web keypads and its heartbeat (decision 0084)", () => {
  it("reports its paired keypads and unpairs one the club revoked", async () => {
    const { box } = pairedBox();
    const finish = box.webClients.pair(box.webClients.code, "Finish phone");
    const range = box.webClients.pair(box.webClients.code, "Range tablet");
    if (!finish.ok || !range.ok) throw new Error("both should pair");
    const sent: unknown[] = [];
    box.cloud.heartbeat = (webclients) => {
      sent.push(webclients);
      return Promise.resolve({
        kind: "ok",
        status: 200,
        body: { server_id: "x", club_id: "c", name: "Stadium box", time: 0, revoked_webclients: sent.length === 1 ? [finish.client.id] : [] },
      });
    };
    box.cloud.races = () => Promise.resolve({ kind: "ok", status: 200, body: { races: [] } });
    box.startHeartbeat(5);
    await until(() => sent.length >= 2);
    expect(sent[0]).toEqual([
      { id: finish.client.id, name: "Finish phone", last_seen: null },
      { id: range.client.id, name: "Range tablet", last_seen: null },
    ]);
    expect(box.webClients.verify(finish.token)).toBeNull();
    expect(box.webClients.verify(range.token)?.name).toBe("Range tablet");
    expect(sent[1]).toEqual([{ id: range.client.id, name: "Range tablet", last_seen: null }]);
  });
});
