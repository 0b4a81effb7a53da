import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { initialMtimes } from "../../core/entity/field-mtimes";
import { eventPages, races, registrations } from "../../schema/d1";
import { createUserWithPassword, db, pagePost, signIn, worker } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { createApp, issueToken } from "./oauth-fixtures";

const DAY_MS = 86_400_000;
const PASSWORD = "glacier-ski-42";
const isoDay = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

function get(host: string, path: string, cookie?: string) {
  return worker.fetch(hostRequest(host, path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" }));
}

/** A club site with a public race, a private race and a live registration form. */
async function clubSite(tag: string) {
  const hostname = `ev-${tag}-${crypto.randomUUID().slice(0, 6)}.localhost`;
  const { site, club, race } = await createSiteWithRace(db(), { hostname, siteName: `Site ${tag}`, raceName: `Race ${tag}` });
  const hidden = { id: crypto.randomUUID(), clubId: club.id, siteId: site.id, name: `Hidden ${tag}`, startTime: Date.now(), visibility: "private" as const };
  await db()
    .insert(races)
    .values({ ...hidden, fieldMtimes: {} });
  const form = { id: crypto.randomUUID(), clubId: club.id, siteId: site.id, name: `Form ${tag}`, isApproved: true };
  await db()
    .insert(registrations)
    .values({ ...form, fieldMtimes: {} });
  return { hostname, site, club, race, hidden, form };
}

type Site = Awaited<ReturnType<typeof clubSite>>;

async function addEvent(site: Site, values: Partial<typeof eventPages.$inferInsert> & { pageUrl: string }) {
  const row = { id: crypto.randomUUID(), clubId: site.club.id, siteId: site.site.id, name: values.pageUrl, ...values };
  await db()
    .insert(eventPages)
    .values({ ...row, fieldMtimes: initialMtimes({ name: row.name }, Date.now()) });
  return row;
}

/** The text between the first `from` and the next `to` after it. */
const between = (text: string, from: string, to: string) => text.slice(text.indexOf(from), text.indexOf(to, text.indexOf(from)));

describe("event pages on a club's site", () => {
  it("lists the site's public events, upcoming then past, and never a draft or another site's", async () => {
    const a = await clubSite("list-a");
    const b = await clubSite("list-b");
    await addEvent(a, { pageUrl: "spring-sprint", title: "Spring Sprint", startDate: isoDay(30) });
    await addEvent(a, { pageUrl: "winter-loppet", title: "Winter Loppet", startDate: isoDay(10), endDate: isoDay(11) });
    await addEvent(a, { pageUrl: "autumn-trial", title: "Autumn Trial", startDate: isoDay(-40) });
    await addEvent(a, { pageUrl: "today", title: "Today Relay", startDate: isoDay(0) });
    await addEvent(a, { pageUrl: "draft", title: "Draft Event", startDate: isoDay(5), isPublic: false });
    await addEvent(b, { pageUrl: "other", title: "Other Club Event", startDate: isoDay(5) });
    const response = await get(a.hostname, "/events");
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=60");
    const html = await response.text();
    const upcoming = between(html, "upcoming-events-heading", "</section>");
    const past = between(html, "past-events-heading", "</section>");
    // Today's event stays upcoming until the day has ended everywhere (core/sites/event-dates.ts).
    expect(upcoming.indexOf("Today Relay")).toBeGreaterThan(-1);
    expect(upcoming.indexOf("Winter Loppet")).toBeLessThan(upcoming.indexOf("Spring Sprint"));
    expect(past).toContain("Autumn Trial");
    expect(past).not.toContain("Winter Loppet");
    expect(html).not.toContain("Draft Event");
    expect(html).not.toContain("Other Club Event");
    expect(html).toContain('href="/events.ics"');
    // The site's navigation links the list.
    expect(html).toMatch(/<nav aria-label="Site"[^>]*><a href="\/events"[^>]*>Events<\/a>/);
    expect((await get("localhost", "/events")).status).toBe(404);
    // A signed-in visitor's page carries their name in the header, so no shared cache may keep it.
    const email = `visitor-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await createUserWithPassword(email, PASSWORD, []);
    const signedIn = await get(a.hostname, "/events", await signIn(a.hostname, email, PASSWORD));
    expect(signedIn.headers.get("Cache-Control")).toBe("private, no-cache");
  });

  it("shows an event with its own races and forms, and is a 404 on another site, for a draft and for an unknown address", async () => {
    const a = await clubSite("page-a");
    const b = await clubSite("page-b");
    await addEvent(a, {
      pageUrl: "loppet",
      title: "Loppet Weekend",
      startDate: "2027-02-14",
      endDate: "2027-02-15",
      location: "Gatineau Park",
      sport: "Cross Country Skiing",
      description: "Two days.\n\nOf racing.",
      // Another club's race and form, written behind the rule's back, are still never shown here.
      raceIds: [a.race.id, a.hidden.id, b.race.id],
      registrationIds: [a.form.id, b.form.id],
    });
    await addEvent(a, { pageUrl: "draft", title: "Draft", startDate: isoDay(3), isPublic: false });
    const response = await get(a.hostname, "/events/loppet");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<h1>Loppet Weekend</h1>");
    expect(html).toMatch(/February 14\s?–\s?15, 2027/);
    expect(html).toContain(`href="/races/${a.race.id}"`);
    expect(html).toContain(`href="/register/${a.form.id}"`);
    expect(html).toContain('href="/events/loppet.ics"');
    // The start list is linked once the race makes it public, as the race's own page does.
    expect(html).not.toContain(`href="/races/${a.race.id}/startlist"`);
    const room = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(a.race.id));
    expect((await room.updateSettings({ start_list_visibility: "public" })).ok).toBe(true);
    expect(await (await get(a.hostname, "/events/loppet")).text()).toContain(`href="/races/${a.race.id}/startlist"`);
    expect(html).not.toContain(a.hidden.id);
    expect(html).not.toContain(b.race.id);
    expect(html).not.toContain(b.form.id);

    const elsewhere = await get(b.hostname, "/events/loppet");
    expect(elsewhere.status).toBe(404);
    const notFound = await elsewhere.text();
    // The 404 wears the other site's own layout.
    expect(notFound).toContain("Site page-b</span>");
    expect(notFound).toContain("Event not found");
    for (const path of ["/events/draft", "/events/no-such-event", "/events/Loppet", "/events/%E2%80%AE", "/events/loppet%00", "/events/a..b"]) {
      const res = await get(a.hostname, path);
      expect(res.status, path).toBe(404);
    }
  });

  it("gives a shared link a card: Open Graph tags and SportsEvent data, escaped", async () => {
    const a = await clubSite("card");
    const title = `Race </script><script>alert("x")</script> & Co`;
    await addEvent(a, {
      pageUrl: "card",
      title,
      startDate: "2027-03-01",
      description: "A day of racing.",
      bannerUrl: "https://cdn.example.com/banner.jpg",
      eventStatus: "cancelled",
      raceIds: [a.race.id],
    });
    const html = await (await get(a.hostname, "/events/card")).text();
    expect(html).not.toContain('<script>alert("x")</script>');
    expect(html).toContain('<meta property="og:image" content="https://cdn.example.com/banner.jpg"/>');
    expect(html).toMatch(new RegExp(`<meta property="og:url" content="http://${a.hostname}(:\\d+)?/events/card"/>`));
    expect(html).toContain('<meta property="og:type" content="website"/>');
    expect(html).toContain('<meta property="og:title" content="Race &lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co"/>');
    const block = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)?.[1];
    expect(block).toBeDefined();
    expect(block).not.toMatch(/[<>]/);
    const data = JSON.parse(block!) as Record<string, unknown>;
    expect(data).toMatchObject({
      "@type": "SportsEvent",
      name: title,
      startDate: "2027-03-01",
      endDate: "2027-03-01",
      eventStatus: "https://schema.org/EventCancelled",
      image: ["https://cdn.example.com/banner.jpg"],
      organizer: { name: "Site card Club" },
      // No place on the event: its race's (none in the fixture), so no location at all.
    });
    expect(html).toContain("This event is cancelled.");
  });

  it("serves the event's and the site's calendar files, RFC 5545 shaped", async () => {
    const a = await clubSite("ics");
    const b = await clubSite("ics-other");
    const loppet = await addEvent(a, {
      pageUrl: "loppet",
      title: "Loppet; skate, classic",
      startDate: isoDay(10),
      endDate: isoDay(11),
      description: `Line one\nline two ${"long words ".repeat(12)}`,
    });
    await addEvent(a, { pageUrl: "recent", title: "Recent Race", startDate: isoDay(-20) });
    await addEvent(a, { pageUrl: "old", title: "Old Race", startDate: isoDay(-200) });
    await addEvent(a, { pageUrl: "hidden", title: "Hidden Race", startDate: isoDay(4), isPublic: false });
    await addEvent(b, { pageUrl: "theirs", title: "Their Race", startDate: isoDay(4) });

    const one = await get(a.hostname, "/events/loppet.ics");
    expect(one.status).toBe(200);
    expect(one.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(one.headers.get("Cache-Control")).toBe("public, max-age=300");
    const text = await one.text();
    expect(text.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")).toBe(true);
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of text.split("\r\n")) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    const unfolded = text.replace(/\r\n /g, "");
    expect(unfolded).toContain(`UID:${loppet.id}@events.startline\r\n`);
    expect(unfolded).toMatch(/DTSTAMP:\d{8}T\d{6}Z\r\n/);
    expect(unfolded).toContain(`DTSTART;VALUE=DATE:${isoDay(10).replace(/-/g, "")}\r\n`);
    expect(unfolded).toContain(`DTEND;VALUE=DATE:${isoDay(12).replace(/-/g, "")}\r\n`);
    expect(unfolded).toContain("SUMMARY:Loppet\\; skate\\, classic\r\n");
    expect(unfolded).toContain("DESCRIPTION:Line one\\nline two long words");
    expect(unfolded.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    // The same UID on every download, so a calendar updates the event instead of adding another.
    expect((await (await get(a.hostname, "/events/loppet.ics")).text()).replace(/\r\n /g, "")).toContain(`UID:${loppet.id}@events.startline`);

    const all = (await (await get(a.hostname, "/events.ics")).text()).replace(/\r\n /g, "");
    expect(all.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    expect(all).toContain("SUMMARY:Recent Race");
    expect(all).not.toContain("Old Race");
    expect(all).not.toContain("Hidden Race");
    expect(all).not.toContain("Their Race");

    const email = `cal-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await createUserWithPassword(email, PASSWORD, []);
    const signedIn = await get(a.hostname, "/events.ics", await signIn(a.hostname, email, PASSWORD));
    expect(signedIn.headers.get("Cache-Control")).toBe("private, max-age=300");

    expect((await get(b.hostname, "/events/loppet.ics")).status).toBe(404);
    expect((await get(a.hostname, "/events/hidden.ics")).status).toBe(404);
    expect((await get(a.hostname, "/events/%ZZ.ics")).status).toBe(404);
    expect((await get("localhost", "/events.ics")).status).toBe(404);
    const post = await worker.fetch(hostRequest(a.hostname, "/events.ics", { method: "POST" }));
    expect(post.status).toBeLessThan(500);
    expect(post.status).toBeGreaterThanOrEqual(400);
  });
});

describe("editing event pages: the data API and the admin page refuse the same", () => {
  async function clubAdminToken(site: Site) {
    const user = await createUserWithPassword(`ev-${crypto.randomUUID().slice(0, 8)}@example.com`, null, [{ type: "org_admin", clubId: site.club.id }]);
    const appId = await createApp({ scopes: "eventpages" });
    return issueToken(user.id, appId, "localhost", "eventpages");
  }
  function put(token: string, body: Record<string, unknown>) {
    return worker.fetch(
      hostRequest("localhost", "/data-api/EventPage/", {
        method: "PUT",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
  }

  it("refuses an end date before the start date with the same words on both doors, and writes nothing", async () => {
    const a = await clubSite("rule");
    const token = await clubAdminToken(a);
    const api = await put(token, { club: a.club.id, name: "Loppet", page_url: "loppet", start_date: "2027-02-10", end_date: "2027-02-09" });
    expect(api.status).toBe(400);
    const message = "The end date must be on or after the start date";
    expect(await api.json()).toMatchObject({ message: `end_date: ${message}`, fields: { end_date: message } });

    const email = `sys-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const admin = await createUserWithPassword(email, PASSWORD, [{ type: "system_admin" }]);
    await env.DB.prepare("UPDATE roles SET config = ? WHERE user_id = ?")
      .bind(JSON.stringify({ eventpages: true }), admin.id)
      .run();
    const cookie = await signIn("admin.localhost", email, PASSWORD);
    const form = await (await get("admin.localhost", "/_admin/eventpages/new?class=EventPage", cookie)).text();
    const submission = /name="submission" value="([^"]+)"/.exec(form)?.[1];
    expect(submission).toBeDefined();
    // The fields this issue added are on the generated form.
    for (const field of ["race_ids", "registration_ids", "is_public", "event_status", "location"]) expect(form).toContain(`name="${field}"`);
    const page = await pagePost(
      "admin.localhost",
      "/_admin/eventpages/new?class=EventPage",
      [
        ["intent", "create"],
        ["submission", submission!],
        ["club", a.club.id],
        ["name", "Loppet"],
        ["page_url", "loppet"],
        ["start_date", "2027-02-10"],
        ["end_date", "2027-02-09"],
      ],
      cookie,
    );
    expect(page.status).toBe(400);
    expect(await page.text()).toContain(message);
    expect(await db().select().from(eventPages).where(eq(eventPages.clubId, a.club.id))).toHaveLength(0);
  });

  it("keeps addresses unique on a site and URL-safe, and links only the club's own races and forms", async () => {
    const a = await clubSite("paths");
    const b = await clubSite("paths-other");
    const token = await clubAdminToken(a);
    const first = await put(token, { club: a.club.id, name: "Loppet", page_url: "loppet", race_ids: [a.race.id], registration_ids: [a.form.id] });
    expect(first.status).toBe(201);
    const twin = await put(token, { club: a.club.id, name: "Loppet again", page_url: "loppet" });
    expect(twin.status).toBe(400);
    expect(await twin.json()).toMatchObject({ fields: { page_url: "Another event on this site already has the address /events/loppet; choose another" } });
    const unsafe = await put(token, { club: a.club.id, name: "Bad", page_url: "Loppet 2027/../x" });
    expect(unsafe.status).toBe(400);
    expect(JSON.stringify(await unsafe.json())).toContain("lowercase letters, digits and hyphens");
    const foreign = await put(token, { club: a.club.id, name: "Foreign", page_url: "foreign", race_ids: [b.race.id], registration_ids: [b.form.id] });
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toMatchObject({
      fields: { race_ids: `These are not races of this club: ${b.race.id}`, registration_ids: `These are not registration forms of this club: ${b.form.id}` },
    });
    // Another site may use the same address.
    const other = await put(await clubAdminToken(b), { club: b.club.id, name: "Their Loppet", page_url: "loppet" });
    expect(other.status).toBe(201);
  });

  it("lets the site's Site Administrator link races on the admin page, refusing another club's race in the API's words", async () => {
    const a = await clubSite("site-admin");
    const b = await clubSite("site-admin-other");
    const event = await addEvent(a, { pageUrl: "relay", title: "Relay Day", startDate: isoDay(20) });
    const email = `site-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const admin = await createUserWithPassword(email, PASSWORD, [{ type: "site_admin", siteId: a.site.id }]);
    await env.DB.prepare("UPDATE roles SET config = ? WHERE user_id = ?")
      .bind(JSON.stringify({ eventpages: true }), admin.id)
      .run();
    const cookie = await signIn("admin.localhost", email, PASSWORD);
    const detail = `/_admin/eventpages/${event.id}?class=EventPage`;
    const page = await (await get("admin.localhost", detail, cookie)).text();
    const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1]?.replaceAll("&quot;", '"').replaceAll("&amp;", "&");
    const save = (raceIds: string[]) =>
      pagePost(
        "admin.localhost",
        detail,
        [
          ["intent", "save"],
          ["original", hidden("original")!],
          ["mtimes", hidden("mtimes")!],
          ["is_public", "on"],
          ["race_ids", JSON.stringify(raceIds)],
        ],
        cookie,
      );
    const refused = await save([b.race.id]);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(`These are not races of this club: ${b.race.id}`);
    const saved = await save([a.race.id]);
    expect(saved.status).toBe(302);
    expect(await (await get(a.hostname, "/events/relay")).text()).toContain(`href="/races/${a.race.id}"`);
    // Another site's Site Administrator does not reach it.
    expect(
      (await get("admin.localhost", `/_admin/eventpages/${(await addEvent(b, { pageUrl: "x", startDate: isoDay(1) })).id}?class=EventPage`, cookie)).status,
    ).toBe(404);
  });
});
