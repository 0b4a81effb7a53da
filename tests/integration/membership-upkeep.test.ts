/**
 * Membership upkeep (issue 25, decision 0057): expiry reminders sent once by the cron through the mail queue,
 * members changed by hand on the division's pages with the data API's rules and history, the membership panel's
 * division in the builder, and the three policy answers (platform-wide objects read by clubs, the inventory
 * catalogue read by depot staff, a club's page refused on another site).
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DAY_MS } from "../../core/memberships/reminders";
import {
  activities,
  capturedMail,
  carts,
  divisionMembers,
  divisionPeople,
  divisionSeasons,
  divisions,
  entityChanges,
  formElements,
  individuals,
  inventoryTypes,
  membershipReminders,
  registrations,
  shippingDepots,
  sitePages,
} from "../../schema/d1";
import { MEMBER_MESSAGES } from "../../workers/services/admin-entity-rules";
import { DIVISION_CHOICE_MESSAGE } from "../../workers/services/division-choices";
import { ownerMismatch } from "../../workers/services/entity-service";
import { MEMBER_EDIT_MESSAGES } from "../../workers/services/member-edits";
import { queueDueReminders } from "../../workers/services/membership-reminders";
import { createUserWithPassword, db, pagePost, signIn, pageGet } from "./auth-fixtures";
import { createSiteWithRace, recordingEnv, consumeMail } from "./fixtures";
import { createApp, issueToken, apiCall } from "./oauth-fixtures";

const PASSWORD = "glacier-ski-42";
const HOST = "localhost";
const SCOPES = "clubs divisions registrations activities points depots pages";
const get = (path: string, cookie?: string) => pageGet(HOST, path, cookie);
const html = (text: string) => text.replaceAll("'", "&#x27;");

const call = (token: string, method: string, path: string, body?: unknown) => apiCall(HOST, token, method, path, body);

/** A club on its own site with a division, its Organization Admin (page cookie and API token) and a season ending in 10 days. */
async function clubWithDivision(tag: string, now = Date.now()) {
  const { site, club } = await createSiteWithRace(db(), { hostname: `up-${tag}.localhost`, siteName: `Up ${tag}`, raceName: `Up race ${tag}` });
  const user = await createUserWithPassword(`up-${tag}@example.com`, PASSWORD, [{ type: "org_admin", clubId: club.id }]);
  const cookie = await signIn(HOST, `up-${tag}@example.com`, PASSWORD);
  const appId = await createApp({ scopes: SCOPES });
  const token = await issueToken(user.id, appId, HOST, SCOPES);
  const owners = { clubId: club.id, siteId: site.id };
  const division = { id: crypto.randomUUID(), ...owners, name: `Members ${tag}`, programsList: ["Jackrabbits", "Track Attack"], fieldMtimes: {} };
  await db().insert(divisions).values(division);
  const day = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
  const current = {
    id: crypto.randomUUID(),
    divisionId: division.id,
    ...owners,
    name: "Current",
    startsAt: day(now) - 300 * DAY_MS,
    endsAt: day(now) + 10 * DAY_MS,
  };
  const next = { id: crypto.randomUUID(), divisionId: division.id, ...owners, name: "Next", startsAt: current.endsAt, endsAt: current.endsAt + 365 * DAY_MS };
  const past = {
    id: crypto.randomUUID(),
    divisionId: division.id,
    ...owners,
    name: "Past",
    startsAt: current.startsAt - 365 * DAY_MS,
    endsAt: current.startsAt,
  };
  await db()
    .insert(divisionSeasons)
    .values([current, next, past].map((s) => ({ ...s, fieldMtimes: {} })));
  return { site, club, user, cookie, token, division, seasons: { current, next, past } };
}

