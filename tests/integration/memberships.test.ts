/**
 * The Membership System (issue 25): a club creates its division and seasons on /org/{…}/home, paid membership
 * panels become members through the record-members job (safe to repeat), renewals keep the member number, and
 * the Division Reports role reads the report and its CSV.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { parseCsv } from "../../core/entity/csv";
import { carts, divisionMembers, divisionPeople, divisions, formElements, individuals, registrations } from "../../schema/d1";
import { runJob } from "../../workers/jobs";
import { MEMBERSHIP_MESSAGES } from "../../workers/services/memberships";
import { createUserWithPassword, db, pagePost, signIn, signedInAs, pageGet } from "./auth-fixtures";
import { createSiteWithRace } from "./fixtures";

const PASSWORD = "glacier-ski-42";
const get = (path: string, cookie?: string) => pageGet("localhost", path, cookie);
const html = (text: string) => text.replaceAll("'", "&#x27;");

async function clubWithAdmin(tag: string) {
  const { site, club } = await createSiteWithRace(db(), { hostname: `mem-${tag}.localhost`, siteName: `Mem ${tag}`, raceName: `Mem race ${tag}` });
  const { cookie } = await signedInAs("localhost", [{ type: "org_admin", clubId: club.id }], { email: `admin-${tag}@example.com`, password: PASSWORD });
  return { site, club, cookie };
}

/** A live form with name, birth date, gender, e-mail and a membership panel. */
async function membershipForm(club: { id: string }, siteId: string) {
  const form = { id: crypto.randomUUID(), clubId: club.id, siteId, name: "Club membership", isApproved: true };
  await db()
    .insert(registrations)
    .values({ ...form, fieldMtimes: {} });
  const owners = { registrationId: form.id, clubId: club.id, siteId, fieldMtimes: {} };
  const element = (id: string, type: string, caption: string, ordinal: number, extra: Record<string, unknown> = {}) =>
    db()
      .insert(formElements)
      .values({ id, type, caption, ordinal, ...owners, ...extra });
  const ids = { first: crypto.randomUUID(), last: crypto.randomUUID(), dob: crypto.randomUUID(), gender: crypto.randomUUID(), panel: crypto.randomUUID() };
  await element(ids.first, "text", "First name", 1);
  await element(ids.last, "text", "Last name", 2);
  await element(ids.dob, "dob", "Date of birth", 3);
  await element(ids.gender, "gender", "Gender", 4);
  await element(ids.panel, "membership", "Membership", 5, { optionsList: [{ id: "racing", display: "Racing", member_class: "racing", price_1: 4500 }] });
  const programs = crypto.randomUUID();
  await element(programs, "multioption", "Programs", 6, {
    optionsList: [
      { id: "jr", display: "Jackrabbits" },
      { id: "ta", display: "Track Attack" },
      { id: "tee", display: "A club T-shirt" },
    ],
  });
  return { form, ids: { ...ids, programs } };
}

/** A paid cart with one person who bought a racing membership. */
async function paidPerson(
  form: { id: string; clubId: string; siteId: string },
  ids: Record<string, string>,
  person: { first: string; last: string; dob: string; gender: string; programs?: string[] },
  paidAt: number,
) {
  const cartId = crypto.randomUUID();
  await db()
    .insert(carts)
    .values({ id: cartId, registrationId: form.id, clubId: form.clubId, siteId: form.siteId, isComplete: true, completedAt: paidAt, fieldMtimes: {} });
  await db()
    .insert(individuals)
    .values({
      id: crypto.randomUUID(),
      cartId,
      registrationId: form.id,
      clubId: form.clubId,
      siteId: form.siteId,
      isComplete: true,
      paidAt,
      fieldMtimes: {},
      values: {
        [ids.first!]: { v: person.first, p: 0 },
        [ids.last!]: { v: person.last, p: 0 },
        [ids.dob!]: { v: person.dob, p: 0 },
        [ids.gender!]: { v: person.gender, p: 0 },
        [ids.panel!]: { v: { option: "racing", member_type: "racing", division_fees: 4500 }, p: 4500 },
        [ids.programs!]: { v: person.programs ?? [], p: 0 },
      },
    });
  return cartId;
}

