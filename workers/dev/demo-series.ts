/**
 * Local development only (`ENVIRONMENT=development`), for the series benchmark (bench/series-recompute.ts):
 * gives the demo club a points series of `races` races, each a one-lap mass start with the same `racers`
 * people, everyone finished (results live in each race's RaceRoom, not in D1, so /_dev/bulk-rows cannot make
 * them). `change` then moves one finisher of the first race, as a timer's correction does. Production answers 404.
 */
import * as z from "zod";
import { initialMtimes } from "../../core/entity/field-mtimes";
import { pointsSeries, races } from "../../schema/d1";
import { json } from "../http";
import type { RequestContext } from "../request-context";
import { getRaceCatalogue, roomOf } from "../services/race-access";
import { DEMO_RACE_ID } from "./demo-race";
import { everyRacer } from "../services/race-racers";

const SERIES_ID = "b5e10000-0000-4000-8000-000000000000";
const raceId = (n: number) => `b5e10000-0000-4000-8000-${String(n + 1).padStart(12, "0")}`;
const DAY_MS = 86_400_000;
const BATCH = 1000;

const bodySchema = z
  .object({
    races: z.number().int().min(1).max(20).default(20),
    racers: z.number().int().min(1).max(5000).default(5000),
    /** Moves one finisher of the first race (by `change`, a counter, so each call is a new result). */
    change: z.number().int().min(1).max(1_000_000).optional(),
  })
  .strict();

type Room = Awaited<ReturnType<typeof roomOf>>;

function ok(result: { ok: boolean; value?: unknown; errors?: Record<string, string> }): string {
  if (!result.ok) throw new Error(`series demo refused: ${JSON.stringify(result.errors)}`);
  return (result.value as { id: string }).id;
}

/** Seconds after the start racer i finishes race n: spread over an hour, a different order in each race. */
const finishSeconds = (i: number, n: number) => 1800 + ((i * 7919 + n * 104_729) % 3600) + (i % 97) / 100;

async function setUpRace(room: Room, n: number, racers: number, startMicros: number): Promise<void> {
  if ((await room.documents("Course")).length > 0) return;
  await room.updateSettings({ timing_mode: "lap", lap_count: 1, start_mode: "mass", precision: 1, calc_precision: 1 });
  const device = ok(await room.saveDocument("TimingDevice", null, { type: "impinj", name: "Finish reader", device_number: 1 }));
  const finish = ok(await room.saveDocument("TimingPoint", null, { name: "Finish", devices_list: [{ id: device, mode: "timing" }] }));
  const course = ok(
    await room.saveDocument("Course", null, { name: "10 km", lap_count: 1, points_list: [{ id: "lap", point: finish, mode: "lap", name: "Finish" }] }),
  );
  await room.saveDocument("ResultFormat", null, { name: "Women and men", is_public: true, group_type: "field", group_field: "sex" });
  for (let from = 0; from < racers; from += 2000) {
    const rows = Array.from({ length: Math.min(2000, racers - from) }, (_, k) => {
      const i = from + k;
      return { first_name: `Racer${i}`, last_name: `Bench${i}`, bib: i + 1, chip: `S${i + 1}`, sex: i % 2 === 0 ? "F" : "M", club: `Club ${i % 40}`, course };
    });
    const imported = await room.importRacers(rows);
    if (!imported.ok) throw new Error("series demo racers refused");
  }
  for (let from = 0; from < racers; from += BATCH) {
    const reads = Array.from({ length: Math.min(BATCH, racers - from) }, (_, k) => {
      const i = from + k;
      return { seq: i + 1, chip: `S${i + 1}`, time: startMicros + Math.round(finishSeconds(i, n) * 1_000_000) };
    });
    const reply = await room.ingestForDevice(device, { boot: "series-demo", reads });
    if (!reply.ok) throw new Error("series demo reads refused");
  }
  await room.flushLive();
}

export async function handleDevDemoSeries(request: Request, context: RequestContext): Promise<Response> {
  if (context.env.ENVIRONMENT !== "development") return json({ error: "not_found" }, { status: 404 });
  if (request.method !== "POST") return json({ error: "method_not_allowed" }, { status: 405, headers: { Allow: "POST" } });
  const body = bodySchema.safeParse(await request.json().catch(() => ({})));
  if (!body.success) return json({ error: "invalid_request", message: body.error.message }, { status: 400 });
  const demo = await getRaceCatalogue(context.db, context.tenant, DEMO_RACE_ID);
  if (!demo) return json({ error: "not_found", message: "The demo race is not seeded; run npm start first" }, { status: 404 });
  const { races: count, racers, change } = body.data;
  const now = Date.now();
  // Past races a week apart, so every result is in and the series reads them in start order.
  const start = Math.floor((now - (count + 1) * 7 * DAY_MS) / 1000) * 1000;
  const rows = Array.from({ length: count }, (_, n) => ({
    id: raceId(n),
    clubId: demo.clubId,
    siteId: demo.siteId,
    name: `Bench cup ${n + 1}`,
    startTime: start + n * 7 * DAY_MS,
    timezone: demo.timezone,
    visibility: "public" as const,
  }));
  for (const row of rows)
    await context.db
      .insert(races)
      .values({ ...row, fieldMtimes: initialMtimes(row, now) })
      .onConflictDoNothing();
  const series = { id: SERIES_ID, clubId: demo.clubId, siteId: demo.siteId, name: "Bench cup", year: 2026, isPublic: true, url: null };
  const config = { races: rows.map((r) => ({ race: r.id })), best_of: Math.max(1, count - 4) };
  await context.db
    .insert(pointsSeries)
    .values({ ...series, config, fieldMtimes: initialMtimes(series, now) })
    .onConflictDoUpdate({ target: pointsSeries.id, set: { config } });
  const stored = await Promise.all(rows.map((r) => getRaceCatalogue(context.db, context.tenant, r.id)));
  // One race at a time: 5,000 racers and their reads are a large write for a local room.
  for (const [n, race] of stored.entries()) if (race) await setUpRace(await roomOf(context.env, race), n, racers, race.startTime * 1000);
  if (change !== undefined && stored[0]) await moveOne(await roomOf(context.env, stored[0]), racers, change, stored[0].startTime * 1000);
  return json({ seriesId: SERIES_ID, races: rows.map((r) => r.id) });
}

/** Clears one racer's times and reads a new finish for them: a correction that changes the race's places. */
async function moveOne(room: Room, racers: number, change: number, startMicros: number): Promise<void> {
  const i = (change * 613) % racers;
  const all = await everyRacer(room);
  const racer = all.find((r) => r.data.bib === i + 1);
  const device = (await room.documents("TimingDevice"))[0];
  if (!racer || !device) return;
  await room.clearTimes(racer.id);
  const seconds = 1800 + ((change * 2749) % 3600) + 0.5;
  await room.ingestForDevice(device.id, {
    boot: `series-change-${change}`,
    reads: [{ seq: 1, chip: `S${i + 1}`, time: startMicros + Math.round(seconds * 1_000_000) }],
  });
  await room.flushLive();
}
