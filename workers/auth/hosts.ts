import { sql } from "drizzle-orm";
import type { Db } from "../../schema/d1";
import { normaliseHostname } from "../../tenants/host";
import type { Tenant } from "../../tenants/resolve";

/** The public origin of a host, from configuration, never from request headers (passkeys, CSRF, mail links). */
export function originOf(env: Env, hostname: string): string {
  const port = env.PUBLIC_PORT ? `:${env.PUBLIC_PORT}` : "";
  return `${env.PUBLIC_SCHEME}://${hostname}${port}`;
}

/**
 * The host a sign-in started on this tenant may complete on: the tenant's own host; from the main host
 * also the super-admin host and any registered club site. Null for anything else.
 */
export async function resolveTargetHost(db: Db, env: Env, tenant: Tenant, domain: string | null | undefined): Promise<string | null> {
  if (!domain) return tenant.hostname;
  const host = normaliseHostname(domain);
  if (!host) return null;
  if (host === tenant.hostname) return host;
  if (tenant.kind !== "main") return null;
  if (host === env.ADMIN_HOST.toLowerCase()) return host;
  return (await isSiteHost(db, host)) ? host : null;
}

/** Whether a hostname is one of ours (main, admin or a registered site): who may hand a sign-in over. */
export async function isPlatformHost(db: Db, env: Env, hostname: string): Promise<boolean> {
  if (hostname === env.MAIN_HOST.toLowerCase() || hostname === env.ADMIN_HOST.toLowerCase()) return true;
  return isSiteHost(db, hostname);
}

/** A club site's platform address, or one of its own domains once Cloudflare has it active (decision 0047). */
async function isSiteHost(db: Db, hostname: string): Promise<boolean> {
  const rows = await db.all(sql`
    SELECT 1 FROM whitelabel_sites WHERE hostname = ${hostname}
    UNION ALL
    SELECT 1 FROM site_domains WHERE hostname = ${hostname} AND status = 'active'
    LIMIT 1`);
  return rows.length > 0;
}

/** A signed-in user's default page: the super-admin area on the admin host, the manager area elsewhere. */
export function defaultSignedInPath(tenant: Tenant): string {
  return tenant.kind === "admin" ? "/_admin" : "/manage";
}
