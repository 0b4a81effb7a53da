import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { bankAccounts, roles } from "../../schema/d1";
import { db, createUserWithPassword, worker } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { createApp, issueToken, apiCall } from "./oauth-fixtures";

const HOST = "localhost";
const SCOPES = "clubs divisions eventpages pages validation timingdevices servers emails pointsseries activities rankingschemes points passes bankaccounts";

const call = (token: string, method: string, path: string, body?: unknown) => apiCall(HOST, token, method, path, body);

/** A club on its own site with an Organization Admin whose app token carries the admin areas' scopes. */
async function clubAdmin(tag: string) {
  const { club, site } = await createSiteWithRace(db(), { hostname: `${tag}.localhost`, siteName: tag, raceName: `${tag} race` });
  const user = await createUserWithPassword(`${tag}@example.com`, null, [{ type: "org_admin", clubId: club.id }]);
  const appId = await createApp({ scopes: SCOPES });
  const token = await issueToken(user.id, appId, HOST, SCOPES);
  return { club, site, user, appId, token };
}

/** Creates through the API, expects 201, and returns the tree. */
async function create(token: string, classname: string, body: Record<string, unknown>) {
  const response = await call(token, "PUT", `/data-api/${classname}/`, body);
  const tree = await response.json<Record<string, unknown>>();
  expect(response.status, JSON.stringify(tree)).toBe(201);
  expect(response.headers.get("Location")).toBe(`/data-api/${classname}/${String(tree.uuid)}`);
  return tree;
}