let numbers = 0;
/** A person and their membership of a season, optionally from a (French) paid registration. */
async function member(
  f: Awaited<ReturnType<typeof clubWithDivision>>,
  name: string,
  season: { id: string; endsAt: number },
  options: { email?: string | null; lang?: "fr"; personId?: string } = {},
) {
  const owners = { divisionId: f.division.id, clubId: f.club.id, siteId: f.site.id };
  const personId = options.personId ?? crypto.randomUUID();
  if (!options.personId)
    await db()
      .insert(divisionPeople)
      .values({
        id: personId,
        ...owners,
        memberNumber: ++numbers,
        personKey: `${name}|x|2000-01-01`,
        firstName: name,
        lastName: "Skier",
        birthDate: "2000-01-01",
        email: options.email === undefined ? `${name.toLowerCase()}@example.com` : options.email,
        fieldMtimes: {},
      });
  let individualId: string | null = null;
  if (options.lang) {
    const form = { id: crypto.randomUUID(), clubId: f.club.id, siteId: f.site.id, name: "Adhésion", isBilingual: true, fieldMtimes: {} };
    await db().insert(registrations).values(form);
    const cartId = crypto.randomUUID();
    await db()
      .insert(carts)
      .values({ id: cartId, registrationId: form.id, clubId: f.club.id, siteId: f.site.id, isComplete: true, lang: options.lang, fieldMtimes: {} });
    individualId = crypto.randomUUID();
    await db()
      .insert(individuals)
      .values({ id: individualId, cartId, registrationId: form.id, clubId: f.club.id, siteId: f.site.id, isComplete: true, fieldMtimes: {}, values: {} });
  }
  const id = crypto.randomUUID();
  await db()
    .insert(divisionMembers)
    .values({ id, ...owners, personId, seasonId: season.id, memberClass: "racing", expiresAt: season.endsAt, individualId, fieldMtimes: {} });
  return { id, personId };
}

const consume = consumeMail;

