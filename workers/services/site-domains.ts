/**
 * A site's own domains (decision 0047): added once however often the form is sent, registered with Cloudflare
 * for SaaS through the adapter (custom-hostnames.ts), refreshed from it on view, on "Check now" and by the
 * cron, one of them primary, and removed at Cloudflare before here. A hostname belongs to one site only.
 */
import { uniqueConstraintOf } from "../../schema/d1/errors";
import { and, asc, eq, isNull, lt, ne, or, sql } from "drizzle-orm";
import { servesSite, settlesLater } from "../../core/sites/domain-status";
import { checkClubHostname, HOSTNAME_MESSAGES } from "../../core/sites/hostnames";
import { siteDomains, sites, type Db } from "../../schema/d1";
import { forgetHosts, forgetSite } from "../../tenants/resolve";
import { CustomHostnameError, customHostnameGateway, type CustomHostnameGateway, type HostnameState } from "./custom-hostnames";

export const DOMAIN_MESSAGES = {
  notConfigured: "Custom domains are not configured on this server.",
  ownAddress: "This is the site's own address already.",
  noSuchDomain: "There is no such domain on this site.",
  unreachable: "Cloudflare could not be asked just now, so the status below may be out of date. Please try again in a moment.",
} as const;

/** Cloudflare refused or failed: its words, and that nothing changed here. */
export const cloudflareRefused = (action: "add" | "remove", reason: string) =>
  action === "add"
    ? `Cloudflare did not register the domain: ${reason} Nothing was saved; please try again.`
    : `Cloudflare did not remove the domain: ${reason} It is still registered; please try again.`;

export type SiteDomain = typeof siteDomains.$inferSelect;

/** The platform's own names, which no club may claim: the main and admin hosts and everything under them. */
export function platformDomains(env: Pick<Env, "MAIN_HOST" | "ADMIN_HOST">): string[] {
  return [env.MAIN_HOST.toLowerCase(), env.ADMIN_HOST.toLowerCase()];
}

export function listDomains(db: Db, siteId: string): Promise<SiteDomain[]> {
  return db.select().from(siteDomains).where(eq(siteDomains.siteId, siteId)).orderBy(asc(siteDomains.createdAt), asc(siteDomains.hostname));
}

const reasonOf = (error: CustomHostnameError) => (/[.!?]$/.test(error.message) ? error.message : `${error.message}.`);

function fromCloudflare(state: HostnameState, now: number) {
  return { cloudflareId: state.id, status: state.status, sslStatus: state.sslStatus, records: state.records, errors: state.errors, checkedAt: now };
}

export type AddResult = { ok: true; domain: SiteDomain } | { ok: false; field: "hostname" | "form"; message: string; status: 400 | 404 | 409 | 502 };

/**
 * Adds a domain to the site. The row is claimed first (the unique index makes a double click or a resent form
 * find it, not make a second); then Cloudflare registers it. If Cloudflare refuses, the claim goes again, so
 * nothing is left half-written; if it already has the hostname (an earlier answer lost), that one is adopted.
 */
