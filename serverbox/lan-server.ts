/**
 * The box's network listener (`--lan <port>`), for WebClients: phones and tablets on the venue's network
 * that key entries through the box's web keypad while the internet is down (decision 0084).
 *
 * Unlike the 127.0.0.1 listener, which trusts whoever is on the laptop, every request here but pairing needs
 * a paired browser's cookie, and it serves only the keypad: no status, no results, no race choice for the
 * box, no device reads (readers stay on the laptop or forwarded to it).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Serverbox } from "./box";
import { keypadPage, keypadScript, pairingPage, racesPage } from "./keypad-page";
import { MAX_NAME } from "./webclients";
import { fail, listen, postBatch, readBody, sameOrigin, send } from "./local-server";

export const KEYPAD_COOKIE = "startline_box_keypad";
/** A year: a phone paired on race morning keys every race of the season until the timer forgets it. */
const COOKIE_MAX_AGE = 365 * 24 * 3600;

export const NOT_PAIRED = "This keypad is not paired with the serverbox: open /keypad and type the code shown on the serverbox's page.";

function cookieToken(request: IncomingMessage): string | null {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === KEYPAD_COOKIE) return value.join("=") || null;
  }
  return null;
}

async function pair(box: Serverbox, request: IncomingMessage, response: ServerResponse): Promise<void> {
  // A page elsewhere must not pair its own visitor's browser (or spend this box's wrong guesses).
  if (!sameOrigin(request)) return fail(response, 403, "forbidden", "Pair on the keypad page the serverbox serves");
  const text = await readBody(request);
  const form = new URLSearchParams(text === null || text.length > 4096 ? "" : text);
  const name = form.get("name") ?? "";
  const paired = box.webClients.pair(form.get("code") ?? "", name);
  if (!paired.ok) return send(response, 400, pairingPage(box.identity.name, paired.message, name.slice(0, MAX_NAME)));
  box.logLine(`Web keypad paired: ${paired.client.name}`);
  send(response, 303, "", {
    Location: "/keypad",
    // Plain http on the venue's network, so not Secure; HttpOnly and Strict keep it out of scripts and other sites.
    "Set-Cookie": `${KEYPAD_COOKIE}=${paired.token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${COOKIE_MAX_AGE}`,
  });
}

function keypad(box: Serverbox, url: URL, response: ServerResponse): void {
  const races = [...box.timings.values()].map(({ race }) => race);
  const asked = url.searchParams.get("race");
  const race = asked === null ? (races.length === 1 ? races[0] : undefined) : races.find((r) => r.id === asked);
  if (asked !== null && !race) return send(response, 404, racesPage(races.map((r) => ({ id: r.id, name: r.name }))));
  if (!race) return send(response, 200, racesPage(races.map((r) => ({ id: r.id, name: r.name }))));
  send(response, 200, keypadPage(race.keypadSetup(), races.length - 1));
}

export async function handleLan(box: Serverbox, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  if (url.pathname === "/keypad.js" && request.method === "GET")
    return send(response, 200, await keypadScript(), { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" });
  if (url.pathname === "/keypad/pair" && request.method === "POST") return pair(box, request, response);
  // Browsers ask for it on every page; a 404 would fill a phone's console.
  if (url.pathname === "/favicon.ico") return send(response, 204, "");
  const client = box.webClients.verify(cookieToken(request));
  const manual = /^\/timing-api\/races\/([^/]+)\/manual$/.exec(url.pathname);
  if (manual) {
    if (request.method !== "POST") return fail(response, 405, "method_not_allowed", "Use POST");
    if (!client) return fail(response, 401, "not_paired", NOT_PAIRED);
    if (!sameOrigin(request)) return fail(response, 403, "forbidden", "Send entries from the serverbox's keypad page");
    return postBatch(box, request, response, decodeURIComponent(manual[1]!), "manual", client.id);
  }
  if (url.pathname === "/" || url.pathname === "/keypad") {
    // Before the script runs, a keypad form posts here: send the browser back to the page, nothing is kept.
    if (request.method === "POST") return send(response, 303, "", { Location: url.pathname + url.search });
    if (request.method !== "GET") return fail(response, 405, "method_not_allowed", "Use GET");
    if (!client) return send(response, 200, pairingPage(box.identity.name, null));
    return keypad(box, url, response);
  }
  return fail(response, 404, "not_found", "Nothing here: the keypad is at /keypad");
}

/** Listens on the venue's network (host 0.0.0.0 by default) for web keypads only. */
export function startLanServer(box: Serverbox, host: string, port: number): Promise<Server> {
  return listen(box, handleLan, host, port);
}
