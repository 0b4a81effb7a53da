/**
 * Every page route of the build, asked for by the wrong people: anonymous visitors and a signed-in user with
 * no role. The list comes from the Remix build itself, so a new route is checked the day it is added; a
 * route open to them must be named below with the reason. No route may answer 200 to the wrong person.
 */
import { env } from "cloudflare:workers";
import * as build from "remix-server-build";
import { describe, expect, it } from "vitest";
import { adminAreas } from "../../core/access/admin-areas";
import { entityClasses } from "../../schema/entities/classes";
import {
  divisionMembers,
  divisionPeople,
  divisionSeasons,
  divisions,
  eventPages,
  gochipRacks,
  rankingSchemes,
  registrations,
  shippingDepots,
  validationSystems,
} from "../../schema/d1";
import { createUserWithPassword, db, signIn, worker } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";

/**
 * Open to anyone: sign-in and sign-up (with the welcome page after it), the public race pages, a club site's
 * event pages (public by nature; another site's or a draft event is a 404, tests/integration/event-pages.test.ts), the public
 * series standings (a private series is a 404 to them: tests/integration/points-series.test.ts), the public
 * ranking lists (a private scheme or another site's is a 404: tests/integration/public-rankings.test.ts), the
 * registration flow (no account needed), a pass or member card (its signed link decides: tests/integration/passes.test.ts), an invitation's page (its token decides), the new-address confirmation (its token decides, and it may be
 * opened in another browser) and the development mail page (absent in production).
 */
const PUBLIC = [
  /^routes\/_index$/,
  /^routes\/\$$/,
  /^routes\/signup$/,
  /^routes\/welcome$/,
  /^routes\/login\+\//,
  /^routes\/manage\+\/email$/,
  /^routes\/races\+\//,
  /^routes\/events\+\//,
  /^routes\/series\+\//,
  /^routes\/rankings\+\//,
  /^routes\/register\+\//,
  /^routes\/passes\+\//,
  /^routes\/invite\+\//,
  /^routes\/dev\+\/mail$/,
];
/** Open to anyone signed in: their own account, its security, the apps connected to it, and starting a club. */
const ANY_SIGNED_IN = [/^routes\/manage\+\/(_index|security|connected)$/, /^routes\/club\+\/new$/];

/** Pages with nothing to show: once their guard lets the person in, they redirect (Stripe's return and refresh pages). */
const REDIRECT_ONLY = [/^routes\/club\+\/\$club\.stripe\.(return|refresh)$/];

const matches = (id: string, patterns: readonly RegExp[]) => patterns.some((p) => p.test(id));

/** Each route's full path, from its own path and its parents'. */
function fullPath(id: string): string {
  const route = build.routes[id]!;
  const own = route.path ?? "";
  const parent = route.parentId && route.parentId !== "root" ? fullPath(route.parentId) : "";
  return [parent, own].filter(Boolean).join("/");
}

interface Ids {
  race: string;
  validation: string;
  registration: string;
  club: string;
  site: string;
  depot: string;
  /** A GoChip rack of the depot (/shipments/:depot/racks/:rack). */
  rack: string;
  /** A club's event page (/club/:club/events/:event). */
  event: string;
  scheme: string;
  division: string;
  member: string;
}

/** The URLs to ask for a route: real ids where the route names one, each admin area for /_admin/:area. */
function urlsOf(id: string, ids: Ids): string[] {
  const path = fullPath(id);
  const section = id.split("/")[1]?.replace("+", "") ?? "";
  const byName: Record<string, string> = {
    id: section === "registration" ? ids.registration : id.includes("/validation_.") ? ids.validation : ids.race,
    raceId: ids.race,
    registrationId: ids.registration,
    club: ids.club,
    site: ids.site,
    depot: ids.depot,
    rack: ids.rack,
    event: ids.event,
    scheme: ids.scheme,
    division: ids.division,
    member: ids.member,
  };
  const fill = (area: string) =>
    "/" +
    path
      .split("/")
      .map((segment) =>
        segment === "*" ? "no-such-page" : segment === ":area" ? area : segment.startsWith(":") ? (byName[segment.slice(1)] ?? crypto.randomUUID()) : segment,
      )
      .join("/");
  if (!path.includes(":area")) return [fill("")];
  // An object page needs a real object: the fixtures' club, site, form and race, each in its own area.
  if (path.includes(":id")) {
    const objects: [string, string, string][] = [
      ["clubs", "Club", ids.club],
      ["sites", "WhitelabelSite", ids.site],
      ["registrations", "Registration", ids.registration],
      ["races", "Race", ids.race],
    ];
    return objects.map(([area, classname, id]) => `${fill(area).replace(/\/[^/]+$/, `/${id}`)}?class=${classname}`);
  }
  // The generated pages serve the areas with registry classes; a create page only those that take writes.
  const withClasses = adminAreas.filter((a) => {
    const first = entityClasses.find((e) => e.area === a.key && !e.parent);
    return first && (!path.endsWith("/new") || !first.readOnly);
  });
  return (path.endsWith("/new") || path.endsWith("/export") ? withClasses : adminAreas).map((a) => fill(a.key));
}

