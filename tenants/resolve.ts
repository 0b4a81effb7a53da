import { sql } from "drizzle-orm";
import { RecentAnswers } from "../core/memo/recent-answers";
import { wwwRedirectTarget } from "../core/sites/hostnames";
import type { Db } from "../schema/d1";
import { classifyHost, normaliseHostname, type HostConfig } from "./host";
import { platformTheme, themeFromSiteConfig, type Theme } from "./theme";

/** Who a request is for, decided by its hostname alone. Every page and query is scoped by this. */
export type Tenant =
  | { kind: "main"; hostname: string; theme: Theme }
  | { kind: "admin"; hostname: string; theme: Theme }
  | { kind: "site"; hostname: string; theme: Theme; siteId: string; version: number };

/** A hostname that is a site's www or bare address beside its primary domain: the request goes there (308). */
export interface HostRedirect {
  kind: "redirect";
  hostname: string;
  to: string;
}

export function hostConfigFromEnv(env: { MAIN_HOST: string; ADMIN_HOST: string }): HostConfig {
  return { mainHost: env.MAIN_HOST.toLowerCase(), adminHost: env.ADMIN_HOST.toLowerCase() };
}

interface SiteHostRow {
  site_id: string;
  config: string;
  /** The content version the config was read at (decision 0053). */
  version: number;
  /** For a custom domain: the site's primary domain and its status (null for a platform address). */
  primary_hostname: string | null;
  primary_status: string | null;
}

/**
 * A site by its platform address or by an active custom domain, with the site's primary domain, in one query
 * over two unique indexes (whitelabel_sites.hostname, site_domains.hostname). A custom domain counts only once
 * Cloudflare has it active (decision 0047).
 */
async function siteHostRow(db: Db, hostname: string): Promise<SiteHostRow | null> {
  const rows = await db.all<SiteHostRow>(sql`
    SELECT s.id AS site_id, s.config AS config, s.version AS version, NULL AS primary_hostname, NULL AS primary_status
      FROM whitelabel_sites s WHERE s.hostname = ${hostname}
    UNION ALL
    SELECT d.site_id, s.config, s.version, p.hostname, p.status
      FROM site_domains d
      JOIN whitelabel_sites s ON s.id = d.site_id
      LEFT JOIN site_domains p ON p.site_id = d.site_id AND p.is_primary = 1
      WHERE d.hostname = ${hostname} AND d.status = 'active'
    LIMIT 1`);
  return rows[0] ?? null;
}

// Per isolate and short-lived, only to spare D1 a read per request: D1 stays the truth, and this isolate's own
// changes (a domain added, checked or removed; a site's look saved) forget their entries at once.
const cache = new RecentAnswers<{ row: SiteHostRow | null; theme?: Theme }>(5_000, 2_000);

/** Forgets what this isolate remembers of these hostnames (custom domains changed). */
export function forgetHosts(hostnames: readonly string[]): void {
  for (const hostname of hostnames) cache.delete(hostname);
}

/** Forgets every hostname of a site (its look changed, or its domains did). */
export function forgetSite(siteId: string): void {
  cache.deleteWhere((entry) => entry.row?.site_id === siteId);
}

async function cachedSiteHostRow(db: Db, hostname: string, now: number): Promise<(SiteHostRow & { theme: Theme }) | null> {
  const hit = cache.get(hostname, now);
  if (hit) return hit.row && hit.theme ? { ...hit.row, theme: hit.theme } : null;
  const row = await siteHostRow(db, hostname);
  // Read once per entry: checking a config (colour contrast, menus) costs more than the query the cache spares.
  const theme = row ? themeFromSiteConfig(parseConfig(row.config), hostname) : undefined;
  cache.set(hostname, { row, theme }, now);
  return row && theme ? { ...row, theme } : null;
}

/**
 * Resolves the tenant for a Host header. The hostname comes from the request's own Host (what the browser
 * asked for), never from X-Forwarded-Host. Null means no site is at that address; a redirect means the
 * hostname is the www or bare partner of the site's live primary domain.
 */
export async function resolveTenant(db: Db, hostHeader: string | null, config: HostConfig, now = Date.now()): Promise<Tenant | HostRedirect | null> {
  const hostname = normaliseHostname(hostHeader);
  if (!hostname) return null;
  const kind = classifyHost(hostname, config);
  if (kind === "main") return { kind, hostname, theme: platformTheme };
  if (kind === "admin") return { kind, hostname, theme: { ...platformTheme, name: `${platformTheme.name} Admin` } };
  const site = await cachedSiteHostRow(db, hostname, now);
  if (!site) return null;
  const to = site.primary_status === "active" ? wwwRedirectTarget(hostname, site.primary_hostname) : null;
  if (to) return { kind: "redirect", hostname, to };
  return { kind: "site", hostname, siteId: site.site_id, version: Number(site.version), theme: site.theme };
}

function parseConfig(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
