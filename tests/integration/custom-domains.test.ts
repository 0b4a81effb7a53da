/**
 * Custom domains (issue 26, decision 0047): a site's administrator adds the club's own domain on
 * /site/{site}/settings, sees the DNS records, watches Cloudflare (the in-process fake) take it live, and the
 * Worker serves the site there; www and bare names lead to the primary; no one else may claim it.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { WAITLIST_CRON } from "../../core/registration/waitlist";
import workerModule from "../../workers/index";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { HOSTNAME_MESSAGES, platformDomainMessage } from "../../core/sites/hostnames";
import { siteDomains } from "../../schema/d1";
import { refreshDueDomains } from "../../workers/services/site-domains";
import { authPost, createUserWithPassword, db, pagePost, signIn, signedInAs, pageGet } from "./auth-fixtures";
import { withCloudflareFake } from "./cloudflare-fixtures";
import { createSiteWithRace } from "./fixtures";

const PASSWORD = "granite-summit-31";
const fake = withCloudflareFake();

async function siteWithAdmin(tag: string, flags: Record<string, boolean> = { sites: true }) {
  const { site } = await createSiteWithRace(db(), { hostname: `${tag}.localhost`, siteName: `${tag} club`, raceName: `${tag} race` });
  const { cookie } = await signedInAs("localhost", [{ type: "site_admin", siteId: site.id }], { password: PASSWORD, config: flags });
  return { site, base: `/site/${site.id}/settings`, cookie };
}

const get = pageGet;

const text = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'");

async function settings(base: string, cookie: string, query = ""): Promise<string> {
  const page = await get("localhost:8787", `${base}${query}`, cookie);
  expect(page.status).toBe(200);
  return text(page);
}

const add = (base: string, cookie: string, hostname: string) => pagePost("localhost", base, { intent: "domain-add", hostname }, cookie);

const rowsOf = (hostname: string) => db().select().from(siteDomains).where(eq(siteDomains.hostname, hostname));

const creates = () => fake().requestLog.filter((r) => r.method === "POST" && r.status === 200);

describe("a site's own domain", () => {
  it("is added once however often the form is sent, shows its records, and serves the site once Cloudflare has it active", async () => {
    const { site, base, cookie } = await siteWithAdmin("domains-a");
    expect(await settings(base, cookie)).toContain("No domains yet");

    // A double click: one hostname at Cloudflare, one row, both answers the page again.
    const both = await Promise.all([add(base, cookie, "Club-A.Example.ORG."), add(base, cookie, "club-a.example.org")]);
    for (const reply of both) {
      expect(reply.status).toBe(302);
      expect(reply.headers.get("Location")).toBe(`${base}?saved=domainAdded#domains`);
    }
    expect(fake().hostnames.size).toBe(1);
    expect(creates()).toHaveLength(1);
    expect(creates()[0]!.body).toEqual({ hostname: "club-a.example.org", ssl: { method: "http", type: "dv", settings: { min_tls_version: "1.2" } } });
    const [row] = await rowsOf("club-a.example.org");
    expect(row).toMatchObject({ siteId: site.id, status: "pending", isPrimary: true });
    // A resent form later is the same domain too.
    expect((await add(base, cookie, "club-a.example.org")).status).toBe(302);
    expect(fake().hostnames.size).toBe(1);

    const page = await settings(base, cookie);
    expect(page).toMatch(/data-testid="domain-status"[^>]*>Waiting for DNS</);
    expect(page).toContain("<code>domains.localhost</code>");
    const ownership = fake().hostnames.get("club-a.example.org")!;
    expect(page).toContain(`<code>_cf-custom-hostname.club-a.example.org</code>`);
    expect(page).toContain(`<code>${ownership.ownershipValue}</code>`);
    expect(page).toContain("Cloudflare says: custom hostname does not CNAME to this zone.");

    // Not served before Cloudflare has it: the plain no-site page.
    const early = await get("club-a.example.org", "/");
    expect(early.status).toBe(404);
    expect(await early.text()).toContain("No site is at this address");

    fake().activate("club-a.example.org");
    expect(await settings(base, cookie)).toMatch(/data-testid="domain-status"[^>]*>Live</);
    const home = await get("club-a.example.org", "/");
    expect(home.status).toBe(200);
    expect(await text(home)).toContain("domains-a club");
  });

  it("cannot be claimed by a second club, nor be one of the platform's own names", async () => {
    const first = await siteWithAdmin("domains-b1");
    const second = await siteWithAdmin("domains-b2");
    expect((await add(first.base, first.cookie, "shared.example.org")).status).toBe(302);
    const refused = await add(second.base, second.cookie, "SHARED.example.org");
    expect(refused.status).toBe(409);
    expect(await text(refused)).toContain(HOSTNAME_MESSAGES.taken);
    for (const platform of ["domains-b1.localhost", "localhost", "admin.localhost"]) {
      const ours = await add(second.base, second.cookie, platform);
      expect(ours.status).toBe(400);
      expect(await text(ours)).toContain(platform === "localhost" ? HOSTNAME_MESSAGES.noDot : platformDomainMessage("localhost"));
    }
    expect(fake().hostnames.size).toBe(1);
    expect(await rowsOf("shared.example.org")).toHaveLength(1);
  });

  it("refuses garbage with the words that say what to fix, and asks Cloudflare nothing", async () => {
    const { base, cookie } = await siteWithAdmin("domains-c");
    const cases: [string, string][] = [
      ["https://club.example.org/races", HOSTNAME_MESSAGES.scheme],
      ["club.example.org:8443", HOSTNAME_MESSAGES.port],
      ["192.168.0.1", HOSTNAME_MESSAGES.ip],
      ["*.example.org", HOSTNAME_MESSAGES.wildcard],
      ["not a domain", HOSTNAME_MESSAGES.invalid],
      ["", HOSTNAME_MESSAGES.empty],
    ];
    for (const [typed, message] of cases) {
      const reply = await add(base, cookie, typed);
      expect(reply.status, typed).toBe(400);
      const html = await text(reply);
      expect(html, typed).toContain(message);
      expect(html).toContain(`value="${typed}"`);
    }
    expect(fake().requestLog).toHaveLength(0);
  });

  it("shows Cloudflare's refusals and failures as a clear message and leaves nothing half-written", async () => {
    const { base, cookie } = await siteWithAdmin("domains-d");
    fake().failNext(500);
    const failed = await add(base, cookie, "flaky.example.org");
    expect(failed.status).toBe(502);
    expect(await text(failed)).toContain("Cloudflare did not register the domain: Internal error. Nothing was saved; please try again.");
    fake().failNext(403, { code: 10000, message: "Authentication error" });
    expect(await text(await add(base, cookie, "flaky.example.org"))).toContain("Cloudflare did not register the domain: Authentication error.");
    fake().failNext(502, { html: true });
    expect(await text(await add(base, cookie, "flaky.example.org"))).toContain("Cloudflare answered 502 with something other than its API's reply.");
    expect(await rowsOf("flaky.example.org")).toHaveLength(0);
    expect(fake().hostnames.size).toBe(0);

    // Cloudflare already has it (an answer lost earlier): the one it has is adopted, not a second made.
    const earlier = await fake().fetch(`${env.CLOUDFLARE_API_BASE}/zones/${env.CLOUDFLARE_ZONE_ID}/custom_hostnames`, {
      method: "POST",
      headers: { Authorization: `Bearer ${env.CLOUDFLARE_API_TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ hostname: "flaky.example.org", ssl: { method: "http", type: "dv" } }),
    });
    const { result } = await earlier.json<{ result: { id: string } }>();
    expect((await add(base, cookie, "flaky.example.org")).status).toBe(302);
    expect(await rowsOf("flaky.example.org")).toMatchObject([{ cloudflareId: result.id }]);
    expect(fake().hostnames.size).toBe(1);

    // Check now while Cloudflare is down: the page says the status may be out of date, and keeps it.
    fake().failNext(503, { count: 5 });
    const check = await pagePost("localhost", base, { intent: "domain-check" }, cookie);
    expect(check.headers.get("Location")).toBe(`${base}?saved=domainUnreachable#domains`);
  });

  it("leads www and the bare name to the primary (308), whichever is chosen", async () => {
    const { base, cookie } = await siteWithAdmin("domains-e");
    expect((await add(base, cookie, "pair-e.example.org")).status).toBe(302);
    expect((await add(base, cookie, "www.pair-e.example.org")).status).toBe(302);
    fake().activate("pair-e.example.org");
    fake().activate("www.pair-e.example.org");
    const check = await pagePost("localhost", base, { intent: "domain-check" }, cookie);
    expect(check.headers.get("Location")).toBe(`${base}?saved=domainChecked#domains`);

    const toBare = await get("www.pair-e.example.org", "/races?x=1");
    expect(toBare.status).toBe(308);
    expect(toBare.headers.get("Location")).toBe("http://pair-e.example.org:8787/races?x=1");
    expect((await get("pair-e.example.org", "/")).status).toBe(200);

    const [www] = await rowsOf("www.pair-e.example.org");
    const chosen = await pagePost("localhost", base, { intent: "domain-primary", target: www!.id }, cookie);
    expect(chosen.headers.get("Location")).toBe(`${base}?saved=domainPrimary#domains`);
    const toWww = await get("pair-e.example.org", "/");
    expect(toWww.status).toBe(308);
    expect(toWww.headers.get("Location")).toBe("http://www.pair-e.example.org:8787/");
    expect((await get("www.pair-e.example.org", "/")).status).toBe(200);
  });

  it("is removed after a confirmation, at Cloudflare first, and the site no longer answers there", async () => {
    const { base, cookie } = await siteWithAdmin("domains-f");
    await add(base, cookie, "gone-f.example.org");
    fake().activate("gone-f.example.org");
    await settings(base, cookie);
    expect((await get("gone-f.example.org", "/")).status).toBe(200);
    const [row] = await rowsOf("gone-f.example.org");

    expect(await settings(base, cookie, `?removeDomain=${row!.id}`)).toContain("Remove gone-f.example.org?");
    fake().failNext(500, { message: "Internal server error" });
    const failed = await pagePost("localhost", base, { intent: "domain-remove", target: row!.id }, cookie);
    expect(failed.status).toBe(502);
    expect(await text(failed)).toContain("Cloudflare did not remove the domain: Internal server error. It is still registered");
    expect(await rowsOf("gone-f.example.org")).toHaveLength(1);

    const removed = await pagePost("localhost", base, { intent: "domain-remove", target: row!.id }, cookie);
    expect(removed.headers.get("Location")).toBe(`${base}?saved=domainRemoved#domains`);
    expect(fake().hostnames.size).toBe(0);
    expect(await rowsOf("gone-f.example.org")).toHaveLength(0);
    expect((await get("gone-f.example.org", "/")).status).toBe(404);
    // Another site's domain id is no such domain here.
    const other = await siteWithAdmin("domains-f2");
    await add(other.base, other.cookie, "kept-f.example.org");
    const [kept] = await rowsOf("kept-f.example.org");
    expect((await pagePost("localhost", base, { intent: "domain-remove", target: kept!.id }, cookie)).status).toBe(404);
    expect(await rowsOf("kept-f.example.org")).toHaveLength(1);
  });

  it("is refused to anyone but the site's administrators with the Sites area", async () => {
    const { site, base } = await siteWithAdmin("domains-g");
    const email = `nobody-${crypto.randomUUID().slice(0, 6)}@example.com`;
    await createUserWithPassword(email, PASSWORD);
    const nobody = await signIn("localhost", email, PASSWORD);
    expect((await get("localhost:8787", base, nobody)).status).toBe(403);
    expect((await add(base, nobody, "nobody.example.org")).status).toBe(403);

    const noFlag = await siteWithAdmin("domains-g2", {});
    expect(await settings(noFlag.base, noFlag.cookie)).toContain("Changing the site's domains needs the Sites area");
    const refused = await add(noFlag.base, noFlag.cookie, "noflag.example.org");
    expect(refused.status).toBe(403);
    // An administrator of another site cannot reach this one's.
    expect((await add(base, noFlag.cookie, "other.example.org")).status).toBe(403);
    expect(fake().requestLog).toHaveLength(0);
    expect(await db().select().from(siteDomains).where(eq(siteDomains.siteId, site.id))).toHaveLength(0);
  });

  it("is brought up to date by the cron, which also notices a CNAME that moved away", async () => {
    const { base, cookie } = await siteWithAdmin("domains-h");
    await add(base, cookie, "cron-h.example.org");
    fake().activate("cron-h.example.org");
    // The Worker's five-minute cron (the waitlists' one) asks Cloudflare.
    const ctx = createExecutionContext();
    await workerModule.scheduled(createScheduledController({ scheduledTime: new Date(), cron: WAITLIST_CRON }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await rowsOf("cron-h.example.org")).toMatchObject([{ status: "active", sslStatus: "active" }]);
    expect((await get("cron-h.example.org", "/")).status).toBe(200);
    // A sign-in started on the main host may be handed over to a live domain, as to a platform address.
    const email = `handover-${crypto.randomUUID().slice(0, 6)}@example.com`;
    await createUserWithPassword(email, PASSWORD);
    const handover = () => authPost("localhost", "/_auth/attempt", { email, method: "password", domain: "cron-h.example.org" });
    const started = await handover();
    expect(started.status).toBe(200);
    expect(await started.json()).toMatchObject({ host: "cron-h.example.org" });

    fake().move("cron-h.example.org");
    // Live domains are asked about again within the hour.
    await refreshDueDomains(env, db(), Date.now() + 3_600_000);
    expect(await rowsOf("cron-h.example.org")).toMatchObject([{ status: "moved" }]);
    expect((await get("cron-h.example.org", "/")).status).toBe(404);
    expect((await handover()).status).toBe(400);
    expect(await settings(base, cookie)).toMatch(/data-testid="domain-status"[^>]*>DNS record changed</);
  });
});
