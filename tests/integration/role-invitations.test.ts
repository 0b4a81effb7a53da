/**
 * Roles given by invitation on every kind of target (decision 0031): a club, a registration form, a site and a
 * shipping depot, each from its own People section; the daily limit per inviter; the mail's fate; and the
 * confirmation before a role is taken back.
 */
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MAX_INVITATIONS_PER_USER } from "../../core/auth/constants";
import { invitations, registrations, roles, shippingDepots } from "../../schema/d1";
import { INVITATION_MESSAGES } from "../../workers/services/invitations";
import { createUserWithPassword, db, latestMailTo, pagePost, signIn, pageGet } from "./auth-fixtures";
import { createSiteWithRace } from "./fixtures";

const PASSWORD = "glacier-ski-42";
const get = (path: string, cookie?: string) => pageGet("localhost", path, cookie);
const html = (text: string) => text.replaceAll("'", "&#x27;");

async function linkFor(email: string): Promise<string> {
  const mail = await latestMailTo(email);
  return new URL(/https?:\/\/\S+\/invite\/\S+/.exec(mail!.text)![0]).pathname;
}

/** Signs the invited person up, follows the link and accepts; returns where they land and their cookie. */
async function accept(email: string) {
  await createUserWithPassword(email, PASSWORD, []);
  const cookie = await signIn("localhost", email, PASSWORD);
  const accepted = await pagePost("localhost", await linkFor(email), {}, cookie);
  return { cookie, landed: accepted.headers.get("Location") };
}

async function clubWithAdmin(tag: string) {
  const { site, club } = await createSiteWithRace(db(), { hostname: `ri-${tag}.localhost`, siteName: `RI ${tag}`, raceName: `RI race ${tag}` });
  await createUserWithPassword(`admin-${tag}@example.com`, PASSWORD, [{ type: "org_admin", clubId: club.id }]);
  return { site, club, cookie: await signIn("localhost", `admin-${tag}@example.com`, PASSWORD) };
}

async function systemAdmin(tag: string, flags: Record<string, boolean>) {
  const user = await createUserWithPassword(`sys-${tag}@example.com`, PASSWORD, [{ type: "system_admin" }]);
  await db().update(roles).set({ config: flags }).where(eq(roles.id, user.roleIds[0]!));
  return signIn("localhost", `sys-${tag}@example.com`, PASSWORD);
}

