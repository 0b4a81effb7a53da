import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { initialMtimes } from "../../core/entity/field-mtimes";
import { apiApplications, clubs, entityChanges, oauthGrants, oauthTokens } from "../../schema/d1";
import { hashToken } from "../../workers/auth/crypto";
import { createUserWithPassword, db, signIn, pagePost, worker, signedInAs } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { approveApp, authorizeQuery, issueToken, pkce, REDIRECT, tokenRequest } from "./oauth-fixtures";
import { openSocket } from "./socket-fixtures";

const HOST = "localhost";
const PASSWORD = "glacier-ski-42";

function get(path: string, cookie?: string, host = HOST) {
  return worker.fetch(hostRequest(host, path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" }));
}

/**
 * A same-origin form post as a browser sends it (Host and Origin both carry the port, which Remix compares);
 * pairs allow a name several times (the scope checkboxes).
 */
const post = (path: string, cookie: string, fields: [string, string][], host = HOST) => pagePost(host, path, fields, cookie);

async function createClub(name: string, siteId: string | null = null) {
  const club = { id: crypto.randomUUID(), name, siteId };
  await db()
    .insert(clubs)
    .values({ ...club, fieldMtimes: initialMtimes(club, Date.now()) });
  return club.id;
}

/** An API Client Admin of a new club, signed in on `host`. */
async function clubAppAdmin(label: string, host = HOST) {
  const clubId = await createClub(`Club ${label}`);
  const { user, cookie } = await signedInAs(host, [{ type: "api_client_admin", clubId }], {
    email: `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`,
    password: PASSWORD,
  });
  return { clubId, user, cookie };
}

function appForm(options: {
  name?: string;
  redirects?: string;
  scopes?: string[];
  type?: "public" | "confidential";
  club?: string;
  extra?: [string, string][];
}): [string, string][] {
  return [
    ["name", options.name ?? "Results Helper"],
    ["description", "Posts results to the club newsletter"],
    ["redirect_uris", options.redirects ?? REDIRECT],
    ...(options.scopes ?? ["registrations", "races"]).map((s): [string, string] => ["scopes", s]),
    ["client_type", options.type ?? "public"],
    ["club", options.club ?? ""],
    ...(options.extra ?? []),
  ];
}

/** The text of the element with a data-testid in a page, or null. */
function testId(html: string, id: string): string | null {
  return new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(html)?.[1] ?? null;
}

async function createViaPage(cookie: string, form: Parameters<typeof appForm>[0]) {
  const response = await post("/manage/apps/new", cookie, appForm(form));
  const html = await response.text();
  return { response, html, clientId: testId(html, "client-id"), secret: testId(html, "client-secret") };
}

const appRow = async (id: string) => db().query.apiApplications.findFirst({ where: eq(apiApplications.id, id) });

describe("application pages: access", () => {
  it("sends a signed-out visitor to /login and back", async () => {
    for (const path of ["/manage/apps", "/manage/apps/new", `/manage/apps/${crypto.randomUUID()}`]) {
      const response = await get(path);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(`/login?goto=${encodeURIComponent(path)}`);
    }
  });

  it("answers 403 with a clear message to a user with no role that manages apps", async () => {
    const clubId = await createClub("Race only");
    await createUserWithPassword("racer-apps@example.com", PASSWORD, [{ type: "all_races", clubId }]);
    const cookie = await signIn(HOST, "racer-apps@example.com", PASSWORD);
    for (const path of ["/manage/apps", "/manage/apps/new"]) {
      const response = await get(path, cookie);
      expect(response.status).toBe(403);
      expect(await response.text()).toContain("needs the API Client Admin or Organization Admin role");
    }
  });

  it("shows the empty state with a create button", async () => {
    const { cookie } = await clubAppAdmin("empty");
    const html = await (await get("/manage/apps", cookie)).text();
    expect(html).toContain("No applications yet");
    expect(html).toContain('href="/manage/apps/new"');
  });
});

describe("an API Client Admin of one club", () => {
  it("creates a public app: a client id and no secret", async () => {
    const { cookie, clubId, user } = await clubAppAdmin("public");
    const { response, html, clientId, secret } = await createViaPage(cookie, { type: "public", club: clubId });
    expect(response.status).toBe(200);
    expect(html).toContain("Application created");
    expect(secret).toBeNull();
    const row = await appRow(clientId!);
    expect(row).toMatchObject({
      name: "Results Helper",
      isPublic: true,
      isSystem: false,
      clientSecretHash: null,
      clubId,
      siteId: null,
      ownerUserId: user.id,
      scopes: "registrations races",
      redirectUris: [REDIRECT],
    });
    expect(Object.keys(row!.fieldMtimes)).toEqual(expect.arrayContaining(["name", "redirect_uris", "scopes"]));
    const list = await (await get("/manage/apps", cookie)).text();
    expect(list).toContain("Results Helper");
    expect(list).toContain("Public");
  });

  it("creates a confidential app whose secret is shown once and stored only as a hash", async () => {
    const { cookie, clubId } = await clubAppAdmin("confidential");
    const { response, html, clientId, secret } = await createViaPage(cookie, { name: "Server App", type: "confidential", club: clubId });
    expect(response.headers.get("Cache-Control")).toContain("no-store");
    expect(html).toContain("It will not be shown again");
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await appRow(clientId!);
    expect(row!.isPublic).toBe(false);
    expect(row!.clientSecretHash).toBe(hashToken(secret!));
    // No column holds the plaintext.
    const raw = await env.DB.prepare("SELECT * FROM api_applications WHERE id = ?").bind(clientId).all();
    expect(raw.results).toHaveLength(1);
    expect(JSON.stringify(raw.results)).not.toContain(secret);
    // Neither the list nor the app's page shows it again.
    expect(await (await get("/manage/apps", cookie)).text()).not.toContain(secret);
    const page = await (await get(`/manage/apps/${clientId}`, cookie)).text();
    expect(page).toContain("Server App");
    expect(page).not.toContain(secret);
  });

  it("edits redirect URIs field by field", async () => {
    const { cookie, clubId } = await clubAppAdmin("edit");
    const { clientId } = await createViaPage(cookie, { club: clubId });
    const before = (await appRow(clientId!))!;
    const redirects = `${REDIRECT}\nhttp://127.0.0.1:8790/callback`;
    const fields = (mtimes: object, name = "Results Helper"): [string, string][] => [
      ["intent", "save"],
      ["field_mtimes", JSON.stringify(mtimes)],
      ...appForm({ name, redirects }).filter(([k]) => k !== "client_type" && k !== "club"),
    ];
    const saved = await post(`/manage/apps/${clientId}`, cookie, fields(before.fieldMtimes));
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`/manage/apps/${clientId}?saved=1`);
    const after = (await appRow(clientId!))!;
    expect(after.redirectUris).toEqual([REDIRECT, "http://127.0.0.1:8790/callback"]);
    expect(after.fieldMtimes.redirect_uris).toBeGreaterThan(before.fieldMtimes.redirect_uris!);
    expect(after.fieldMtimes.name).toBe(before.fieldMtimes.name);
    // A form read before that save may not overwrite the field it changed.
    const stale = await post(
      `/manage/apps/${clientId}`,
      cookie,
      [...fields(before.fieldMtimes, "Renamed")].map(([k, v]): [string, string] => (k === "redirect_uris" ? [k, REDIRECT] : [k, v])),
    );
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("Someone else changed redirect uris");
    expect((await appRow(clientId!))!.name).toBe("Results Helper");
  });

  it("rotates the secret after a confirmation step: the old one stops working at the token endpoint", async () => {
    const { cookie, clubId } = await clubAppAdmin("rotate");
    const { clientId, secret: oldSecret } = await createViaPage(cookie, { type: "confidential", club: clubId });
    const confirm = await get(`/manage/apps/${clientId}?confirm=rotate`, cookie);
    expect(await confirm.text()).toContain("Make a new client secret for");
    const rotated = await post(`/manage/apps/${clientId}`, cookie, [["intent", "rotate"]]);
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get("Cache-Control")).toContain("no-store");
    const newSecret = testId(await rotated.text(), "client-secret");
    expect(newSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newSecret).not.toBe(oldSecret);
    expect((await appRow(clientId!))!.clientSecretHash).toBe(hashToken(newSecret!));
    // The history names who created the app and replaced its secret, and holds neither secret.
    const history = await db().select().from(entityChanges).where(eq(entityChanges.entityId, clientId!));
    expect(history.map((h) => [h.kind, h.field])).toEqual(
      expect.arrayContaining([
        ["created", "*"],
        ["changed", "client_secret"],
      ]),
    );
    expect(history.every((h) => h.userId !== null)).toBe(true);
    expect(JSON.stringify(history)).not.toContain(newSecret!);
    expect(JSON.stringify(history)).not.toContain(oldSecret!);

    // The client is checked before the code is used, so one code serves both attempts.
    const { verifier, challenge } = pkce();
    const { code } = await approveApp(HOST, cookie, authorizeQuery(clientId!, challenge));
    const exchange = (secret: string) =>
      tokenRequest(HOST, {
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT,
        client_id: clientId!,
        code_verifier: verifier,
        client_secret: secret,
      });
    const withOld = await exchange(oldSecret!);
    expect(withOld.status).toBe(401);
    expect(await withOld.json()).toMatchObject({ error: "invalid_client" });
    expect((await exchange(newSecret!)).status).toBe(200);
  });

  it("has no secret to rotate on a public app", async () => {
    const { cookie, clubId } = await clubAppAdmin("rotate-public");
    const { clientId } = await createViaPage(cookie, { club: clubId });
    const response = await post(`/manage/apps/${clientId}`, cookie, [["intent", "rotate"]]);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("A public client has no secret to rotate.");
  });

  it("deletes an app after a confirmation page, with every token and grant it holds", async () => {
    const { cookie, clubId, user } = await clubAppAdmin("delete");
    const { clientId } = await createViaPage(cookie, { name: "Doomed App", club: clubId });
    await issueToken(user.id, clientId!, HOST, "races");
    await db().insert(oauthGrants).values({ id: crypto.randomUUID(), userId: user.id, appId: clientId!, scopes: "races", updatedAt: Date.now() });
    const confirm = await (await get(`/manage/apps/${clientId}?confirm=delete`, cookie)).text();
    expect(confirm).toContain("Delete application “Doomed App”?");
    expect(confirm).toContain("This revokes every token it holds");
    expect(confirm).toMatch(/<form method="post" action="\/manage\/apps\/[^"]+"/);
    const deleted = await post(`/manage/apps/${clientId}`, cookie, [["intent", "delete"]]);
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe(`/manage/apps?deleted=${encodeURIComponent("Doomed App")}`);
    expect(await appRow(clientId!)).toBeUndefined();
    expect(await db().select().from(entityChanges).where(eq(entityChanges.entityId, clientId!))).toContainEqual(
      expect.objectContaining({ kind: "deleted", newValue: null }),
    );
    expect(await db().select().from(oauthTokens).where(eq(oauthTokens.appId, clientId!))).toEqual([]);
    expect(await db().select().from(oauthGrants).where(eq(oauthGrants.appId, clientId!))).toEqual([]);
    expect(await (await get("/manage/apps?deleted=Doomed%20App", cookie)).text()).toContain("Deleted “Doomed App”");
  });

  it("explains an invalid redirect URI and an unknown scope next to the field", async () => {
    const { cookie, clubId } = await clubAppAdmin("invalid");
    const cases: [string, string][] = [
      ["http://app.example/callback", "must use https; http is allowed only for 127.0.0.1 and localhost"],
      ["https://app.example/callback#done", "must not contain a fragment"],
      ["/callback", "is not an absolute URL"],
      ["", "Enter at least one redirect URI"],
    ];
    for (const [redirects, message] of cases) {
      const { response, html } = await createViaPage(cookie, { redirects, club: clubId });
      expect(response.status).toBe(400);
      expect(html).toContain(message);
      expect(html).toContain('aria-describedby="redirect_uris-hint redirect_uris-error"');
      expect(html).toContain('id="redirect_uris-error"');
    }
    const tooMany = Array.from({ length: 21 }, (_, i) => `https://app.example/cb${i}`).join("\n");
    expect((await createViaPage(cookie, { redirects: tooMany, club: clubId })).html).toContain("Enter at most 20 redirect URIs");
    const unknown = await createViaPage(cookie, { scopes: ["races", "nonsense"], club: clubId });
    expect(unknown.response.status).toBe(400);
    expect(unknown.html).toContain("Unknown scope: nonsense");
    expect(unknown.html).toContain('id="scopes-error"');
    // The form keeps what was typed.
    expect(unknown.html).toContain(REDIRECT);
    const nameless = await createViaPage(cookie, { name: " ", club: clubId });
    expect(nameless.html).toContain("Enter a name");
    expect(await db().select().from(apiApplications).where(eq(apiApplications.clubId, clubId))).toEqual([]);
  });

  it("cannot make a system app, and cannot change one", async () => {
    const { cookie, clubId } = await clubAppAdmin("system");
    const { clientId } = await createViaPage(cookie, {
      club: clubId,
      extra: [
        ["is_system", "true"],
        ["is_system", "1"],
      ],
    });
    expect((await appRow(clientId!))!.isSystem).toBe(false);
    await db().update(apiApplications).set({ isSystem: true }).where(eq(apiApplications.id, clientId!));
    const page = await (await get(`/manage/apps/${clientId}`, cookie)).text();
    expect(page).toContain("System application");
    expect(page).not.toContain("Save changes");
    const fields: [string, string][] = [["intent", "save"], ...appForm({ name: "Hijacked" }).filter(([k]) => k !== "client_type" && k !== "club")];
    const save = await post(`/manage/apps/${clientId}`, cookie, fields);
    expect(save.status).toBe(403);
    expect((await post(`/manage/apps/${clientId}`, cookie, [["intent", "delete"]])).status).toBe(403);
    expect((await appRow(clientId!))!.name).toBe("Results Helper");
  });

  it("may not create an app for another club or without a club", async () => {
    const { cookie } = await clubAppAdmin("wrongclub");
    const other = await createClub("Someone else's");
    const forOther = await createViaPage(cookie, { club: other });
    expect(forOther.response.status).toBe(400);
    expect(forOther.html).toContain("You may not create applications for this club");
    const none = await createViaPage(cookie, { club: "" });
    expect(none.html).toContain("Choose the club the application belongs to");
  });
});