async function rowCount(table: string): Promise<number> {
  return (await db().get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM ${sql.identifier(table)}`)).n;
}

describe("admin entities: a club admin creates and reads back", () => {
  it("creates a Division, copies the club's site, and reads it back as a tree and in the list", async () => {
    const { token, club, site } = await clubAdmin("divs");
    const created = await create(token, "Division", {
      club: club.id,
      name: "  Nordic Juniors ",
      country: "CA",
      email: "juniors@example.com",
      website: "https://juniors.example.com",
      programs_list: ["Bunny Rabbit", "Track Attack"],
      nqc_expire_time: 1_900_000_000_000,
    });
    expect(created).toMatchObject({
      classname: "Division",
      club: club.id,
      site: site.id,
      name: "Nordic Juniors",
      programs_list: ["Bunny Rabbit", "Track Attack"],
    });
    const tree = await (await call(token, "GET", `/data-api/Division/${String(created.uuid)}`)).json<Record<string, unknown>>();
    expect(tree).toMatchObject({ classname: "Division", uuid: created.uuid, name: "Nordic Juniors", country: "CA", nqc_expire_time: 1_900_000_000_000 });
    expect(Object.keys(tree.field_mtimes as object)).toEqual(expect.arrayContaining(["name", "club", "site", "programs_list"]));
    const list = await (await call(token, "GET", "/data-api/Division/")).json<{ total: number; items: { uuid: string }[] }>();
    expect(list.items.map((i) => i.uuid)).toEqual([created.uuid]);
    const changed = await call(token, "POST", `/data-api/Division/${String(created.uuid)}/`, { sport: "Nordic skiing" });
    expect(await changed.json()).toMatchObject({ changed: { sport: "Nordic skiing" } });
    // The owning club is set once.
    expect((await call(token, "POST", `/data-api/Division/${String(created.uuid)}/`, { club: crypto.randomUUID() })).status).toBe(400);
  });

  it("creates an EventPage and reads it back", async () => {
    const { token, club, site } = await clubAdmin("events");
    const created = await create(token, "EventPage", {
      club: club.id,
      name: "Loppet 2026",
      title: "The Gatineau Loppet",
      year: 2026,
      start_date: "2026-02-14",
      end_date: "2026-02-15",
      page_url: "loppet-2026",
      banner_url: "https://cdn.example.com/banner.jpg",
    });
    expect(created).toMatchObject({ site: site.id, header_option: "banner" });
    const tree = await (await call(token, "GET", `/data-api/EventPage/${String(created.uuid)}`)).json<Record<string, unknown>>();
    expect(tree).toMatchObject({ classname: "EventPage", name: "Loppet 2026", year: 2026, start_date: "2026-02-14", page_url: "loppet-2026" });
    for (const bad of [{ year: 1850 }, { start_date: "2026-02-30" }, { banner_url: "javascript:alert(1)" }, { page_url: "Loppet 2026" }]) {
      expect((await call(token, "PUT", "/data-api/EventPage/", { club: club.id, name: "Bad", ...bad })).status, JSON.stringify(bad)).toBe(400);
    }
  });

  it("creates a Page on the club's site and reads it back", async () => {
    const { token, club, site } = await clubAdmin("pages");
    const other = await clubAdmin("pages-other");
    // A page named with the admin's club goes on that club's site: another site is refused, not silently moved (decision 0057).
    const moved = await call(token, "PUT", "/data-api/Page/", { site: other.site.id, club: club.id, title: "About us", path: "/about/history" });
    expect(moved.status).toBe(400);
    expect((await moved.json<{ fields: Record<string, string> }>()).fields.site).toBe("A Page of this Club goes on the Club's site; send the Club's own site");
    const created = await create(token, "Page", { site: site.id, club: club.id, title: "About us", path: "/about/history", body: "Founded 1972." });
    expect(created).toMatchObject({ site: site.id, club: club.id, is_published: false });
    const tree = await (await call(token, "GET", `/data-api/Page/${String(created.uuid)}`)).json<Record<string, unknown>>();
    expect(tree).toMatchObject({ classname: "Page", title: "About us", path: "/about/history", body: "Founded 1972." });
    expect((await (await call(other.token, "GET", "/data-api/Page/")).json<{ total: number }>()).total).toBe(0);
    // Without its club, a page on a site is for that site's or the platform's administrators.
    expect((await call(token, "PUT", "/data-api/Page/", { site: site.id, title: "Orphan", path: "/orphan" })).status).toBe(403);
  });

  it("creates the other club-owned classes with their defaults", async () => {
    const { token, club, site } = await clubAdmin("others");
    const owned = { club: club.id };
    expect(await create(token, "TimingDevice", { ...owned, device_type: "summit", humanname: "Finish Summit", device_number: 2 })).toMatchObject({
      site: site.id,
      accuracy: 0.5,
      precision: 0,
      channels: 1,
    });
    expect(await create(token, "Serverbox", { ...owned, name: "Hut box" })).toMatchObject({ subtype: "serverbox", is_active: true, last_seen_time: null });
    expect(
      await create(token, "EmailNewsletter", {
        ...owned,
        subject: "Season opener",
        elements: [
          { type: "header", text: "Welcome back" },
          { type: "button", text: "Register", url: "https://example.com/register" },
        ],
      }),
    ).toMatchObject({ communication_type: "newsletter", sent_time: null });
    expect(await create(token, "PointsSeries", { ...owned, name: "Cup", year: 2026, config: { ties: "split" } })).toMatchObject({ is_public: false });
    expect(await create(token, "ValidationSystem", { ...owned, name: "Licence", kind: "pattern", pattern: "^[A-Z]{3}\\d{5}$" })).toMatchObject({
      is_active: true,
    });
    expect(await create(token, "Activity", { ...owned, name: "Biathlon" })).toMatchObject({ club: club.id, site: site.id });
    expect(await create(token, "RankingScheme", { ...owned, name: "Seeding", method: "fis_points", season: "2025-26" })).toMatchObject({ config: {} });
    expect(await create(token, "PointsSystem", { ...owned, name: "World Cup", method: "table", points_table: [100, 80, 60] })).toMatchObject({
      ties: "share",
      scale_per_race: false,
    });
    expect(await create(token, "Pass", { ...owned, holder_name: "Ada Lovelace", valid_from: "2025-11-01", valid_until: "2026-04-30" })).toMatchObject({
      kind: "pass",
      revoked_time: null,
    });
    // Read-only fields are the platform's.
    const box = await (await call(token, "GET", "/data-api/Serverbox/")).json<{ items: { uuid: string }[] }>();
    expect((await call(token, "POST", `/data-api/Serverbox/${box.items[0]!.uuid}/`, { last_seen_time: 1 })).status).toBe(400);
  });
});

describe("admin entities: bad input answers 400 and writes nothing", () => {
  it("refuses a missing name, a page path without its slash and a pattern that does not compile", async () => {
    const { token, club, site } = await clubAdmin("badinput");
    const before = {
      divisions: await rowCount("divisions"),
      site_pages: await rowCount("site_pages"),
      validation_systems: await rowCount("validation_systems"),
    };
    const cases: [string, Record<string, unknown>, string][] = [
      ["Division", { club: club.id }, "Missing field 'name' for Division"],
      ["Division", { club: club.id, name: "   " }, "Invalid value for 'name'"],
      ["Page", { site: site.id, club: club.id, title: "About", path: "about" }, "Invalid value for 'path'"],
      ["Page", { site: site.id, club: club.id, title: "About", path: "/About" }, "Invalid value for 'path'"],
      ["Page", { site: site.id, club: club.id, title: "About", path: "/a//b" }, "Invalid value for 'path'"],
      ["Page", { site: site.id, club: club.id, title: "About", path: `/${"a".repeat(200)}` }, "Invalid value for 'path'"],
      ["ValidationSystem", { club: club.id, name: "Licence", kind: "pattern", pattern: "([A-Z" }, "pattern is not a valid regular expression"],
      ["ValidationSystem", { club: club.id, name: "Licence", kind: "regex" }, "Invalid value for 'kind'"],
      ["EmailNewsletter", { club: club.id, subject: "Hi", elements: [{ type: "button", text: "Go" }] }, "Invalid value for 'elements'"],
      ["TimingDevice", { club: club.id, device_type: "Sundial" }, "Invalid value for 'device_type'"],
    ];
    for (const [classname, body, message] of cases) {
      const response = await call(token, "PUT", `/data-api/${classname}/`, body);
      expect(response.status, `${classname} ${JSON.stringify(body)}`).toBe(400);
      expect((await response.json<{ message: string }>()).message).toContain(message);
    }
    expect({
      divisions: await rowCount("divisions"),
      site_pages: await rowCount("site_pages"),
      validation_systems: await rowCount("validation_systems"),
    }).toEqual(before);
  });
});

describe("admin entities: one club's admin does not reach another's", () => {
  it("hides another club's rows from lists and reads and refuses writes to them", async () => {
    const owner = await clubAdmin("owner");
    const outsider = await clubAdmin("outsider");
    const division = await create(owner.token, "Division", { club: owner.club.id, name: "Masters" });
    const page = await create(owner.token, "Page", { site: owner.site.id, club: owner.club.id, title: "Home", path: "/home" });
    const event = await create(owner.token, "EventPage", { club: owner.club.id, name: "Sprint Day" });
    for (const [classname, item] of [
      ["Division", division],
      ["Page", page],
      ["EventPage", event],
    ] as const) {
      const list = await (await call(outsider.token, "GET", `/data-api/${classname}/`)).json<{ total: number }>();
      expect(list.total, classname).toBe(0);
      const id = String(item.uuid);
      expect((await call(outsider.token, "GET", `/data-api/${classname}/${id}`)).status, classname).toBe(404);
      expect((await call(outsider.token, "POST", `/data-api/${classname}/${id}/`, { name: "Taken" })).status, classname).toBe(404);
      expect((await call(outsider.token, "DELETE", `/data-api/${classname}/${id}/`)).status, classname).toBe(404);
    }
    // Nor may the outsider create under the owner's club.
    expect((await call(outsider.token, "PUT", "/data-api/Division/", { club: owner.club.id, name: "Squatter" })).status).toBe(403);
    expect((await call(owner.token, "DELETE", `/data-api/Division/${String(division.uuid)}/`)).status).toBe(204);
  });

  it("needs the area's scope on the token", async () => {
    const { user, appId, club } = await clubAdmin("scopeless");
    const token = await issueToken(user.id, appId, HOST, "clubs");
    const refused = await call(token, "PUT", "/data-api/Division/", { club: club.id, name: "Masters" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "insufficient_scope", scope: "divisions" });
  });
});

describe("admin entities: depots and inventory", () => {
  /** A System Administrator with the depots flag, who keeps the depots and the catalogue. */
  async function depotsAdmin() {
    const user = await createUserWithPassword("depots-super@example.com", null, [{ type: "system_admin" }]);
    await db()
      .update(roles)
      .set({ config: { depots: true } })
      .where(eq(roles.userId, user.id));
    const appId = await createApp({ scopes: "depots" });
    return { token: await issueToken(user.id, appId, HOST, "depots"), appId };
  }

  it("lets a depot's admin create an InventoryItem there, of a catalogued type, and nowhere else", async () => {
    const admin = await depotsAdmin();
    const depot = await create(admin.token, "ShippingDepot", { name: "Ottawa depot", country: "CA", email: "depot@example.com" });
    const farDepot = await create(admin.token, "ShippingDepot", { name: "Calgary depot" });
    const type = await create(admin.token, "InventoryType", {
      key: "impinj-r420",
      name: "Impinj R420 reader",
      unit_cost: 250_000,
      is_rentable: true,
      tags: ["reader"],
      fields: [{ key: "mac", label: "MAC address", type: "text" }],
    });
    expect((await call(admin.token, "PUT", "/data-api/InventoryType/", { key: "Bad Key", name: "x" })).status).toBe(400);
    const keeper = await createUserWithPassword("depot-keeper@example.com", null, [{ type: "depot_admin", scope: String(depot.uuid) }]);
    const token = await issueToken(keeper.id, admin.appId, HOST, "depots");
    const item = await create(token, "InventoryItem", { depot: depot.uuid, type: type.uuid, name: "Reader 7", number: "R-0007" });
    const tree = await (await call(token, "GET", `/data-api/InventoryItem/${String(item.uuid)}`)).json<Record<string, unknown>>();
    expect(tree).toMatchObject({ classname: "InventoryItem", depot: depot.uuid, type: type.uuid, name: "Reader 7", number: "R-0007" });
    const list = await (await call(token, "GET", "/data-api/InventoryItem/")).json<{ items: { uuid: string }[] }>();
    expect(list.items.map((i) => i.uuid)).toEqual([item.uuid]);
    expect((await call(token, "PUT", "/data-api/InventoryItem/", { depot: farDepot.uuid, type: type.uuid })).status).toBe(403);
    const before = await rowCount("inventory_items");
    expect((await call(token, "PUT", "/data-api/InventoryItem/", { depot: depot.uuid })).status).toBe(400);
    expect((await call(token, "PUT", "/data-api/InventoryItem/", { depot: depot.uuid, type: crypto.randomUUID() })).status).toBe(404);
    expect(await rowCount("inventory_items")).toBe(before);
    // A club admin, even with the depots scope, holds no depot, so sees no inventory and makes none.
    const clubAdminUser = (await clubAdmin("nodepot")).user;
    const clubToken = await issueToken(clubAdminUser.id, admin.appId, HOST, "depots");
    expect((await (await call(clubToken, "GET", "/data-api/InventoryItem/")).json<{ total: number }>()).total).toBe(0);
    expect((await call(clubToken, "PUT", "/data-api/InventoryItem/", { depot: depot.uuid, type: type.uuid })).status).toBe(403);
    // A change of type must name a catalogued type too, and a second type with the same key is a conflict, not a crash.
    const retyped = await call(token, "POST", `/data-api/InventoryItem/${String(item.uuid)}`, { type: crypto.randomUUID() });
    expect(retyped.status).toBe(404);
    expect(await retyped.json()).toMatchObject({ error: "not_found", message: "No such InventoryType" });
    const twin = await call(admin.token, "PUT", "/data-api/InventoryType/", { key: "impinj-r420", name: "Another" });
    expect(twin.status).toBe(409);
    expect(await twin.json()).toMatchObject({ error: "conflict", message: "Another InventoryType already has this key", fields: { key: expect.any(String) } });
  });
});

describe("admin entities: rules across fields and unique addresses", () => {
  it("refuses a second page at the same path of a site, dates out of order, and a pattern system with no pattern", async () => {
    const { token, club, site } = await clubAdmin("rules");
    await create(token, "Page", { site: site.id, club: club.id, title: "About", path: "/about" });
    const before = await rowCount("site_pages");
    const twin = await call(token, "PUT", "/data-api/Page/", { site: site.id, club: club.id, title: "About us", path: "/about" });
    expect(twin.status).toBe(409);
    expect(await twin.json()).toMatchObject({ message: "Another Page already has this path", fields: { path: "Another Page already has this path" } });
    expect(await rowCount("site_pages")).toBe(before);
    const event = await call(token, "PUT", "/data-api/EventPage/", {
      club: club.id,
      name: "Loppet",
      title: "Loppet",
      year: 2027,
      start_date: "2027-02-10",
      end_date: "2027-02-09",
    });
    expect(event.status).toBe(400);
    expect(await event.json()).toMatchObject({ fields: { end_date: "The end date must be on or after the start date" } });
    const pass = await call(token, "PUT", "/data-api/Pass/", {
      club: club.id,
      kind: "pass",
      holder_name: "Ada",
      valid_from: "2027-01-01",
      valid_until: "2026-12-31",
    });
    expect(await pass.json()).toMatchObject({ fields: { valid_until: "The last valid day must be on or after the first" } });
    const system = await call(token, "PUT", "/data-api/ValidationSystem/", { club: club.id, name: "Licences", kind: "pattern" });
    expect(system.status).toBe(400);
    expect(await system.json()).toMatchObject({ message: "pattern: Enter the pattern valid numbers must match" });
  });
});

describe("admin entities: bank accounts and the class list", () => {
  it("lists a club's bank accounts read-only", async () => {
    const { token, club } = await clubAdmin("bank");
    const other = await clubAdmin("bank-other");
    const id = crypto.randomUUID();
    await db().insert(bankAccounts).values({ id, name: "Operating", clubId: club.id, accountLast4: "1234" });
    const list = await (await call(token, "GET", "/data-api/BankAccount/")).json<{ items: Record<string, unknown>[] }>();
    expect(list.items).toEqual([expect.objectContaining({ uuid: id, name: "Operating", club: club.id, kind: "remittance", account_last4: "1234" })]);
    expect((await (await call(other.token, "GET", "/data-api/BankAccount/")).json<{ total: number }>()).total).toBe(0);
    expect((await call(token, "PUT", "/data-api/BankAccount/", { club: club.id, name: "Mine" })).status).toBe(405);
    expect((await call(token, "POST", `/data-api/BankAccount/${id}/`, { name: "Mine" })).status).toBe(405);
  });

  it("lists the new classes with their scopes in /data-api/classes", async () => {
    const body = await (
      await worker.fetch(hostRequest(HOST, "/data-api/classes"))
    ).json<{ classes: { classname: string; scope: string; read_only: boolean }[] }>();
    const scopes = Object.fromEntries(body.classes.map((c) => [c.classname, c.scope]));
    expect(scopes).toMatchObject({
      BankAccount: "bankaccounts",
      Division: "divisions",
      TimingDevice: "timingdevices",
      Serverbox: "servers",
      EmailNewsletter: "emails",
      ShippingDepot: "depots",
      InventoryType: "depots",
      InventoryItem: "depots",
      EventPage: "eventpages",
      PointsSeries: "pointsseries",
      ValidationSystem: "validation",
      Activity: "activities",
      RankingScheme: "rankingschemes",
      Page: "pages",
      PointsSystem: "points",
      Pass: "passes",
    });
    expect(body.classes.find((c) => c.classname === "BankAccount")?.read_only).toBe(true);
  });
});
