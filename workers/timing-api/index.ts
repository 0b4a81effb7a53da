/**
 * The timing API (`/timing-api/*`, docs/api/timing-api.md): timing devices post batches of reads with their
 * own credential; the keypad page posts manual entries as a signed-in timer; spectators open a race socket.
 */
import * as z from "zod";
import { apiNotFound, json } from "../http";
import type { RequestContext } from "../request-context";
import type { Db } from "../../schema/d1";
import { isServerToken, serverboxOfToken } from "../services/serverboxes";
import { readJson, TIMING_API_BODY_LIMITS } from "../request-limits";
import { SHARD_HEADERS } from "../../schema/wire/race-fanout";
import { SERVERBOX_KEYER } from "../../schema/wire/manual-entry";
import {
  canOnRace,
  canSeeSystemFormats,
  getDeviceRaceCatalogue,
  getRaceCatalogue,
  principalOf,
  roomOf,
  roomStub,
  type RaceCatalogue,
} from "../services/race-access";

const route = /^\/timing-api\/races\/([^/]+)\/(socket|reads|manual|range)$/;
// Built once: making a zod schema costs more than the parse it does, and every device batch passes here.
const raceIdSchema = z.uuid();
const deviceIdSchema = z.string().min(1).max(64);

export async function handleTimingApi(request: Request, context: RequestContext): Promise<Response> {
  const { pathname } = new URL(request.url);
  const match = route.exec(pathname);
  if (!match) return apiNotFound(pathname);
  const raceId = raceIdSchema.safeParse(match[1]);
  const endpoint = match[2];
  // The catalogue is checked before any RaceRoom is touched, so a made-up race id never creates an object.
  const catalogue = endpoint === "reads" || endpoint === "range" ? getDeviceRaceCatalogue : getRaceCatalogue;
  const race = raceId.success ? await catalogue(context.db, context.tenant, raceId.data, context.now) : null;
  if (endpoint === "socket") return openRaceSocket(request, context, race);
  if (request.method !== "POST") return json({ error: "method_not_allowed", message: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
  if (!race) return json({ error: "not_found", message: "No such race" }, { status: 404 });
  // Bounded and checked (type, size, depth) before anything parses it; docs/api/timing-api.md states the limits.
  const body = await readJson(request, TIMING_API_BODY_LIMITS);
  if (!body.ok) return json({ error: body.code, message: body.message }, { status: body.status });
  if (endpoint === "manual") return postManual(request, context, race, body.value);
  return postFromDevice(request, context, race, body.value, endpoint === "range" ? "rangeEntries" : "ingest");
}

/** Device reads (`reads`) and range data (`range`): `Authorization: Bearer <deviceId>.<secret>`. */
async function postFromDevice(
  request: Request,
  { env, db, tenant }: RequestContext,
  race: RaceCatalogue,
  body: unknown,
  method: "ingest" | "rangeEntries",
): Promise<Response> {
  const credential = /^Bearer (\S+)$/.exec(request.headers.get("Authorization") ?? "")?.[1];
  if (!credential) {
    return json(
      { error: "invalid_device", message: "Send the device credential as Authorization: Bearer <credential>" },
      { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="timing"' } },
    );
  }
  // A paired serverbox forwards reads (decision 0055) and range data (0067) with its own token, for a device it names.
  const forward = isServerToken(credential) ? await serverboxForward(request, db, race, credential) : null;
  if (forward && !forward.ok) return forward.refusal;
  // Skips the open() round trip on every batch: a room is opened only the first time it says it is not.
  const send = (room: ReturnType<typeof roomStub>) => {
    if (forward) return method === "ingest" ? room.ingestForDevice(forward.deviceId, body) : room.rangeEntriesForDevice(forward.deviceId, body);
    return method === "ingest" ? room.ingest(credential, body) : room.rangeEntries(credential, body);
  };
  let reply = await send(roomStub(env, race.id));
  if (!reply.ok && reply.error === "race_not_opened") {
    // Opened from D1 as it is now, never from a remembered row: a race deleted a moment ago stays deleted.
    const current = await getRaceCatalogue(db, tenant, race.id);
    if (!current) return json({ error: "not_found", message: "No such race" }, { status: 404 });
    reply = await send(await roomOf(env, current));
  }
  if (!reply.ok)
    return json(
      { error: reply.error, message: reply.message },
      { status: reply.status, headers: reply.status === 401 ? { "WWW-Authenticate": 'Bearer realm="timing"' } : {} },
    );
  return json(reply.value);
}

/** A serverbox's reads: its token must be valid and its club the race's; `Timing-Device` names the race's device. */
async function serverboxForward(
  request: Request,
  db: Db,
  race: RaceCatalogue,
  credential: string,
): Promise<{ ok: true; deviceId: string } | { ok: false; refusal: Response }> {
  const box = await clubServerbox(db, race, credential);
  if (!box.ok) return box;
  const refuse = (status: number, error: string, message: string) => ({ ok: false as const, refusal: json({ error, message }, { status }) });
  const deviceId = deviceIdSchema.safeParse(request.headers.get("Timing-Device"));
  if (!deviceId.success) return refuse(400, "unknown_device", "Name the race's timing device in the Timing-Device header");
  return { ok: true, deviceId: deviceId.data };
}

/** The paired serverbox a token names, if the race is its club's: 401 for a revoked or unknown token, 403 for another club's race. */
async function clubServerbox(db: Db, race: RaceCatalogue, credential: string): Promise<{ ok: true; id: string } | { ok: false; refusal: Response }> {
  const box = await serverboxOfToken(db, credential);
  if (!box)
    return {
      ok: false,
      refusal: json(
        { error: "invalid_server", message: "Unknown or revoked serverbox token. Pair the serverbox again" },
        { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="timing"' } },
      ),
    };
  if (box.clubId !== race.clubId)
    return { ok: false, refusal: json({ error: "not_club_race", message: "This race is not one of your club's races" }, { status: 403 }) };
  return { ok: true, id: box.id };
}

/** Keypad entries: a signed-in user who may time this race, or a paired serverbox of the race's club forwarding its keypads' (decision 0067). */
async function postManual(request: Request, { env, db, session }: RequestContext, race: RaceCatalogue, body: unknown): Promise<Response> {
  const credential = /^Bearer (\S+)$/.exec(request.headers.get("Authorization") ?? "")?.[1];
  let enteredBy: string;
  if (credential && isServerToken(credential)) {
    const box = await clubServerbox(db, race, credential);
    if (!box.ok) return box.refusal;
    enteredBy = `${SERVERBOX_KEYER}${box.id}`;
  } else {
    const principal = await principalOf(db, session);
    if (!principal) return json({ error: "unauthorized", message: "Sign in to enter times" }, { status: 401 });
    if (!canOnRace(principal, "time", race)) return json({ error: "forbidden", message: "You may not time this race" }, { status: 403 });
    enteredBy = principal.userId;
  }
  const room = await roomOf(env, race);
  const reply = await room.manualEntries(enteredBy, body);
  if (!reply.ok) return json({ error: reply.error, message: reply.message }, { status: reply.status });
  return json(reply.value);
}

/**
 * A race socket; `?format=` follows a result format that the caller may see. Sockets live on the race's
 * spectator shards, placed at random (uniformly, so every shard fills alike); the RaceRoom is not touched.
 */
async function openRaceSocket(request: Request, { env, db, session }: RequestContext, race: RaceCatalogue | null): Promise<Response> {
  if (request.method !== "GET") return json({ error: "method_not_allowed" }, { status: 405, headers: { Allow: "GET" } });
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
    return json({ error: "upgrade_required", message: "Connect with a WebSocket" }, { status: 426 });
  }
  const principal = race ? await principalOf(db, session) : null;
  const staff = race !== null && canSeeSystemFormats(principal, race);
  if (!race || (race.visibility === "private" && !staff)) return json({ error: "not_found", message: "No such race" }, { status: 404 });
  const index = crypto.getRandomValues(new Uint32Array(1))[0]! % Math.max(1, race.spectatorShards);
  const shard = env.SPECTATOR_SHARD.get(env.SPECTATOR_SHARD.idFromName(`${race.id}:${index}`));
  // These headers are set here only: whatever a client sent under the same names is replaced.
  const headers = new Headers(request.headers);
  headers.set(SHARD_HEADERS.raceId, race.id);
  headers.set(SHARD_HEADERS.index, String(index));
  headers.set(SHARD_HEADERS.staff, staff ? "1" : "0");
  headers.set(SHARD_HEADERS.name, encodeURIComponent(race.name));
  const response = await shard.fetch(new Request(request.url, { headers }));
  if (response.status === 404) return json({ error: "not_found", message: "No such result format" }, { status: 404 });
  return response;
}
