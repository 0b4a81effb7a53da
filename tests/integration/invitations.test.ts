/** A race's administrator invites people to its roles by e-mail; the invited account accepts through the link. */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invitations, roles } from "../../schema/d1";
import { INVITATION_MESSAGES } from "../../workers/services/invitations";
import { createUserWithPassword, db, latestMailTo, pagePost, signIn, pageGet } from "./auth-fixtures";
import { createSiteWithRace } from "./fixtures";

const get = (path: string, cookie?: string) => pageGet("localhost", path, cookie);
const html = (text: string) => text.replaceAll("'", "&#x27;");

async function raceWithAdmin(tag: string) {
  const { club, race } = await createSiteWithRace(db(), { hostname: `inv-${tag}.localhost`, siteName: `Inv ${tag}`, raceName: `Invite race ${tag}` });
  await createUserWithPassword(`admin-${tag}@example.com`, "glacier-ski-42", [{ type: "org_admin", clubId: club.id }]);
  return { race, adminCookie: await signIn("localhost", `admin-${tag}@example.com`, "glacier-ski-42") };
}

const invite = (raceId: string, cookie: string, email: string, role = "race_timer") =>
  pagePost("localhost", `/race/${raceId}/admin/people`, { intent: "invite", email, role }, cookie);

async function linkFor(email: string): Promise<string> {
  const mail = await latestMailTo(email);
  return new URL(/https?:\/\/\S+\/invite\/\S+/.exec(mail!.text)![0]).pathname;
}

describe("inviting people to a race's roles", () => {
  it("lets the invited account accept once and land on the race", async () => {
    const { race, adminCookie } = await raceWithAdmin("accept");
    const timer = await createUserWithPassword("timer-accept@example.com", "glacier-ski-42", []);
    const sent = await invite(race.id, adminCookie, " Timer-Accept@Example.com ");
    expect(sent.headers.get("Location")).toBe(`/race/${race.id}/admin/people?saved=invited`);
    const mail = await latestMailTo("timer-accept@example.com");
    expect(mail!.subject).toContain(`invites you to be Race Timer of Invite race accept`);
    const link = await linkFor("timer-accept@example.com");
    const page = await get(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Race Timer of Invite race accept");
    const cookie = await signIn("localhost", "timer-accept@example.com", "glacier-ski-42");
    const [first, second] = await Promise.all([pagePost("localhost", link, {}, cookie), pagePost("localhost", link, {}, cookie)]);
    expect(first.headers.get("Location")).toBe(`/race/${race.id}/overview`);
    expect(second.headers.get("Location")).toBe(`/race/${race.id}/overview`);
    expect(await db().select().from(roles).where(eq(roles.userId, timer.id))).toEqual([expect.objectContaining({ type: "race_timer", scope: race.id })]);
    expect((await get(`/race/${race.id}/overview`, cookie)).status).toBe(200);
    expect(await (await get("/manage", cookie)).text()).toContain("Race Timer");
    // The administrator sees them on the People page, and a timer may not open it.
    expect(await (await get(`/race/${race.id}/admin/people`, adminCookie)).text()).toContain("timer-accept@example.com");
    expect((await get(`/race/${race.id}/admin/people`, cookie)).status).toBe(403);
  });

  it("keeps one open invitation per address and role: inviting again replaces the link", async () => {
    const { race, adminCookie } = await raceWithAdmin("again");
    await invite(race.id, adminCookie, "again@example.com");
    const old = await linkFor("again@example.com");
    await Promise.all([invite(race.id, adminCookie, "again@example.com"), invite(race.id, adminCookie, "again@example.com")]);
    const open = await db()
      .select()
      .from(invitations)
      .where(and(eq(invitations.email, "again@example.com")));
    expect(open.filter((i) => i.revokedAt === null)).toHaveLength(1);
    expect(await (await get(old)).text()).toContain(html(INVITATION_MESSAGES.withdrawn));
    expect((await get(await linkFor("again@example.com"))).status).toBe(200);
  });

  it("refuses another account, a withdrawn link and a made-up one, and gives nothing", async () => {
    const { race, adminCookie } = await raceWithAdmin("refuse");
    const other = await createUserWithPassword("other-refuse@example.com", "glacier-ski-42", []);
    await invite(race.id, adminCookie, "meant-refuse@example.com", "race_announcer");
    const link = await linkFor("meant-refuse@example.com");
    const otherCookie = await signIn("localhost", "other-refuse@example.com", "glacier-ski-42");
    const wrong = await pagePost("localhost", link, {}, otherCookie);
    expect(await wrong.text()).toContain(html(INVITATION_MESSAGES.otherAccount("meant-refuse@example.com")));
    expect(await db().select().from(roles).where(eq(roles.userId, other.id))).toEqual([]);
    const [pending] = await db().select().from(invitations).where(eq(invitations.email, "meant-refuse@example.com"));
    await pagePost("localhost", `/race/${race.id}/admin/people`, { intent: "withdraw", target: pending!.id }, adminCookie);
    expect(await (await get(link)).text()).toContain(html(INVITATION_MESSAGES.withdrawn));
    expect(await (await get("/invite/made-up-token-made-up-token")).text()).toContain(html(INVITATION_MESSAGES.notFound));
    const bad = await invite(race.id, adminCookie, "not an address");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(INVITATION_MESSAGES.email);
  });

  it("takes a role back", async () => {
    const { race, adminCookie } = await raceWithAdmin("revoke");
    const timer = await createUserWithPassword("timer-revoke@example.com", "glacier-ski-42", [{ type: "race_timer", scope: race.id }]);
    const cookie = await signIn("localhost", "timer-revoke@example.com", "glacier-ski-42");
    expect((await get(`/race/${race.id}/overview`, cookie)).status).toBe(200);
    const [role] = await db().select().from(roles).where(eq(roles.userId, timer.id));
    const taken = await pagePost("localhost", `/race/${race.id}/admin/people`, { intent: "revoke", target: role!.id }, adminCookie);
    expect(taken.headers.get("Location")).toBe(`/race/${race.id}/admin/people?saved=revoked`);
    // Without a role the race's admin pages do not name it at all.
    expect((await get(`/race/${race.id}/overview`, cookie)).status).toBe(404);
  });
});