export async function addDomain(
  env: Env,
  db: Db,
  gateway: CustomHostnameGateway | null,
  input: { siteId: string; hostname: string; userId: string | null },
  now: number,
): Promise<AddResult> {
  const checked = checkClubHostname(input.hostname, platformDomains(env));
  if (!checked.ok) return { ok: false, field: "hostname", message: checked.message, status: 400 };
  const hostname = checked.hostname;
  const [platformSite] = await db.select({ id: sites.id }).from(sites).where(eq(sites.hostname, hostname)).limit(1);
  if (platformSite)
    return { ok: false, field: "hostname", message: platformSite.id === input.siteId ? DOMAIN_MESSAGES.ownAddress : HOSTNAME_MESSAGES.taken, status: 409 };
  const existing = await domainByHostname(db, hostname);
  if (existing) return sameSite(existing, input.siteId);
  if (!gateway) return { ok: false, field: "form", message: DOMAIN_MESSAGES.notConfigured, status: 404 };

  const id = crypto.randomUUID();
  try {
    await db.insert(siteDomains).values({ id, siteId: input.siteId, hostname, createdAt: now, createdBy: input.userId });
  } catch (error) {
    // Another send of the same form claimed the hostname first (drizzle keeps D1's words in the error's cause).
    if (!uniqueConstraintOf(error)) throw error;
    const claimed = await domainByHostname(db, hostname);
    if (claimed) return sameSite(claimed, input.siteId);
    throw error;
  }
  let state: HostnameState | null;
  try {
    state = await gateway.create(hostname);
  } catch (error) {
    if (!(error instanceof CustomHostnameError)) throw error;
    state = error.duplicate ? await gateway.findByHostname(hostname).catch(() => null) : null;
    if (!state) {
      await db.delete(siteDomains).where(and(eq(siteDomains.id, id), isNull(siteDomains.cloudflareId)));
      return { ok: false, field: "form", message: cloudflareRefused("add", reasonOf(error)), status: 502 };
    }
  }
  await db.update(siteDomains).set(fromCloudflare(state, now)).where(eq(siteDomains.id, id));
  await ensurePrimary(db, input.siteId);
  forgetHosts([hostname]);
  return { ok: true, domain: (await domainByHostname(db, hostname))! };
}

function sameSite(domain: SiteDomain, siteId: string): AddResult {
  return domain.siteId === siteId ? { ok: true, domain } : { ok: false, field: "hostname", message: HOSTNAME_MESSAGES.taken, status: 409 };
}

async function domainByHostname(db: Db, hostname: string): Promise<SiteDomain | null> {
  const [row] = await db.select().from(siteDomains).where(eq(siteDomains.hostname, hostname)).limit(1);
  return row ?? null;
}

/** The site's first domain is its primary until another is chosen; the partial unique index keeps it to one. */
async function ensurePrimary(db: Db, siteId: string): Promise<void> {
  try {
    await db.run(sql`
      UPDATE site_domains SET is_primary = 1
       WHERE id = (SELECT id FROM site_domains WHERE site_id = ${siteId} ORDER BY created_at, hostname LIMIT 1)
         AND NOT EXISTS (SELECT 1 FROM site_domains WHERE site_id = ${siteId} AND is_primary = 1)`);
  } catch (error) {
    // Two adds at once: the other one made its domain primary first.
    if (!uniqueConstraintOf(error)) throw error;
  }
}

/** Makes one of the site's domains its primary: the one its www or bare partner redirects to. */
export async function choosePrimary(db: Db, siteId: string, domainId: string): Promise<boolean> {
  const [domain] = await db
    .select()
    .from(siteDomains)
    .where(and(eq(siteDomains.id, domainId), eq(siteDomains.siteId, siteId)))
    .limit(1);
  if (!domain) return false;
  await db.batch([
    db
      .update(siteDomains)
      .set({ isPrimary: false })
      .where(and(eq(siteDomains.siteId, siteId), ne(siteDomains.id, domainId))),
    db
      .update(siteDomains)
      .set({ isPrimary: true })
      .where(and(eq(siteDomains.id, domainId), eq(siteDomains.siteId, siteId))),
  ]);
  forgetSite(siteId);
  return true;
}

export type RemoveResult = { ok: true } | { ok: false; message: string; status: 404 | 502 };

/** Removes a domain: Cloudflare first (so a failure there leaves it listed and registered), then here. */
export async function removeDomain(db: Db, gateway: CustomHostnameGateway | null, siteId: string, domainId: string): Promise<RemoveResult> {
  const [domain] = await db
    .select()
    .from(siteDomains)
    .where(and(eq(siteDomains.id, domainId), eq(siteDomains.siteId, siteId)))
    .limit(1);
  if (!domain) return { ok: false, message: DOMAIN_MESSAGES.noSuchDomain, status: 404 };
  if (domain.cloudflareId) {
    if (!gateway) return { ok: false, message: DOMAIN_MESSAGES.notConfigured, status: 502 };
    try {
      await gateway.remove(domain.cloudflareId);
    } catch (error) {
      if (error instanceof CustomHostnameError) return { ok: false, message: cloudflareRefused("remove", reasonOf(error)), status: 502 };
      throw error;
    }
  }
  await db.delete(siteDomains).where(and(eq(siteDomains.id, domainId), eq(siteDomains.siteId, siteId)));
  if (domain.isPrimary) await ensurePrimary(db, siteId);
  forgetHosts([domain.hostname]);
  forgetSite(siteId);
  return { ok: true };
}