const hostOf = (id: string) => (id.startsWith("routes/[_admin]+/") ? "admin.localhost" : "localhost");

async function fixtures(): Promise<Ids> {
  const tag = crypto.randomUUID().slice(0, 8);
  const { site, club, race } = await createSiteWithRace(db(), { hostname: `access-${tag}.localhost`, siteName: "Access", raceName: "Access race" });
  const registration = { id: crypto.randomUUID(), clubId: club.id, siteId: site.id, name: "Access form", isApproved: true };
  await db()
    .insert(registrations)
    .values({ ...registration, fieldMtimes: {} });
  // A validation system's numbers page (/_admin/validation/:id/numbers) needs a real system.
  const validation = crypto.randomUUID();
  await db().insert(validationSystems).values({ id: validation, clubId: club.id, siteId: site.id, name: "Access list", kind: "list", fieldMtimes: {} });
  const depot = crypto.randomUUID();
  await db().insert(shippingDepots).values({ id: depot, name: "Access depot", fieldMtimes: {} });
  const rack = crypto.randomUUID();
  await db().insert(gochipRacks).values({ id: rack, depotId: depot, number: "1", fieldMtimes: {} });
  const event = crypto.randomUUID();
  await db().insert(eventPages).values({ id: event, clubId: club.id, siteId: site.id, name: "Access event", fieldMtimes: {} });
  // A ranking list page (/club/:club/rankings/:scheme) needs a real scheme of the club.
  const scheme = crypto.randomUUID();
  await db()
    .insert(rankingSchemes)
    .values({ id: scheme, clubId: club.id, siteId: site.id, name: "Access ranking", method: "fis_points", config: {}, fieldMtimes: {} });
  // The membership pages (/org/:division/…, a member's page) need a real division and member, so the guard answers, not a 404.
  const owners = { clubId: club.id, siteId: site.id, fieldMtimes: {} };
  const division = crypto.randomUUID();
  await db()
    .insert(divisions)
    .values({ id: division, name: "Access members", ...owners });
  const season = { id: crypto.randomUUID(), divisionId: division, name: "Access season", startsAt: 0, endsAt: 86_400_000, ...owners };
  await db().insert(divisionSeasons).values(season);
  const person = { id: crypto.randomUUID(), divisionId: division, memberNumber: 1, personKey: "access", firstName: "A", lastName: "B", ...owners };
  await db().insert(divisionPeople).values(person);
  const member = crypto.randomUUID();
  await db()
    .insert(divisionMembers)
    .values({ id: member, divisionId: division, personId: person.id, seasonId: season.id, memberClass: "general", expiresAt: season.endsAt, ...owners });
  return { race: race.id, validation, registration: registration.id, club: club.id, site: site.id, depot, rack, event, scheme, division, member };
}

