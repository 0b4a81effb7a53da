/**
 * Ranking schemes (issue 27, decision 0054): the config refused alike by the data API and the admin page, the
 * list that follows a member race's new results (across an eviction of the room) with no nightly job, its
 * CSV, who may open it, a double-sent form, garbage input, and seeding a start group by ranking points.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { initialMtimes } from "../../core/entity/field-mtimes";
import { rankingLists, rankingSchemes, races } from "../../schema/d1";
import { createUserWithPassword, db, pagePost, signIn, worker, pageGet } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { createApp, issueToken } from "./oauth-fixtures";
import { evictRoom, postReads, SECOND, setUpTimedRoom } from "./timing-fixtures";
import { everyRacer } from "../../workers/services/race-racers";

const PASSWORD = "glacier-ski-42";
const DAY_MS = 86_400_000;
const NAMES = ["Anna Berg", "Bea Lind", "Cleo Stam"];
/** Small numbers worked by hand: F = 100, the 2 best-ranked of the first 3, unranked at 100. */
const METHOD = { factor: 100, penalty_count: 2, top_finishers: 3, unranked_points: 100, best_n: 2 };

async function timeRace(race: Parameters<typeof setUpTimedRoom>[0], host: string, names = NAMES) {
  const timed = await setUpTimedRoom(race, { names });
  let seq = 0;
  /** Finish reads: chip → seconds after the start. */
  const finishes = async (times: Record<string, number>) => {
    const reads = Object.entries(times).map(([chip, seconds]) => ({ seq: ++seq, chip, time: race.startTime * 1000 + seconds * SECOND, channel: 2 }));
    expect((await postReads(host, race.id, timed.credential.token, { reads })).status).toBe(200);
    await timed.room.flushLive();
  };
  return { ...timed, finishes };
}

async function addRace(club: { id: string }, site: { id: string }, name: string, startTime: number) {
  const race = { id: crypto.randomUUID(), clubId: club.id, siteId: site.id, name, startTime, timezone: "America/Toronto", visibility: "public" as const };
  await db()
    .insert(races)
    .values({ ...race, fieldMtimes: initialMtimes(race, Date.now()) });
  return race;
}

/** A club with two races a week apart, both timed, its Organization Admin signed in, and a data API token. */
async function club(tag: string) {
  const host = `${tag}-${crypto.randomUUID().slice(0, 8)}.localhost`;
  const { site, club, race } = await createSiteWithRace(db(), { hostname: host, siteName: tag, raceName: "Opener", startInDays: 0 });
  const second = await addRace(club, site, "Final", race.startTime + 7 * DAY_MS);
  const [a, b] = [await timeRace(race, host), await timeRace(second, host)];
  const email = `${tag}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const user = await createUserWithPassword(email, PASSWORD, [{ type: "org_admin", clubId: club.id }]);
  const token = await issueToken(user.id, await createApp({ scopes: "rankingschemes" }), "localhost", "rankingschemes");
  const put = async (body: Record<string, unknown>) => {
    const response = await worker.fetch(
      hostRequest("localhost", "/data-api/RankingScheme/", {
        method: "PUT",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ club: club.id, name: "Cup list", method: "fis_points", ...body }),
      }),
    );
    return { status: response.status, body: await response.json<Record<string, unknown>>() };
  };
  return { host, site, club, races: [race, second] as const, a, b, email, cookie: await signIn("localhost", email, PASSWORD), put };
}

const get = (path: string, cookie?: string) => pageGet("localhost", path, cookie);

async function csvLines(path: string, cookie: string): Promise<string[][]> {
  const response = await get(path, cookie);
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  return (await response.text())
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n")
    .map((line) => line.slice(1, -1).split('","'));
}

describe("a ranking scheme's config", () => {
  it("is refused with the same words by the data API and the admin page, and nothing is written", async () => {
    const c = await club("cfg");
    const seasons = [{ label: "2026", races: [{ race: c.races[0].id }] }];
    expect((await c.put({ config: { seasons, penalty_count: 12 } })).body).toMatchObject({
      message: "config.penalty_count: The penalty count cannot be more than the top finishers it is chosen from (10)",
    });
    expect((await c.put({ config: { seasons: [...seasons, { label: "2026" }] } })).body.message).toBe("config.seasons: The season 2026 is listed twice");
    expect((await c.put({ config: { seasons: [{ label: "2026", races: [{ race: crypto.randomUUID() }] }] } })).body.message).toMatch(
      /^config\.seasons: No race of this club has the id /,
    );
    expect((await c.put({ season: "2030", config: { seasons } })).body.message).toBe("season: The season 2030 is not one of the scheme's seasons");
    expect((await c.put({ method: "custom", config: {} })).body.message).toBe(
      "method: A ranking scheme's method is fis_points (the FIS points method) or points_table (points by place); custom makes no list",
    );
    expect((await c.put({ config: { factor: -1 } })).body).toMatchObject({ message: "Invalid value for 'config': The F factor is more than 0" });
    expect((await c.put({ config: { best_n: "two" } })).status).toBe(400);
    expect((await c.put({ sport: "Biathlon", config: { seasons } })).status).toBe(201);
    await db().update(races).set({ sport: "Cross-country" }).where(eq(races.id, c.races[0].id));
    expect((await c.put({ sport: "Biathlon", config: { seasons } })).body.message).toBe(
      "config.seasons: Opener is a Cross-country race; this scheme ranks Biathlon",
    );

    // The admin page, as a System Administrator of the Ranking Schemes area, says the same words.
    const email = `sys-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const admin = await createUserWithPassword(email, PASSWORD, [{ type: "system_admin" }]);
    await env.DB.prepare("UPDATE roles SET config = ? WHERE user_id = ?")
      .bind(JSON.stringify({ rankingschemes: true }), admin.id)
      .run();
    const cookie = await signIn("admin.localhost", email, PASSWORD);
    const path = "/_admin/rankingschemes/new?class=RankingScheme";
    const page = await (await worker.fetch(hostRequest("admin.localhost", path, { headers: { Cookie: cookie } }))).text();
    const submission = /<input type="hidden" name="submission" value="([^"]*)"/.exec(page)![1]!;
    const refused = await pagePost(
      "admin.localhost",
      path,
      [
        ["intent", "create"],
        ["submission", submission],
        ["club", c.club.id],
        ["name", "Refused list"],
        ["method", "fis_points"],
        ["config", JSON.stringify({ seasons, penalty_count: 12 })],
      ],
      cookie,
    );
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("The penalty count cannot be more than the top finishers it is chosen from (10)");
    const written = await db().select().from(rankingSchemes).where(eq(rankingSchemes.clubId, c.club.id));
    expect(written.map((r) => r.name)).toEqual(["Cup list"]); // the one accepted above, never the refused ones
  });
});