describe("invitations to club, form, site and depot roles", () => {
  it("gives a club role from the club's admin page, and never the Device role", async () => {
    const { club, cookie } = await clubWithAdmin("club");
    const device = await pagePost("localhost", `/club/${club.id}/admin`, { intent: "invite", email: "dev-club@example.com", role: "device" }, cookie);
    expect(device.status).toBe(400);
    expect(await device.text()).toContain(html(INVITATION_MESSAGES.role("club")));
    const sent = await pagePost("localhost", `/club/${club.id}/admin`, { intent: "invite", email: "money-club@example.com", role: "financial_admin" }, cookie);
    expect(sent.headers.get("Location")).toBe(`/club/${club.id}/admin?saved=invited`);
    expect((await latestMailTo("money-club@example.com"))!.subject).toContain("invites you to be Financial Admin of RI club Club");
    const page = await (await get(`/club/${club.id}/admin`, cookie)).text();
    expect(page).toContain("money-club@example.com as Financial Admin");
    expect(page).toContain("e-mail sent");
    const { landed, cookie: theirs } = await accept("money-club@example.com");
    expect(landed).toBe(`/club/${club.id}/overview`);
    const [role] = await db().select().from(roles).where(eq(roles.type, "financial_admin"));
    expect(role).toMatchObject({ clubId: club.id, siteId: null, scope: null });
    // A Financial Admin does not administer the club, so it may not give its roles.
    expect((await get(`/club/${club.id}/admin`, theirs)).status).toBe(403);
  });

  it("gives a registration form's roles from its People page, to the form's administrators only", async () => {
    const { site, club, cookie } = await clubWithAdmin("form");
    const form = { id: crypto.randomUUID(), clubId: club.id, siteId: site.id, name: "Spring loppet", isApproved: true };
    await db()
      .insert(registrations)
      .values({ ...form, fieldMtimes: {} });
    expect(await (await get(`/registration/${form.id}/admin`, cookie)).text()).toContain(`/registration/${form.id}/admin/people`);
    const sent = await pagePost(
      "localhost",
      `/registration/${form.id}/admin/people`,
      { intent: "invite", email: "viewer-form@example.com", role: "report_view" },
      cookie,
    );
    expect(sent.headers.get("Location")).toBe(`/registration/${form.id}/admin/people?saved=invited`);
    const { landed, cookie: theirs } = await accept("viewer-form@example.com");
    expect(landed).toBe(`/registration/${form.id}/overview`);
    expect(await db().select().from(roles).where(eq(roles.scope, form.id))).toEqual([expect.objectContaining({ type: "report_view", clubId: club.id })]);
    // A report viewer cannot open the form's builder at all, so its People page is not found for them.
    expect((await get(`/registration/${form.id}/admin/people`, theirs)).status).toBe(404);
    const race = await pagePost(
      "localhost",
      `/registration/${form.id}/admin/people`,
      { intent: "invite", email: "x-form@example.com", role: "race_timer" },
      cookie,
    );
    expect(race.status).toBe(400);
  });

  it("gives Site Administrator with the inviter's own flags, no more", async () => {
    const { site } = await clubWithAdmin("site");
    const sysCookie = await systemAdmin("site", { sites: true, clubs: true, races: false });
    const sent = await pagePost("localhost", `/site/${site.id}/settings`, { intent: "invite", email: "web-site@example.com", role: "site_admin" }, sysCookie);
    expect(sent.headers.get("Location")).toBe(`/site/${site.id}/settings?saved=invited`);
    const { landed, cookie } = await accept("web-site@example.com");
    expect(landed).toBe(`/site/${site.id}/settings`);
    const [role] = await db().select().from(roles).where(eq(roles.type, "site_admin"));
    expect(role).toMatchObject({ siteId: site.id, clubId: null, scope: null, config: { sites: true, clubs: true } });
    expect((await get(`/site/${site.id}/settings`, cookie)).status).toBe(200);
    // An organisation's admin does not administer the site its club is on.
    const { cookie: orgCookie } = await clubWithAdmin("site-org");
    expect((await get(`/site/${site.id}/settings`, orgCookie)).status).toBe(403);
  });

  it("gives depot roles on the shipments page; a depot user sees the page but not its People", async () => {
    const depot = { id: crypto.randomUUID(), name: "East depot" };
    await db()
      .insert(shippingDepots)
      .values({ ...depot, fieldMtimes: {} });
    const sysCookie = await systemAdmin("depot", { depots: true });
    const sent = await pagePost("localhost", `/shipments/${depot.id}`, { intent: "invite", email: "packer-depot@example.com", role: "depot_user" }, sysCookie);
    expect(sent.headers.get("Location")).toBe(`/shipments/${depot.id}?saved=invited`);
    const { landed, cookie } = await accept("packer-depot@example.com");
    expect(landed).toBe(`/shipments/${depot.id}`);
    const page = await get(`/shipments/${depot.id}`, cookie);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain("Invite someone");
    const refused = await pagePost("localhost", `/shipments/${depot.id}`, { intent: "invite", email: "friend-depot@example.com", role: "depot_admin" }, cookie);
    expect(refused.status).toBe(403);
    expect((await get(`/shipments/${crypto.randomUUID()}`, sysCookie)).status).toBe(404);
  });

  it(`counts at most ${MAX_INVITATIONS_PER_USER} invitations a day per inviter, even sent at once`, async () => {
    const { club, cookie } = await clubWithAdmin("limit");
    const sends = Array.from({ length: MAX_INVITATIONS_PER_USER + 5 }, (_, i) =>
      pagePost("localhost", `/club/${club.id}/admin`, { intent: "invite", email: `p${i}-limit@example.com`, role: "communications" }, cookie),
    );
    const answers = await Promise.all(sends);
    expect(answers.filter((a) => a.status === 302 || a.status === 303)).toHaveLength(MAX_INVITATIONS_PER_USER);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(5);
    expect(await refused[0]!.text()).toContain(INVITATION_MESSAGES.tooMany);
    const [counted] = await db()
      .select({ n: sql<number>`count(*)` })
      .from(invitations)
      .where(eq(invitations.target, club.id));
    expect(counted!.n).toBe(MAX_INVITATIONS_PER_USER);
  }, 60_000);

  it("tells the inviter when the invitation mail could not be sent, and keeps the invitation", async () => {
    const { club, cookie } = await clubWithAdmin("mailfail");
    // The local mail store stands in for the mail service: refusing this one address fails its delivery as an
    // outage would, without touching any other test's mail.
    await db().run(
      sql.raw(
        `CREATE TRIGGER lose_mailfail BEFORE INSERT ON captured_mail WHEN NEW."to" = 'lost-mailfail@example.com' BEGIN SELECT RAISE(ABORT, 'mail service down'); END`,
      ),
    );
    try {
      const sent = await pagePost(
        "localhost",
        `/club/${club.id}/admin`,
        { intent: "invite", email: "lost-mailfail@example.com", role: "communications" },
        cookie,
      );
      expect(sent.status).toBe(502);
      expect(await sent.text()).toContain(INVITATION_MESSAGES.mailFailed);
    } finally {
      await db().run(sql.raw("DROP TRIGGER lose_mailfail"));
    }
    const [open] = await db().select().from(invitations).where(eq(invitations.email, "lost-mailfail@example.com"));
    expect(open).toMatchObject({ mailState: "failed", revokedAt: null });
    expect(await (await get(`/club/${club.id}/admin`, cookie)).text()).toContain("e-mail not delivered: send it again");
    // Sending again replaces it with a link that was mailed.
    await pagePost("localhost", `/club/${club.id}/admin`, { intent: "invite", email: "lost-mailfail@example.com", role: "communications" }, cookie);
    const open2 = await db()
      .select()
      .from(invitations)
      .where(and(eq(invitations.email, "lost-mailfail@example.com")));
    expect(open2.filter((i) => i.revokedAt === null)).toEqual([expect.objectContaining({ mailState: "sent" })]);
  });

  it("asks before taking a role back or withdrawing an invitation", async () => {
    const { club, cookie } = await clubWithAdmin("confirm");
    await pagePost("localhost", `/club/${club.id}/admin`, { intent: "invite", email: "held-confirm@example.com", role: "all_races" }, cookie);
    await accept("held-confirm@example.com");
    await pagePost("localhost", `/club/${club.id}/admin`, { intent: "invite", email: "open-confirm@example.com", role: "all_races" }, cookie);
    const [held] = await db().select().from(roles).where(eq(roles.type, "all_races"));
    const [open] = await db().select().from(invitations).where(eq(invitations.email, "open-confirm@example.com"));
    const list = await (await get(`/club/${club.id}/admin`, cookie)).text();
    expect(list).toContain(`?revoke=${held!.id}`);
    expect(list).toContain(`?withdraw=${open!.id}`);
    const asking = await (await get(`/club/${club.id}/admin?revoke=${held!.id}`, cookie)).text();
    expect(asking).toContain("Take back All Races from User held-confirm?");
    expect(await db().select().from(roles).where(eq(roles.id, held!.id))).toHaveLength(1);
    const done = await pagePost("localhost", `/club/${club.id}/admin`, { intent: "revoke", target: held!.id }, cookie);
    expect(done.headers.get("Location")).toBe(`/club/${club.id}/admin?saved=revoked`);
    expect(await db().select().from(roles).where(eq(roles.id, held!.id))).toHaveLength(0);
    expect(await (await get(`/club/${club.id}/admin?withdraw=${open!.id}`, cookie)).text()).toContain("Withdraw the invitation to open-confirm@example.com?");
    // Nobody takes back their own role, so the club keeps the administrator who is using the page.
    const [own] = await db()
      .select()
      .from(roles)
      .where(and(eq(roles.type, "org_admin"), eq(roles.clubId, club.id)));
    const self = await pagePost("localhost", `/club/${club.id}/admin`, { intent: "revoke", target: own!.id }, cookie);
    expect(self.status).toBe(409);
    expect(await self.text()).toContain(INVITATION_MESSAGES.ownRole);
    expect(await db().select().from(roles).where(eq(roles.id, own!.id))).toHaveLength(1);
  });
});
