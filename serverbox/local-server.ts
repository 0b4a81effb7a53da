/**
 * The box's HTTP server on 127.0.0.1: the venue's devices post to it exactly as to the timing API (reads,
 * keypad entries and range data: `POST /timing-api/races/{raceId}/reads|manual|range`, a device named by
 * `Timing-Device` or by its credential's id part), and people read its page, its status and each race's
 * results. It answers whether or not the internet is up.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Serverbox } from "./box";
import { renderPage, type BoxStatus, type RaceStatus } from "./page";

/** As the timing API: at most 512 KB a request. */
const MAX_BODY = 512 * 1024;

/** Each race's state: its log, what the platform acknowledged, what waits, and a refusal that stopped it. */
export function raceStatuses(box: Serverbox): RaceStatus[] {
  return [...box.timings.values()].map(({ race, log, sync }) => {
    const synced = sync.synced;
    return { id: race.id, name: race.name, stored: log.length, synced, queued: log.length - synced, lastSync: sync.state.lastSync, error: sync.error };
  });
}

export function boxStatus(box: Serverbox): BoxStatus {
  const races = raceStatuses(box);
  const first = box.timings.values().next().value;
  return {
    name: box.identity.name,
    serial: box.identity.serial,
    paired: box.paired,
    pairingNote: box.pairingNote,
    clubId: box.identity.clubId,
    clubName: first?.race.clubName ?? null,
    race: races[0] ? { id: races[0].id, name: races[0].name } : null,
    races,
    readsStored: races.reduce((sum, r) => sum + r.stored, 0),
    readsSynced: races.reduce((sum, r) => sum + r.synced, 0),
    lastSync: races.reduce<number | null>((last, r) => (r.lastSync !== null && (last === null || r.lastSync > last) ? r.lastSync : last), null),
    online: box.online,
    syncError: races.find((r) => r.error !== null)?.error ?? null,
    server: box.cloud.server,
  };
}

export function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  response.writeHead(status, {
    "Content-Type": typeof body === "string" ? "text/html; charset=utf-8" : "application/json",
    "Cache-Control": "no-store",
    ...headers,
  });
  response.end(text);
}

export const fail = (response: ServerResponse, status: number, error: string, message: string) => send(response, status, { error, message });

/** The body, or null when it is larger than the limit (the rest is not read). */
export async function readBody(request: IncomingMessage): Promise<string | null> {
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

export async function postBatch(
  box: Serverbox,
  request: IncomingMessage,
  response: ServerResponse,
  raceId: string,
  kind: "reads" | "manual" | "range",
  keypad: string | null = null,
): Promise<void> {
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
  // A keypad on the box's LAN needs no name: the box listens on 127.0.0.1 and every entry carries its own key.
  const reply = box.take(raceId, kind, kind === "manual" ? null : deviceOf(request), body, keypad);
  if (!reply.ok) return fail(response, reply.status, reply.error, reply.message);
  send(response, 200, reply.receipt);
}

/** A form posted from another site must not change the race a box times. */
export function sameOrigin(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  return origin === undefined || origin === `http://${request.headers.host}`;
}

/** The page's forms: take a race (time and sync it beside the others) or stop timing one. */
async function raceForm(box: Serverbox, request: IncomingMessage, response: ServerResponse, action: "take" | "stop"): Promise<void> {
  if (!sameOrigin(request)) return fail(response, 403, "forbidden", "Choose the race on the serverbox's own page");
  const text = await readBody(request);
  const raceId = text === null ? null : new URLSearchParams(text).get("raceId");
  if (!raceId || !/^[0-9a-f-]{36}$/i.test(raceId)) return fail(response, 400, "invalid_request", "Choose a race");
  let notice: string;
  if (action === "stop")
    notice = (await box.dropRace(raceId)) ? "Race stopped: its reads stay here and sync when it is taken again." : "This race was not being timed.";
  else {
    const taken = await box.takeRace(raceId);
    notice = taken.ok ? "Race taken." : taken.message;
  }
  send(response, 303, "", { Location: `/?notice=${encodeURIComponent(notice)}` });
}

/** Unpairs a web keypad (a lost phone): its next entry is refused until it pairs again. */
async function forgetKeypad(box: Serverbox, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (!sameOrigin(request)) return fail(response, 403, "forbidden", "Forget a keypad on the serverbox's own page");
  const text = await readBody(request);
  const id = text === null ? "" : (new URLSearchParams(text).get("id") ?? "");
  const notice = box.webClients.forget(id) ? "Keypad forgotten: it must pair again to send entries." : "No such keypad.";
  send(response, 303, "", { Location: `/?notice=${encodeURIComponent(notice)}` });
}

export async function handle(box: Serverbox, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  const timingApi = /^\/timing-api\/races\/([^/]+)\/(reads|manual|range)$/.exec(url.pathname);
  if (timingApi) {
    if (request.method !== "POST") return fail(response, 405, "method_not_allowed", "Use POST");
    return postBatch(box, request, response, decodeURIComponent(timingApi[1]!), timingApi[2] as "reads" | "manual" | "range");
  }
  if (url.pathname === "/race" && request.method === "POST") return raceForm(box, request, response, "take");
  if (url.pathname === "/race/stop" && request.method === "POST") return raceForm(box, request, response, "stop");
  if (url.pathname === "/webclients/forget" && request.method === "POST") return forgetKeypad(box, request, response);
  if (request.method !== "GET") return fail(response, 405, "method_not_allowed", "Use GET");
  if (url.pathname === "/status.json") return send(response, 200, boxStatus(box));
  if (url.pathname === "/results.json") {
    // ?race= names one of the races timed; without it, the first.
    const asked = url.searchParams.get("race");
    const race = asked === null ? box.timings.values().next().value?.race : box.timings.get(asked)?.race;
    if (asked !== null && !race) return fail(response, 404, "not_found", "This serverbox is not timing that race");
    return send(response, 200, race ? { raceId: race.id, racers: race.racerResults(), formats: race.snapshots() } : { raceId: null, racers: [], formats: [] });
  }
  if (url.pathname === "/") {
    const results = [...box.timings.values()].map(({ race }) => ({ name: race.name, snapshots: race.snapshots() }));
    const keypads = { urls: box.keypadUrls, code: box.webClients.code, clients: [...box.webClients.list()] };
    return send(response, 200, renderPage(boxStatus(box), results, box.clubRaces, url.searchParams.get("notice"), keypads));
  }
  return fail(response, 404, "not_found", "Nothing here");
}

/** Serves a handler on host:port; a handler that throws answers 500 and says so on the console. */
export function listen(
  box: Serverbox,
  handler: (box: Serverbox, request: IncomingMessage, response: ServerResponse) => Promise<void>,
  host: string,
  port: number,
): Promise<Server> {
  const server = createServer((request, response) => {
    handler(box, request, response).catch((error: unknown) => {
      console.error(`serverbox: ${request.method} ${request.url} failed`, error);
      if (!response.headersSent) fail(response, 500, "internal", "The serverbox failed to answer; see its console");
      else response.end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}

/** Listens on 127.0.0.1 only: the devices are at the venue, on this machine or forwarded to it. */
export function startLocalServer(box: Serverbox, port: number): Promise<Server> {
  return listen(box, handle, "127.0.0.1", port);
}