describe("a ranking list", () => {
  it("scores the season's races by the FIS method, follows a new crossing across an eviction, and exports CSV", async () => {
    const c = await club("list");
    const created = await c.put({ season: "2026", config: { ...METHOD, seasons: [{ label: "2026", races: c.races.map((r) => ({ race: r.id })) }] } });
    expect(created.status).toBe(201);
    const scheme = String(created.body.uuid);
    const page = `/club/${c.club.id}/rankings/${scheme}`;
    expect(await (await get(page, c.cookie)).text()).toContain("No ranked results yet");

    await c.a.finishes({ C1: 600, C2: 610, C3: 630 });
    await c.b.finishes({ C2: 500, C1: 520 });
    // Opener, everyone unranked at 100: penalty (200 + 200 − 1.67) / 10 = 39.83; Anna 0 + 39.83, Bea 1.67 + 39.83, Cleo 5 + 39.83.
    // Final, Anna at 39.83 and Bea at 41.5: penalty (81.33 + 81.33 − 4) / 10 = 15.87; Bea 15.87, Anna 4 + 15.87.
    const first = await csvLines(`${page}/list.csv`, c.cookie);
    expect(first).toEqual([
      ["Rank", "Name", "Club", "Points", "Results", "Opener", "Final"],
      ["1", "Bea Lind", "", "28.69", "2", "41.50", "15.87"],
      ["2", "Anna Berg", "", "29.85", "2", "39.83", "19.87"],
      ["3", "Cleo Stam", "", "44.83", "1", "44.83", ""],
    ]);
    const html = await (await get(page, c.cookie)).text();
    expect(html).toContain("Season 2026");
    expect(html).toContain("Bea Lind");

    // Cleo's DNF-free finish in the final after an eviction: the list follows on the next read.
    await evictRoom(c.b.room);
    await c.b.finishes({ C3: 505 });
    await evictRoom(c.b.room);
    const after = await csvLines(`${page}/list.csv`, c.cookie);
    expect(after.find((r) => r[1] === "Cleo Stam")?.[4]).toBe("2");
    const [cached] = await db().select().from(rankingLists).where(eq(rankingLists.schemeId, scheme));
    expect(cached?.sourceKey).toMatch(/^[0-9a-f]{64}$/);
    expect(await csvLines(`${page}/list.csv`, c.cookie)).toEqual(after);
  });

  it("is refused to another club's admin and to a role of the club without the area; garbage ids are 404s", async () => {
    const c = await club("acc");
    const created = await c.put({ config: { seasons: [{ label: "2026" }] } });
    const page = `/club/${c.club.id}/rankings/${String(created.body.uuid)}`;
    const other = await club("other");
    expect((await get(page, other.cookie)).status).toBe(404);
    expect((await get(`${page}/list.csv`, other.cookie)).status).toBe(404);
    expect((await get(`/club/${other.club.id}/rankings/${String(created.body.uuid)}`, other.cookie)).status).toBe(404);
    const racesEmail = `races-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await createUserWithPassword(racesEmail, PASSWORD, [{ type: "all_races", clubId: c.club.id }]);
    const racesCookie = await signIn("localhost", racesEmail, PASSWORD);
    expect((await get(page, racesCookie)).status).toBe(403);
    expect((await get(page)).status).toBe(302);
    expect((await get(`/club/${c.club.id}/rankings/not-an-id`, c.cookie)).status).toBe(404);
    expect((await get(`/club/${c.club.id}/rankings/${String(created.body.uuid)}?season=%00%ff`, c.cookie)).status).toBe(200);
  });
});

describe("the club's ranking pages", () => {
  it("start a scheme once when the form is sent twice, and refuse garbage in words", async () => {
    const c = await club("form");
    const base = `/club/${c.club.id}/rankings`;
    const submission = crypto.randomUUID();
    const fields = { intent: "create", submission, name: "Club list", sport: "", season: "2026" };
    const [one, two] = [await pagePost("localhost", base, fields, c.cookie), await pagePost("localhost", base, fields, c.cookie)];
    expect([one.status, two.status]).toEqual([302, 302]);
    expect(one.headers.get("Location")).toBe(`${base}/${submission}?saved=created`);
    expect(await db().select().from(rankingSchemes).where(eq(rankingSchemes.clubId, c.club.id))).toHaveLength(1);

    const missing = await pagePost("localhost", base, { intent: "create", submission: "x", name: "", season: "" }, c.cookie);
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Enter the scheme&#x27;s name");
    const page = `${base}/${submission}`;
    const factor = await pagePost("localhost", page, { intent: "method", season: "2026", factor: "abc", penalty_count: "5", top_finishers: "10" }, c.cookie);
    expect(factor.status).toBe(400);
    expect(await factor.text()).toContain("The F factor is a number");
    const twice = await pagePost("localhost", page, { intent: "season", label: "2026" }, c.cookie);
    expect(await twice.text()).toContain("The season 2026 is listed twice");
    expect((await pagePost("localhost", page, { intent: "races", season: "nope" }, c.cookie)).status).toBe(400);
    expect((await pagePost("localhost", page, { intent: "explode" }, c.cookie)).status).toBe(400);
    const chosen = await pagePost("localhost", page, { intent: "races", season: "2026", [`race_${c.races[0].id}`]: "on" }, c.cookie);
    expect(chosen.status).toBe(302);
    const [row] = await db().select().from(rankingSchemes).where(eq(rankingSchemes.id, submission));
    expect((row!.config as { seasons: { races: { race: string }[] }[] }).seasons[0]!.races.map((r) => r.race)).toEqual([c.races[0].id]);
    // Another club's race ticked on the form is refused by the same rule as the data API.
    const other = await club("form-other");
    const foreign = await pagePost("localhost", page, { intent: "races", season: "2026", [`race_${other.races[0].id}`]: "on" }, c.cookie);
    expect(await foreign.text()).toContain("No race of this club has the id");
  });
});

/** A third race whose start group "Women" seeds by ranking points, and its start-order page's settings form. */
async function seedingRace(c: Awaited<ReturnType<typeof club>>) {
  const third = await addRace(c.club, c.site, "Sprint", c.races[0].startTime + 14 * DAY_MS);
  const sprint = await timeRace(third, c.host, ["Dora New", "Anna Berg", "Cleo Stam", "Bea Lind"]);
  const group = await sprint.room.saveDocument("StartGroup", null, {
    name: "Women",
    seed_function: "ranking_points",
    starttime_sort: "seed",
    start_mode: "individual",
    start_interval: 30_000_000,
  });
  const groupId = (group as { value: { id: string } }).value.id;
  for (const id of sprint.racerIds) await sprint.room.saveRacer(id, { setupgroup_id: groupId });
  const settings = {
    intent: "race-settings",
    seed_function: "random",
    prev_stages_count: "0",
    starttime_sort: "bib",
    start_interval: "30",
    start_size: "1",
    start_gap: "0",
    mass_start_cutoff: "180",
  };
  const base = `/race/${third.id}/admin/startorder`;
  const seed = () => pagePost("localhost", base, { intent: "seed", target: groupId }, c.cookie);
  /** The racers' written points by name, and their first names in start order once start times are assigned. */
  const seeded = async () => {
    const points = Object.fromEntries((await everyRacer(sprint.room)).map((r) => [`${r.data.first_name} ${r.data.last_name}`, r.data.ranking_points]));
    expect((await sprint.room.assignStartTimes()).ok).toBe(true);
    const order = (await everyRacer(sprint.room)).sort((x, y) => x.data.assigned_start_time! - y.data.assigned_start_time!).map((r) => r.data.first_name);
    return { points, order };
  };
  return { third, sprint, groupId, settings, base, seed, seeded };
}

describe("seeding by ranking points", () => {
  it("puts the best-ranked first, the unranked after, writes the points used, and refuses another club's scheme", async () => {
    const c = await club("seed");
    const created = await c.put({ season: "2026", config: { ...METHOD, seasons: [{ label: "2026", races: c.races.map((r) => ({ race: r.id })) }] } });
    await c.a.finishes({ C1: 600, C2: 610, C3: 630 });
    await c.b.finishes({ C2: 500, C1: 520 });
    const { third, groupId, settings, base, seed, seeded } = await seedingRace(c);

    // No scheme chosen yet: refused in words.
    const unset = await pagePost("localhost", `${base}?confirm=seed&group=${groupId}`, { intent: "seed", target: groupId }, c.cookie);
    expect(unset.status).toBe(400);
    expect(await unset.text()).toContain("Choose the race&#x27;s ranking scheme before seeding by ranking points");

    const other = await club("seed-other");
    const foreign = await other.put({ config: {} });
    const refused = await pagePost("localhost", base, { ...settings, ranking_scheme_id: String(foreign.body.uuid) }, c.cookie);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Choose a ranking scheme of this club");
    expect((await pagePost("localhost", base, { ...settings, ranking_scheme_id: "'; drop table" }, c.cookie)).status).toBe(400);
    expect((await pagePost("localhost", base, { ...settings, ranking_scheme_id: String(created.body.uuid) }, c.cookie)).status).toBe(302);

    expect((await seed()).status).toBe(302);
    const { points, order } = await seeded();
    expect(points).toEqual({ "Dora New": null, "Anna Berg": 29.85, "Cleo Stam": 44.83, "Bea Lind": 28.69 });
    expect(order).toEqual(["Bea", "Anna", "Cleo", "Dora"]);
    // Seeding again (a double click) gives the same order and points.
    expect((await seed()).status).toBe(302);
    const report = await (await get(`/race/${third.id}/admin/reports/start-list`, c.cookie)).text();
    expect(report).toContain("Ranking points");
    expect(report).toContain("28.69");
  });

  it("by a points table writes and shows each racer's points, not their rank, the most points first (decision 0068)", async () => {
    const c = await club("seed-table");
    const seasons = [{ label: "2026", races: c.races.map((r) => ({ race: r.id })) }];
    const created = await c.put({ method: "points_table", season: "2026", config: { points_table: [100, 60, 50], list_mode: "sum", seasons } });
    expect(created.status).toBe(201);
    // Opener: Anna 100, Bea 60, Cleo 50; Final: Bea 100, Cleo 60, Anna 50. Summed: Bea 160, Anna 150, Cleo 110.
    await c.a.finishes({ C1: 600, C2: 610, C3: 630 });
    await c.b.finishes({ C2: 500, C3: 510, C1: 520 });
    const { base, settings, seed, seeded } = await seedingRace(c);
    expect((await pagePost("localhost", base, { ...settings, ranking_scheme_id: String(created.body.uuid) }, c.cookie)).status).toBe(302);
    expect((await seed()).status).toBe(302);
    const { points, order } = await seeded();
    expect(points).toEqual({ "Dora New": null, "Anna Berg": 150, "Cleo Stam": 110, "Bea Lind": 160 });
    expect(order).toEqual(["Bea", "Anna", "Cleo", "Dora"]);
    const page = await (await get(base, c.cookie)).text();
    expect(page).toContain("Ranking points");
    expect(page).toContain("160.00");
  });
});
