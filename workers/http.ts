/** Small response helpers shared by the Worker's own API handlers. */
import { applySecurityHeaders, type HeaderChoice } from "./security-headers";

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(body), { ...init, headers });
}

/** The answer for a path under an API mount that names no endpoint. */
export function apiNotFound(pathname: string): Response {
  return json({ error: "not_found", message: `No such endpoint: ${pathname}` }, { status: 404 });
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Headers every response carries, whichever part of the Worker made it (workers/security-headers.ts), and a
 * renewed or cleared session cookie unless the handler set the session itself.
 */
export function withSecurityHeaders(response: Response, sessionCookie: string | null = null, choice: HeaderChoice = { https: false }): Response {
  // A 101 WebSocket upgrade must be returned as it is.
  if (response.status === 101) return response;
  const secured = new Response(response.body, response);
  if (sessionCookie && !secured.headers.getSetCookie().some((c) => c.startsWith(`${sessionCookie.split("=")[0]}=`))) {
    secured.headers.append("Set-Cookie", sessionCookie);
  }
  applySecurityHeaders(secured.headers, choice);
  return secured;
}
