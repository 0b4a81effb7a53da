/**
 * Local development only (`ENVIRONMENT=development`): gives the demo race its timing setup (two chip
 * readers, a three-lap course, a precall reader before the stadium, result formats with an announcer one,
 * 60 racers) and, for `npm run simulate`, restarts it now and hands out fresh device credentials. Production
 * answers 404.
 */
import * as z from "zod";
import type { StoredDocument } from "../../schema/race/documents";
import { json } from "../http";
import type { RequestContext } from "../request-context";
import { getRaceCatalogue, roomOf, roomStub } from "../services/race-access";
import { everyRacer } from "../services/race-racers";

export const DEMO_RACE_ID = "a5b6c7d8-4f1c-4a9b-8e85-5c6d7e8f9a01";
export const DEMO_RACERS = 60;

const FIRST = [
  "Anna",
  "Ben",
  "Chloé",
  "David",
  "Emma",
  "Félix",
  "Grace",
  "Hugo",
  "Inès",
  "Jonas",
  "Kaia",
  "Liam",
  "Maëlle",
  "Noah",
  "Olivia",
  "Pierre",
  "Quinn",
  "Rosa",
  "Sami",
  "Tove",
];
const LAST = [
  "Berg",
  "Côté",
  "Dubois",
  "Eriksen",
  "Fraser",
  "Gagnon",
  "Hansen",
  "Isaksen",
  "Johansson",
  "Klein",
  "Lavoie",
  "Moreau",
  "Nilsen",
  "Olsen",
  "Pelletier",
  "Roy",
  "Strand",
  "Tremblay",
  "Vik",
  "Wong",
];
const CLUBS = ["Nordic Demo Club", "Gatineau Loppet XC", "Ottawa Nordic", "Chelsea Nordiq"];

/**
 * `racers` grows the field for benchmarks (bibs continue from the demo's); `finishReaders` adds readers at
 * the stadium, each its own device with its own credential (benchmarks post from several at once).
 */
const bodySchema = z
  .object({
    restart: z.boolean().default(false),
    racers: z.number().int().min(1).max(60_000).optional(),
    /** The racers `racers` adds go in one start group, "Wave 1" (a marathon's one wave), to try the pages that group by it. */
    wave: z.boolean().default(false),
    /** Makes the start list public, so the crowd's view of it (edge-cached, decision 0098) can be tried without signing in. */
    publicStartList: z.boolean().default(false),
    finishReaders: z.number().int().min(1).max(8).optional(),
    /** Resets the race room as an eviction does (its memory gone, its storage kept), to try the live path across one. */
    evict: z.boolean().default(false),
    /** `npm start` only sets up: a simulator running across a server restart keeps its device credentials. */
    credentials: z.boolean().default(true),
  })
  .strict();

export async function handleDevDemoRace(request: Request, context: RequestContext): Promise<Response> {
  if (context.env.ENVIRONMENT !== "development") return json({ error: "not_found" }, { status: 404 });
  if (request.method !== "POST") return json({ error: "method_not_allowed" }, { status: 405, headers: { Allow: "POST" } });
  const body = bodySchema.safeParse(await request.json().catch(() => ({})));
  if (!body.success) return json({ error: "invalid_request", message: body.error.message }, { status: 400 });
  const race = await getRaceCatalogue(context.db, context.tenant, DEMO_RACE_ID);
  if (!race) return json({ error: "not_found", message: "The demo race is not seeded; run npm start first" }, { status: 404 });
  const room = await roomOf(context.env, race);
  if (body.data.evict) {
    const before = (await room.liveState()).instance;
    // The reset breaks the call that asked for it; the next call builds a fresh object from storage.
    await room.evict().catch(() => undefined);
    // A stub whose object was reset is broken for good: ask through a new one.
    return json({ evicted: true, before, after: (await roomStub(context.env, race.id).liveState()).instance });
  }
  if ((await room.documents("Course")).length === 0) await createDemoSetup(room);
  await ensurePrecall(room);
  if (body.data.racers) await growField(room, body.data.racers, body.data.wave);
  if (body.data.finishReaders) await addFinishReaders(room, body.data.finishReaders);
  if (body.data.publicStartList) await room.updateSettings({ start_list_visibility: "public" });
  const devices = await room.documents("TimingDevice");
  if (body.data.restart) {
    // Ten seconds from now, so the simulator's first reads come after the gun.
    const startTime = Date.now() + 10_000;
    const current = await room.raceEntity();
    await room.changeRace({ start_time: startTime, end_time: startTime + 3 * 60 * 60 * 1000 }, current?.mtimes ?? null);
    await room.clearAllTimes();
    // A restart is a fresh race: statuses set by a keypad or by hand (a DNF) go with the times.
    for (const racer of await everyRacer(room)) {
      const { dns, dnf_time, dsq_time, run_statuses } = racer.data;
      if (dns || dnf_time !== null || dsq_time !== null || run_statuses.length > 0)
        await room.saveRacer(racer.id, { dns: false, dnf_time: null, dsq_time: null, run_statuses: [] });
    }
  }
  const tokens: string[] = [];
  for (const device of devices) tokens.push(body.data.credentials ? ((await room.issueDeviceCredential(device.id))?.token ?? "") : "");
  const racers = await room.racerTags();
  const entity = await room.raceEntity();
  const formats = (await room.formats()).map((f) => ({ id: f.id, name: f.data.name }));
  return json({
    raceId: race.id,
    startTime: entity?.row.start_time,
    devices: devices.map((d, i) => ({ id: d.id, name: d.data.name, token: tokens[i] })),
    formats,
    racers,
  });
}

