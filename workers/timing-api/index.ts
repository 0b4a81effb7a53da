import { z } from "zod";
import { apiNotFound, json } from "../http";
import type { RequestContext } from "../request-context";
import { getRaceForTenant } from "../services/races";

const socketPath = /^\/timing-api\/races\/([^/]+)\/socket$/;

/**
 * Mount point of the timing API (`/timing-api/*`). Devices post crossings here in the timing issue;
 * for now it opens a race's live socket on its RaceRoom.
 */
export async function handleTimingApi(request: Request, context: RequestContext): Promise<Response> {
  const { pathname } = new URL(request.url);
  const socket = socketPath.exec(pathname);
  if (socket) return openRaceSocket(request, context, socket[1] ?? "");
  return apiNotFound(pathname);
}

async function openRaceSocket(request: Request, { env, db, tenant }: RequestContext, rawRaceId: string): Promise<Response> {
  if (request.method !== "GET") return json({ error: "method_not_allowed" }, { status: 405, headers: { Allow: "GET" } });
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
    return json({ error: "upgrade_required", message: "Connect with a WebSocket" }, { status: 426 });
  }
  const raceId = z.string().uuid().safeParse(rawRaceId);
  const race = raceId.success ? await getRaceForTenant(db, tenant, raceId.data) : null;
  if (!race) return json({ error: "not_found", message: "No such race" }, { status: 404 });
  const room = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(race.id));
  await room.open({ id: race.id, clubId: race.clubId, name: race.name, startTime: race.startTime, timezone: race.timezone });
  return room.fetch(request);
}
