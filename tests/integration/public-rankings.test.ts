/**
 * Ranking points tables, FIS's +20% rule and the public ranking list (issue 27, decision 0064): the config
 * refused alike by the data API and the admin page, a table scheme's list on the club's site with its CSV,
 * another site's or a private scheme a 404, garbage addresses a 404, and a single result listed at +20%.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rankingSchemes } from "../../schema/d1";
import { createUserWithPassword, db, pagePost, signIn, worker, pageGet } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { createApp, issueToken } from "./oauth-fixtures";
import { postReads, SECOND, setUpTimedRoom } from "./timing-fixtures";

const PASSWORD = "glacier-ski-42";
const NAMES = ["Anna Berg", "Bea Lind", "Cleo Stam"];

/** A club on its own site with one race timed (Anna 100 s, Bea 110 s, Cleo 120 s) and a data API token of its admin. */
async function club(tag: string) {
  const host = `${tag}-${crypto.randomUUID().slice(0, 8)}.localhost`;
  const { site, club, race } = await createSiteWithRace(db(), { hostname: host, siteName: tag, raceName: "Opener", startInDays: 0 });
  const timed = await setUpTimedRoom(race, { names: NAMES });
  const reads = [100, 110, 120].map((seconds, i) => ({ seq: i + 1, chip: `C${i + 1}`, time: race.startTime * 1000 + seconds * SECOND, channel: 2 }));
  expect((await postReads(host, race.id, timed.credential.token, { reads })).status).toBe(200);
  await timed.room.flushLive();
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
  const seasons = [{ label: "2026", races: [{ race: race.id }] }];
  return { host, site, club, race, email, put, seasons };
}

const get = pageGet;

describe("a ranking scheme's points table and +20% rule", () => {
  it("are refused with the same words by the data API and the admin page, and nothing is written", async () => {
    const c = await club("tbl");
    const table = (config: Record<string, unknown>) => c.put({ method: "points_table", config: { seasons: c.seasons, ...config } });
    const empty = await table({});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe("config.points_table: A points table needs the points of 1st place at least");
    expect((await table({ points_table: [100, 80, 90] })).body.message).toBe(
      "config.points_table: The points table must not rise from one place to the next: place 3 has more points than place 2",
    );
    expect((await table({ points_table: [100, 80], one_result_plus_20: true })).body.message).toBe(
      "config.one_result_plus_20: The +20% rule is FIS's, for lists where fewer points rank first; a points table ranks the most points first",
    );
    expect((await table({ points_table: [100, 80], method: "fis" })).body.message).toBe(
      "config.method: The scheme's method is points_table: the config's method must be table, or left out",
    );
    expect((await c.put({ config: { seasons: c.seasons, list_mode: "sum" } })).body.message).toBe(
      "config.list_mode: FIS points are averaged or the best one taken, never summed; use list_mode average or best",
    );
    // Garbage is the schema's 400, never a 500.
    expect((await table({ points_table: ["many"] })).status).toBe(400);
    expect((await table({ points_table: 7 })).status).toBe(400);
    expect((await c.put({ config: { one_result_plus_20: "yes" } })).status).toBe(400);
    expect(await db().select().from(rankingSchemes).where(eq(rankingSchemes.clubId, c.club.id))).toEqual([]);

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
        ["method", "points_table"],
        ["config", JSON.stringify({ seasons: c.seasons, points_table: [100, 80], one_result_plus_20: true })],
      ],
      cookie,
    );
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("The +20% rule is FIS&#x27;s, for lists where fewer points rank first");
    expect(await db().select().from(rankingSchemes).where(eq(rankingSchemes.clubId, c.club.id))).toEqual([]);
  });
});

describe("the public ranking list", () => {
  it("shows a public table scheme's list and CSV on its own site only, and never a private scheme", async () => {
    const c = await club("pub");
    const other = await club("oth");
    const made = await c.put({
      method: "points_table",
      is_public: true,
      season: "2026",
      config: { seasons: c.seasons, points_table: [100, 80, 60], list_mode: "sum" },
    });
    expect(made.status).toBe(201);
    const id = made.body.uuid as string;
    const page = await get(c.host, `/rankings/${id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Cup list 2026");
    for (const [name, points] of [
      ["Anna Berg", "100.00"],
      ["Bea Lind", "80.00"],
      ["Cleo Stam", "60.00"],
    ])
      expect(html).toMatch(new RegExp(`${name}</td>.*?${points}`));
    expect(html.indexOf("Anna Berg")).toBeLessThan(html.indexOf("Cleo Stam"));
    const csv = await get(c.host, `/rankings/${id}/list.csv`);
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe('"Rank","Name","Club","Points","Results","Opener"');
    expect(lines[1]).toMatch(/^"1","Anna Berg","[^"]*","100.00","1","100.00"$/);
    expect(await (await get(c.host, "/rankings")).text()).toContain(`/rankings/${id}`);

    // Another site's scheme is not this site's page; nor is a private one, even to its own club's staff.
    expect((await get(other.host, `/rankings/${id}`)).status).toBe(404);
    expect((await get(other.host, `/rankings/${id}/list.csv`)).status).toBe(404);
    expect(await (await get(other.host, "/rankings")).text()).not.toContain(id);
    const hidden = await c.put({ name: "Club only", config: { seasons: c.seasons } });
    const hiddenId = hidden.body.uuid as string;
    const staff = await signIn(c.host, c.email, PASSWORD);
    expect((await get(c.host, `/rankings/${hiddenId}`)).status).toBe(404);
    expect((await get(c.host, `/rankings/${hiddenId}`, staff)).status).toBe(404);
    expect((await get(c.host, `/rankings/${hiddenId}/list.csv`)).status).toBe(404);
    expect(await (await get(c.host, "/rankings")).text()).not.toContain(hiddenId);
    // Garbage addresses are a 404, never a 500.
    for (const path of ["/rankings/not-a-scheme", `/rankings/${id}x`, "/rankings/%00", `/rankings/${id}?season=${"x".repeat(5000)}`])
      expect((await get(c.host, path)).status).toBeLessThan(500);
  });

  it("lists a racer with a single result at that result plus 20% under FIS's rule", async () => {
    const c = await club("p20");
    const made = await c.put({
      is_public: true,
      config: { seasons: c.seasons, factor: 100, penalty_count: 2, top_finishers: 3, unranked_points: 100, one_result_plus_20: true },
    });
    expect(made.status).toBe(201);
    const html = await (await get(c.host, `/rankings/${made.body.uuid as string}`)).text();
    // Everyone unranked at 100: penalty (200 + 200 − 10) / 10 = 39; Anna 0 + 39 = 39, one result: 46.8.
    expect(html).toMatch(/Anna Berg<\/td>.*?46\.80.*?\+20%/);
    expect(html).toContain("plus 20%");
  });
});
