/**
 * A site's look (issue 26): its administrators change the name, tagline and colours on /site/{site}/settings,
 * and the data API changes the same WhitelabelSite config under the same rules and words.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sites } from "../../schema/d1";
import { WhitelabelSite } from "../../schema/entities/classes";
import { historyOf } from "../../workers/services/entity-history";
import { createUserWithPassword, db, pagePost, signIn, worker, pageGet } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { createApp, issueToken } from "./oauth-fixtures";

const PASSWORD = "harbour-lights-77";
const LOW_TEXT = "Text on the background needs a contrast of at least 4.5:1; these colours give 1.6:1";

async function siteWithAdmin(tag: string, config: Record<string, boolean>) {
  const hostname = `${tag}.localhost`;
  const { site } = await createSiteWithRace(db(), { hostname, siteName: `${tag} club`, raceName: `${tag} race` });
  const email = `${tag}@example.com`;
  const user = await createUserWithPassword(email, PASSWORD, [{ type: "site_admin", siteId: site.id }]);
  await env.DB.prepare("UPDATE roles SET config = ? WHERE user_id = ?").bind(JSON.stringify(config), user.id).run();
  return { site, hostname, user, cookie: await signIn("localhost", email, PASSWORD) };
}

const get = pageGet;

const mtimeOf = (html: string) => /<input type="hidden" name="mtime" value="(\d+)"/.exec(html)?.[1] ?? "";

const look = (mtime: string, colours: Record<string, string>, name = "Harbour Runners") => ({
  intent: "look",
  mtime,
  name,
  tagline: "Running by the sea since 1984",
  primary: "#1e3a8a",
  accent: "#e11d48",
  background: "#ffffff",
  text: "#111827",
  ...colours,
});

describe("a site's look", () => {
  it("is saved by the site's administrator, refused when unreadable, and shown on the public site", async () => {
    const { site, hostname, user, cookie } = await siteWithAdmin("look-a", { sites: true });
    const page = await (await get("localhost", `/site/${site.id}/settings`, cookie)).text();
    expect(page).toContain("Save the look");
    const mtime = mtimeOf(page);

    const refused = await pagePost("localhost", `/site/${site.id}/settings`, look(mtime, { text: "#cccccc" }), cookie);
    expect(refused.status).toBe(400);
    expect((await refused.text()).replaceAll("<!-- -->", "")).toContain(LOW_TEXT);
    const noName = await pagePost("localhost", `/site/${site.id}/settings`, look(mtime, {}, " "), cookie);
    expect(noName.status).toBe(400);
    expect(await noName.text()).toContain("Enter the site&#x27;s name");

    // A double click: the same form twice from the same read saves once and is "saved" both times.
    const [saved, again] = await Promise.all([
      pagePost("localhost", `/site/${site.id}/settings`, look(mtime, { primary: "#0b6e4f" }), cookie),
      pagePost("localhost", `/site/${site.id}/settings`, look(mtime, { primary: "#0b6e4f" }), cookie),
    ]);
    for (const reply of [saved, again]) {
      expect(reply.status).toBe(302);
      expect(reply.headers.get("Location")).toBe(`/site/${site.id}/settings?saved=saved`);
    }
    const [row] = await db().select().from(sites).where(eq(sites.id, site.id));
    expect(row!.config).toMatchObject({ name: "Harbour Runners", tagline: "Running by the sea since 1984", colours: { primary: "#0b6e4f" } });
    const configHistory = (await historyOf(db(), WhitelabelSite, site.id)).filter((h) => h.field === "config");
    expect(configHistory).toHaveLength(1);
    expect(configHistory[0]).toMatchObject({ userId: user.id });

    // The public site wears it at once.
    const home = await (await get(hostname, "/")).text();
    expect(home).toContain("Harbour Runners");
    expect(home).toContain("--colour-primary:#0b6e4f");

    // A second save from the page as it was first read is refused, not silently lost.
    const stale = await pagePost("localhost", `/site/${site.id}/settings`, look(mtime, { primary: "#7c2d12" }), cookie);
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("Someone changed the look since you opened this page");
  });

  it("refuses the same unreadable colours through the data API with the same words, and never creates or deletes a site", async () => {
    const { site, hostname, user } = await siteWithAdmin("look-b", { sites: true });
    const appId = await createApp({ scopes: "sites" });
    const token = await issueToken(user.id, appId, hostname, "sites");
    const api = (method: string, path: string, body?: unknown) =>
      worker.fetch(
        hostRequest(hostname, path, {
          method,
          headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        }),
      );
    const config = { name: "Look B", colours: { primary: "#1e3a8a", accent: "#e11d48", background: "#ffffff", text: "#cccccc" } };
    const refused = await api("POST", `/data-api/WhitelabelSite/${site.id}`, { config });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message: `config.colours.text: ${LOW_TEXT}`, fields: { "config.colours.text": LOW_TEXT } });
    const hostnameChange = await api("POST", `/data-api/WhitelabelSite/${site.id}`, { hostname: "elsewhere.example.org" });
    expect(hostnameChange.status).toBe(400);
    expect((await api("DELETE", `/data-api/WhitelabelSite/${site.id}`)).status).toBe(405);
    expect((await api("PUT", "/data-api/WhitelabelSite/", { config })).status).toBe(405);

    const ok = await api("POST", `/data-api/WhitelabelSite/${site.id}`, { config: { ...config, colours: { ...config.colours, text: "#111827" } } });
    expect(ok.status).toBe(200);
    const [row] = await db().select().from(sites).where(eq(sites.id, site.id));
    expect(row!.hostname).toBe(hostname);
    expect(row!.config).toMatchObject({ name: "Look B" });
  });

  it("is shown but not changeable by a site administrator without the Sites flag", async () => {
    const { site, cookie } = await siteWithAdmin("look-c", { registrations: true });
    const page = await (await get("localhost", `/site/${site.id}/settings`, cookie)).text();
    expect(page).not.toContain("Save the look");
    const refused = await pagePost("localhost", `/site/${site.id}/settings`, look("0", {}), cookie);
    expect(refused.status).toBe(404);
  });

  it("takes a logo that is an image, stores it by its hash in R2, serves it for good, and refuses anything else", async () => {
    const { site, hostname, cookie } = await siteWithAdmin("look-d", { sites: true });
    const upload = (file: File | null, extra: Record<string, string> = {}) => {
      const form = new FormData();
      form.set("intent", "logo");
      if (file) form.set("logo", file);
      for (const [key, value] of Object.entries(extra)) form.set(key, value);
      return worker.fetch(
        hostRequest("localhost:8787", `/site/${site.id}/settings`, {
          method: "POST",
          headers: { Origin: "http://localhost:8787", "Sec-Fetch-Site": "same-origin", Cookie: cookie },
          body: form,
          redirect: "manual",
        }),
      );
    };
    // An SVG with a script, and a text file that calls itself a PNG: refused by what they are.
    const svg = await upload(new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], "logo.svg", { type: "image/svg+xml" }));
    expect(svg.status).toBe(400);
    expect(await svg.text()).toContain("A logo must be a PNG, JPEG, WebP or GIF image");
    expect((await upload(new File(["hello"], "logo.png", { type: "image/png" }))).status).toBe(400);
    const big = await upload(
      new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), new Uint8Array(512 * 1024)], "big.png", { type: "image/png" }),
    );
    expect(await big.text()).toContain("A logo is at most 512 KB");
    expect((await env.UPLOADS.list({ prefix: `media/sites/${site.id}/` })).objects).toHaveLength(0);

    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
    const saved = await upload(new File([png], "anything.txt", { type: "text/plain" }));
    expect(saved.status).toBe(302);
    const [row] = await db().select().from(sites).where(eq(sites.id, site.id));
    const logoUrl = (row!.config as { logoUrl: string }).logoUrl;
    expect(logoUrl).toMatch(new RegExp(`^/media/sites/${site.id}/[0-9a-f]{64}\\.png$`));

    const served = await get(hostname, logoUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(served.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);
    expect(await (await get(hostname, "/")).text()).toContain(`src="${logoUrl}"`);
    expect((await get(hostname, `/media/sites/${site.id}/${"0".repeat(64)}.png`)).status).toBe(404);
    expect((await get(hostname, "/media/sites/../secret")).status).toBe(404);
    // The settings page on the main host shows it; another club's site does not serve it.
    expect((await get("localhost", logoUrl)).status).toBe(200);
    const other = await createSiteWithRace(db(), { hostname: "look-other.localhost", siteName: "Other", raceName: "Other race" });
    expect(other.site.hostname).toBe("look-other.localhost");
    expect((await get("look-other.localhost", logoUrl)).status).toBe(404);

    const removed = await upload(null, { remove: "1" });
    expect(removed.status).toBe(302);
    const [after] = await db().select().from(sites).where(eq(sites.id, site.id));
    expect(after!.config).not.toHaveProperty("logoUrl");
  });
});
