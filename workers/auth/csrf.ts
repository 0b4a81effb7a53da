import type { Db } from "../../schema/d1";
import type { Tenant } from "../../tenants/resolve";
import { normaliseHostname } from "../../tenants/host";
import { isPlatformHost, originOf } from "./hosts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses a state-changing request a browser sent from another site. Browsers send Sec-Fetch-Site and
 * Origin on such requests; clients that send neither are not browsers and cannot be tricked into sending.
 * `/_auth/login` alone accepts a cross-host post from our own hosts: that is how a sign-in hands over.
 */
export async function isCrossSiteRequest(request: Request, env: Env, tenant: Tenant, db: Db): Promise<boolean> {
  if (SAFE_METHODS.has(request.method)) return false;
  // The data service authenticates by bearer token or client credentials, never by cookie: nothing to forge.
  if (new URL(request.url).pathname.startsWith("/data-api/")) return false;
  const origin = request.headers.get("Origin");
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  const ownOrigin = originOf(env, tenant.hostname);
  if (origin === ownOrigin && (fetchSite === null || fetchSite === "same-origin")) return false;
  if (origin === null && (fetchSite === null || fetchSite === "same-origin" || fetchSite === "none")) return false;
  if (new URL(request.url).pathname === "/_auth/login" && origin) {
    const host = normaliseHostname(safeHost(origin));
    if (host && origin === originOf(env, host) && (await isPlatformHost(db, env, host))) return false;
  }
  return true;
}

function safeHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}
