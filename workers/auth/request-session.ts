import { SESSION_TTL_MS } from "../../core/auth/constants";
import type { Db } from "../../schema/d1";
import type { Tenant } from "../../tenants/resolve";
import { clearCookie, cookieNames, readCookie, serializeCookie } from "./cookies";
import { validateSession, type ValidSession } from "./sessions";

/**
 * The session a request's cookie names on this host, and the cookie to send back: renewed when the expiry
 * slid forward, cleared when the cookie is forged, expired or for another host.
 */
export async function loadRequestSession(
  request: Request,
  db: Db,
  tenant: Tenant,
  now: number,
): Promise<{ session: ValidSession | null; setCookie: string | null }> {
  const token = readCookie(request, cookieNames.session);
  if (!token) return { session: null, setCookie: null };
  const session = await validateSession(db, token, tenant.hostname, now);
  if (!session) return { session: null, setCookie: clearCookie(cookieNames.session) };
  return { session, setCookie: session.renewed ? sessionCookie(token) : null };
}

export function sessionCookie(token: string, maxAgeMs: number = SESSION_TTL_MS): string {
  return serializeCookie(cookieNames.session, token, maxAgeMs / 1000);
}
