import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { RaceRoom } from "../../durable/race-room";
import { SpectatorShard } from "../../durable/spectator-shard";
import { unpackFrame } from "../../schema/wire/race-frame-pack";
import { raceServerMessageSchema, type RaceServerMessage } from "../../schema/wire/race-socket";
import { db, worker } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";

export const SECOND = 1_000_000;

/**
 * A race timed by one chip reader: a start line and a finish line (the reader's channels 1 and 2), one
 * course, a public result format listing everyone, and `racers` racers with bibs 1.. and chips C1...
 */
export async function createTimedRace(options: TimedRoomOptions = {}) {
  const host = `timing-${crypto.randomUUID().slice(0, 8)}.example.org`;
  const { race, club, site } = await createSiteWithRace(db(), { hostname: host, siteName: "Timing Test", raceName: "Timed Race", startInDays: 0 });
  return { host, race, club, site, ...(await setUpTimedRoom(race, options)) };
}

interface TimedRoomOptions {
  racers?: number;
  mode?: "p2p" | "lap" | "timelimit";
  lapCount?: number;
  offset?: number;
  /** "First Last" of racer 1, 2 …; "Racer1 Test1" … when not given. */
  names?: readonly string[];
}

/** The timing setup of createTimedRace in the room of a race already in the catalogue. */
export async function setUpTimedRoom(
  race: { id: string; clubId: string; name: string; startTime: number; timezone: string; siteId: string | null },
  options: TimedRoomOptions = {},
) {
  const room = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(race.id));
  await room.open({ id: race.id, clubId: race.clubId, name: race.name, startTime: race.startTime, timezone: race.timezone, siteId: race.siteId });
  const settings = await room.updateSettings({ timing_mode: options.mode ?? "p2p", lap_count: options.lapCount ?? 1, precision: 1, calc_precision: 1 });
  expect(settings.ok).toBe(true);
  const device = ok(await room.saveDocument("TimingDevice", null, { type: "impinj", name: "Finish reader", offset: options.offset ?? 0 }));
  const credential = (await room.issueDeviceCredential(device.id))!;
  const start = ok(await room.saveDocument("TimingPoint", null, { name: "Start", devices_list: [{ id: device.id, mode: "timing", channel: 1 }] }));
  const finish = ok(await room.saveDocument("TimingPoint", null, { name: "Finish", devices_list: [{ id: device.id, mode: "timing", channel: 2 }] }));
  const course = ok(
    await room.saveDocument("Course", null, {
      name: "10 km",
      points_list: [
        { id: "p-start", point: start.id, mode: "start", name: "Start" },
        { id: "p-finish", point: finish.id, mode: "lap", name: "Finish" },
      ],
    }),
  );
  const format = ok(await room.saveDocument("ResultFormat", null, { name: "Results", is_public: true }));
  const racerIds: string[] = [];
  const count = options.names?.length ?? options.racers ?? 3;
  for (let i = 1; i <= count; i++) {
    const [first, last] = options.names?.[i - 1]?.split(" ") ?? [`Racer${i}`, `Test${i}`];
    racerIds.push(ok(await room.saveRacer(null, { first_name: first, last_name: last, bib: i, chip: `C${i}`, course: course.id })).id);
  }
  const startMicros = race.startTime * 1000;
  // Tests start from a quiet room: the setup above is published, so a page rendered now is current.
  await room.flushLive();
  return { room, device, credential, start, finish, course, format, racerIds, startMicros };
}

/** The racer form as the page sends it for racer `i` of setUpTimedRoom, with some fields changed. */
export function racerForm(t: { course: { id: string } }, i: number, changes: Record<string, string> = {}) {
  return {
    intent: "save",
    first_name: `Racer${i}`,
    last_name: `Test${i}`,
    bib: String(i),
    chip: `C${i}`,
    chip_list: "",
    course: t.course.id,
    status: "ok",
    status_time: "",
    ...changes,
  };
}

/** A saved document's id (RPC stubs lose the document's type, and the tests need only the id). */
function ok(result: { ok: boolean; value?: unknown; errors?: Record<string, string> }): { id: string } {
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value as { id: string };
}

/** Posts a batch of reads as a device would. */
export function postReads(host: string, raceId: string, credential: string | null, body: unknown, endpoint: "reads" | "range" = "reads") {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (credential) headers.Authorization = `Bearer ${credential}`;
  return worker.fetch(hostRequest(host, `/timing-api/races/${raceId}/${endpoint}`, { method: "POST", headers, body: JSON.stringify(body) }));
}

