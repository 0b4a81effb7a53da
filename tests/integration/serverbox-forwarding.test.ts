/**
 * What a serverbox forwards beyond reads (decision 0067): its keypads' entries (`/manual`, under their own
 * keys) and its range device's misses (`/range`, under the device's seq), with its token, counted once when
 * sent again; refused for another club's race, a revoked box and garbage. And the pairing poll rule
 * (issue 29): the service answers what core/servers/pairing.ts's pollOutcome says, for every case.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { pollOutcome } from "../../core/servers/pairing";
import { serverboxAuthRequests, serverboxes } from "../../schema/d1";
import { createUserWithPassword, db, pageGet, pagePost, signIn, worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";
import { createTimedRace } from "./timing-fixtures";

const PASSWORD = "serverbox-forward-42";

async function pairedClub() {
  const timed = await createTimedRace();
  const email = `fwd-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const admin = await createUserWithPassword(email, PASSWORD, [{ type: "org_admin", clubId: timed.club.id }]);
  const cookie = await signIn("localhost", email, PASSWORD);
  const started = await startPairing();
  expect(
    (await pagePost("localhost", `/club/${timed.club.id}/servers/pair`, { intent: "approve", request: started.request_id, club: timed.club.id }, cookie))
      .status,
  ).toBe(302);
  const token = (await poll(started.device_code)).body;
  return {
    ...timed,
    cookie,
    adminId: admin.id,
    adminName: `User ${email.split("@")[0]}`,
    token: token.server_token as string,
    serverId: token.server_id as string,
  };
}

function boxApi(path: string, body?: unknown, token?: string) {
  return worker.fetch(
    hostRequest("localhost", `/serverbox-api${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}

async function startPairing() {
  const response = await boxApi("/pair", { serial: `SB-${crypto.randomUUID().slice(0, 6)}`, name: "Stadium box" });
  expect(response.status).toBe(200);
  return (await response.json()) as { request_id: string; device_code: string };
}

const poll = async (deviceCode: string) => {
  const response = await boxApi("/token", { device_code: deviceCode });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

function forward(host: string, raceId: string, endpoint: "manual" | "range", token: string | null, body: unknown, device?: string) {
  return worker.fetch(
    hostRequest(host, `/timing-api/races/${raceId}/${endpoint}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(device ? { "Timing-Device": device } : {}),
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

interface PackageRacer {
  id: string;
  status: string;
  time: number | null;
}

async function platformRacers(raceId: string, token: string) {
  const body = (await (await boxApi(`/races/${raceId}`, undefined, token)).json()) as {
    racers: PackageRacer[];
    results_setup: { racers: { id: string; data: Record<string, unknown> }[] };
  };
  return body;
}

describe("a serverbox forwarding keypad entries and range data", () => {
  it("posts its keypads' entries under their keys, counted once when sent again, and the race's results take them", async () => {
    const setup = await pairedClub();
    const entries = {
      entries: [
        { kind: "time", key: "box-keypad-0001", bib: 1, point: setup.start.id, time: setup.startMicros },
        { kind: "time", key: "box-keypad-0002", bib: 1, point: setup.finish.id, time: setup.startMicros + 95_000_000 },
        { kind: "status", key: "box-keypad-0003", bib: 2, status: "dnf", time: setup.startMicros + 30_000_000 },
      ],
    };
    const sent = await forward(setup.host, setup.race.id, "manual", setup.token, entries);
    expect(sent.status).toBe(200);
    expect(await sent.json()).toEqual({ accepted: 3, duplicates: 0, unknown_bibs: [] });
    // A batch retried after a lost answer: nothing twice.
    expect(await (await forward(setup.host, setup.race.id, "manual", setup.token, entries)).json()).toEqual({ accepted: 0, duplicates: 3, unknown_bibs: [] });
    const { racers } = await platformRacers(setup.race.id, setup.token);
    const byId = Object.fromEntries(racers.map((r) => [r.id, r]));
    expect(byId[setup.racerIds[0]!]).toMatchObject({ status: "finished", time: 95_000_000 });
    expect(byId[setup.racerIds[1]!]).toMatchObject({ status: "dnf" });
  });

  it("names who keyed each entry on the Keyed entries page: a timer, the box, and the box's phone by the name the box reported", async () => {
    const setup = await pairedClub();
    // The box's heartbeat lists its paired phone, as the club's Servers page shows it.
    const [phone, unreported] = [crypto.randomUUID(), crypto.randomUUID()];
    expect((await boxApi("/heartbeat", { webclients: [{ id: phone, name: "Finish phone", last_seen: null }] }, setup.token)).status).toBe(200);
    const entries = {
      entries: [
        { kind: "time", key: "keyed-by-phone-1", keypad: phone, bib: 1, point: setup.finish.id, time: setup.startMicros + 95_000_000 },
        { kind: "status", key: "keyed-by-box-01", bib: 2, status: "dnf", time: setup.startMicros + 30_000_000 },
        { kind: "time", key: "keyed-by-phone-2", keypad: unreported, bib: 777, point: setup.finish.id, time: setup.startMicros + 96_000_000 },
      ],
    };
    expect((await forward(setup.host, setup.race.id, "manual", setup.token, entries)).status).toBe(200);
    expect(await (await forward(setup.host, setup.race.id, "manual", setup.token, entries)).json()).toMatchObject({ accepted: 0, duplicates: 3 });
    // The keypad page's own form, as the signed-in timer.
    const page = `/race/${setup.race.id}/admin/keypad`;
    const keyed = await pagePost("localhost", page, { intent: "range", key: "keyed-on-page-1", bib: "1", shooting: "1", misses: "2" }, setup.cookie);
    expect(keyed.status).toBe(200);
    // A signed-in caller cannot pass an entry off as a box's phone: the phone is taken only from a box.
    expect(
      await setup.room.manualEntries(setup.adminId, { entries: [{ kind: "status", key: "claims-phone-1", keypad: phone, bib: 3, status: "dns" }] }),
    ).toMatchObject({
      ok: true,
    });

    // The time of day in the race's zone, to the tenth.
    const zone = new Intl.DateTimeFormat("en-GB", { timeZone: setup.race.timezone, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
    const clock = (micros: number) => `${zone.format(Math.floor(micros / 1000))}.${Math.floor((micros % 1_000_000) / 100_000)}`;
    const listed = await pageGet("localhost:8787", `/race/${setup.race.id}/admin/entries`, setup.cookie);
    expect(listed.status).toBe(200);
    const html = await listed.text();
    // The racer's name leads to their page, where a wrong entry is put right.
    expect(html).toContain(`href="/race/${setup.race.id}/admin/racers/${setup.racerIds[1]}"`);
    const rows = [...html.matchAll(/<tr><td>[^<]*<\/td><td>([^<]*)<\/td><td>(.*?)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g)].map((m) => [
      m[1],
      m[2]!.replace(/<[^>]+>/g, ""),
      m[3],
      m[4],
    ]);
    // Newest first; each entry once though the box sent the batch twice.
    expect(rows).toEqual([
      ["3", "Racer3 Test3", "DNS", setup.adminName],
      ["1", "Racer1 Test1", "2 misses at shooting 1", setup.adminName],
      ["777", "No racer has bib 777", `Time at Finish: ${clock(setup.startMicros + 96_000_000)}`, "a phone via Stadium box"],
      ["2", "Racer2 Test2", "DNF", "Stadium box (serverbox)"],
      ["1", "Racer1 Test1", `Time at Finish: ${clock(setup.startMicros + 95_000_000)}`, "Finish phone via Stadium box"],
    ]);
  });

  it("posts its range device's misses under the device's seq, and only for the race's range device", async () => {
    const setup = await pairedClub();
    const pad = (await setup.room.saveDocument("TimingDevice", null, { type: "webkeypad", name: "Range keypad" })) as { ok: boolean; value?: { id: string } };
    const padId = pad.value!.id;
    expect((await setup.room.updateSettings({ timing_mode: "lap", lap_count: 2, biathlon_penalty_type: "time", biathlon_range_device: padId })).ok).toBe(true);
    const batch = { entries: [{ seq: 7, bib: 1, shooting: 1, misses: 2 }] };
    const sent = await forward(setup.host, setup.race.id, "range", setup.token, batch, padId);
    expect(sent.status).toBe(200);
    expect(await sent.json()).toEqual({ accepted: 1, duplicates: 0, unknown: [] });
    expect(await (await forward(setup.host, setup.race.id, "range", setup.token, batch, padId)).json()).toMatchObject({ accepted: 0, duplicates: 1 });
    const { results_setup } = await platformRacers(setup.race.id, setup.token);
    expect(results_setup.racers.find((r) => r.id === setup.racerIds[0])!.data.biathlon_misses).toEqual([2]);
    // The chip reader is not the range device; no device named; a device of no race.
    expect(await (await forward(setup.host, setup.race.id, "range", setup.token, batch, setup.device.id)).json()).toMatchObject({ error: "not_range_device" });
    expect((await forward(setup.host, setup.race.id, "range", setup.token, batch)).status).toBe(400);
    expect(await (await forward(setup.host, setup.race.id, "range", setup.token, batch, crypto.randomUUID())).json()).toMatchObject({
      error: "unknown_device",
    });
  });

  it("refuses another club's race, a revoked box and garbage with a 4xx", async () => {
    const setup = await pairedClub();
    const other = await createTimedRace();
    const entry = { entries: [{ kind: "time", key: "box-keypad-0009", bib: 1, point: other.finish.id, time: other.startMicros }] };
    const refused = await forward(other.host, other.race.id, "manual", setup.token, entry);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "not_club_race" });
    expect(
      (await forward(other.host, other.race.id, "range", setup.token, { entries: [{ seq: 1, bib: 1, shooting: 1, misses: 0 }] }, other.device.id)).status,
    ).toBe(403);
    // Garbage from a box: the timing API's own 4xx.
    expect((await forward(setup.host, setup.race.id, "manual", setup.token, "{not json")).status).toBe(400);
    expect(await (await forward(setup.host, setup.race.id, "manual", setup.token, { entries: [{ kind: "time", key: "x" }] })).json()).toMatchObject({
      error: "invalid_entries",
    });
    expect((await forward(setup.host, setup.race.id, "manual", "sbx_nobody.secret", entry)).status).toBe(401);
    await db().update(serverboxes).set({ isActive: false }).where(eq(serverboxes.id, setup.serverId));
    const revoked = await forward(setup.host, setup.race.id, "manual", setup.token, {
      entries: [{ kind: "status", key: "box-keypad-0010", bib: 1, status: "dns" }],
    });
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toMatchObject({ error: "invalid_server" });
    // Without a box token, the keypad endpoint still wants a signed-in timer.
    expect((await forward(setup.host, setup.race.id, "manual", null, entry)).status).toBe(401);
  });
});

describe("the pairing poll rule's one home (issue 29)", () => {
  it("answers each poll as pollOutcome says, and of two polls at once lets one pass", async () => {
    const cases: [number | null, number][] = [
      [null, 5],
      [1_000, 5],
      [7_000, 5],
      [2_000, 10],
      [12_000, 10],
      [3_000, 58],
      [3_000, 60],
      [61_000, 60],
    ];
    for (const [gap, interval] of cases) {
      const started = await startPairing();
      const lastPoll = gap === null ? null : Date.now() - gap;
      await db().update(serverboxAuthRequests).set({ lastPoll, interval }).where(eq(serverboxAuthRequests.id, started.request_id));
      const expected = pollOutcome(lastPoll, interval, Date.now());
      const answer = await poll(started.device_code);
      expect(answer.body, `gap ${gap}, interval ${interval}`).toMatchObject({
        error: expected.slowDown ? "slow_down" : "authorization_pending",
        interval: expected.interval,
      });
      const row = await db().query.serverboxAuthRequests.findFirst({ where: eq(serverboxAuthRequests.id, started.request_id) });
      expect(row!.interval).toBe(expected.interval);
    }
    const started = await startPairing();
    const both = await Promise.all([poll(started.device_code), poll(started.device_code)]);
    expect(both.map((a) => a.body.error).sort()).toEqual(["authorization_pending", "slow_down"]);
  });
});