describe("membership expiry reminders", () => {
  it("are sent once per membership under a retried cron and a duplicated message, in the member's language, never for an expired or renewed one", async () => {
    const now = Date.now();
    const f = await clubWithDivision("remind", now);
    const anne = await member(f, "Anne", f.seasons.current, { lang: "fr" });
    const bob = await member(f, "Bob", f.seasons.current);
    await member(f, "Bob", f.seasons.next, { personId: bob.personId }); // renewed already
    await member(f, "Carl", f.seasons.past); // expired
    await member(f, "Dora", f.seasons.current, { email: null }); // no address
    const recording = recordingEnv();
    await queueDueReminders(recording.env, db(), now);
    await queueDueReminders(recording.env, db(), now + 60_000); // the cron again
    const rows = await db().select().from(membershipReminders).where(eq(membershipReminders.divisionId, f.division.id));
    expect(rows.map((r) => [r.memberId, r.lang])).toEqual([[anne.id, "fr"]]);
    expect(recording.sent).toEqual([{ body: { membershipReminder: rows[0]!.id } }]);
    // The same message delivered twice, and again as a retry, mails once.
    await consume([...recording.sent, ...recording.sent]);
    await consume(recording.sent, 2);
    const mails = await db().select().from(capturedMail).where(eq(capturedMail.to, "anne@example.com"));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Votre adhésion à ${f.division.name} se termine bientôt`);
    expect(mails[0]!.text).toContain("Communiquez avec le club"); // no membership form yet
    expect(mails[0]!.text).toContain("/newsletters/unsubscribe?");
    const [state] = await db().select().from(membershipReminders).where(eq(membershipReminders.id, rows[0]!.id));
    expect(state!.state).toBe("sent");
    // The division admin sees who was reminded and when.
    const page = await (await get(`/org/${f.division.id}/home`, f.cookie)).text();
    expect(page).toContain("Renewal reminders");
    expect(page).toContain("anne@example.com");
  });

  it("link the division's membership form, and are not sent when the division turned them off", async () => {
    const now = Date.now();
    const f = await clubWithDivision("remind-off", now);
    await member(f, "Erin", f.seasons.current);
    const form = { id: crypto.randomUUID(), clubId: f.club.id, siteId: f.site.id, name: "Membership", fieldMtimes: {} };
    await db().insert(registrations).values(form);
    await db().insert(formElements).values({
      id: crypto.randomUUID(),
      registrationId: form.id,
      clubId: f.club.id,
      siteId: f.site.id,
      type: "membership",
      caption: "Membership",
      ordinal: 1,
      fieldMtimes: {},
    });
    // Off through the page: the same Division field the data API writes.
    const off = await pagePost(HOST, `/org/${f.division.id}/home`, { intent: "reminders", reminder_days: "30" }, f.cookie);
    expect(off.status).toBe(302);
    const bad = await pagePost(HOST, `/org/${f.division.id}/home`, { intent: "reminders", reminder_days: "9999" }, f.cookie);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Enter a number of days from 1 to 180");
    const recording = recordingEnv();
    await queueDueReminders(recording.env, db(), now);
    expect(recording.sent).toHaveLength(0);
    await pagePost(HOST, `/org/${f.division.id}/home`, { intent: "reminders", is_reminding: "on", reminder_days: "30" }, f.cookie);
    await queueDueReminders(recording.env, db(), now);
    await consume(recording.sent);
    const [mail] = await db().select().from(capturedMail).where(eq(capturedMail.to, "erin@example.com"));
    expect(mail!.subject).toBe(`Your ${f.division.name} membership ends soon`);
    expect(mail!.text).toContain(`/register/${form.id}`);
  });
});

describe("members changed by hand", () => {
  it("adds a member once on a double click, corrects and moves them with history, refuses a stale edit and removes them", async () => {
    const f = await clubWithDivision("edit");
    const base = `/org/${f.division.id}/home`;
    const submission = crypto.randomUUID();
    const fields = {
      intent: "add",
      submission,
      first_name: "Greta",
      last_name: "Hand",
      birth_date: "2011-02-03",
      email: "Greta@Example.com",
      season: f.seasons.current.id,
      member_class: "racing",
      note: "Paid cash",
    };
    const replies = await Promise.all([1, 2].map(() => pagePost(HOST, base, [...Object.entries(fields), ["programs", "Jackrabbits"]], f.cookie)));
    for (const reply of replies)
      expect(reply.headers.get("Location"), `${reply.status} ${(await reply.clone().text()).slice(-600)}`).toBe(
        `/org/${f.division.id}/members/${submission}?saved=added`,
      );
    const people = await db().select().from(divisionPeople).where(eq(divisionPeople.divisionId, f.division.id));
    expect(people).toHaveLength(1);
    expect(people[0]!.email).toBe("greta@example.com");
    const [made] = await db().select().from(divisionMembers).where(eq(divisionMembers.id, submission));
    expect(made).toMatchObject({ programs: ["Jackrabbits"], expiresAt: f.seasons.current.endsAt, attributes: { by_hand: true, note: "Paid cash" } });
    // The same person and season again is refused.
    const again = await pagePost(HOST, base, [...Object.entries({ ...fields, submission: crypto.randomUUID() })], f.cookie);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(MEMBER_EDIT_MESSAGES.already("Current"));

    const page = `/org/${f.division.id}/members/${submission}`;
    const opened = await (await get(page, f.cookie)).text();
    const times = (name: string) => {
      const raw = new RegExp(`name="${name}" value="([^"]*)"`).exec(opened)?.[1] ?? "null";
      return JSON.parse(raw.replaceAll("&quot;", '"')) as unknown;
    };
    expect(opened).toContain("Greta Hand");
    const personTimes = JSON.stringify(times("field_mtimes"));
    const renamed = await pagePost(
      HOST,
      page,
      { intent: "person", field_mtimes: personTimes, first_name: "Gréta", last_name: "Hand", birth_date: "2011-02-03", email: "" },
      f.cookie,
    );
    expect(renamed.status).toBe(302);
    const [person] = await db().select().from(divisionPeople).where(eq(divisionPeople.id, people[0]!.id));
    expect(person).toMatchObject({ firstName: "Gréta", email: null, personKey: "hand|greta|2011-02-03" });
    // Another tab's edit of the same field with the old times is refused, not overwritten.
    const stale = await pagePost(HOST, page, { intent: "person", field_mtimes: personTimes, first_name: "Old", last_name: "Hand" }, f.cookie);
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain(html(MEMBER_EDIT_MESSAGES.stale));
    // Moving to the next season moves the end with it.
    const moved = await pagePost(
      HOST,
      page,
      [
        ["intent", "membership"],
        ["season", f.seasons.next.id],
        ["member_class", "coach"],
        ["note", ""],
        ["programs", "Track Attack"],
      ],
      f.cookie,
    );
    expect(moved.status).toBe(302);
    const [after] = await db().select().from(divisionMembers).where(eq(divisionMembers.id, submission));
    expect(after).toMatchObject({ seasonId: f.seasons.next.id, expiresAt: f.seasons.next.endsAt, memberClass: "coach", programs: ["Track Attack"] });
    expect(after!.attributes).toEqual({ by_hand: true });
    const history = await db().select().from(entityChanges).where(eq(entityChanges.entityId, submission));
    expect(history.map((h) => `${h.kind}:${h.field}`).sort()).toEqual(
      ["created:*", "changed:season", "changed:expires_at", "changed:member_class", "changed:programs", "changed:attributes"].sort(),
    );
    const shown = await (await get(page, f.cookie)).text();
    expect(shown).toContain("changed (person)");
    expect(shown).toContain("first_name");
    // Garbage is a 400, never a 500.
    const garbage = await pagePost(
      HOST,
      page,
      { intent: "membership", season: "'; DROP TABLE x", member_class: "wizard", field_mtimes: "{not json" },
      f.cookie,
    );
    expect(garbage.status).toBe(400);
    const removed = await pagePost(HOST, page, { intent: "remove" }, f.cookie);
    expect(removed.headers.get("Location")).toBe(`${base}?saved=removed`);
    expect(await db().select().from(divisionMembers).where(eq(divisionMembers.id, submission))).toHaveLength(0);
    // A double click's second "Remove" answers as the first did; the page itself is gone.
    expect((await pagePost(HOST, page, { intent: "remove" }, f.cookie)).headers.get("Location")).toBe(`${base}?saved=removed`);
    expect((await get(page, f.cookie)).status).toBe(404);
  });

  it("refuses another club's admin and lets the Division Reports role only read", async () => {
    const f = await clubWithDivision("edit-who");
    const other = await clubWithDivision("edit-other");
    const { id } = await member(f, "Hugo", f.seasons.current);
    const page = `/org/${f.division.id}/members/${id}`;
    expect((await get(page, other.cookie)).status).toBe(403);
    expect((await pagePost(HOST, page, { intent: "person", first_name: "X", last_name: "Y" }, other.cookie)).status).toBe(403);
    const add = await pagePost(
      HOST,
      `/org/${f.division.id}/home`,
      { intent: "add", submission: crypto.randomUUID(), first_name: "X", last_name: "Y", season: f.seasons.current.id, member_class: "racing", note: "" },
      other.cookie,
    );
    expect(add.status).toBe(403);
    await createUserWithPassword("reports-edit-who@example.com", PASSWORD, [{ type: "division_reports", clubId: f.club.id }]);
    const reports = await signIn(HOST, "reports-edit-who@example.com", PASSWORD);
    const read = await get(page, reports);
    expect(read.status).toBe(200);
    expect(await read.text()).not.toContain("Save the person");
    expect((await pagePost(HOST, page, { intent: "remove" }, reports)).status).toBe(403);
    expect(await db().select().from(divisionMembers).where(eq(divisionMembers.id, id))).toHaveLength(1);
  });

  it("refuses the same membership writes with the same words on the page and through the data API", async () => {
    const f = await clubWithDivision("edit-api");
    const other = await clubWithDivision("edit-api-other");
    const { id } = await member(f, "Ida", f.seasons.current);
    const viaApi = await call(f.token, "POST", `/data-api/DivisionMember/${id}/`, {
      season: other.seasons.current.id,
      expires_at: other.seasons.current.endsAt,
    });
    expect(viaApi.status).toBe(400);
    expect((await viaApi.json<{ message: string }>()).message).toBe(`season: ${MEMBER_MESSAGES.season}`);
    const viaPage = await pagePost(
      HOST,
      `/org/${f.division.id}/members/${id}`,
      { intent: "membership", season: other.seasons.current.id, member_class: "racing", note: "" },
      f.cookie,
    );
    expect(viaPage.status).toBe(400);
    expect(await viaPage.text()).toContain(MEMBER_MESSAGES.season);
    const programs = await call(f.token, "POST", `/data-api/DivisionMember/${id}/`, { programs: ["Chess"] });
    expect((await programs.json<{ message: string }>()).message).toBe(`programs: ${MEMBER_MESSAGES.programs(["Chess"])}`);
    const pagePrograms = await pagePost(
      HOST,
      `/org/${f.division.id}/members/${id}`,
      [
        ["intent", "membership"],
        ["season", f.seasons.current.id],
        ["member_class", "racing"],
        ["programs", "Chess"],
      ],
      f.cookie,
    );
    expect(await pagePrograms.text()).toContain(MEMBER_MESSAGES.programs(["Chess"]));
    // The data API's season change must move the end too; another club's admin reads nothing.
    const noEnd = await call(f.token, "POST", `/data-api/DivisionMember/${id}/`, { season: f.seasons.next.id });
    expect((await noEnd.json<{ message: string }>()).message).toContain("A membership ends with its season");
    expect((await call(other.token, "GET", `/data-api/DivisionMember/${id}`)).status).toBe(404);
  });
});

