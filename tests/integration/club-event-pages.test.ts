/**
 * A club's event pages edited on its own pages (issue 26, decision 0056): created once however often the form
 * is sent, saved through the entity service with the data API's words, stale edits refused, banners
 * uploaded by their bytes (nothing stored when refused), deleted after a confirmation.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { eventPages, races, registrations } from "../../schema/d1";
import { db, pagePost, worker, multipartPost, signedInAs, pageGet } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { createApp, issueToken } from "./oauth-fixtures";

const PASSWORD = "banner-loppet-42";
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

async function clubWithAdmin(tag: string, role = "org_admin") {
  const hostname = `${tag}-${crypto.randomUUID().slice(0, 6)}.localhost`;
  const { site, club, race } = await createSiteWithRace(db(), { hostname, siteName: `${tag} site`, raceName: `${tag} race` });
  const form = { id: crypto.randomUUID(), clubId: club.id, siteId: site.id, name: `${tag} form`, isApproved: true };
  await db()
    .insert(registrations)
    .values({ ...form, fieldMtimes: {} });
  const { user, cookie } = await signedInAs("localhost", [{ type: role, clubId: club.id }], { password: PASSWORD });
  return { hostname, site, club, race, form, user, cookie };
}

const get = pageGet;

const multipart = multipartPost;

const ENTITIES: Record<string, string> = { "&quot;": '"', "&#x27;": "'", "&lt;": "<", "&gt;": ">", "&amp;": "&" };
/** A hidden input's value as the page rendered it, unescaped. */
const hidden = (html: string, name: string) =>
  (new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "").replace(/&(quot|#x27|lt|gt|amp);/g, (e) => ENTITIES[e]!);

async function createOnPage(clubId: string, cookie: string, name: string) {
  const submission = crypto.randomUUID();
  // A double click: the same form twice makes one page, and both answers open it.
  const replies = await Promise.all([1, 2].map(() => pagePost("localhost", `/club/${clubId}/events`, { intent: "create", submission, name }, cookie)));
  for (const reply of replies) expect(reply.headers.get("Location")).toBe(`/club/${clubId}/events/${submission}`);
  return submission;
}

/** The editor's form as the page would send it, with these fields changed. */
async function editorForm(clubId: string, id: string, cookie: string, fields: Record<string, string>) {
  const html = await (await get("localhost", `/club/${clubId}/events/${id}`, cookie)).text();
  const original = hidden(html, "original");
  const stored = JSON.parse(original) as Record<string, unknown>;
  // Every input the page shows, as typed there: text fields as text, the boxes ticked or absent.
  const typed = Object.fromEntries(
    Object.entries(stored)
      .filter(([key, value]) => !Array.isArray(value) && key !== "is_public")
      .map(([key, value]) => [key, value === null ? "" : String(value)]),
  );
  return { intent: "save", original, mtimes: hidden(html, "mtimes"), ...typed, ...(stored.is_public === true ? { is_public: "on" } : {}), ...fields };
}

describe("a club's event pages on its own pages", () => {
  it("are created once, edited with linked races and forms, published and shown on the club's site", async () => {
    const a = await clubWithAdmin("evc-a");
    expect((await get("localhost", `/club/${a.club.id}/overview`, a.cookie)).status).toBe(200);
    expect(await (await get("localhost", `/club/${a.club.id}/overview`, a.cookie)).text()).toContain(`/club/${a.club.id}/events`);
    const id = await createOnPage(a.club.id, a.cookie, "Spring Loppet");
    const rows = await db().select().from(eventPages).where(eq(eventPages.clubId, a.club.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: "Spring Loppet", isPublic: false, siteId: a.site.id });

    const editor = await (await get("localhost", `/club/${a.club.id}/events/${id}`, a.cookie)).text();
    expect(editor).toContain("Races on the page");
    expect(editor).toContain(`${a.race.name}`);
    expect(editor).not.toContain("View on the site");

    const form = await editorForm(a.club.id, id, a.cookie, {
      title: "The Spring Loppet 2027",
      year: "2027",
      start_date: "2027-03-06",
      end_date: "2027-03-07",
      page_url: "spring-loppet",
      description: "Two days of classic and skate races.",
      [`race:${a.race.id}`]: "on",
      [`race_order:${a.race.id}`]: "1",
      [`form:${a.form.id}`]: "on",
      is_public: "on",
    });
    const saved = await pagePost("localhost", `/club/${a.club.id}/events/${id}`, form, a.cookie);
    expect(saved.status).toBe(302);
    const [row] = await db().select().from(eventPages).where(eq(eventPages.id, id));
    expect(row).toMatchObject({ pageUrl: "spring-loppet", isPublic: true, raceIds: [a.race.id], registrationIds: [a.form.id], year: 2027 });

    const site = await get(a.hostname, "/events/spring-loppet");
    expect(site.status).toBe(200);
    const html = await site.text();
    expect(html).toContain("The Spring Loppet 2027");
    expect(html).toContain(a.race.name);
    expect(await (await get(a.hostname, "/events")).text()).toContain("The Spring Loppet 2027");
    const after = await (await get("localhost", `/club/${a.club.id}/events/${id}`, a.cookie)).text();
    expect(after).toContain("View on the site");
    expect(after).toContain(`//${a.hostname}`);
  });

  it("refuses what the data API refuses with the same words, a stale save with 409, and garbage with a 4xx", async () => {
    const a = await clubWithAdmin("evc-b");
    const b = await clubWithAdmin("evc-c");
    const id = await createOnPage(a.club.id, a.cookie, "Harbour Relay");
    const path = `/club/${a.club.id}/events/${id}`;

    // Another club's race, posted by hand: the page says what the data API says.
    const foreign = await pagePost("localhost", path, await editorForm(a.club.id, id, a.cookie, { [`race:${b.race.id}`]: "on" }), a.cookie);
    expect(foreign.status).toBe(400);
    const message = `These are not races of this club: ${b.race.id}`;
    expect(await foreign.text()).toContain(message);
    const appId = await createApp({ scopes: "eventpages" });
    const token = await issueToken(a.user.id, appId, "localhost", "eventpages");
    const api = await worker.fetch(
      hostRequest("localhost", `/data-api/EventPage/${id}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ race_ids: [b.race.id] }),
      }),
    );
    expect(api.status).toBe(400);
    expect(await api.json()).toMatchObject({ fields: { race_ids: message } });

    const backwards = await pagePost(
      "localhost",
      path,
      await editorForm(a.club.id, id, a.cookie, { start_date: "2027-02-10", end_date: "2027-02-09" }),
      a.cookie,
    );
    expect(backwards.status).toBe(400);
    expect(await backwards.text()).toContain("The end date must be on or after the start date");
    const year = await pagePost("localhost", path, await editorForm(a.club.id, id, a.cookie, { year: "soon" }), a.cookie);
    expect(year.status).toBe(400);
    expect(await year.text()).toContain("Enter a year such as 2027");

    // Two people opened the page; the second save is about a field the first changed since.
    const first = await editorForm(a.club.id, id, a.cookie, { location: "Harbour park" });
    const second = { ...first, location: "Lighthouse beach" };
    expect((await pagePost("localhost", path, first, a.cookie)).status).toBe(302);
    const stale = await pagePost("localhost", path, second, a.cookie);
    expect(stale.status).toBe(409);
    const [row] = await db().select().from(eventPages).where(eq(eventPages.id, id));
    expect(row!.location).toBe("Harbour park");

    const garbageForms: Record<string, string>[] = [{ intent: "save" }, { intent: "save", original: "{", mtimes: "[]", name: "x" }, { intent: "explode" }];
    for (const garbage of garbageForms) {
      const reply = await pagePost("localhost", path, garbage, a.cookie);
      expect(reply.status, JSON.stringify(garbage)).toBeGreaterThanOrEqual(400);
      expect(reply.status, JSON.stringify(garbage)).toBeLessThan(500);
    }
    const broken = await worker.fetch(
      hostRequest("localhost:8787", path, {
        method: "POST",
        headers: { Origin: "http://localhost:8787", "Sec-Fetch-Site": "same-origin", Cookie: a.cookie, "Content-Type": "multipart/form-data; boundary=x" },
        body: "--x\r\nbroken",
        redirect: "manual",
      }),
    );
    expect(broken.status).toBe(400);
  });

  it("are closed to another club's admin and to the Communications role", async () => {
    const a = await clubWithAdmin("evc-d");
    const b = await clubWithAdmin("evc-e");
    const comms = await clubWithAdmin("evc-f", "communications");
    const id = await createOnPage(a.club.id, a.cookie, "Closed Loppet");
    for (const path of [`/club/${a.club.id}/events`, `/club/${a.club.id}/events/${id}`]) {
      expect((await get("localhost", path, b.cookie)).status).toBe(404);
      expect((await pagePost("localhost", path, { intent: "create", submission: crypto.randomUUID(), name: "Theirs" }, b.cookie)).status).toBe(404);
    }
    expect((await pagePost("localhost", `/club/${a.club.id}/events/${id}`, { intent: "delete" }, b.cookie)).status).toBe(404);
    expect((await get("localhost", `/club/${comms.club.id}/events`, comms.cookie)).status).toBe(403);
    // Another club's event under this club's address is not found.
    const theirs = await createOnPage(b.club.id, b.cookie, "Their Loppet");
    expect((await get("localhost", `/club/${a.club.id}/events/${theirs}`, a.cookie)).status).toBe(404);
    expect(await db().select().from(eventPages).where(eq(eventPages.clubId, a.club.id))).toHaveLength(1);
  });

  it("take a banner that is an image of at most 2 MB, refuse anything else with words and store nothing", async () => {
    const a = await clubWithAdmin("evc-g");
    const id = await createOnPage(a.club.id, a.cookie, "Banner Loppet");
    const path = `/club/${a.club.id}/events/${id}`;
    const pdf = await multipart(path, { intent: "banner", banner: new File(["%PDF-1.7"], "banner.png", { type: "image/png" }) }, a.cookie);
    expect(pdf.status).toBe(400);
    expect(await pdf.text()).toContain("A banner must be a PNG, JPEG, WebP or GIF image");
    const big = await multipart(path, { intent: "banner", banner: new File([PNG, new Uint8Array(2 * 1024 * 1024)], "big.png") }, a.cookie);
    expect(big.status).toBe(400);
    expect(await big.text()).toContain("A banner is at most 2 MB");
    const none = await multipart(path, { intent: "banner" }, a.cookie);
    expect(none.status).toBe(400);
    expect((await env.UPLOADS.list({ prefix: `media/sites/${a.site.id}/` })).objects).toHaveLength(0);

    const ok = await multipart(path, { intent: "banner", banner: new File([PNG, new Uint8Array(1024 * 1024)], "photo.txt") }, a.cookie);
    expect(ok.status).toBe(302);
    const [row] = await db().select().from(eventPages).where(eq(eventPages.id, id));
    expect(row!.bannerUrl).toMatch(new RegExp(`^/media/sites/${a.site.id}/[0-9a-f]{64}\\.png$`));
    const served = await get(a.hostname, row!.bannerUrl!);
    expect(served.status).toBe(200);
    expect(served.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("X-Content-Type-Options")).toBe("nosniff");

    // Published, the page shows it and its share card names it by its whole address.
    await db().update(eventPages).set({ pageUrl: "banner-loppet", isPublic: true }).where(eq(eventPages.id, id));
    const html = await (await get(a.hostname, "/events/banner-loppet")).text();
    expect(html).toContain(`src="${row!.bannerUrl}"`);
    expect(html).toMatch(new RegExp(`property="og:image" content="https?://${a.hostname.replace(".", "\\.")}(:\\d+)?${row!.bannerUrl}"`));

    // Another site's upload is no banner for this event (its site would not serve it).
    const appId = await createApp({ scopes: "eventpages" });
    const token = await issueToken(a.user.id, appId, "localhost", "eventpages");
    const api = await worker.fetch(
      hostRequest("localhost", `/data-api/EventPage/${id}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ banner_url: `/media/sites/${crypto.randomUUID()}/${"a".repeat(64)}.png` }),
      }),
    );
    expect(api.status).toBe(400);
    expect(await api.json()).toMatchObject({ fields: { banner_url: "Upload the banner to this event's site" } });

    expect((await multipart(path, { intent: "banner", remove: "1" }, a.cookie)).status).toBe(302);
    const [removed] = await db().select().from(eventPages).where(eq(eventPages.id, id));
    expect(removed!.bannerUrl).toBeNull();
  });

  it("are deleted after a confirmation, once however often it is sent", async () => {
    const a = await clubWithAdmin("evc-h");
    const id = await createOnPage(a.club.id, a.cookie, "Gone Loppet");
    const confirm = await (await get("localhost", `/club/${a.club.id}/events/${id}?delete=1`, a.cookie)).text();
    expect(confirm).toContain("Delete this event page?");
    const replies = await Promise.all([1, 2].map(() => pagePost("localhost", `/club/${a.club.id}/events/${id}`, { intent: "delete" }, a.cookie)));
    for (const reply of replies) expect(reply.headers.get("Location")).toBe(`/club/${a.club.id}/events?saved=deleted`);
    expect(await db().select().from(eventPages).where(eq(eventPages.id, id))).toHaveLength(0);
    expect(await (await get("localhost", `/club/${a.club.id}/events?saved=deleted`, a.cookie)).text()).toContain("Deleted.");
    // The race it linked is untouched.
    expect(await db().select().from(races).where(eq(races.id, a.race.id))).toHaveLength(1);
  });
});
