/**
 * Local development only (`ENVIRONMENT=development`): the demo sprint. A 30-racer individual-start qualifier
 * already raced (one finish reader), sprint heats on, so a timer can seed the heats and run them on
 * /race/{id}/admin/heats while /races/{id}/heats fills in. `restart` takes the heats away again.
 */
import * as z from "zod";
import { json } from "../http";
import type { RequestContext } from "../request-context";
import { getRaceCatalogue, roomOf } from "../services/race-access";

export const DEMO_SPRINT_ID = "a5b6c7d8-4f1c-4a9b-8e85-5c6d7e8f9a03";
const RACERS = 30;
const FIRST = ["Ava", "Bruno", "Célia", "Dag", "Elin", "Finn", "Gaia", "Henrik", "Ida", "Jules"];
const LAST = ["Aune", "Bouchard", "Caron", "Dahl", "Ek", "Fortin", "Gauthier", "Holm", "Lund", "Ouellet"];

const bodySchema = z.object({ restart: z.boolean().default(false) }).strict();

type Room = Awaited<ReturnType<typeof roomOf>>;

export async function handleDevDemoSprint(request: Request, context: RequestContext): Promise<Response> {
  if (context.env.ENVIRONMENT !== "development") return json({ error: "not_found" }, { status: 404 });
  if (request.method !== "POST") return json({ error: "method_not_allowed" }, { status: 405, headers: { Allow: "POST" } });
  const body = bodySchema.safeParse(await request.json().catch(() => ({})));
  if (!body.success) return json({ error: "invalid_request", message: body.error.message }, { status: 400 });
  const race = await getRaceCatalogue(context.db, context.tenant, DEMO_SPRINT_ID);
  if (!race) return json({ error: "not_found", message: "The demo sprint is not seeded; run npm start first" }, { status: 404 });
  const room = await roomOf(context.env, race);
  if ((await room.documents("Course")).length === 0) await createSprint(room, race.startTime);
  const group = (await room.documents("StartGroup"))[0]!;
  if (body.data.restart) {
    for (const heat of await room.documents("Heat")) await room.deleteDocument("Heat", heat.id);
    await room.saveDocument("StartGroup", group.id, { heat_format: null, heat_format_defn: null, seed_list: [], rounds_list: [] });
  }
  return json({ raceId: race.id, startGroupId: group.id, racers: RACERS });
}

function id(result: { ok: boolean; value?: unknown; errors?: Record<string, string> }): string {
  if (!result.ok) throw new Error(`demo sprint setup refused: ${JSON.stringify(result.errors)}`);
  return (result.value as { id: string }).id;
}

async function createSprint(room: Room, startTimeMs: number): Promise<void> {
  await room.updateSettings({
    timing_mode: "p2p",
    start_mode: "individual",
    start_option: "gun",
    precision: 2,
    calc_precision: 2,
    display_precision: 2,
    is_heats: true,
    default_heat_format: "30",
  });
  const reader = id(await room.saveDocument("TimingDevice", null, { type: "photocell", name: "Finish photocell", device_number: 1 }));
  const finish = id(await room.saveDocument("TimingPoint", null, { name: "Finish", devices_list: [{ id: reader, mode: "timing" }] }));
  const course = id(
    await room.saveDocument("Course", null, {
      name: "Sprint 1.4 km",
      course_distance_km: 1.4,
      points_list: [{ id: "finish", point: finish, mode: "lap", name: "Finish", min_split: 10_000_000 }],
    }),
  );
  const group = id(
    await room.saveDocument("StartGroup", null, {
      name: "Open sprint",
      start_mode: "individual",
      start_interval: 15_000_000,
      scheduled_start_time: startTimeMs * 1000,
    }),
  );
  await room.saveDocument("ResultFormat", null, { name: "Qualifier", is_public: true, group_type: "all" });
  const start = startTimeMs * 1000;
  const rows = Array.from({ length: RACERS }, (_, i) => ({
    first_name: FIRST[i % FIRST.length],
    last_name: LAST[(i * 3 + Math.floor(i / FIRST.length)) % LAST.length],
    bib: i + 1,
    chip: `SPRINT${String(i + 1).padStart(3, "0")}`,
    course,
    setupgroup_id: group,
    assigned_start_time: start + i * 15_000_000,
  }));
  const imported = await room.importRacers(rows);
  if (!imported.ok) throw new Error(`demo sprint racers refused: ${JSON.stringify(imported.rows.slice(0, 3))}`);
  const credential = (await room.issueDeviceCredential(reader))!;
  // Qualifier times from 3:00.00, spread so the qualifier's order is not the bib order.
  const reads = rows.map((r, i) => ({ seq: i + 1, chip: r.chip, time: r.assigned_start_time + 180_000_000 + ((i * 17) % RACERS) * 730_000 }));
  const ingested = await room.ingest(credential.token, { reads });
  if (!ingested.ok) throw new Error(`demo sprint reads refused: ${ingested.message}`);
}