describe("another club's API Client Admin", () => {
  it("neither sees nor changes club A's apps", async () => {
    const a = await clubAppAdmin("club-a");
    const b = await clubAppAdmin("club-b");
    const { clientId } = await createViaPage(a.cookie, { name: "Club A Private App", type: "confidential", club: a.clubId });
    const before = (await appRow(clientId!))!;
    expect(await (await get("/manage/apps", b.cookie)).text()).not.toContain("Club A Private App");
    expect((await get(`/manage/apps/${clientId}`, b.cookie)).status).toBe(404);
    expect((await get(`/manage/apps/${clientId}?confirm=delete`, b.cookie)).status).toBe(404);
    const edit: [string, string][] = [["intent", "save"], ...appForm({ name: "Taken over" }).filter(([k]) => k !== "client_type" && k !== "club")];
    expect((await post(`/manage/apps/${clientId}`, b.cookie, edit)).status).toBe(404);
    expect((await post(`/manage/apps/${clientId}`, b.cookie, [["intent", "rotate"]])).status).toBe(404);
    expect((await post(`/manage/apps/${clientId}`, b.cookie, [["intent", "delete"]])).status).toBe(404);
    expect(await appRow(clientId!)).toEqual(before);
  });
});

describe("tenants", () => {
  it("gives a new app the site of the host and lists only that site's apps there", async () => {
    const { site } = await createSiteWithRace(db(), { hostname: "apps-site.localhost", siteName: "Apps Site", raceName: "Apps Race" });
    const siteClub = await createClub("Site Club", site.id);
    await createUserWithPassword("platform-apps@example.com", PASSWORD, [{ type: "api_client_admin", clubId: null }]);
    const mainCookie = await signIn(HOST, "platform-apps@example.com", PASSWORD);
    const siteCookie = await signIn(site.hostname, "platform-apps@example.com", PASSWORD);
    // Without a club the API Client Admin reaches every app, and may leave the club empty.
    const main = await createViaPage(mainCookie, { name: "Main Host App" });
    expect(await appRow(main.clientId!)).toMatchObject({ siteId: null, clubId: null });
    const onSite = await post("/manage/apps/new", siteCookie, appForm({ name: "Site Host App", club: siteClub }), site.hostname);
    const siteAppId = testId(await onSite.text(), "client-id");
    expect(await appRow(siteAppId!)).toMatchObject({ siteId: site.id, clubId: siteClub });
    const siteList = await (await get("/manage/apps", siteCookie, site.hostname)).text();
    expect(siteList).toContain("Site Host App");
    expect(siteList).not.toContain("Main Host App");
    expect((await get(`/manage/apps/${main.clientId}`, siteCookie, site.hostname)).status).toBe(404);
    // A club of another site is not offered, nor accepted, on this site's host.
    const elsewhere = await createClub("Elsewhere");
    const refused = await post("/manage/apps/new", siteCookie, appForm({ club: elsewhere }), site.hostname);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Choose one of the listed clubs");
  });
});

