/**
 * A site's pages, menu, fonts, languages and edge cache (issue 26, decision 0053): its administrators write
 * pages and the menu on /site/{site}/…, the data API refuses the same with the same words, published pages
 * are served at their address, and anonymous visitors get them from the edge cache until the site changes.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PAGE_PATH_MESSAGES } from "../../core/sites/page-paths";
import { LINK_MESSAGE } from "../../core/sites/site-links";
import { sitePages, sites } from "../../schema/d1";
import { createUserWithPassword, db, pagePost, signIn, worker, multipartPost, pageGet } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { createApp, issueToken } from "./oauth-fixtures";

const PASSWORD = "harbour-lights-77";

async function siteWithAdmin(tag: string) {
  const hostname = `${tag}.localhost`;
  const { site } = await createSiteWithRace(db(), { hostname, siteName: `${tag} club`, raceName: `${tag} race` });
  const email = `${tag}@example.com`;
  const user = await createUserWithPassword(email, PASSWORD, [{ type: "site_admin", siteId: site.id }]);
  await env.DB.prepare("UPDATE roles SET config = ? WHERE user_id = ?")
    .bind(JSON.stringify({ sites: true, pages: true }), user.id)
    .run();
  return { site, hostname, user, cookie: await signIn("localhost", email, PASSWORD) };
}

const get = pageGet;
const text = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");
const mtimeOf = (html: string) => /<input type="hidden" name="mtime" value="(\d+)"/.exec(html)?.[1] ?? "";
const blocks = (list: Record<string, string>[]) =>
  Object.fromEntries([["count", String(list.length)], ...list.flatMap((b, i) => Object.entries(b).map(([k, v]) => [`b${i}.${k}`, v]))]);

describe("a site's pages", () => {
  it("are created once on a double click, edited as blocks, previewed, and served only once published", async () => {
    const { site, hostname, cookie } = await siteWithAdmin("pages-a");
    const list = await text(await get("localhost", `/site/${site.id}/pages`, cookie));
    const submission = /name="submission" value="([0-9a-f-]{36})"/.exec(list)![1]!;
    const form = { intent: "create", submission, title: "About us", path: "About" };
    const [first, second] = await Promise.all([
      pagePost("localhost", `/site/${site.id}/pages`, form, cookie),
      pagePost("localhost", `/site/${site.id}/pages`, form, cookie),
    ]);
    expect([first.status, second.status]).toEqual([302, 302]);
    expect(first.headers.get("Location")).toBe(`/site/${site.id}/pages/${submission}`);
    expect(second.headers.get("Location")).toBe(`/site/${site.id}/pages/${submission}`);
    expect(await db().select().from(sitePages).where(eq(sitePages.siteId, site.id))).toHaveLength(1);

    const editor = `/site/${site.id}/pages/${submission}`;
    const body = blocks([
      { type: "heading", text: "Our club" },
      { type: "text", text: "We race.\n\nSee [the events](/events) or [bad](javascript:alert(1))." },
      { type: "button", text: "Join", url: "/register" },
    ]);
    const badButton = await pagePost(
      "localhost",
      editor,
      { intent: "save", title: "About us", path: "/about", ...body, "b2.url": "javascript:alert(1)" },
      cookie,
    );
    expect(badButton.status).toBe(400);
    expect(await text(badButton)).toContain(LINK_MESSAGE);
    const saved = await pagePost("localhost", editor, { intent: "save", title: "About us", path: "/about", ...body }, cookie);
    expect(saved.status).toBe(302);
    // The draft's preview shows on the editor; visitors still get Not found.
    const preview = await text(await get("localhost", editor, cookie));
    expect(preview).toContain("Preview (as saved)");
    expect(preview).toContain('<a href="/events">the events</a>');
    expect((await get(hostname, "/about")).status).toBe(404);

    expect((await pagePost("localhost", editor, { intent: "publish", title: "About us", path: "/about", ...body }, cookie)).status).toBe(302);
    const page = await get(hostname, "/about");
    expect(page.status).toBe(200);
    const html = await text(page);
    expect(html).toContain("<h1>About us</h1>");
    expect(html).toContain('<a class="button-link" href="/register">Join</a>');
    expect(html).not.toContain('href="javascript:');
    // Another site's host never serves it.
    const other = await createSiteWithRace(db(), { hostname: "pages-a-other.localhost", siteName: "Other", raceName: "Other race" });
    expect(other.site.id).not.toBe(site.id);
    expect((await get("pages-a-other.localhost", "/about")).status).toBe(404);
    // A post to a club page, or to a path no route claims, is a 404 too (it was a 405 logged as a server error).
    expect((await pagePost(hostname, "/about", { anything: "x" })).status).toBe(404);
    expect((await pagePost(hostname, "/newsletters/unsubscribe/garbage", { List: "One-Click" })).status).toBe(404);
  });

  it("refuses the product's own addresses and a taken one, with the same words on the page and in the data API", async () => {
    const { site, hostname, user, cookie } = await siteWithAdmin("pages-b");
    const create = (path: string) =>
      pagePost("localhost", `/site/${site.id}/pages`, { intent: "create", submission: crypto.randomUUID(), title: "T", path }, cookie);
    const reserved = await create("/events");
    expect(reserved.status).toBe(400);
    expect(await text(reserved)).toContain(PAGE_PATH_MESSAGES.reserved("events").replaceAll("'", "&#x27;"));
    expect((await create("/history")).status).toBe(302);
    const taken = await create("/history");
    expect(taken.status).toBe(409);
    expect(await text(taken)).toContain("Another page of this site is already at this address; choose another");

    const appId = await createApp({ scopes: "pages" });
    const token = await issueToken(user.id, appId, hostname, "pages");
    const api = (body: unknown) =>
      worker.fetch(
        hostRequest(hostname, "/data-api/Page/", {
          method: "PUT",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    const viaApi = await api({ site: site.id, title: "T", path: "/login", body: "" });
    expect(viaApi.status).toBe(400);
    expect(await viaApi.json()).toMatchObject({ fields: { path: PAGE_PATH_MESSAGES.reserved("login") } });
    const badBlocks = await api({ site: site.id, title: "T", path: "/blocks", body: JSON.stringify([{ type: "image", image_url: "http://x.org/a.png" }]) });
    expect(badBlocks.status).toBe(400);
    expect(await badBlocks.json()).toMatchObject({ fields: { "body.0.image_url": "An image's address starts with https://" } });
    // Garbage is a 4xx, never a 500.
    expect((await api("not json")).status).toBeLessThan(500);
    expect((await pagePost("localhost", `/site/${site.id}/pages/not-a-page`, { intent: "save" }, cookie)).status).toBe(404);
  });

  it("are closed to visitors and to users without a role on the site", async () => {
    const { site } = await siteWithAdmin("pages-c");
    expect((await get("localhost", `/site/${site.id}/pages`)).status).toBe(302);
    await createUserWithPassword("pages-c-nobody@example.com", PASSWORD, []);
    const nobody = await signIn("localhost", "pages-c-nobody@example.com", PASSWORD);
    expect((await get("localhost", `/site/${site.id}/pages`, nobody)).status).toBe(403);
    const post = await pagePost("localhost", `/site/${site.id}/pages`, { intent: "create", submission: crypto.randomUUID(), title: "X", path: "/x" }, nobody);
    expect(post.status).toBe(403);
  });
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

const multipart = multipartPost;

describe("a site page's images", () => {
  it("are uploaded on the page's editor as on the home page's: a non-image refused with nothing stored, a file chosen before Add kept", async () => {
    const { site, hostname, cookie } = await siteWithAdmin(`pages-img-${crypto.randomUUID().slice(0, 6)}`);
    const submission = crypto.randomUUID();
    await pagePost("localhost", `/site/${site.id}/pages`, { intent: "create", submission, title: "Gallery", path: "/gallery" }, cookie);
    const editor = `/site/${site.id}/pages/${submission}`;
    const withImage = await text(await pagePost("localhost", editor, { intent: "add:image", title: "Gallery", path: "/gallery", ...blocks([]) }, cookie));
    expect(withImage).toContain('type="file"');
    expect(withImage).toContain("multipart/form-data");
    const image = (file: File, alt = "The start line") => ({
      title: "Gallery",
      path: "/gallery",
      ...blocks([{ type: "image", image_url: "", alt }]),
      "b0.file": file,
    });

    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], "pic.png", { type: "image/png" });
    const refused = await multipart(editor, { intent: "save", ...image(svg) }, cookie);
    expect(refused.status).toBe(400);
    expect(await text(refused)).toContain("An image must be a PNG, JPEG, WebP or GIF image");
    const big = await multipart(editor, { intent: "add:text", ...image(new File([PNG, new Uint8Array(2 * 1024 * 1024)], "big.png")) }, cookie);
    expect(big.status).toBe(400);
    expect(await text(big)).toContain("An image is at most 2 MB");
    expect((await env.UPLOADS.list({ prefix: `media/sites/${site.id}/` })).objects).toHaveLength(0);

    // Chosen, then "Add: Text" pressed: the answer's draft holds the uploaded image, nothing saved yet.
    const added = await multipart(editor, { intent: "add:text", ...image(new File([PNG], "photo.png")) }, cookie);
    expect(added.status).toBe(200);
    const address = new RegExp(`/media/sites/${site.id}/[0-9a-f]{64}\\.png`).exec(await text(added))?.[0];
    expect(address).toBeDefined();
    expect((await db().select().from(sitePages).where(eq(sitePages.id, submission)))[0]!.body).toBe("[]");

    const fields = { title: "Gallery", path: "/gallery", ...blocks([{ type: "image", image_url: address!, alt: "The start line" }]) };
    // Sent twice (a double click): the same page, the same one file.
    const [first, second] = await Promise.all([
      multipart(editor, { intent: "publish", ...fields }, cookie),
      multipart(editor, { intent: "publish", ...fields }, cookie),
    ]);
    expect([first.status, second.status]).toEqual([302, 302]);
    expect((await env.UPLOADS.list({ prefix: `media/sites/${site.id}/` })).objects).toHaveLength(1);
    const page = await text(await get(hostname, "/gallery"));
    expect(page).toContain(`src="${address}"`);
    expect(page).toContain('alt="The start line"');
    expect((await get(hostname, address!)).status).toBe(200);
  });
});

describe("a site's menu, footer, font and French", () => {
  it("are edited step by step, refuse a bad link, ignore a second click, and show in the header", async () => {
    const { site, hostname, cookie } = await siteWithAdmin("nav-a");
    const settings = `/site/${site.id}/settings`;
    let mtime = mtimeOf(await text(await get("localhost", settings, cookie)));
    const bad = await pagePost("localhost", settings, { intent: "menu-add", mtime, label: "Evil", href: "javascript:alert(1)" }, cookie);
    expect(bad.status).toBe(400);
    expect(await text(bad)).toContain(LINK_MESSAGE);
    const add = { intent: "menu-add", mtime, label: "About", labelFr: "À propos", href: "/about" };
    const [one, two] = [await pagePost("localhost", settings, add, cookie), await pagePost("localhost", settings, add, cookie)];
    expect(one.status).toBe(302);
    expect(two.status).toBe(409);
    mtime = mtimeOf(await text(await get("localhost", settings, cookie)));
    expect((await pagePost("localhost", settings, { intent: "menu-add", mtime, label: "Club", href: "https://example.org/" }, cookie)).status).toBe(302);
    mtime = mtimeOf(await text(await get("localhost", settings, cookie)));
    expect((await pagePost("localhost", settings, { intent: "menu-up", mtime, at: "1" }, cookie)).status).toBe(302);
    const look = await text(await get("localhost", settings, cookie));
    mtime = mtimeOf(look);
    const saved = await pagePost(
      "localhost",
      settings,
      { intent: "look", mtime, name: "Nav A", primary: "#1e3a8a", accent: "#e11d48", background: "#ffffff", text: "#111827", font: "classical", french: "on" },
      cookie,
    );
    expect(saved.status).toBe(302);
    const home = await text(await get(hostname, "/"));
    expect(home.indexOf(">Club</a>")).toBeLessThan(home.indexOf(">About</a>"));
    expect(home).toContain("--font-body:Charter");
    expect(home).toContain('href="/?lang=fr"');
    const french = await text(await get(hostname, "/?lang=fr"));
    expect(french).toContain('<html lang="fr"');
    expect(french).toContain('href="/about?lang=fr"');
    expect(french).toContain("À propos");
    const unknownFont = await pagePost(
      "localhost",
      settings,
      {
        intent: "look",
        mtime: mtimeOf(await text(await get("localhost", settings, cookie))),
        name: "Nav A",
        primary: "#1e3a8a",
        accent: "#e11d48",
        background: "#ffffff",
        text: "#111827",
        font: "comic",
      },
      cookie,
    );
    expect(unknownFont.status).toBe(400);
    expect(await text(unknownFont)).toContain("Choose one of the listed fonts");
  });
});

describe("the edge cache of a site's public pages", () => {
  it("serves anonymous visitors from the cache, never signed-in ones, and shows a change on the next request", async () => {
    const { site, hostname, cookie } = await siteWithAdmin("cache-a");
    const first = await get(hostname, "/");
    expect(first.headers.get("X-Edge-Cache")).toBe("miss");
    expect(first.headers.get("Cache-Control")).toBe("no-cache");
    await first.text();
    const second = await get(hostname, "/");
    expect(second.headers.get("X-Edge-Cache")).toBe("hit");
    // Each answer's scripts carry the nonce its own CSP names, never one shared by every visitor of the cached page.
    const nonces = new Set<string>();
    for (const answer of [second, await get(hostname, "/")]) {
      expect(answer.headers.get("X-Edge-Cache")).toBe("hit");
      const page = await answer.text();
      const inPage = new Set([...page.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]!));
      expect(inPage.size).toBe(1);
      const [nonce] = [...inPage];
      expect(answer.headers.get("Content-Security-Policy")).toContain(`'nonce-${nonce}'`);
      expect(answer.headers.get("X-Startline-Page-Nonce")).toBeNull();
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(2);
    // Signed in: never from the cache (the cookie alone keeps it out).
    expect((await get(hostname, "/", cookie)).headers.get("X-Edge-Cache")).toBeNull();
    expect((await get(hostname, "/?saved=1")).headers.get("X-Edge-Cache")).toBeNull();

    const before = (await db().select({ version: sites.version }).from(sites).where(eq(sites.id, site.id)))[0]!.version;
    const settings = `/site/${site.id}/settings`;
    const mtime = mtimeOf(await text(await get("localhost", settings, cookie)));
    expect((await pagePost("localhost", settings, { intent: "menu-add", mtime, label: "Fresh link", href: "/fresh" }, cookie)).status).toBe(302);
    const after = (await db().select({ version: sites.version }).from(sites).where(eq(sites.id, site.id)))[0]!.version;
    expect(after).toBe(before + 1);
    const next = await get(hostname, "/");
    expect(next.headers.get("X-Edge-Cache")).toBe("miss");
    expect(await next.text()).toContain("Fresh link");
  });
});
