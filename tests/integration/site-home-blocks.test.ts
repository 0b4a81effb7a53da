/**
 * A site's home page blocks (decision 0056) edited in its settings, saved through the entity service (its
 * content version bumped, so visitors see the change), with uploaded images; and images uploaded into a
 * newsletter, kept by their whole address on the site's host for the mail.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LINK_MESSAGE } from "../../core/sites/site-links";
import { capturedMail, emailNewsletters, eventPages, sites } from "../../schema/d1";
import { createUserWithPassword, db, pagePost, signIn, worker, multipartPost, pageGet } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { createApp, issueToken } from "./oauth-fixtures";

const PASSWORD = "home-blocks-42";
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

async function siteWithAdmins(tag: string) {
  const hostname = `${tag}-${crypto.randomUUID().slice(0, 6)}.localhost`;
  const { site, club, race } = await createSiteWithRace(db(), { hostname, siteName: `${tag} site`, raceName: `${tag} race` });
  await db()
    .update(sites)
    .set({ config: { name: `${tag} site`, tagline: "Running by the sea" } })
    .where(eq(sites.id, site.id));
  const email = `${tag}-${crypto.randomUUID().slice(0, 6)}@example.com`;
  const user = await createUserWithPassword(email, PASSWORD, [{ type: "site_admin", siteId: site.id }]);
  await env.DB.prepare("UPDATE roles SET config = ? WHERE user_id = ?")
    .bind(JSON.stringify({ sites: true }), user.id)
    .run();
  const clubEmail = `${tag}-club-${crypto.randomUUID().slice(0, 6)}@example.com`;
  await createUserWithPassword(clubEmail, PASSWORD, [{ type: "org_admin", clubId: club.id }]);
  return {
    hostname,
    site,
    club,
    race,
    user,
    cookie: await signIn("localhost", email, PASSWORD),
    clubCookie: await signIn("localhost", clubEmail, PASSWORD),
  };
}

const get = pageGet;

const multipart = multipartPost;

const blockFields = (blocks: Record<string, string | File>[]) => ({
  count: String(blocks.length),
  ...Object.fromEntries(blocks.flatMap((b, i) => Object.entries(b).map(([k, v]) => [`b${i}.${k}`, v]))),
});

const mtimeOf = (html: string) => /<input type="hidden" name="mtime" value="(\d+)"/.exec(html)?.[1] ?? "";
const versionOf = async (siteId: string) => (await db().select({ version: sites.version }).from(sites).where(eq(sites.id, siteId)))[0]!.version;

describe("a site's home page blocks", () => {
  it("are edited in the site's settings, saved with the site's new version and shown to visitors; none brings the default back", async () => {
    const a = await siteWithAdmins("home-a");
    const path = `/site/${a.site.id}/home`;
    expect(await (await get("localhost", `/site/${a.site.id}/settings`, a.cookie)).text()).toContain(path);
    const editor = await (await get("localhost", path, a.cookie)).text();
    expect(editor).toContain("No blocks yet");
    const mtime = mtimeOf(editor);
    const before = await get(a.hostname, "/");
    expect(await before.text()).toContain('<p class="tagline">Running by the sea</p>');

    // Adding a block answers with the draft and saves nothing.
    const added = await multipart(path, { intent: "add:events", mtime, ...blockFields([]) }, a.cookie);
    expect(added.status).toBe(200);
    expect(await added.text()).toContain("Heading above the list");

    await db()
      .insert(eventPages)
      .values({
        id: crypto.randomUUID(),
        clubId: a.club.id,
        siteId: a.site.id,
        name: "Harbour Loppet",
        pageUrl: "harbour-loppet",
        startDate: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10),
        fieldMtimes: {},
      });
    const version = await versionOf(a.site.id);
    const blocks: Record<string, string>[] = [
      { type: "heading", text: "Welcome to the harbour" },
      { type: "text", text: "Races all year. [Our events](/events)" },
      { type: "events", text: "Coming up" },
      { type: "races", text: "Next races" },
      { type: "button", text: "Join the club", url: "/join" },
    ];
    const saved = await multipart(path, { intent: "save", mtime, ...blockFields(blocks) }, a.cookie);
    expect(saved.status).toBe(302);
    expect(await versionOf(a.site.id)).toBe(version + 1);
    const home = await (await get(a.hostname, "/")).text();
    expect(home).toContain("Welcome to the harbour");
    expect(home).toContain("Coming up");
    expect(home).toContain("Harbour Loppet");
    expect(home).toContain("Next races");
    expect(home).toContain(a.race.name);
    expect(home).toContain('href="/join"');
    expect(home).not.toContain('class="tagline"');
    const preview = await (await get("localhost", path, a.cookie)).text();
    expect(preview).toContain("Preview (as saved)");
    expect(preview).toContain("Harbour Loppet");

    // A save from a page opened before the last one is refused, never merged.
    const stale = await multipart(path, { intent: "save", mtime, ...blockFields([{ type: "heading", text: "Older" }]) }, a.cookie);
    expect(stale.status).toBe(409);

    const fresh = mtimeOf(await (await get("localhost", path, a.cookie)).text());
    expect((await multipart(path, { intent: "save", mtime: fresh, ...blockFields([]) }, a.cookie)).status).toBe(302);
    expect(await (await get(a.hostname, "/")).text()).toContain('<p class="tagline">Running by the sea</p>');
  });

  it("refuse a bad block with the data API's words, take uploaded images and refuse anything else, storing nothing", async () => {
    const a = await siteWithAdmins("home-b");
    const path = `/site/${a.site.id}/home`;
    const mtime = mtimeOf(await (await get("localhost", path, a.cookie)).text());
    const bad = await multipart(path, { intent: "save", mtime, ...blockFields([{ type: "button", text: "Go", url: "javascript:alert(1)" }]) }, a.cookie);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(LINK_MESSAGE.replaceAll("'", "&#x27;"));
    const token = await issueToken(a.user.id, await createApp({ scopes: "sites" }), "localhost", "sites");
    const api = await worker.fetch(
      hostRequest("localhost", `/data-api/WhitelabelSite/${a.site.id}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ config: { name: "x", home: [{ type: "button", text: "Go", url: "javascript:alert(1)" }] } }),
      }),
    );
    expect(api.status).toBe(400);
    expect((await api.json()) as { message: string }).toMatchObject({ message: expect.stringContaining(LINK_MESSAGE) });

    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], "pic.png", { type: "image/png" });
    const refused = await multipart(path, { intent: "save", mtime, ...blockFields([{ type: "image", image_url: "", alt: "", file: svg }]) }, a.cookie);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("An image must be a PNG, JPEG, WebP or GIF image");
    const big = new File([PNG, new Uint8Array(2 * 1024 * 1024)], "big.png");
    const tooBig = await multipart(path, { intent: "add:text", mtime, ...blockFields([{ type: "image", image_url: "", alt: "", file: big }]) }, a.cookie);
    expect(tooBig.status).toBe(400);
    expect(await tooBig.text()).toContain("An image is at most 2 MB");
    expect((await env.UPLOADS.list({ prefix: `media/sites/${a.site.id}/` })).objects).toHaveLength(0);

    const photo = new File([PNG], "photo.png");
    const saved = await multipart(path, { intent: "save", mtime, ...blockFields([{ type: "image", image_url: "", alt: "The start", file: photo }]) }, a.cookie);
    expect(saved.status).toBe(302);
    const [row] = await db().select().from(sites).where(eq(sites.id, a.site.id));
    const image = (row!.config as { home: { image_url: string }[] }).home[0]!.image_url;
    expect(image).toMatch(new RegExp(`^/media/sites/${a.site.id}/[0-9a-f]{64}\\.png$`));
    expect(await (await get(a.hostname, "/")).text()).toContain(`src="${image}"`);
    expect((await get(a.hostname, image)).headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
  });

  it("are closed to a club's admin who is not the site's administrator", async () => {
    const a = await siteWithAdmins("home-c");
    const reply = await get("localhost", `/site/${a.site.id}/home`, a.clubCookie);
    expect([403, 404]).toContain(reply.status);
    expect([403, 404]).toContain((await pagePost("localhost", `/site/${a.site.id}/home`, { intent: "save", count: "0", mtime: "0" }, a.clubCookie)).status);
  });
});

describe("newsletter images", () => {
  it("are uploaded to the club's site and mailed by their whole address on the site's host; a non-image is refused and nothing stored", async () => {
    const a = await siteWithAdmins("news-img");
    const submission = crypto.randomUUID();
    await pagePost("localhost", `/club/${a.club.id}/newsletters`, { intent: "create", submission, subject: "Photos" }, a.clubCookie);
    const path = `/club/${a.club.id}/newsletters/${submission}`;
    const fields = (file: File) => ({ subject: "Photos", members: "on", ...blockFields([{ type: "image", image_url: "", text: "The start", url: "", file }]) });

    const text = await multipart(path, { intent: "save", ...fields(new File(["just text"], "photo.jpg", { type: "image/jpeg" })) }, a.clubCookie);
    expect(text.status).toBe(400);
    expect(await text.text()).toContain("An image must be a PNG, JPEG, WebP or GIF image");
    expect((await env.UPLOADS.list({ prefix: `media/sites/${a.site.id}/` })).objects).toHaveLength(0);

    const tested = await multipart(path, { intent: "test", ...fields(new File([PNG], "photo.png")) }, a.clubCookie);
    expect(tested.status).toBe(302);
    const [row] = await db().select().from(emailNewsletters).where(eq(emailNewsletters.id, submission));
    const image = (row!.elements as { image_url: string }[])[0]!.image_url;
    expect(image).toMatch(new RegExp(`^https?://${a.hostname.replace(".", "\\.")}(:\\d+)?/media/sites/${a.site.id}/[0-9a-f]{64}\\.png$`));
    const [mail] = await db().select().from(capturedMail).where(eq(capturedMail.subject, "[Test] Photos"));
    expect(mail!.html).toContain(`src="${image}"`);
    expect((await get(a.hostname, new URL(image).pathname)).status).toBe(200);
  });
});