// A claim with no Cloudflare id after this long lost its request (a crash between the two writes).
const ORPHAN_CLAIM_MS = 60_000;

/** Asks Cloudflare about one domain and stores its answer. False when Cloudflare could not be asked. */
async function refreshOne(db: Db, gateway: CustomHostnameGateway, domain: SiteDomain, now: number): Promise<boolean> {
  let state: HostnameState | null;
  try {
    state = domain.cloudflareId ? await gateway.get(domain.cloudflareId) : await gateway.findByHostname(domain.hostname);
  } catch (error) {
    if (error instanceof CustomHostnameError) return false;
    throw error;
  }
  const scoped = and(eq(siteDomains.id, domain.id), eq(siteDomains.siteId, domain.siteId));
  if (state) await db.update(siteDomains).set(fromCloudflare(state, now)).where(scoped);
  else if (domain.cloudflareId) await db.update(siteDomains).set({ status: "deleted", sslStatus: null, records: [], errors: [], checkedAt: now }).where(scoped);
  else if (now - domain.createdAt > ORPHAN_CLAIM_MS) await db.delete(siteDomains).where(and(scoped, isNull(siteDomains.cloudflareId)));
  if (state?.status !== domain.status) forgetHosts([domain.hostname]);
  return true;
}

const stateOf = (d: SiteDomain) => ({ cloudflareId: d.cloudflareId, status: d.status, sslStatus: d.sslStatus });

/**
 * Refreshes the site's domains from Cloudflare: those not yet live (on every view), or all of them (Check now).
 * "unreachable" when Cloudflare could not be asked about one of them.
 */
export async function refreshSiteDomains(
  db: Db,
  gateway: CustomHostnameGateway | null,
  siteId: string,
  now: number,
  which: "unsettled" | "all",
): Promise<"refreshed" | "unreachable" | "not_configured"> {
  if (!gateway) return "not_configured";
  const domains = (await listDomains(db, siteId)).filter((d) => which === "all" || settlesLater(stateOf(d)) || d.cloudflareId === null);
  const answers = await Promise.all(domains.map((d) => refreshOne(db, gateway, d, now)));
  return answers.every(Boolean) ? "refreshed" : "unreachable";
}

// Per cron run: domains on their way to live every five minutes, live ones about hourly (a CNAME moved away).
const CRON_BATCH = 50;
const LIVE_RECHECK_MS = 55 * 60_000;

/** The cron's pass over every site's domains, longest-unchecked first. */
export async function refreshDueDomains(env: Env, db: Db, now: number): Promise<void> {
  const gateway = customHostnameGateway(env);
  if (!gateway) return;
  const due = await db
    .select()
    .from(siteDomains)
    .where(
      and(
        ne(siteDomains.status, "deleted"),
        or(
          isNull(siteDomains.checkedAt),
          ne(siteDomains.status, "active"),
          ne(siteDomains.sslStatus, "active"),
          isNull(siteDomains.sslStatus),
          lt(siteDomains.checkedAt, now - LIVE_RECHECK_MS),
        ),
      ),
    )
    .orderBy(asc(siteDomains.checkedAt))
    .limit(CRON_BATCH);
  for (const domain of due) {
    await refreshOne(db, gateway, domain, now).catch((error: unknown) => console.error("Refreshing a custom domain failed", domain.hostname, error));
  }
}

/** Whether the Worker serves the site at this domain now. */
export const domainServes = (d: SiteDomain) => servesSite(stateOf(d));
