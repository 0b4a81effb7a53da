/**
 * The announcer screen (decision 0045): a precall read lists the racer, across an eviction of the race room,
 * until they finish and move to the latest finishers; the screen's socket is told of both; and it is race
 * staff's only, 404 to anyone else as system formats are.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RaceRoom } from "../../durable/race-room";
import type { AnnouncerView } from "../../schema/wire/announcer-view";
import { createUserWithPassword, signIn, worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";
import { createTimedRace, evictRoom, openRaceSocket, postReads, SECOND } from "./timing-fixtures";
import { everyRacer } from "../../workers/services/race-racers";

const HOST = "localhost";
const PASSWORD = "precall-300-metres";

type TimedRace = Awaited<ReturnType<typeof createTimedRace>>;

/** The race's announcer format and a precall reader on a timing point of its own (on no course). */
async function withAnnouncer(t: TimedRace) {
  const saved = <T>(result: { ok: boolean; value?: unknown }) => {
    expect(result.ok).toBe(true);
    return result.value as T & { id: string };
  };
  const format = saved(await t.room.saveDocument("ResultFormat", null, { name: "Announcer", is_announcer: true }));
  const reader = saved(await t.room.saveDocument("TimingDevice", null, { type: "impinj", name: "Precall reader" }));
  saved(await t.room.saveDocument("TimingPoint", null, { name: "Precall 300 m", devices_list: [{ id: reader.id, mode: "precall" }] }));
  const credential = (await t.room.issueDeviceCredential(reader.id))!;
  await t.room.flushLive();
  return { formatId: format.id, precallToken: credential.token };
}

async function signedIn(roles: { type: string; scope: string }[]) {
  const email = `announcer-${crypto.randomUUID().slice(0, 8)}@example.com`;
  await createUserWithPassword(email, PASSWORD, roles);
  return signIn(HOST, email, PASSWORD);
}

function get(path: string, cookie?: string) {
  return worker.fetch(hostRequest(HOST, path, { headers: cookie ? { Cookie: cookie } : {} }));
}

async function viewOf(raceId: string, formatId: string, cookie: string): Promise<AnnouncerView> {
  const response = await get(`/races/${raceId}/announcer.json?format=${formatId}`, cookie);
  expect(response.status).toBe(200);
  expect(response.headers.get("Cache-Control")).toContain("no-store");
  return response.json<AnnouncerView>();
}

const at = (t: TimedRace, seconds: number) => t.startMicros + seconds * SECOND;
const finish = (t: TimedRace, seq: number, chip: string, seconds: number) => ({ seq, chip, time: at(t, seconds), channel: 2 });