function get(host: string, path: string, cookie?: string) {
  return worker.fetch(hostRequest(host, path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" }));
}

const pageRoutes = () => Object.keys(build.routes).filter((id) => id !== "root");

describe("who may open each page route", () => {
  it("finds the product's routes in the build", () => {
    expect(pageRoutes().length).toBeGreaterThan(70);
    expect(env.ENVIRONMENT).not.toBe("production");
  });

  it("answers no protected route with 200 to an anonymous visitor", { timeout: 120_000 }, async () => {
    const ids = await fixtures();
    const opened: string[] = [];
    for (const id of pageRoutes().filter((id) => !matches(id, PUBLIC))) {
      for (const url of urlsOf(id, ids)) {
        const response = await get(hostOf(id), url);
        if (response.status === 200) opened.push(`${id} ${url}`);
        else expect(response.status, `${id} ${url}`).toBeLessThan(500);
      }
    }
    expect(opened).toEqual([]);
  });

  it("answers no role's route with 200 to a signed-in user who holds no role", { timeout: 120_000 }, async () => {
    const ids = await fixtures();
    await createUserWithPassword("no-role@example.com", "glacier-ski-42", []);
    const cookies = {
      localhost: await signIn("localhost", "no-role@example.com", "glacier-ski-42"),
      "admin.localhost": await signIn("admin.localhost", "no-role@example.com", "glacier-ski-42"),
    };
    const opened: string[] = [];
    for (const id of pageRoutes().filter((id) => !matches(id, PUBLIC) && !matches(id, ANY_SIGNED_IN))) {
      for (const url of urlsOf(id, ids)) {
        const host = hostOf(id);
        const response = await get(host, url, cookies[host]);
        if (response.status === 200) opened.push(`${id} ${url}`);
        else expect(response.status, `${id} ${url}`).toBeLessThan(500);
      }
    }
    expect(opened).toEqual([]);
  });

  it("opens every club, race and registration route of a club to its Organization Admin", { timeout: 120_000 }, async () => {
    const ids = await fixtures();
    const email = `org-${ids.club.slice(0, 8)}@example.com`;
    await createUserWithPassword(email, "glacier-ski-42", [{ type: "org_admin", clubId: ids.club }]);
    const cookie = await signIn("localhost", email, "glacier-ski-42");
    const refused: string[] = [];
    const ownsAll = (url: string) =>
      !/[0-9a-f]{8}-[0-9a-f]{4}-/.test(
        url.replace(ids.race, "").replace(ids.registration, "").replace(ids.club, "").replace(ids.site, "").replace(ids.event, "").replace(ids.scheme, ""),
      );
    for (const id of pageRoutes().filter((id) => /^routes\/(club|race|registration)\+\//.test(id))) {
      for (const url of urlsOf(id, ids).filter(ownsAll)) {
        const response = await get("localhost", url, cookie);
        const opened = matches(id, REDIRECT_ONLY)
          ? response.status === 302 && response.headers.get("Location")?.startsWith(`/club/${ids.club}/admin`)
          : response.status === 200;
        if (!opened) refused.push(`${id} ${url} ${response.status}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it("opens the depot's shipments page to its Shipping Depot User, and a shipment of another depot to nobody there", { timeout: 60_000 }, async () => {
    const ids = await fixtures();
    const email = `depot-${ids.depot.slice(0, 8)}@example.com`;
    await createUserWithPassword(email, "glacier-ski-42", [{ type: "depot_user", scope: ids.depot }]);
    const cookie = await signIn("localhost", email, "glacier-ski-42");
    const depotRoutes = pageRoutes().filter((id) => id.startsWith("routes/shipments+/"));
    expect(depotRoutes.length).toBeGreaterThanOrEqual(3);
    expect((await get("localhost", `/shipments/${ids.depot}`, cookie)).status).toBe(200);
    expect((await get("localhost", `/shipments/${ids.depot}/chips`, cookie)).status).toBe(200);
    expect((await get("localhost", `/shipments/${ids.depot}/racks/${ids.rack}`, cookie)).status).toBe(200);
    for (const id of depotRoutes) {
      for (const url of urlsOf(id, ids)) expect((await get("localhost", url, cookie)).status, url).not.toBe(500);
    }
    const other = await fixtures();
    expect((await get("localhost", `/shipments/${other.depot}`, cookie)).status).toBe(403);
  });

  it("opens every area of the administration to a System Administrator configured for all of them", { timeout: 120_000 }, async () => {
    const ids = await fixtures();
    const email = `sys-${ids.club.slice(0, 8)}@example.com`;
    const user = await createUserWithPassword(email, "glacier-ski-42", [{ type: "system_admin" }]);
    await env.DB.prepare("UPDATE roles SET config = ? WHERE user_id = ?")
      .bind(JSON.stringify({ all: true }), user.id)
      .run();
    const cookie = await signIn("admin.localhost", email, "glacier-ski-42");
    const refused: string[] = [];
    for (const id of pageRoutes().filter((id) => id.startsWith("routes/[_admin]+/"))) {
      for (const url of urlsOf(id, ids)) {
        const response = await get("admin.localhost", url, cookie);
        if (response.status !== 200) refused.push(`${id} ${url} ${response.status}`);
      }
    }
    expect(refused).toEqual([]);
  });
});