describe("edits on the pages reach data-service subscribers", () => {
  it("sends the changed fields of an app edited on its page to a socket following it", async () => {
    const { cookie, clubId, user } = await clubAppAdmin("live");
    const { clientId } = await createViaPage(cookie, { club: clubId });
    const token = await issueToken(user.id, clientId!, HOST, "apps");
    const socket = await openSocket("apps-live");
    const hello = await socket.auth(token);
    const subscribe = await worker.fetch(
      hostRequest(HOST, `/data-api/APIApplication/${clientId}/subscribe?conn=${hello.conn}`, { method: "POST", headers: { Authorization: `Bearer ${token}` } }),
    );
    expect(subscribe.status).toBe(200);
    const before = (await appRow(clientId!))!;
    const fields: [string, string][] = [
      ["intent", "save"],
      ["field_mtimes", JSON.stringify(before.fieldMtimes)],
      ...appForm({ name: "Renamed live" }).filter(([k]) => k !== "client_type" && k !== "club"),
    ];
    expect((await post(`/manage/apps/${clientId}`, cookie, fields)).status).toBe(302);
    const data = await socket.next("data");
    expect(data).toMatchObject({ classname: "APIApplication", uuid: clientId, fields: { name: "Renamed live" } });
    expect(Object.keys(data.fields)).toEqual(["name"]);
    socket.socket.close(1000);
  });
});