describe("the membership panel's division", () => {
  it("is one of the form's club's divisions, refused alike by the builder and the data API", async () => {
    const f = await clubWithDivision("panel");
    const other = await clubWithDivision("panel-other");
    const form = { id: crypto.randomUUID(), clubId: f.club.id, siteId: f.site.id, name: "Membership", fieldMtimes: {} };
    await db().insert(registrations).values(form);
    const panel = crypto.randomUUID();
    await db().insert(formElements).values({
      id: panel,
      registrationId: form.id,
      clubId: f.club.id,
      siteId: f.site.id,
      type: "membership",
      caption: "Membership",
      ordinal: 1,
      fieldMtimes: {},
    });
    const editor = `/registration/${form.id}/admin/elements/${panel}`;
    const offered = await (await get(editor, f.cookie)).text();
    expect(offered).toContain(f.division.name);
    expect(offered).not.toContain(other.division.name);
    const refused = await pagePost(HOST, editor, { intent: "save", caption: "Membership", "config.division_id": other.division.id }, f.cookie);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(DIVISION_CHOICE_MESSAGE);
    const api = await call(f.token, "POST", `/data-api/FormElement/${panel}/`, { config: { division_id: other.division.id } });
    expect(api.status).toBe(400);
    expect((await api.json<{ message: string }>()).message).toBe(`config.division_id: ${DIVISION_CHOICE_MESSAGE}`);
    const saved = await pagePost(HOST, editor, { intent: "save", caption: "Membership", "config.division_id": f.division.id }, f.cookie);
    expect(saved.status).toBe(302);
    const [stored] = await db().select().from(formElements).where(eq(formElements.id, panel));
    expect(stored!.config.division_id).toBe(f.division.id);
  });
});

