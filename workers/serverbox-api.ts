/**
 * The serverbox API (`/serverbox-api/*`, docs/api/serverbox-api.md, decision 0055): a local timing server
 * pairs itself with a club by a code a person approves, then reports in, lists its club's races and fetches
 * what it needs to time one offline. Reads go through the timing API with the box's token.
 */
import * as z from "zod";
import { formatUserCode, PAIRING_VALID_MS } from "../core/servers/pairing";
import { originOf } from "./auth/hosts";
import { clientKeyOf } from "./auth/failures";
import { apiNotFound, json } from "./http";
import type { RequestContext } from "./request-context";
import { readJson, type BodyLimits } from "./request-limits";
import { pollPairing, startPairing } from "./services/serverbox-pairing";
import { MAX_REPORTED_WEBCLIENTS, recordWebClients } from "./services/serverbox-webclients";
import { boxRace, boxRaces, racePackage, recordHeartbeat, serverboxOfToken, type PairedBox } from "./services/serverboxes";

/** A box's bodies are a few fields, and a heartbeat's list of its web keypads (3 fields each). */
const SERVERBOX_BODY_LIMITS: BodyLimits = { maxBytes: 16 * 1024, maxDepth: 4, maxKeys: 10 + 3 * MAX_REPORTED_WEBCLIENTS };

const label = (max: number) => z.string().trim().min(1).max(max);
const pairBody = z.strictObject({ serial: label(100), name: label(200), software_version: label(50).optional() });
const pollBody = z.strictObject({ device_code: z.string().min(3).max(200) });
const reportedWebClient = z.strictObject({
  id: z.uuid(),
  name: label(60),
  last_seen: z.int().nonnegative().nullable(),
});
const heartbeatBody = z.strictObject({
  software_version: label(50).optional(),
  /** The box's paired web keypads (decision 0084); a box that sends none leaves the club's list as it is. */
  webclients: z.array(reportedWebClient).max(MAX_REPORTED_WEBCLIENTS).optional(),
});

const noStore = { "Cache-Control": "no-store" };
const fail = (status: number, error: string, message: string, extra: Record<string, unknown> = {}) =>
  json({ error, message, ...extra }, { status, headers: status === 401 ? { ...noStore, "WWW-Authenticate": 'Bearer realm="serverbox"' } : noStore });

export async function handleServerboxApi(request: Request, context: RequestContext): Promise<Response> {
  const { pathname } = new URL(request.url);
  const path = pathname.slice("/serverbox-api".length);
  if (context.tenant.kind === "admin") return apiNotFound(pathname);
  if (path === "/pair") return post(request, (body) => pair(request, context, body));
  if (path === "/token") return post(request, (body) => poll(context, body));
  const race = /^\/races\/([^/]+)$/.exec(path);
  if (path !== "/heartbeat" && path !== "/races" && !race) return apiNotFound(pathname);
  const credential = /^Bearer (\S+)$/.exec(request.headers.get("Authorization") ?? "")?.[1];
  const box = credential ? await serverboxOfToken(context.db, credential) : null;
  if (!box) return fail(401, "invalid_server", "Unknown or revoked serverbox token. Pair the serverbox again");
  if (path === "/heartbeat") return post(request, (body) => heartbeat(context, box, body));
  if (request.method !== "GET") return fail(405, "method_not_allowed", "Use GET");
  if (path === "/races") return json({ races: await boxRaces(context.db, box, context.now) }, { headers: noStore });
  return raceDetail(context, box, race![1]!);
}

/** A POST with a JSON body within the limits, or the refusal. */
async function post(request: Request, answer: (body: unknown) => Promise<Response>): Promise<Response> {
  if (request.method !== "POST") return json({ error: "method_not_allowed", message: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
  const body = await readJson(request, SERVERBOX_BODY_LIMITS);
  return body.ok ? answer(body.value) : fail(body.status, body.code, body.message);
}

const issues = (error: z.ZodError) => error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");

async function pair(request: Request, { db, env, now }: RequestContext, body: unknown): Promise<Response> {
  const parsed = pairBody.safeParse(body);
  if (!parsed.success) return fail(400, "invalid_request", issues(parsed.error));
  const started = await startPairing(
    db,
    { serial: parsed.data.serial, name: parsed.data.name, softwareVersion: parsed.data.software_version ?? null },
    clientKeyOf(request),
    now,
  );
  if (!started) return fail(429, "too_many_requests", "Too many pairing requests from this network. Wait an hour, then try again");
  // People approve on the main host, where their club pages are, whichever host the box asked.
  const verification = `${originOf(env, env.MAIN_HOST.toLowerCase())}/pair`;
  return json(
    {
      request_id: started.requestId,
      device_code: started.deviceCode,
      user_code: formatUserCode(started.userCode),
      verification_uri: verification,
      verification_uri_complete: `${verification}?code=${formatUserCode(started.userCode)}`,
      expires_in: PAIRING_VALID_MS / 1000,
      interval: started.interval,
    },
    { headers: noStore },
  );
}

async function poll({ db, now }: RequestContext, body: unknown): Promise<Response> {
  const parsed = pollBody.safeParse(body);
  if (!parsed.success) return fail(400, "invalid_request", issues(parsed.error));
  const answer = await pollPairing(db, parsed.data.device_code, now);
  if (!answer.ok) return fail(400, answer.error, answer.message, answer.interval === undefined ? {} : { interval: answer.interval });
  return json({ token_type: "Bearer", server_token: answer.token, server_id: answer.serverId, club_id: answer.clubId }, { headers: noStore });
}

async function heartbeat({ db, now }: RequestContext, box: PairedBox, body: unknown): Promise<Response> {
  const parsed = heartbeatBody.safeParse(body);
  if (!parsed.success) return fail(400, "invalid_request", issues(parsed.error));
  await recordHeartbeat(db, box, parsed.data.software_version, now);
  const webclients = parsed.data.webclients;
  const revoked = webclients === undefined ? [] : await recordWebClients(db, box, webclients, now);
  return json({ server_id: box.id, club_id: box.clubId, name: box.name, time: now, revoked_webclients: revoked }, { headers: noStore });
}

async function raceDetail({ db, env }: RequestContext, box: PairedBox, raceId: string): Promise<Response> {
  const id = z.uuid().safeParse(raceId);
  const race = id.success ? await boxRace(db, box, id.data) : null;
  if (!race) return fail(404, "not_found", "No such race of your club");
  return json(await racePackage(env, race), { headers: noStore });
}
