import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { isCityData } from "./apply-migrations";
import { createUserWithPassword, db } from "./auth-fixtures";
import { createSiteWithRace } from "./fixtures";
import { createApp, issueToken, apiCall } from "./oauth-fixtures";

const HOST = "localhost";

beforeAll(async () => {
  // The shipped data set, through its real migration.
  await applyD1Migrations(
    env.DB,
    env.TEST_MIGRATIONS.filter((m) => isCityData(m.name)),
  );
});

const call = (token: string, method: string, path: string, body?: unknown) => apiCall(HOST, token, method, path, body);

describe("city of an entity", () => {
  it("ships the data set with time zones and provinces", async () => {
    const ottawa = await db().query.cities.findFirst({ where: (c, { eq }) => eq(c.geoname, 6094817) });
    expect(ottawa).toMatchObject({ name: "Ottawa", countryIso: "CA", provinceIso: "ON", timezone: "America/Toronto" });
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM cities").first<{ n: number }>();
    expect(count!.n).toBeGreaterThan(50_000);
  });

  it("sets a club's place by geoname id and reads it back, for a token with the clubs scope", async () => {
    const { club } = await createSiteWithRace(db(), { hostname: "cityclub.localhost", siteName: "City", raceName: "City" });
    const user = await createUserWithPassword("city@example.com", null, [{ type: "org_admin", clubId: club.id }]);
    const appId = await createApp({ scopes: "clubs" });
    const token = await issueToken(user.id, appId, HOST, "clubs");
    const empty = await call(token, "GET", `/data-api/Club/${club.id}/city`);
    expect(await empty.json()).toEqual({
      city_name: null,
      timezone: null,
      geoname: null,
      latitude: null,
      longitude: null,
      province_iso: null,
      country_iso: null,
    });
    const set = await call(token, "POST", `/data-api/Club/${club.id}/city`, { geoname_id: 6077243 });
    expect(set.status).toBe(200);
    const place = await (await call(token, "GET", `/data-api/Club/${club.id}/city`)).json<Record<string, unknown>>();
    expect(place).toMatchObject({ city_name: "Montréal", timezone: "America/Toronto", geoname: 6077243, province_iso: "QC", country_iso: "CA" });
    expect(place.latitude).toBeCloseTo(45.5, 0);
    const tree = await (await call(token, "GET", `/data-api/Club/${club.id}`)).json<{ field_mtimes: Record<string, number> }>();
    expect(Object.keys(tree.field_mtimes)).toEqual(expect.arrayContaining(["city_name", "timezone", "geoname"]));
  });

  it("refuses an unknown geoname id, a class without a place, and a place it may not change", async () => {
    const { club } = await createSiteWithRace(db(), { hostname: "citybad.localhost", siteName: "Bad", raceName: "Bad" });
    const user = await createUserWithPassword("citybad@example.com", null, [{ type: "org_admin", clubId: club.id }]);
    const appId = await createApp({ scopes: "clubs registrations" });
    const token = await issueToken(user.id, appId, HOST, "clubs registrations");
    expect((await call(token, "POST", `/data-api/Club/${club.id}/city`, { geoname_id: 1 })).status).toBe(404);
    expect((await call(token, "POST", `/data-api/Club/${club.id}/city`, { geoname_id: "Ottawa" })).status).toBe(400);
    const registration = await call(token, "PUT", "/data-api/Registration/", { club: club.id, name: "No place" });
    const id = registration.headers.get("Location")!.split("/").pop();
    expect(await (await call(token, "GET", `/data-api/Registration/${id}/city`)).json()).toMatchObject({ message: "A Registration has no city" });
    const other = await createSiteWithRace(db(), { hostname: "cityother.localhost", siteName: "Other", raceName: "Other" });
    expect((await call(token, "POST", `/data-api/Club/${other.club.id}/city`, { geoname_id: 6094817 })).status).toBe(404);
  });
});
