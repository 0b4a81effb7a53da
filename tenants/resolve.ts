import { eq } from "drizzle-orm";
import { sites, type Db } from "../schema/d1";
import { classifyHost, normaliseHostname, type HostConfig } from "./host";
import { platformTheme, themeFromSiteConfig, type Theme } from "./theme";

/** Who a request is for, decided by its hostname alone. Every page and query is scoped by this. */
export type Tenant =
  | { kind: "main"; hostname: string; theme: Theme }
  | { kind: "admin"; hostname: string; theme: Theme }
  | { kind: "site"; hostname: string; theme: Theme; siteId: string };

export function hostConfigFromEnv(env: { MAIN_HOST: string; ADMIN_HOST: string }): HostConfig {
  return { mainHost: env.MAIN_HOST.toLowerCase(), adminHost: env.ADMIN_HOST.toLowerCase() };
}

/**
 * Resolves the tenant for a Host header. The hostname comes from the request's own Host (what the browser
 * asked for), never from X-Forwarded-Host. Null means no site is at that address.
 */
export async function resolveTenant(db: Db, hostHeader: string | null, config: HostConfig): Promise<Tenant | null> {
  const hostname = normaliseHostname(hostHeader);
  if (!hostname) return null;
  const kind = classifyHost(hostname, config);
  if (kind === "main") return { kind, hostname, theme: platformTheme };
  if (kind === "admin") return { kind, hostname, theme: { ...platformTheme, name: `${platformTheme.name} Admin` } };
  const site = await db.query.sites.findFirst({ where: eq(sites.hostname, hostname) });
  if (!site) return null;
  return { kind: "site", hostname, siteId: site.id, theme: themeFromSiteConfig(site.config, hostname) };
}
