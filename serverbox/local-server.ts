/**
 * The box's HTTP server on 127.0.0.1: the venue's devices post reads to it exactly as to the timing API
 * (`POST /timing-api/races/{raceId}/reads`, the device named by `Timing-Device` or by its credential's id
 * part), and people read its page, its status and its results. It answers whether or not the internet is up.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Serverbox } from "./box";
import { renderPage, type BoxStatus } from "./page";

/** As the timing API: at most 512 KB a request. */
const MAX_BODY = 512 * 1024;

export function boxStatus(box: Serverbox): BoxStatus {
  const timing = box.timing;
  return {
    name: box.identity.name,
    serial: box.identity.serial,
    paired: box.paired,
    pairingNote: box.pairingNote,
    clubId: box.identity.clubId,
    clubName: timing?.race.clubName ?? null,
    race: timing ? { id: timing.race.id, name: timing.race.name } : null,
    readsStored: timing?.log.length ?? 0,
    readsSynced: timing?.sync.synced ?? 0,
    lastSync: timing?.sync.state.lastSync ?? null,
    online: box.online,
    syncError: timing?.sync.error ?? null,
    server: box.cloud.server,
  };
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  response.writeHead(status, {
    "Content-Type": typeof body === "string" ? "text/html; charset=utf-8" : "application/json",
    "Cache-Control": "no-store",
    ...headers,
  });
  response.end(text);
}

const fail = (response: ServerResponse, status: number, error: string, message: string) => send(response, status, { error, message });

/** The body, or null when it is larger than the limit (the rest is not read). */
async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Which device a batch is from: the `Timing-Device` header, else the id part of its `<deviceId>.<secret>` credential. */
export function deviceOf(request: IncomingMessage): string | null {
  const header = request.headers["timing-device"];
  if (typeof header === "string" && header.trim() !== "") return header.trim();
  const credential = /^Bearer ([^.\s]+)\.\S+$/.exec(request.headers.authorization ?? "")?.[1];
  return credential ?? null;
}

async function postReads(box: Serverbox, request: IncomingMessage, response: ServerResponse, raceId: string): Promise<void> {
  if (!(request.headers["content-type"] ?? "").toLowerCase().startsWith("application/json"))
    return fail(response, 415, "unsupported_media_type", "Send the reads as JSON (Content-Type: application/json)");
  const text = await readBody(request);
  if (text === null) return fail(response, 413, "too_large", "At most 512 KB a request");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail(response, 400, "invalid_json", "The body is not JSON");
  }
  const device = deviceOf(request);
  if (!device)
    return fail(response, 400, "unknown_device", "Name the device: a Timing-Device header, or its credential as Authorization: Bearer <deviceId>.<secret>");
  const reply = box.takeReads(raceId, device, body);
  if (!reply.ok) return fail(response, reply.status, reply.error, reply.message);
  send(response, 200, reply.receipt);
}

/** A form posted from another site must not change the race a box times. */
function sameOrigin(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  return origin === undefined || origin === `http://${request.headers.host}`;
}

async function takeRaceFromForm(box: Serverbox, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (!sameOrigin(request)) return fail(response, 403, "forbidden", "Choose the race on the serverbox's own page");
  const text = await readBody(request);
  const raceId = text === null ? null : new URLSearchParams(text).get("raceId");
  if (!raceId || !/^[0-9a-f-]{36}$/i.test(raceId)) return fail(response, 400, "invalid_request", "Choose a race");
  const taken = await box.takeRace(raceId);
  const notice = taken.ok ? "Race taken." : taken.message;
  send(response, 303, "", { Location: `/?notice=${encodeURIComponent(notice)}` });
}

export async function handle(box: Serverbox, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  const reads = /^\/timing-api\/races\/([^/]+)\/reads$/.exec(url.pathname);
  if (reads) {
    if (request.method !== "POST") return fail(response, 405, "method_not_allowed", "Use POST");
    return postReads(box, request, response, decodeURIComponent(reads[1]!));
  }
  if (url.pathname === "/race" && request.method === "POST") return takeRaceFromForm(box, request, response);
  if (request.method !== "GET") return fail(response, 405, "method_not_allowed", "Use GET");
  if (url.pathname === "/status.json") return send(response, 200, boxStatus(box));
  if (url.pathname === "/results.json") {
    const race = box.timing?.race;
    return send(response, 200, race ? { raceId: race.id, racers: race.racerResults(), formats: race.snapshots() } : { raceId: null, racers: [], formats: [] });
  }
  if (url.pathname === "/") {
    return send(response, 200, renderPage(boxStatus(box), box.timing?.race.snapshots() ?? [], box.clubRaces, url.searchParams.get("notice")));
  }
  return fail(response, 404, "not_found", "Nothing here");
}

/** Listens on 127.0.0.1 only: the devices are at the venue, on this machine or forwarded to it. */
export function startLocalServer(box: Serverbox, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    handle(box, request, response).catch((error: unknown) => {
      console.error("serverbox: request failed", error);
      if (!response.headersSent) fail(response, 500, "internal", "The serverbox failed to answer; see its console");
      else response.end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}