describe("the announcer screen", () => {
  it("lists a precall across an eviction, and moves the racer to the latest finishers when they finish", async () => {
    const t = await createTimedRace({ racers: 3 });
    const { formatId, precallToken } = await withAnnouncer(t);
    const cookie = await signedIn([{ type: "race_announcer", scope: t.race.id }]);
    const screen = await openRaceSocket(HOST, t.race.id, { announcer: true, cookie });
    await screen.next("hello");

    // Racer 1 went from the precall to the line in 30 s; racer 2 passes the precall (read twice) at 60 s.
    expect((await postReads(t.host, t.race.id, precallToken, { reads: [{ seq: 1, chip: "C1", time: at(t, 50) }] })).status).toBe(200);
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finish(t, 1, "C1", 80)] });
    const reply = await postReads(t.host, t.race.id, precallToken, {
      reads: [
        { seq: 2, chip: "C2", time: at(t, 60) },
        { seq: 3, chip: "C2", time: at(t, 60.4) },
      ],
    });
    // Announcer reads that found their racer are not "unassigned".
    expect(await reply.json()).toMatchObject({ accepted: 2, unassigned: 0 });
    await screen.next("announcer");

    await evictRoom(t.room);
    const before = await viewOf(t.race.id, formatId, cookie);
    expect(before.precallPoints).toEqual(["Precall 300 m"]);
    expect(before.precall.map((p) => [p.bib, p.point, p.next, p.time, p.expectedAt, p.typical])).toEqual([
      [2, "Precall 300 m", "Finish", at(t, 60), at(t, 90), { duration: 30 * SECOND, samples: 1 }],
    ]);
    const page = await get(`/races/${t.race.id}/announcer`, cookie);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/class="announcer-row precall-row" data-bib="2"/);

    await postReads(t.host, t.race.id, t.credential.token, { reads: [finish(t, 2, "C2", 95)] });
    await screen.next("announcer");
    await evictRoom(t.room);
    const after = await viewOf(t.race.id, formatId, cookie);
    expect(after.precall).toEqual([]);
    expect(after.latest.map((f) => [f.bib, f.rank, f.time])).toEqual([
      [2, 2, 95 * SECOND],
      [1, 1, 80 * SECOND],
    ]);
    expect(after.leaders.map((c) => [c.bib, c.at, c.previous])).toEqual([[1, "Finish", null]]);
    screen.socket.close(1000);
  });

  it("tells the screen of a precall written just before the room was evicted, when it wakes", async () => {
    const t = await createTimedRace({ racers: 2 });
    const { formatId, precallToken } = await withAnnouncer(t);
    const cookie = await signedIn([{ type: "race_timer", scope: t.race.id }]);
    const screen = await openRaceSocket(HOST, t.race.id, { announcer: true, cookie });
    await screen.next("hello");
    // Written, then evicted before its tick: only storage knows of it.
    await runInDurableObject(t.room, async (instance: RaceRoom, state) => {
      expect((await instance.ingest(precallToken, { reads: [{ seq: 1, chip: "C1", time: at(t, 40) }] })).ok).toBe(true);
      (instance as unknown as { feed: { forget(): void } }).feed.forget();
      Object.assign(instance, new RaceRoom(state, env));
    });
    expect(await runDurableObjectAlarm(t.room)).toBe(true);
    await screen.next("announcer");
    expect((await viewOf(t.race.id, formatId, cookie)).precall.map((p) => p.bib)).toEqual([1]);
    screen.socket.close(1000);
  });

  it("gives a precall read of an unknown chip to the racer given it later, and it stays a precall when they lose it", async () => {
    const t = await createTimedRace({ racers: 1 });
    const { formatId, precallToken } = await withAnnouncer(t);
    const cookie = await signedIn([{ type: "race_announcer", scope: t.race.id }]);
    const reply = await postReads(t.host, t.race.id, precallToken, { reads: [{ seq: 1, chip: "LATE", time: at(t, 30) }] });
    expect(await reply.json()).toMatchObject({ accepted: 1, unassigned: 1 });
    const saved = await t.room.saveRacer(null, { first_name: "Late", last_name: "Entry", bib: 9, chip: "LATE", course: t.course.id });
    expect(saved.ok).toBe(true);
    const racerId = (saved as { value: { id: string } }).value.id;
    expect((await viewOf(t.race.id, formatId, cookie)).precall.map((p) => p.bib)).toEqual([9]);
    expect((await t.room.racerCrossings(racerId)).map((c) => c.state)).toEqual(["info"]);
    // A precall times nobody: the racer has no split from it.
    expect((await everyRacer(t.room)).find((r) => r.id === racerId)?.time).toBeNull();

    expect((await t.room.saveRacer(racerId, { chip: "OTHER" })).ok).toBe(true);
    expect(await t.room.racerCrossings(racerId)).toEqual([]);
    expect((await t.room.recentCrossings(5)).map((c) => [c.chip, c.state, c.racer_id])).toContainEqual(["LATE", "info", null]);
  });

  it("is 404 to visitors and to people without a role on this race, on the page, its JSON and the socket", async () => {
    const t = await createTimedRace({ racers: 1 });
    const { formatId } = await withAnnouncer(t);
    const paths = [
      `/races/${t.race.id}/announcer`,
      `/races/${t.race.id}/announcer?format=${formatId}`,
      `/races/${t.race.id}/announcer.json?format=${formatId}`,
    ];
    const noRole = await signedIn([]);
    const otherRace = await signedIn([{ type: "race_announcer", scope: crypto.randomUUID() }]);
    for (const cookie of [undefined, noRole, otherRace]) {
      for (const path of paths) expect((await get(path, cookie)).status, path).toBe(404);
      const socket = await worker.fetch(
        hostRequest(HOST, `/timing-api/races/${t.race.id}/socket?announcer=1`, { headers: { Upgrade: "websocket", ...(cookie ? { Cookie: cookie } : {}) } }),
      );
      expect(socket.status).toBe(404);
    }
    // Staff see it; a format that is not an announcer format is not an announcer screen.
    const staff = await signedIn([{ type: "race_announcer", scope: t.race.id }]);
    for (const path of paths) expect((await get(path, staff)).status, path).toBe(200);
    expect((await get(`/races/${t.race.id}/announcer?format=${t.format.id}`, staff)).status).toBe(404);
  });

  it("tells staff of a race with no announcer format how to make one", async () => {
    const t = await createTimedRace({ racers: 1 });
    const admin = await signedIn([{ type: "race_admin", scope: t.race.id }]);
    const page = await get(`/races/${t.race.id}/announcer`, admin);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("This race has no announcer format yet");
    expect((await get(`/races/${t.race.id}/announcer.json`, admin)).status).toBe(404);
  });
});
