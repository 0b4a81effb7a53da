/**
 * The "Domains" section of /site/{site}/settings (decision 0047): the site's own domains with the DNS records
 * to create and their state in words, refreshed from Cloudflare on every view; add, Check now, choose the
 * primary, remove after a confirmation. The rules are in workers/services/site-domains.ts and core/sites/.
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { can, type Principal } from "../../core/access/policy";
import { domainWords, settlesLater } from "../../core/sites/domain-status";
import { wwwRedirectTarget } from "../../core/sites/hostnames";
import type { Db } from "../../schema/d1";
import { customHostnameGateway } from "../../workers/services/custom-hostnames";
import { addDomain, choosePrimary, DOMAIN_MESSAGES, listDomains, refreshSiteDomains, removeDomain, type SiteDomain } from "../../workers/services/site-domains";
import { pageUrl, refuse, type PostedForm } from "../forms/posted-form.server";

export const DOMAIN_INTENTS = { add: "domain-add", check: "domain-check", primary: "domain-primary", remove: "domain-remove" } as const;
const INTENTS: readonly string[] = Object.values(DOMAIN_INTENTS);

/** The site's administrators with the Sites area (as for its look), on the main host or the site's own. */
function mayManageDomains(context: AppLoadContext, principal: Principal, siteId: string): boolean {
  if (context.tenant.kind === "site" && context.tenant.siteId !== siteId) return false;
  return can(principal, "edit", { area: "sites", id: siteId, siteId });
}

const PURPOSE = { CNAME: "Leads the domain to the site", TXT: "Proves the domain is the club's" } as const;

function viewOf(domain: SiteDomain, target: string, primary: string | null) {
  const state = { cloudflareId: domain.cloudflareId, status: domain.status, sslStatus: domain.sslStatus };
  return {
    id: domain.id,
    hostname: domain.hostname,
    isPrimary: domain.isPrimary,
    words: domainWords(state),
    /** The records matter while the domain is on its way (or back) to live, not once live or gone. */
    showRecords: settlesLater(state),
    // The CNAME first: it is what makes the domain lead here; the TXT records prove it is the club's.
    records: [{ type: "CNAME" as const, name: domain.hostname, value: target }, ...domain.records].map((r) => ({ ...r, purpose: PURPOSE[r.type] })),
    /** The primary this www or bare partner sends its visitors to, once both are live. */
    leadsTo: wwwRedirectTarget(domain.hostname, primary),
    errors: domain.errors,
    checkedAt: domain.checkedAt,
  };
}

export type SiteDomainsView = NonNullable<Awaited<ReturnType<typeof siteDomainsData>>>;

/** The section's data, after asking Cloudflare about the domains not yet live; null for a caller who may not manage them. */
export async function siteDomainsData(context: AppLoadContext, db: Db, principal: Principal, siteId: string, request: Request) {
  if (!mayManageDomains(context, principal, siteId)) return { mayManage: false as const };
  const gateway = customHostnameGateway(context.env);
  const refreshed = await refreshSiteDomains(db, gateway, siteId, context.now, "unsettled");
  const rows = await listDomains(db, siteId);
  const primary = rows.find((d) => d.isPrimary)?.hostname ?? null;
  const domains = rows.map((d) => viewOf(d, context.env.CUSTOM_DOMAINS_TARGET, primary));
  const removeId = new URL(request.url).searchParams.get("removeDomain");
  return {
    mayManage: true as const,
    configured: gateway !== null,
    notConfigured: DOMAIN_MESSAGES.notConfigured,
    unreachable: refreshed === "unreachable" ? DOMAIN_MESSAGES.unreachable : null,
    target: context.env.CUSTOM_DOMAINS_TARGET,
    domains,
    removing: domains.find((d) => d.id === removeId) ?? null,
  };
}

/** Handles a Domains intent; null when the posted intent is another section's. */
export async function siteDomainsAction(context: AppLoadContext, db: Db, principal: Principal, user: { id: string }, siteId: string, posted: PostedForm) {
  if (!INTENTS.includes(posted.intent)) return null;
  if (!mayManageDomains(context, principal, siteId)) return refuse(posted, { form: "You may not change this site's domains." }, 403);
  const base = `/site/${siteId}/settings`;
  const gateway = customHostnameGateway(context.env);
  if (posted.intent === DOMAIN_INTENTS.add) {
    const added = await addDomain(context.env, db, gateway, { siteId, hostname: posted.values.hostname ?? "", userId: user.id }, context.now);
    if (!added.ok) return refuse(posted, { [added.field]: added.message }, added.status);
    return redirect(`${pageUrl(base, "domainAdded")}#domains`);
  }
  if (posted.intent === DOMAIN_INTENTS.check) {
    const refreshed = await refreshSiteDomains(db, gateway, siteId, context.now, "all");
    if (refreshed === "not_configured") return refuse(posted, { form: DOMAIN_MESSAGES.notConfigured }, 404);
    return redirect(`${pageUrl(base, refreshed === "refreshed" ? "domainChecked" : "domainUnreachable")}#domains`);
  }
  if (!posted.target) return refuse(posted, { form: DOMAIN_MESSAGES.noSuchDomain }, 404);
  if (posted.intent === DOMAIN_INTENTS.primary) {
    if (!(await choosePrimary(db, siteId, posted.target))) return refuse(posted, { form: DOMAIN_MESSAGES.noSuchDomain }, 404);
    return redirect(`${pageUrl(base, "domainPrimary")}#domains`);
  }
  const removed = await removeDomain(db, gateway, siteId, posted.target);
  if (!removed.ok) return refuse(posted, { form: removed.message }, removed.status);
  return redirect(`${pageUrl(base, "domainRemoved")}#domains`);
}
