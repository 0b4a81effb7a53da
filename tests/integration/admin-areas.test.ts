import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { divisions, entityChanges } from "../../schema/d1";
import { db, pagePost, worker, signedInAs } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { createApp, issueToken } from "./oauth-fixtures";

const ADMIN = "admin.localhost";
const PASSWORD = "glacier-ski-42";

function get(path: string, cookie: string) {
  return worker.fetch(hostRequest(ADMIN, path, { headers: { Cookie: cookie }, redirect: "manual" }));
}
const post = (path: string, cookie: string, fields: [string, string][]) => pagePost(ADMIN, path, fields, cookie);

/** A System Administrator whose configuration holds `config`, signed in on the admin host. */
async function superAdmin(config: Record<string, boolean>) {
  return signedInAs(ADMIN, [{ type: "system_admin" }], { password: PASSWORD, config });
}

/** A Site Administrator of `siteId` whose configuration holds `config`, signed in on the admin host. */
async function siteAdmin(siteId: string, config: Record<string, boolean>) {
  return signedInAs(ADMIN, [{ type: "site_admin", siteId }], { password: PASSWORD, config });
}

/** The hidden inputs of the first form on a page that has `name`. */
function hiddenInputs(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)"/g)) {
    out[match[1]!] = match[2]!.replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&#x27;", "'");
  }
  return out;
}

async function newDivision(cookie: string, clubId: string, name: string) {
  const form = hiddenInputs(await (await get("/_admin/divisions/new?class=Division", cookie)).text());
  const fields: [string, string][] = [
    ["intent", "create"],
    ["submission", form.submission!],
    ["club", clubId],
    ["name", name],
    ["country", "CA"],
  ];
  return { fields, response: await post("/_admin/divisions/new?class=Division", cookie, fields) };
}

