/** A signed-in user starts a club: its site and the founder's Organization Admin role come with it, once. */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { clubs, roles, sites } from "../../schema/d1";
import { CLUB_MESSAGES, CLUBS_PER_DAY } from "../../workers/services/clubs";
import { createUserWithPassword, db, pagePost, signIn, pageGet } from "./auth-fixtures";

const get = pageGet;

async function founder(tag: string) {
  const email = `founder-${tag}@example.com`;
  const user = await createUserWithPassword(email, "glacier-ski-42", []);
  return { user, cookie: await signIn("localhost", email, "glacier-ski-42") };
}

const start = (cookie: string, fields: Record<string, string>) =>
  pagePost(
    "localhost",
    "/club/new",
    { intent: "create", submission: crypto.randomUUID(), sport: "Cross Country Skiing", country: "CA", site_label: "", ...fields },
    cookie,
  );

describe("starting a club", () => {
  it("makes the club, its site under the main host and the founder's Organization Admin role", async () => {
    const { user, cookie } = await founder("one");
    expect((await get("localhost", "/club/new", cookie)).status).toBe(200);
    const response = await start(cookie, { name: "Ridgeline Nordic Club" });
    expect(response.status).toBe(302);
    const clubId = /^\/club\/([0-9a-f-]{36})\/overview$/.exec(response.headers.get("Location") ?? "")![1]!;
    const [club] = await db().select().from(clubs).where(eq(clubs.id, clubId));
    expect(club).toMatchObject({ name: "Ridgeline Nordic Club", sport: "Cross Country Skiing", country: "CA" });
    const [site] = await db().select().from(sites).where(eq(sites.id, club!.siteId!));
    expect(site!.hostname).toBe("ridgeline-nordic-club.localhost");
    const held = await db().select().from(roles).where(eq(roles.userId, user.id));
    expect(held).toEqual([expect.objectContaining({ type: "org_admin", clubId, siteId: site!.id })]);
    // The role works at once, and the site answers on its own host.
    expect((await get("localhost", `/club/${clubId}/overview`, cookie)).status).toBe(200);
    const home = await get("ridgeline-nordic-club.localhost", "/");
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Ridgeline Nordic Club");
  });

  it("makes one club of a form sent twice, and numbers the address of a second club of the same name", async () => {
    const { cookie } = await founder("twice");
    const submission = crypto.randomUUID();
    const [first, second] = await Promise.all([start(cookie, { name: "Twin Peaks XC", submission }), start(cookie, { name: "Twin Peaks XC", submission })]);
    expect(first.headers.get("Location")).toBe(`/club/${submission}/overview`);
    expect(second.headers.get("Location")).toBe(`/club/${submission}/overview`);
    expect(await db().select().from(clubs).where(eq(clubs.name, "Twin Peaks XC"))).toHaveLength(1);
    const other = await founder("twin");
    const again = await start(other.cookie, { name: "Twin Peaks XC" });
    const otherId = /\/club\/([0-9a-f-]{36})\//.exec(again.headers.get("Location") ?? "")![1]!;
    const [club] = await db().select().from(clubs).where(eq(clubs.id, otherId));
    const [site] = await db().select().from(sites).where(eq(sites.id, club!.siteId!));
    expect(site!.hostname).toBe("twin-peaks-xc-2.localhost");
    // Someone else's form id is not a way into their club.
    const stolen = await start(other.cookie, { name: "Twin Peaks XC", submission });
    expect(stolen.status).toBe(409);
    expect(await stolen.text()).toContain(CLUB_MESSAGES.stale);
  });

  it("refuses a bad name, sport, country or address in the spec's words, writing nothing", async () => {
    const { user, cookie } = await founder("bad");
    const cases: [Record<string, string>, string][] = [
      [{ name: " " }, CLUB_MESSAGES.name],
      [{ name: "Ok Club", sport: "Quidditch" }, CLUB_MESSAGES.sport],
      [{ name: "Ok Club", country: "XX" }, CLUB_MESSAGES.country],
      [{ name: "Ok Club", site_label: "admin" }, "This address is reserved; choose another"],
      [{ name: "Ok Club", site_label: "no spaces here" }, "Use 3 to 40 lowercase letters, digits and hyphens, starting with a letter"],
      [{ name: "Ok Club", site_label: "ridgeline-nordic-club" }, "This address is taken; choose another"],
    ];
    for (const [fields, message] of cases) {
      const response = await start(cookie, fields);
      expect(response.status, message).toBe(400);
      expect(await response.text()).toContain(message.replaceAll("'", "&#x27;"));
    }
    expect(await db().select().from(roles).where(eq(roles.userId, user.id))).toEqual([]);
  });

  it(`lets one founder start at most ${CLUBS_PER_DAY} clubs a day, counted in the write`, { timeout: 30_000 }, async () => {
    const { user, cookie } = await founder("many");
    const sent = await Promise.all(Array.from({ length: CLUBS_PER_DAY + 2 }, (_, i) => start(cookie, { name: `Busy Club ${i}` })));
    expect(sent.filter((r) => r.status === 302)).toHaveLength(CLUBS_PER_DAY);
    const refused = sent.filter((r) => r.status === 409);
    expect(refused).toHaveLength(2);
    expect(await refused[0]!.text()).toContain("You can start at most 3 clubs a day");
    expect(await db().select().from(roles).where(eq(roles.userId, user.id))).toHaveLength(CLUBS_PER_DAY);
    const left = await env.DB.prepare("SELECT COUNT(*) AS n FROM clubs WHERE name LIKE 'Busy Club %'").first<{ n: number }>();
    expect(left!.n).toBe(CLUBS_PER_DAY);
  });

  it("is for signed-in users on the main host", async () => {
    expect((await get("localhost", "/club/new")).status).toBe(302);
    const { cookie } = await founder("site");
    expect((await get("ridgeline-nordic-club.localhost", "/club/new", cookie)).status).toBe(404);
  });
});