describe("the policy answers", () => {
  it("lets clubs read platform-wide activities and points systems, and change only their own", async () => {
    const f = await clubWithDivision("shared");
    const platform = { id: crypto.randomUUID(), name: `Platform ski ${crypto.randomUUID().slice(0, 6)}`, fieldMtimes: {} };
    await db().insert(activities).values(platform);
    const read = await call(f.token, "GET", `/data-api/Activity/${platform.id}`);
    expect(read.status).toBe(200);
    const list = await (await call(f.token, "GET", "/data-api/Activity/")).json<{ items: { uuid: string }[] }>();
    expect(list.items.map((i) => i.uuid)).toContain(platform.id);
    const change = await call(f.token, "POST", `/data-api/Activity/${platform.id}/`, { name: "Mine now" });
    expect(change.status).toBe(403);
    expect((await call(f.token, "DELETE", `/data-api/Activity/${platform.id}`)).status).toBe(403);
    const [kept] = await db().select().from(activities).where(eq(activities.id, platform.id));
    expect(kept!.name).toBe(platform.name);
    const points = await call(f.token, "PUT", "/data-api/PointsSystem/", { name: "Our table", method: "table", points_table: [10, 5] });
    expect(points.status).toBe(403); // a club's own needs its club; a platform-wide one is the System Administrators'
  });

  it("lets depot staff read the inventory catalogue and only System Administrators change it", async () => {
    const depot = { id: crypto.randomUUID(), name: "Catalogue depot", fieldMtimes: {} };
    await db().insert(shippingDepots).values(depot);
    const type = { id: crypto.randomUUID(), key: `cat-${crypto.randomUUID().slice(0, 8)}`, name: "Timing mat", fieldMtimes: {} };
    await db().insert(inventoryTypes).values(type);
    const user = await createUserWithPassword("depot-cat@example.com", null, [{ type: "depot_admin", scope: depot.id }]);
    const appId = await createApp({ scopes: "depots" });
    const token = await issueToken(user.id, appId, HOST, "depots");
    expect((await call(token, "GET", `/data-api/InventoryType/${type.id}`)).status).toBe(200);
    expect((await call(token, "POST", `/data-api/InventoryType/${type.id}/`, { name: "Renamed" })).status).toBe(403);
    expect((await call(token, "PUT", "/data-api/InventoryType/", { key: "new-type", name: "New" })).status).toBe(403);
  });

  it("refuses a club's page sent for another site instead of moving it", async () => {
    const f = await clubWithDivision("page-site");
    const other = await clubWithDivision("page-site-other");
    const moved = await call(f.token, "PUT", "/data-api/Page/", { club: f.club.id, site: other.site.id, title: "About", path: "/about-us" });
    expect(moved.status).toBe(400);
    const message = ownerMismatch("Page", "Club", "site");
    expect((await moved.json<{ message: string }>()).message).toBe(`site: ${message}`);
    expect(
      await db()
        .select()
        .from(sitePages)
        .where(and(eq(sitePages.siteId, other.site.id), eq(sitePages.path, "/about-us"))),
    ).toHaveLength(0);
    const own = await call(f.token, "PUT", "/data-api/Page/", { club: f.club.id, site: f.site.id, title: "About", path: "/about-us" });
    expect(own.status).toBe(201);
  });
});