describe("the Membership System", () => {
  it("creates a division and seasons from the club's membership page, refusing overlaps", async () => {
    const { club, cookie } = await clubWithAdmin("setup");
    expect(await (await get(`/org/${club.id}/home`, cookie)).text()).toContain("This club has no division yet");
    const made = await pagePost("localhost", `/org/${club.id}/home`, { intent: "division", name: "Nordic members" }, cookie);
    const [division] = await db().select().from(divisions).where(eq(divisions.clubId, club.id));
    expect(made.headers.get("Location")).toBe(`/org/${division!.id}/home?saved=created`);
    // With one division, the club's address leads to it.
    expect((await get(`/org/${club.id}/home`, cookie)).headers.get("Location")).toBe(`/org/${division!.id}/home`);
    const base = `/org/${division!.id}/home`;
    const added = await pagePost("localhost", base, { intent: "season", name: "2026–27", starts: "2026-09-01", ends: "2027-08-31" }, cookie);
    expect(added.headers.get("Location")).toBe(`${base}?saved=added`);
    const overlap = await pagePost("localhost", base, { intent: "season", name: "Winter", starts: "2027-01-01", ends: "2027-03-31" }, cookie);
    expect(overlap.status).toBe(409);
    expect(await overlap.text()).toContain(html(MEMBERSHIP_MESSAGES.overlap("2026–27")));
    const backwards = await pagePost("localhost", base, { intent: "season", name: "Odd", starts: "2028-05-01", ends: "2028-04-01" }, cookie);
    expect(await backwards.text()).toContain(MEMBERSHIP_MESSAGES.order);
  });

  it("records paid memberships once, keeps member numbers across seasons, and reports renewals", async () => {
    const { site, club, cookie } = await clubWithAdmin("record");
    await pagePost("localhost", `/org/${club.id}/home`, { intent: "division", name: "Members" }, cookie);
    const [division] = await db().select().from(divisions).where(eq(divisions.clubId, club.id));
    await db()
      .update(divisions)
      .set({ programsList: ["Jackrabbits", "Track Attack"] })
      .where(eq(divisions.id, division!.id));
    const base = `/org/${division!.id}/home`;
    await pagePost("localhost", base, { intent: "season", name: "2025–26", starts: "2025-09-01", ends: "2026-08-31" }, cookie);
    await pagePost("localhost", base, { intent: "season", name: "2026–27", starts: "2026-09-01", ends: "2027-08-31" }, cookie);
    const { form, ids } = await membershipForm(club, site.id);
    const owned = { ...form, siteId: site.id };
    const lastSeason = Date.parse("2026-01-10T12:00:00Z");
    const thisSeason = Date.parse("2026-10-02T12:00:00Z");
    const ann1 = await paidPerson(owned, ids, { first: "Ann", last: "Lee", dob: "2011-02-28", gender: "F" }, lastSeason);
    const bo = await paidPerson(owned, ids, { first: "Bo", last: "Berg", dob: "1980-06-01", gender: "M" }, lastSeason + 3_600_000);
    const job = (cartIds: string[]) => runJob(env, { kind: "record-members", registrationId: form.id, cartIds });
    // Twice, as a queue may deliver it: one membership each.
    expect(await job([ann1, bo])).toBe("done");
    expect(await job([ann1, bo])).toBe("done");
    // Ann renews the next season (with her name typed differently); Cy joins.
    const ann2 = await paidPerson(owned, ids, { first: " ann", last: "LEE", dob: "2011-02-28", gender: "F" }, thisSeason);
    const cy = await paidPerson(owned, ids, { first: "Cy", last: "Côté", dob: "2014-03-03", gender: "M", programs: ["jr", "tee"] }, thisSeason);
    await Promise.all([job([ann2]), job([cy])]);
    const people = await db().select().from(divisionPeople).where(eq(divisionPeople.divisionId, division!.id)).orderBy(divisionPeople.memberNumber);
    expect(people.map((p) => [p.memberNumber, p.firstName])).toEqual([
      [1, "Ann"],
      [2, "Bo"],
      [3, "Cy"],
    ]);
    expect(await db().select().from(divisionMembers).where(eq(divisionMembers.divisionId, division!.id))).toHaveLength(4);

    // The Division Reports role reads the season's report and its CSV; an unrelated user may not.
    await createUserWithPassword("reports-record@example.com", PASSWORD, [{ type: "division_reports", clubId: club.id }]);
    const reader = await signIn("localhost", "reports-record@example.com", PASSWORD);
    const seasons = await (await get(base, reader)).text();
    const seasonId = /name="season"[^]*?value="([0-9a-f-]{36})"/.exec(seasons)![1];
    const page = await get(`${base}?season=${seasonId}`, reader);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain("Season 2026–27: 2 members");
    expect(text).toContain("1 renewed, 1 new, 1 from the season before have not renewed.");
    expect(text).toContain("2 · Bo Berg");
    expect(text).not.toContain("Add the season");
    const csv = await get(`/org/${division!.id}/members.csv?season=${seasonId}`, reader);
    const rows = parseCsv((await csv.text()).replace(/^\uFEFF/, "")).map((r) => r.map((c) => c.text));
    expect(rows[0]).toEqual(["Member number", "First name", "Last name", "Birth date", "Gender", "E-mail", "Member class", "Programs", "Expires", "Renewed"]);
    expect(rows.slice(1).filter((r) => r.length > 1)).toEqual([
      ["1", "Ann", "Lee", "2011-02-28", "F", "", "racing", "", "2027-08-31", "yes"],
      ["3", "Cy", "Côté", "2014-03-03", "M", "", "racing", "Jackrabbits", "2027-08-31", "no"],
    ]);
    await createUserWithPassword("stranger-record@example.com", PASSWORD, []);
    const stranger = await signIn("localhost", "stranger-record@example.com", PASSWORD);
    expect((await get(base, stranger)).status).toBe(403);
    expect((await get(`/org/${division!.id}/members.csv?season=${seasonId}`, stranger)).status).toBe(403);
    expect((await pagePost("localhost", base, { intent: "season", name: "X", starts: "2030-01-01", ends: "2030-02-01" }, reader)).status).toBe(403);
  });
});