describe("the generated admin areas", () => {
  it("creates an object once however often the form is sent, and shows it in the list, the search and the CSV", async () => {
    const { club } = await createSiteWithRace(db(), { hostname: "areas-a.localhost", siteName: "Areas A", raceName: "A race" });
    const { cookie } = await superAdmin({ divisions: true });
    const { fields, response } = await newDivision(cookie, club.id, "Nordic Juniors");
    expect(response.status).toBe(302);
    const location = response.headers.get("Location")!;
    expect(location).toMatch(/^\/_admin\/divisions\/[0-9a-f-]{36}\?class=Division&saved=created$/);
    // The same form again (a double click): the first object, not a second.
    const again = await post("/_admin/divisions/new?class=Division", cookie, fields);
    expect(again.headers.get("Location")).toBe(location);
    expect(await db().select().from(divisions).where(eq(divisions.clubId, club.id))).toHaveLength(1);
    const list = await (await get("/_admin/divisions?q=juniors", cookie)).text();
    expect(list).toContain("Nordic Juniors");
    expect(list).toContain("Areas A");
    expect(await (await get("/_admin/divisions?q=seniors", cookie)).text()).toContain("No Division found");
    const bad = await (await get("/_admin/divisions?filters=nope%3D1", cookie)).text();
    expect(bad).toContain("Unknown filter field &#x27;nope&#x27;");
    const csv = await get(`/_admin/divisions/export?class=Division&filters=${encodeURIComponent(`club=${club.id}`)}`, cookie);
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const lines = (await csv.text()).replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toMatch(/^"uuid","created_time","club","site","name"/);
    expect(lines[1]).toContain('"Nordic Juniors"');
  });

  it("refuses what the data API refuses, with the same words, and writes nothing", async () => {
    const { club } = await createSiteWithRace(db(), { hostname: "areas-b.localhost", siteName: "Areas B", raceName: "B race" });
    const { cookie } = await superAdmin({ divisions: true });
    const form = hiddenInputs(await (await get("/_admin/divisions/new?class=Division", cookie)).text());
    const refused = await post("/_admin/divisions/new?class=Division", cookie, [
      ["intent", "create"],
      ["submission", form.submission!],
      ["club", club.id],
      ["name", "Juniors"],
      ["country", "Canada"],
    ]);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("country is a two-letter code");
    expect(await db().select().from(divisions).where(eq(divisions.clubId, club.id))).toHaveLength(0);
  });

  it("saves only the fields changed, refuses one changed by someone else since, and shows the history", async () => {
    const { club } = await createSiteWithRace(db(), { hostname: "areas-c.localhost", siteName: "Areas C", raceName: "C race" });
    const { cookie, user } = await superAdmin({ divisions: true });
    const detail = (await newDivision(cookie, club.id, "Juniors")).response.headers.get("Location")!.replace("&saved=created", "");
    const tabA = hiddenInputs(await (await get(detail, cookie)).text());
    const tabB = { ...tabA };
    const saveA = await post(detail, cookie, [
      ["intent", "save"],
      ["original", tabA.original!],
      ["mtimes", tabA.mtimes!],
      ["name", "Juniors U16"],
      ["country", "CA"],
    ]);
    expect(saveA.headers.get("Location")).toBe(`${detail}&saved=saved`);
    // Tab B opened before A saved: its change to the name is refused; its change to the sport alone is kept.
    const saveB = await post(detail, cookie, [
      ["intent", "save"],
      ["original", tabB.original!],
      ["mtimes", tabB.mtimes!],
      ["name", "Kids"],
      ["country", "CA"],
    ]);
    expect(saveB.status).toBe(409);
    expect(await saveB.text()).toContain("These fields changed since you read them: name");
    const sportB = await post(detail, cookie, [
      ["intent", "save"],
      ["original", tabB.original!],
      ["mtimes", tabB.mtimes!],
      ["name", "Juniors"],
      ["sport", "Skiing"],
      ["country", "CA"],
    ]);
    expect(sportB.status).toBe(302);
    const [row] = await db().select().from(divisions).where(eq(divisions.clubId, club.id));
    expect(row).toMatchObject({ name: "Juniors U16", sport: "Skiing" });
    const page = await (await get(detail, cookie)).text();
    expect(page).toContain("<h2>History</h2>");
    expect(page).toMatch(/changed<\/td><td>name<\/td><td><code>Juniors<\/code><\/td><td><code>Juniors U16<\/code>/);
    const changes = await db()
      .select()
      .from(entityChanges)
      .where(and(eq(entityChanges.entityId, row!.id), eq(entityChanges.kind, "changed")));
    expect(changes.map((c) => [c.field, c.userId])).toEqual(
      expect.arrayContaining([
        ["name", user.id],
        ["sport", user.id],
      ]),
    );
    expect(changes).toHaveLength(2);
  });

  it("asks before deleting, refuses while something still uses the object, and deletes it when nothing does", async () => {
    const { club } = await createSiteWithRace(db(), { hostname: "areas-d.localhost", siteName: "Areas D", raceName: "D race" });
    const { cookie } = await superAdmin({ clubs: true, divisions: true });
    const confirm = (await (await get(`/_admin/clubs/${club.id}?class=Club&delete=1`, cookie)).text()).replaceAll("<!-- -->", "");
    expect(confirm).toContain("It is still used by 1 Race. Move or delete those first.");
    expect(confirm).not.toContain('<button type="submit" class="danger">Delete</button>');
    const refused = await post(`/_admin/clubs/${club.id}?class=Club`, cookie, [["intent", "delete"]]);
    expect(refused.status).toBe(409);
    const detail = (await newDivision(cookie, club.id, "Gone soon")).response.headers.get("Location")!.replace("&saved=created", "");
    const deleted = await post(detail, cookie, [["intent", "delete"]]);
    expect(deleted.headers.get("Location")).toBe("/_admin/divisions?class=Division&deleted=1");
    expect(await db().select().from(divisions).where(eq(divisions.clubId, club.id))).toHaveLength(0);
  });

  it("keeps each area to the administrators whose configuration includes it", async () => {
    const { club } = await createSiteWithRace(db(), { hostname: "areas-e.localhost", siteName: "Areas E", raceName: "E race" });
    const { cookie } = await superAdmin({ divisions: true });
    expect((await get("/_admin/clubs", cookie)).status).toBe(403);
    expect((await get(`/_admin/clubs/${club.id}?class=Club`, cookie)).status).toBe(403);
    expect((await get("/_admin/clubs/export?class=Club", cookie)).status).toBe(403);
    expect((await post(`/_admin/clubs/${club.id}?class=Club`, cookie, [["intent", "delete"]])).status).toBe(403);
    // A class of another area cannot be reached through this one.
    expect((await get("/_admin/divisions?class=Club", cookie)).status).toBe(404);
  });

  it("shows a Site Administrator only its site's objects, and lets it create only there", async () => {
    const mine = await createSiteWithRace(db(), { hostname: "areas-f.localhost", siteName: "Areas F", raceName: "F race" });
    const theirs = await createSiteWithRace(db(), { hostname: "areas-g.localhost", siteName: "Areas G", raceName: "G race" });
    const sys = await superAdmin({ divisions: true });
    const theirDivision = (await newDivision(sys.cookie, theirs.club.id, "Their juniors")).response.headers.get("Location")!.replace("&saved=created", "");
    const { cookie } = await siteAdmin(mine.site.id, { divisions: true });
    expect((await get("/_admin/clubs", cookie)).status).toBe(403);
    const homeResponse = await get("/_admin", cookie);
    const home = await homeResponse.text();
    expect(homeResponse.status, home.slice(0, 200)).toBe(200);
    expect(home).toContain("Membership System");
    expect(home).not.toContain("Organizations");
    const created = await newDivision(cookie, mine.club.id, "Our juniors");
    expect(created.response.status).toBe(302);
    const list = await (await get("/_admin/divisions", cookie)).text();
    expect(list).toContain("Our juniors");
    expect(list).not.toContain("Their juniors");
    expect((await get(theirDivision, cookie)).status).toBe(404);
    const refused = await newDivision(cookie, theirs.club.id, "Sneaky juniors");
    expect(refused.response.status).toBe(403);
    expect(await db().select().from(divisions).where(eq(divisions.clubId, theirs.club.id))).toHaveLength(1);
  });

  it("gives the same answer as the data API for the same bad write, and leaves nothing behind either way", async () => {
    const { club } = await createSiteWithRace(db(), { hostname: "areas-h.localhost", siteName: "Areas H", raceName: "H race" });
    const { cookie, user } = await superAdmin({ divisions: true, clubs: true });
    const appId = await createApp({ scopes: "divisions clubs" });
    const token = await issueToken(user.id, appId, "admin.localhost", "divisions clubs");
    const api = (method: string, path: string, body?: unknown) =>
      worker.fetch(
        hostRequest(ADMIN, path, {
          method,
          headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        }),
      );
    // A bad country: the API's message names the field; the page shows the same words next to it.
    const apiRefusal = await (await api("PUT", "/data-api/Division/", { club: club.id, name: "Juniors", country: "Canada" })).json<{ message: string }>();
    const form = hiddenInputs(await (await get("/_admin/divisions/new?class=Division", cookie)).text());
    const page = await post("/_admin/divisions/new?class=Division", cookie, [
      ["intent", "create"],
      ["submission", form.submission!],
      ["club", club.id],
      ["name", "Juniors"],
      ["country", "Canada"],
    ]);
    const pageText = await page.text();
    expect(apiRefusal.message).toBe("Invalid value for 'country': country is a two-letter code");
    expect(pageText).toContain('id="country-error" class="form-error">country is a two-letter code<');
    expect(await db().select().from(divisions).where(eq(divisions.clubId, club.id))).toHaveLength(0);
    // Deleting a club still in use: the same sentence from both doors, and the club stays.
    const apiDelete = await api("DELETE", `/data-api/Club/${club.id}`);
    expect(apiDelete.status).toBe(409);
    const { message } = await apiDelete.json<{ message: string }>();
    const pageDelete = await post(`/_admin/clubs/${club.id}?class=Club`, cookie, [["intent", "delete"]]);
    expect(pageDelete.status).toBe(409);
    expect((await pageDelete.text()).replaceAll("&#x27;", "'")).toContain(message);
    expect(message).toBe("This Club is still used by 1 Race");
    expect((await get(`/_admin/clubs/${club.id}?class=Club`, cookie)).status).toBe(200);
  });
});