/** Opens a race socket through the Worker (following a result format when given) and collects its frames. */
export async function openRaceSocket(
  host: string,
  raceId: string,
  options: { formatId?: string; since?: string; heats?: boolean; window?: boolean; announcer?: boolean; patch?: boolean; cookie?: string } = {},
) {
  const params = new URLSearchParams();
  if (options.patch) params.set("patch", "1");
  if (options.heats) params.set("heats", "1");
  if (options.announcer) params.set("announcer", "1");
  if (options.window) params.set("window", "1");
  if (options.formatId) params.set("format", options.formatId);
  if (options.since) params.set("since", options.since);
  const query = params.size > 0 ? `?${params.toString()}` : "";
  const headers: Record<string, string> = { Upgrade: "websocket", ...(options.cookie ? { Cookie: options.cookie } : {}) };
  const response = await worker.fetch(hostRequest(host, `/timing-api/races/${raceId}/socket${query}`, { headers }));
  expect(response.status).toBe(101);
  const socket = response.webSocket!;
  const frames: RaceServerMessage[] = [];
  const received: RaceServerMessage[] = [];
  const waiters: (() => void)[] = [];
  // Large frames come deflated (race-frame-pack.ts); one chain keeps them in the order they were sent.
  let inOrder: Promise<void> = Promise.resolve();
  /** How each received frame travelled, in order: as text, or deflated in a binary message. */
  const carried: ("text" | "binary")[] = [];
  /** A frame that did not parse: the waits below fail with it rather than hang. */
  let unreadable: unknown = null;
  socket.addEventListener("message", (event) => {
    const data: unknown = event.data;
    inOrder = inOrder
      .then(async () => {
        const frame = raceServerMessageSchema.parse(JSON.parse((await unpackFrame(data)) ?? "not a frame"));
        frames.push(frame);
        received.push(frame);
        carried.push(typeof data === "string" ? "text" : "binary");
      })
      .catch((error: unknown) => void (unreadable ??= error))
      .finally(() => waiters.splice(0).forEach((wake) => wake()));
  });
  socket.accept();
  const wait = () => new Promise<void>((resolve) => waiters.push(resolve));
  /** The next frame of a type not taken yet. */
  const next = async <T extends RaceServerMessage["type"]>(type: T): Promise<Extract<RaceServerMessage, { type: T }>> => {
    for (;;) {
      const index = frames.findIndex((f) => f.type === type);
      if (index >= 0) return frames.splice(index, 1)[0] as Extract<RaceServerMessage, { type: T }>;
      if (unreadable) throw unreadable;
      await wait();
    }
  };
  /** The count-th frame received (1-based), for tests of message order. */
  const nth = async (count: number): Promise<RaceServerMessage> => {
    while (received.length < count) {
      if (unreadable) throw unreadable;
      await wait();
    }
    return received[count - 1]!;
  };
  return { socket, frames, next, nth, received, carried };
}

/** A spectator following a result format. */
export function openResultsSocket(host: string, raceId: string, formatId: string, since?: string) {
  return openRaceSocket(host, raceId, { formatId, since });
}

/**
 * The race room loses everything it held in memory, and any tick it had waiting, as an evicted object does.
 * The pinned vitest pool has no evictDurableObject, so the object's memory is replaced by a fresh instance
 * built over the same storage (its sockets stay, as hibernated sockets do).
 */
export async function evictRoom(room: DurableObjectStub<RaceRoom>): Promise<void> {
  await runInDurableObject(room, (instance: RaceRoom, state) => {
    (instance as unknown as { feed: { forget(): void } }).feed.forget();
    Object.assign(instance, new RaceRoom(state, env));
  });
}

/**
 * Counts the room's report reads (each slice of the field the reports read) from now on, until the room is
 * evicted; `reads()` says how many so far.
 */
export async function countReportReads(room: DurableObjectStub<RaceRoom>, counter = { n: 0 }): Promise<{ reads: () => number }> {
  await runInDurableObject(room, (instance: RaceRoom) => {
    const views = (instance as unknown as { views: { reportRacerSlice: (...args: unknown[]) => unknown } }).views;
    const read = views.reportRacerSlice.bind(views);
    views.reportRacerSlice = (...args: unknown[]) => {
      counter.n += 1;
      return read(...args);
    };
  });
  return { reads: () => counter.n };
}

/** A spectator shard loses its memory (cached formats and versions), keeping its sockets and storage. */
export async function evictShard(raceId: string, index: number): Promise<void> {
  const stub = env.SPECTATOR_SHARD.get(env.SPECTATOR_SHARD.idFromName(`${raceId}:${index}`));
  await runInDurableObject(stub, (instance: SpectatorShard, state) => {
    Object.assign(instance, new SpectatorShard(state, env));
  });
}
