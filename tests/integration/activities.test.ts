// Activities (issue 27, decision 0052): a club's catalogue, tags on its forms, races and event pages, and the
// club site's races list filtered by activity.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activities, activityTags, races } from "../../schema/d1";
import { ACTIVITY_WORDS, setTags } from "../../workers/services/activity-tags";
import { createUserWithPassword, db, pagePost, signIn, worker } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";

async function clubWithAdmin() {
  const tag = crypto.randomUUID().slice(0, 8);
  const made = await createSiteWithRace(db(), { hostname: `act-${tag}.localhost`, siteName: `Act ${tag}`, raceName: "Classic sprint" });
  const other = { ...made.race, id: crypto.randomUUID(), name: "Skate marathon", startTime: made.race.startTime + 1000 };
  await db()
    .insert(races)
    .values({ ...other, fieldMtimes: {} });
  const email = `act-${tag}@example.com`;
  await createUserWithPassword(email, "glacier-ski-42", [{ type: "org_admin", clubId: made.club.id }]);
  const cookie = await signIn("localhost", email, "glacier-ski-42");
  return { ...made, other, cookie, path: `/club/${made.club.id}/activities` };
}

const page = (host: string, path: string, cookie?: string) =>
  worker.fetch(hostRequest(`${host}:8787`, path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" }));

describe("a club's activities", () => {
  it("are added once per form, tag a race, and filter the club site's races list", async () => {
    const c = await clubWithAdmin();
    const submission = crypto.randomUUID();
    const add = () => pagePost("localhost", c.path, { intent: "add", submission, name: "Sprint", sport: "Cross Country Skiing" }, c.cookie);
    expect((await add()).status).toBe(302);
    expect((await add()).status).toBe(302);
    const made = await db().select().from(activities).where(eq(activities.clubId, c.club.id));
    expect(made.map((a) => a.name)).toEqual(["Sprint"]);
    const sprint = made[0]!.id;

    const tagged = await pagePost(
      "localhost",
      c.path,
      [
        ["intent", "tag"],
        ["target", `race:${c.race.id}`],
        ["activity", sprint],
      ],
      c.cookie,
    );
    expect(tagged.status).toBe(302);
    // Sent twice, the same set: still one tag.
    expect(
      (
        await pagePost(
          "localhost",
          c.path,
          [
            ["intent", "tag"],
            ["target", `race:${c.race.id}`],
            ["activity", sprint],
          ],
          c.cookie,
        )
      ).status,
    ).toBe(302);
    expect(await db().select().from(activityTags).where(eq(activityTags.subjectId, c.race.id))).toHaveLength(1);

    const all = await (await page(c.site.hostname, "/")).text();
    expect(all).toContain("Classic sprint");
    expect(all).toContain("Skate marathon");
    expect(all).toContain(`/?activity=${sprint}`);
    const filtered = await (await page(c.site.hostname, `/?activity=${sprint}`)).text();
    expect(filtered).toContain("Classic sprint");
    expect(filtered).not.toContain("Skate marathon");
    const unknown = await page(c.site.hostname, `/?activity=${crypto.randomUUID()}`);
    expect(await unknown.text()).toContain("No upcoming races of this activity.");
    expect((await page(c.site.hostname, "/?activity=%27;DROP")).status).toBe(200);

    // An empty set untags.
    expect((await pagePost("localhost", c.path, { intent: "tag", target: `race:${c.race.id}` }, c.cookie)).status).toBe(302);
    expect(await db().select().from(activityTags).where(eq(activityTags.subjectId, c.race.id))).toHaveLength(0);
  });

  it("refuses another club's activity or race, and garbage, with words", async () => {
    const c = await clubWithAdmin();
    const d = await clubWithAdmin();
    const theirs = { id: crypto.randomUUID(), clubId: d.club.id, siteId: d.site.id, name: "Theirs", fieldMtimes: {} };
    await db().insert(activities).values(theirs);
    expect(await setTags(db(), c.club.id, "race", c.race.id, [theirs.id])).toEqual({ ok: false, error: ACTIVITY_WORDS.notYours });
    expect(await setTags(db(), c.club.id, "race", d.race.id, [])).toEqual({ ok: false, error: ACTIVITY_WORDS.noSubject });
    const foreign = await pagePost(
      "localhost",
      c.path,
      [
        ["intent", "tag"],
        ["target", `race:${c.race.id}`],
        ["activity", theirs.id],
      ],
      c.cookie,
    );
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).toContain("Choose activities of this club");
    expect((await pagePost("localhost", c.path, { intent: "tag", target: "race:nonsense" }, c.cookie)).status).toBe(400);
    expect((await pagePost("localhost", c.path, { intent: "add", submission: "x", name: "" }, c.cookie)).status).toBe(400);
    expect((await pagePost("localhost", c.path, { intent: "other" }, c.cookie)).status).toBe(400);
    // Another club's admin and an anonymous visitor cannot open the page.
    expect((await page("localhost", c.path, d.cookie)).status).toBe(404);
    expect((await page("localhost", c.path)).status).not.toBe(200);
    expect((await pagePost("localhost", c.path, { intent: "tag", target: `race:${c.race.id}` }, d.cookie)).status).toBe(404);
  });
});