type Room = Awaited<ReturnType<typeof roomOf>>;

function id(result: { ok: boolean; value?: unknown; errors?: Record<string, string> }): string {
  if (!result.ok) throw new Error(`demo setup refused: ${JSON.stringify(result.errors)}`);
  return (result.value as { id: string }).id;
}

async function createDemoSetup(room: Room): Promise<void> {
  await room.updateSettings({ timing_mode: "lap", lap_count: 3, start_mode: "mass", precision: 1, calc_precision: 1 });
  const finishReader = id(await room.saveDocument("TimingDevice", null, { type: "impinj", name: "Finish reader", device_number: 1 }));
  const hillReader = id(await room.saveDocument("TimingDevice", null, { type: "impinj", name: "Hill reader", device_number: 2 }));
  const finish = id(await room.saveDocument("TimingPoint", null, { name: "Stadium", devices_list: [{ id: finishReader, mode: "timing" }] }));
  const hill = id(await room.saveDocument("TimingPoint", null, { name: "Top of the hill", devices_list: [{ id: hillReader, mode: "timing" }] }));
  const course = id(
    await room.saveDocument("Course", null, {
      name: "10 km (3 laps)",
      lap_count: 3,
      lap_distance_km: 3.3,
      points_list: [
        { id: "hill", point: hill, mode: "split", name: "Hill", min_split: 10_000_000 },
        { id: "lap", point: finish, mode: "lap", name: "Lap", min_split: 10_000_000 },
      ],
    }),
  );
  await room.saveDocument("ResultFormat", null, { name: "Results", is_public: true, group_type: "all" });
  await room.saveDocument("ResultFormat", null, { name: "Women and men", is_public: true, group_type: "field", group_field: "sex" });
  await room.saveDocument("ResultFormat", null, { name: "Announcer", is_announcer: true });
  await addRacers(room, course, 0, DEMO_RACERS);
}

/** The precall reader, 300 m before the stadium (decision 0045), added to a demo race set up before it existed. */
async function ensurePrecall(room: Room): Promise<void> {
  const devices = await room.documents("TimingDevice");
  if (devices.some((d) => d.data.name === PRECALL_READER)) return;
  const reader = id(await room.saveDocument("TimingDevice", null, { type: "impinj", name: PRECALL_READER, device_number: 3 }));
  await room.saveDocument("TimingPoint", null, { name: "Precall 300 m", devices_list: [{ id: reader, mode: "precall" }] });
}

export const PRECALL_READER = "Precall reader";

function demoRacer(i: number, course: string) {
  return {
    first_name: FIRST[i % FIRST.length],
    last_name: LAST[(i * 7 + Math.floor(i / FIRST.length)) % LAST.length],
    bib: 101 + i,
    chip: `E200${String(101 + i).padStart(6, "0")}`,
    sex: i % 2 === 0 ? "F" : "M",
    club: CLUBS[i % CLUBS.length],
    course,
  };
}

async function addRacers(room: Room, course: string, from: number, to: number): Promise<void> {
  await addRacerRows(
    room,
    Array.from({ length: to - from }, (_, k) => demoRacer(from + k, course)),
  );
}

async function addRacerRows(room: Room, rows: Record<string, unknown>[]): Promise<void> {
  // In slices, so one RPC never carries megabytes.
  for (let start = 0; start < rows.length; start += 2000) {
    const imported = await room.importRacers(rows.slice(start, start + 2000));
    if (!imported.ok) throw new Error(`demo racers refused: ${JSON.stringify(imported.rows.slice(0, 3))}`);
  }
}

/** The demo field of `total` racers (bibs 101 on): those missing are added, a deleted one again too, so no bib is given twice. */
async function growField(room: Room, total: number, wave: boolean): Promise<void> {
  const { racers } = await room.counts();
  const course = (await room.documents("Course"))[0];
  if (!course || racers >= total) return;
  const taken = racers === 0 ? new Set<number>() : new Set((await room.racerTags()).map((r) => r.bib));
  const missing = Array.from({ length: total }, (_, i) => i).filter((i) => !taken.has(101 + i));
  const group = wave ? await waveOne(room) : null;
  await addRacerRows(
    room,
    missing.map((i) => ({ ...demoRacer(i, course.id), ...(group ? { setupgroup_id: group } : {}) })),
  );
}

/** The start group "Wave 1", made the first time it is asked for. */
async function waveOne(room: Room): Promise<string> {
  const existing = (await room.documents("StartGroup")).find((g) => (g.data as { name?: string }).name === "Wave 1");
  return existing?.id ?? id(await room.saveDocument("StartGroup", null, { name: "Wave 1" }));
}

/** Readers 2..n at the stadium ("Finish reader 2", ...), each listed on its timing point. */
async function addFinishReaders(room: Room, total: number): Promise<void> {
  const devices = await room.documents("TimingDevice");
  // RPC stubs lose the document kind's type.
  const stadium = ((await room.documents("TimingPoint")) as unknown as StoredDocument<"TimingPoint">[]).find((p) => p.data.name === "Stadium");
  if (!stadium) return;
  const listed = [...stadium.data.devices_list];
  for (let n = 2; n <= total; n++) {
    const name = `Finish reader ${n}`;
    if (devices.some((d) => d.data.name === name)) continue;
    listed.push({
      id: id(await room.saveDocument("TimingDevice", null, { type: "impinj", name, device_number: 10 + n })),
      mode: "timing",
      channel: null,
      accuracy: null,
      tested_time: null,
    });
  }
  if (listed.length !== stadium.data.devices_list.length) await room.saveDocument("TimingPoint", stadium.id, { devices_list: listed });
}
