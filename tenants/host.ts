/** Which kind of host a request came to, before any database lookup. */
export type HostKind = "main" | "admin" | "site";

export interface HostConfig {
  /** The platform's own host (`localhost` locally). */
  mainHost: string;
  /** The super-admin host (`admin.localhost` locally). */
  adminHost: string;
}

/**
 * Lowercases a Host header value and strips its port and any trailing dot, so `Demo.Localhost.:8787`
 * and `demo.localhost` name the same tenant. Returns null for a value that is not a hostname.
 */
export function normaliseHostname(hostHeader: string | null | undefined): string | null {
  if (!hostHeader) return null;
  let host = hostHeader.trim().toLowerCase();
  if (host.startsWith("[")) return null; // IPv6 literals never name a tenant
  const colon = host.lastIndexOf(":");
  if (colon !== -1) host = host.slice(0, colon);
  if (host.endsWith(".")) host = host.slice(0, -1);
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(host)) return null;
  if (host.length > 253) return null;
  return host;
}

/** The main and admin hosts are fixed by configuration; every other hostname may be a whitelabel site. */
export function classifyHost(hostname: string, config: HostConfig): HostKind {
  if (hostname === config.mainHost) return "main";
  if (hostname === config.adminHost) return "admin";
  return "site";
}
