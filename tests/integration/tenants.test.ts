import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openDb } from "../../schema/d1";
import { createSiteWithRace, hostRequest } from "./fixtures";

const worker = exports.default;

async function page(host: string, path = "/") {
  const response = await worker.fetch(hostRequest(host, path));
  return { status: response.status, html: await response.text(), headers: response.headers };
}

describe("tenancy by hostname", () => {
  it("serves the platform home on the main host with public races of every site", async () => {
    const db = openDb(env.DB);
    await createSiteWithRace(db, { hostname: "alpha.localhost", siteName: "Alpha", raceName: "Alpha Sprint" });
    await createSiteWithRace(db, { hostname: "beta.localhost", siteName: "Beta", raceName: "Beta Marathon" });
    await createSiteWithRace(db, { hostname: "gamma.localhost", siteName: "Gamma", raceName: "Gamma Secret", visibility: "private" });
    const { status, html } = await page("localhost:8787");
    expect(status).toBe(200);
    expect(html).toContain("<title>Startline</title>");
    expect(html).toContain("Alpha Sprint");
    expect(html).toContain("Beta Marathon");
    expect(html).not.toContain("Gamma Secret");
  });

  it("searches the main host's races by name, club or place", async () => {
    const db = openDb(env.DB);
    await createSiteWithRace(db, { hostname: "s1.localhost", siteName: "S1", raceName: "Harbour Night Run" });
    await createSiteWithRace(db, { hostname: "s2.localhost", siteName: "S2", raceName: "Mountain Loppet" });
    const { html } = await page("localhost", "/?q=harbour");
    expect(html).toContain("Harbour Night Run");
    expect(html).not.toContain("Mountain Loppet");
    const none = await page("localhost", "/?q=%25");
    expect(none.html).toContain("No upcoming races match");
  });

  it("serves a whitelabel site in its own theme with only its own club's races", async () => {
    const db = openDb(env.DB);
    await createSiteWithRace(db, { hostname: "north.localhost", siteName: "North Nordic", raceName: "North Classic", colours: { primary: "#123456" } });
    await createSiteWithRace(db, { hostname: "south.localhost", siteName: "South Runners", raceName: "South Half" });
    const { status, html } = await page("North.Localhost:8787");
    expect(status).toBe(200);
    expect(html).toContain("<title>North Nordic</title>");
    expect(html).toContain("--colour-primary:#123456");
    expect(html).toContain("North Classic");
    expect(html).not.toContain("South Half");
    expect(html).not.toContain("South Runners");
  });

  it("shows an empty state on a site with no upcoming races", async () => {
    const db = openDb(env.DB);
    await createSiteWithRace(db, { hostname: "quiet.localhost", siteName: "Quiet Club", raceName: "Last Year's Race", startInDays: -30 });
    const { html } = await page("quiet.localhost");
    expect(html).toContain("No upcoming races yet.");
    expect(html).not.toContain("Last Year&#x27;s Race");
  });

  it("serves the super-admin home on the admin host", async () => {
    const { status, html } = await page("admin.localhost:8787");
    expect(status).toBe(200);
    expect(html).toContain("System administration");
    expect(html).toContain('href="/_admin/clubs"');
    expect(html).toContain("Organizations");
    // An area is for System Administrators with its flag (route-access.test.ts opens each one): sign in first.
    const area = await worker.fetch(hostRequest("admin.localhost", "/_admin/pointsseries", { redirect: "manual" }));
    expect(area.status).toBe(302);
    expect(area.headers.get("Location")).toBe("/login?goto=%2F_admin%2Fpointsseries");
  });

  it("keeps super-admin pages off every other host", async () => {
    expect((await page("localhost", "/_admin/clubs")).status).toBe(404);
    await createSiteWithRace(openDb(env.DB), { hostname: "club.localhost", siteName: "Club", raceName: "R" });
    expect((await page("club.localhost", "/_admin/clubs")).status).toBe(404);
  });

  it("answers an unknown hostname with the no-site page and nothing of any tenant", async () => {
    await createSiteWithRace(openDb(env.DB), { hostname: "known.localhost", siteName: "Known Club", raceName: "Known Race" });
    const { status, html, headers } = await page("nobody.localhost:8787");
    expect(status).toBe(404);
    expect(html).toContain("No site is at this address");
    expect(html).toContain("nobody.localhost");
    expect(html).not.toContain("Known");
    expect(headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it("escapes a hostile Host header on the no-site page", async () => {
    const response = await worker.fetch(new Request("http://x/", { headers: { Host: "<script>alert(1)</script>" } }));
    const html = await response.text();
    expect(response.status).toBe(404);
    expect(html).not.toContain("<script>alert(1)</script>");
  });

  it("shows a race only on its own site", async () => {
    const db = openDb(env.DB);
    const east = await createSiteWithRace(db, { hostname: "east.localhost", siteName: "East", raceName: "East 10k" });
    await createSiteWithRace(db, { hostname: "west.localhost", siteName: "West", raceName: "West 5k" });
    const own = await page("east.localhost", `/races/${east.race.id}`);
    expect(own.status).toBe(200);
    expect(own.html).toContain("East 10k");
    const other = await page("west.localhost", `/races/${east.race.id}`);
    expect(other.status).toBe(404);
    expect(other.html).not.toContain("East 10k");
    expect((await page("east.localhost", "/races/not-a-uuid")).status).toBe(404);
  });

  it("gives the API mount points their own JSON answers", async () => {
    await createSiteWithRace(openDb(env.DB), { hostname: "api.localhost", siteName: "Api", raceName: "R" });
    for (const path of ["/_auth/nothing", "/data-api/nothing", "/timing-api/nothing"]) {
      const response = await worker.fetch(hostRequest("api.localhost", path));
      expect(response.status).toBe(404);
      expect(response.headers.get("Content-Type")).toContain("application/json");
      // Under /data-api/ any first segment names a class, so the answer says which class is unknown.
      const message = path.startsWith("/data-api/") ? "No such class: nothing" : `No such endpoint: ${path}`;
      expect(await response.json()).toEqual({ error: "not_found", message });
    }
  });
});
