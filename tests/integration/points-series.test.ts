/**
 * Points series (issue 27, decision 0048): the config refused alike by the data API and the admin page,
 * standings from the member races' results that follow a new crossing (also after the RaceRoom was
 * evicted) with no nightly job, a private series hidden, and the standings CSV and the points file.
 */
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { initialMtimes } from "../../core/entity/field-mtimes";
import { pointsSeries, pointsSeriesRaceEntries, pointsSeriesStandings, races } from "../../schema/d1";
import { forgetRememberedSeries, seriesStandings } from "../../workers/services/series-standings";
import { createUserWithPassword, db, pagePost, signIn, worker, pageGet } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { createApp, issueToken } from "./oauth-fixtures";
import { evictRoom, postReads, SECOND, setUpTimedRoom } from "./timing-fixtures";

const PASSWORD = "glacier-ski-42";
const DAY_MS = 86_400_000;
const NAMES = ["Anna Berg", "Bea Lind", "Cleo Stam"];

/** A race timed as createTimedRace's, with the three racers by bib 1..3 and chips C1..C3, and its finish reads. */
async function timeRace(race: Parameters<typeof setUpTimedRoom>[0], host: string) {
  const { room, credential } = await setUpTimedRoom(race, { names: NAMES });
  let seq = 0;
  /** Finish reads: chip → seconds after the start. */
  const finishes = async (times: Record<string, number>) => {
    const reads = Object.entries(times).map(([chip, seconds]) => ({ seq: ++seq, chip, time: race.startTime * 1000 + seconds * SECOND, channel: 2 }));
    const response = await postReads(host, race.id, credential.token, { reads });
    expect(response.status).toBe(200);
    await room.flushLive();
  };
  return { room, finishes };
}

/** A club on its own site with two races a week apart, both timed, and its Organization Admin. */
async function season(tag: string) {
  const host = `${tag}-${crypto.randomUUID().slice(0, 8)}.localhost`;
  const { site, club, race } = await createSiteWithRace(db(), { hostname: host, siteName: tag, raceName: "Opener", startInDays: 0 });
  const now = Date.now();
  const second = { ...race, id: crypto.randomUUID(), name: "Final", startTime: race.startTime + 7 * DAY_MS };
  await db()
    .insert(races)
    .values({ ...second, fieldMtimes: initialMtimes(second, now) });
  const [a, b] = [await timeRace(race, host), await timeRace(second, host)];
  const email = `${tag}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const user = await createUserWithPassword(email, PASSWORD, [{ type: "org_admin", clubId: club.id }]);
  return { host, site, club, races: [race, second] as const, a, b, user, email };
}

async function insertSeries(s: Awaited<ReturnType<typeof season>>, config: Record<string, unknown>, isPublic = true) {
  const row = {
    id: crypto.randomUUID(),
    clubId: s.club.id,
    siteId: s.site.id,
    name: "Spring Cup",
    year: 2026,
    isPublic,
    url: "https://example.org/series/spring-cup",
    config,
  };
  await db()
    .insert(pointsSeries)
    .values({ ...row, fieldMtimes: initialMtimes(row, Date.now()) });
  return row.id;
}

const get = pageGet;

/** The standings CSV as lines of cells (BOM and quotes off). */
async function csvLines(host: string, seriesId: string, cookie?: string): Promise<string[][]> {
  const response = await get(host, `/series/${seriesId}/standings.csv`, cookie);
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  const text = (await response.text()).replace(/^\uFEFF/, "");
  return text
    .trim()
    .split("\r\n")
    .map((line) => line.slice(1, -1).split('","'));
}

function uploadPointsFile(host: string, seriesId: string, cookie: string | null, text: string | null, intent = "upload") {
  const form = new FormData();
  form.set("intent", intent);
  if (text !== null) form.set("file", new File([text], "points.csv", { type: "text/csv" }));
  return worker.fetch(
    hostRequest(`${host}:8787`, `/series/${seriesId}`, {
      method: "POST",
      headers: { Origin: `http://${host}:8787`, "Sec-Fetch-Site": "same-origin", ...(cookie ? { Cookie: cookie } : {}) },
      body: form,
      redirect: "manual",
    }),
  );
}

describe("points series config", () => {
  it("is refused with the same words by the data API and the admin page, and nothing is written", async () => {
    const s = await season("cfg");
    const scopes = "pointsseries";
    const token = await issueToken(s.user.id, await createApp({ scopes }), "localhost", scopes);
    const put = (config: unknown) =>
      worker.fetch(
        hostRequest("localhost", "/data-api/PointsSeries/", {
          method: "PUT",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ club: s.club.id, name: "Cup", config }),
        }),
      );
    const races = [{ race: s.races[0].id }, { race: s.races[1].id }];
    const tooMany = await put({ races, best_of: 3 });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({
      message: "config.best_of: Best N cannot be more than the series' 2 races",
      fields: { "config.best_of": "Best N cannot be more than the series' 2 races" },
    });
    const rising = await put({ races, points: { method: "table", table: [100, 80, 90] } });
    expect(await rising.json()).toMatchObject({
      message: "config.points.table: The points table must not rise from one place to the next: place 3 has more points than place 2",
    });
    const foreign = await put({ races: [{ race: crypto.randomUUID() }] });
    expect((await foreign.json<{ message: string }>()).message).toMatch(/^config\.races: No race of this club has the id /);
    const shape = await put({ races, best_of: 0 });
    expect(await shape.json()).toMatchObject({ message: "Invalid value for 'config': Best N is at least 1" });
    const good = await put({ races, best_of: 2 });
    expect(good.status).toBe(201);

    // The admin page, as a System Administrator of the series area.
    const email = `sys-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const admin = await createUserWithPassword(email, PASSWORD, [{ type: "system_admin" }]);
    await env.DB.prepare("UPDATE roles SET config = ? WHERE user_id = ?")
      .bind(JSON.stringify({ pointsseries: true }), admin.id)
      .run();
    const cookie = await signIn("admin.localhost", email, PASSWORD);
    const page = await (await get("admin.localhost", "/_admin/pointsseries/new?class=PointsSeries", cookie)).text();
    const submission = /<input type="hidden" name="submission" value="([^"]*)"/.exec(page)![1]!;
    const refused = await pagePost(
      "admin.localhost",
      "/_admin/pointsseries/new?class=PointsSeries",
      [
        ["intent", "create"],
        ["submission", submission],
        ["club", s.club.id],
        ["name", "Refused Cup"],
        ["config", JSON.stringify({ races, best_of: 3 })],
      ],
      cookie,
    );
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Best N cannot be more than the series&#x27; 2 races");
    const written = await db().select().from(pointsSeries).where(eq(pointsSeries.clubId, s.club.id));
    expect(written.map((r) => r.name)).toEqual(["Cup"]);
  });
});

describe("a series on a points system", () => {
  it("takes the system's formula, ties and best N, and the system's own rules are refused alike", async () => {
    const s = await season("sys");
    const scopes = "pointsseries points";
    const token = await issueToken(s.user.id, await createApp({ scopes }), "localhost", scopes);
    const put = async (classname: string, body: Record<string, unknown>) => {
      const response = await worker.fetch(
        hostRequest("localhost", `/data-api/${classname}/`, {
          method: "PUT",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ club: s.club.id, ...body }),
        }),
      );
      return { status: response.status, body: await response.json<Record<string, unknown>>() };
    };
    expect((await put("PointsSystem", { name: "Bad", method: "formula", formula: "rank * 2" })).body).toMatchObject({
      message: "formula: The formula cannot be read: unknown name 'rank' (use place, finishers, time or winner)",
    });
    expect((await put("PointsSystem", { name: "Rising", method: "table", points_table: [10, 20] })).body).toMatchObject({
      message: "points_table: The points table must not rise from one place to the next: place 2 has more points than place 1",
    });
    const system = await put("PointsSystem", { name: "Finishers", method: "formula", formula: "finishers - place + 1", best_of: 1, scale_per_race: false });
    expect(system.status).toBe(201);
    const races = [{ race: s.races[0].id }, { race: s.races[1].id, scale: 3 }];
    expect((await put("PointsSeries", { name: "Unknown", config: { races, points_system: crypto.randomUUID() } })).body.message).toMatch(
      /^config\.points_system: No points system of this club or the platform has the id /,
    );
    const series = await put("PointsSeries", { name: "Formula Cup", is_public: true, config: { races, points_system: system.body.uuid } });
    expect(series.status).toBe(201);
    await s.a.finishes({ C1: 600, C2: 610, C3: 620 });
    await s.b.finishes({ C3: 500, C2: 510 });
    // Opener: 3, 2, 1 of 3 finishers; Final: 2, 1 of 2, unscaled (the system does not scale); best 1 counts.
    expect((await csvLines(s.host, String(series.body.uuid))).slice(1).map((r) => r.slice(1))).toEqual([
      ["1", "Anna Berg", "", "3", "3", ""],
      ["2", "Cleo Stam", "", "2", "(1)", "2"],
      ["3", "Bea Lind", "", "2", "2", "(1)"],
    ]);
    // The stored standings go with their series.
    const id = String(series.body.uuid);
    expect(await db().select().from(pointsSeriesStandings).where(eq(pointsSeriesStandings.seriesId, id))).toHaveLength(1);
    const removed = await worker.fetch(
      hostRequest("localhost", `/data-api/PointsSeries/${id}/`, { method: "DELETE", headers: { Authorization: `Bearer ${token}` } }),
    );
    expect(removed.status).toBe(204);
    expect(await db().select().from(pointsSeriesStandings).where(eq(pointsSeriesStandings.seriesId, id))).toHaveLength(0);
    expect((await get(s.host, `/series/${id}`)).status).toBe(404);
  });
});

describe("points series standings", () => {
  it("adds the races' points, and follow a new crossing without a nightly job, across an eviction of the room", async () => {
    const s = await season("std");
    const seriesId = await insertSeries(s, {
      races: [{ race: s.races[0].id }, { race: s.races[1].id, scale: 2 }],
      points: { method: "table", table: [10, 8, 6] },
      best_of: 2,
    });
    await s.a.finishes({ C1: 600, C2: 610 });
    await s.b.finishes({ C2: 500, C1: 520, C3: 530 });
    const first = await csvLines(s.host, seriesId);
    expect(first[0]).toEqual(["Category", "Rank", "Name", "Club", "Total", "Opener", "Final"]);
    expect(first.slice(1).map((r) => r.slice(1))).toEqual([
      ["1", "Bea Lind", "", "28", "8", "20"],
      ["2", "Anna Berg", "", "26", "10", "16"],
      ["3", "Cleo Stam", "", "12", "", "12"],
    ]);
    const page = await get(s.host, `/series/${seriesId}`);
    // The page says how long its standings took (the series benchmark reads it).
    expect(page.headers.get("Server-Timing")).toMatch(/^standings;dur=\d+(\.\d)?;desc="Standings read or recomputed"$/);
    const html = await page.text();
    expect(html).toContain("Spring Cup 2026");
    expect(html).toContain("Cleo Stam");
    // The series' address works too, and the site lists the series.
    expect((await get(s.host, "/series/spring-cup")).status).toBe(200);
    expect(await (await get(s.host, "/series")).text()).toContain(`/series/${seriesId}`);

    // A crossing in the opener after the room was evicted: Cleo wins it; the standings follow on the next read.
    await evictRoom(s.a.room);
    await s.a.finishes({ C3: 590 });
    await evictRoom(s.a.room);
    const after = await csvLines(s.host, seriesId);
    expect(after.slice(1).map((r) => r.slice(1))).toEqual([
      ["1", "Bea Lind", "", "26", "6", "20"],
      ["2", "Anna Berg", "", "24", "8", "16"],
      ["3", "Cleo Stam", "", "22", "10", "12"],
    ]);
    // The standings were stored with what they came from; a read with nothing changed serves them again.
    const [cached] = await db().select().from(pointsSeriesStandings).where(eq(pointsSeriesStandings.seriesId, seriesId));
    expect(cached?.sourceKey).toMatch(/^[0-9a-f]{64}$/);
    expect(await csvLines(s.host, seriesId)).toEqual(after);
  });

  it("reads a race again from its room when its stored entries no longer unpack, and shares entries in memory between series", async () => {
    const s = await season("mem");
    const config = { races: [{ race: s.races[0].id }, { race: s.races[1].id }], points: { method: "table", table: [10, 8, 6] } };
    const [first, second] = [await insertSeries(s, config), await insertSeries(s, config)];
    const record = (id: string) => ({ id, clubId: s.club.id, config, lastPointsFile: null });
    const totals = (standings: Awaited<ReturnType<typeof seriesStandings>>) =>
      standings.categories.flatMap((c) => c.rows.map((r) => [r.rank, r.name, r.total]));
    await s.a.finishes({ C1: 600, C2: 610 });
    await s.b.finishes({ C2: 500, C1: 520, C3: 530 });
    forgetRememberedSeries();
    // Points in hundredths; level on 18, Bea won the later race.
    const expected = [
      [1, "Bea Lind", 1800],
      [2, "Anna Berg", 1800],
      [3, "Cleo Stam", 600],
    ];
    expect(totals(await seriesStandings(env, db(), record(first), null))).toEqual(expected);

    // The opener's stored row is damaged; with nothing in memory it is read from the room and stored again.
    const openerRow = and(eq(pointsSeriesRaceEntries.seriesId, first), eq(pointsSeriesRaceEntries.raceId, s.races[0].id));
    await db()
      .update(pointsSeriesRaceEntries)
      .set({ entries: { damaged: true } })
      .where(openerRow);
    await db().delete(pointsSeriesStandings).where(eq(pointsSeriesStandings.seriesId, first));
    forgetRememberedSeries();
    expect(totals(await seriesStandings(env, db(), record(first), null))).toEqual(expected);
    const [repaired] = await db().select().from(pointsSeriesRaceEntries).where(openerRow);
    expect(Array.isArray(repaired?.entries)).toBe(true);

    // A second series of the same races takes their entries from memory and stores its own rows of them, after
    // the answer when it is given somewhere to (a page's waitUntil), in one write.
    const afterAnswer: Promise<unknown>[] = [];
    expect(totals(await seriesStandings(env, db(), record(second), null, (work) => afterAnswer.push(work)))).toEqual(expected);
    expect(afterAnswer).toHaveLength(1);
    await Promise.all(afterAnswer);
    const stored = await db().select().from(pointsSeriesRaceEntries).where(eq(pointsSeriesRaceEntries.seriesId, second));
    expect(stored.map((r) => r.raceId).sort()).toEqual([...s.races.map((r) => r.id)].sort());
    // Read again with nothing changed, nothing is left to store.
    await db().delete(pointsSeriesStandings).where(eq(pointsSeriesStandings.seriesId, second));
    forgetRememberedSeries();
    expect(totals(await seriesStandings(env, db(), record(second), null, (work) => afterAnswer.push(work)))).toEqual(expected);
    expect(afterAnswer).toHaveLength(1);
  });

  it("hides a private series from the public, not from its staff", async () => {
    const s = await season("priv");
    const seriesId = await insertSeries(s, { races: [{ race: s.races[0].id }] }, false);
    await s.a.finishes({ C1: 600 });
    expect((await get(s.host, `/series/${seriesId}`)).status).toBe(404);
    expect((await get(s.host, `/series/${seriesId}/standings.csv`)).status).toBe(404);
    expect(await (await get(s.host, "/series")).text()).not.toContain(seriesId);
    // Another site does not reach it either.
    const other = await season("other");
    const cookie = await signIn(s.host, s.email, PASSWORD);
    expect((await get(other.host, `/series/${seriesId}`, cookie)).status).toBe(404);
    const staff = await get(s.host, `/series/${seriesId}`, cookie);
    expect(staff.status).toBe(200);
    expect(await staff.text()).toContain("This series is private");
    expect(await (await get(s.host, "/series", cookie)).text()).toContain(seriesId);
  });

  it("names a private member race only to those who may see it", async () => {
    const s = await season("hide");
    const seriesId = await insertSeries(s, { races: [{ race: s.races[0].id }, { race: s.races[1].id }] });
    await db().update(races).set({ visibility: "private" }).where(eq(races.id, s.races[1].id));
    await s.b.finishes({ C1: 600 });
    expect((await csvLines(s.host, seriesId))[0]).toEqual(["Category", "Rank", "Name", "Club", "Total", "Opener", "Race 2"]);
    expect(await (await get(s.host, `/series/${seriesId}`)).text()).not.toContain("Final");
    const cookie = await signIn(s.host, s.email, PASSWORD);
    expect((await csvLines(s.host, seriesId, cookie))[0]).toEqual(["Category", "Rank", "Name", "Club", "Total", "Opener", "Final"]);
  });
});

describe("points series CSV", () => {
  it("exports dropped results in brackets, and takes a points file whole or not at all", async () => {
    const s = await season("csv");
    const seriesId = await insertSeries(s, {
      races: [{ race: s.races[0].id }, { race: s.races[1].id }],
      points: { method: "table", table: [10, 8, 6] },
      best_of: 1,
    });
    await s.a.finishes({ C1: 600, C2: 610 });
    await s.b.finishes({ C2: 500, C1: 520 });
    expect((await csvLines(s.host, seriesId)).slice(1).map((r) => r.slice(1))).toEqual([
      // Equal totals, a win and a second each: Bea won the latest race.
      ["1", "Bea Lind", "", "10", "(8)", "10"],
      ["2", "Anna Berg", "", "10", "10", "(8)"],
    ]);
    const cookie = await signIn(s.host, s.email, PASSWORD);
    // Nobody but the series' staff uploads.
    expect((await uploadPointsFile(s.host, seriesId, null, "Category,Name,Points\nOpen,Eve,3\n")).status).toBe(403);

    const category = (await csvLines(s.host, seriesId))[1]![0]!;
    const points = `Category,Name,Club,Points\r\n${category},bea lind,,2.5\r\n${category},"=HYPERLINK(""x"")",,3\r\n`;
    for (let i = 0; i < 2; i++) {
      // The same file twice is the same carried points, never added twice.
      const saved = await uploadPointsFile(s.host, seriesId, cookie, points);
      expect(saved.status).toBe(200);
    }
    const withCarried = await csvLines(s.host, seriesId);
    expect(withCarried[0]).toEqual(["Category", "Rank", "Name", "Club", "Total", "Carried", "Opener", "Final"]);
    expect(withCarried.slice(1).map((r) => r.slice(1))).toEqual([
      ["1", "Bea Lind", "", "12.5", "2.5", "(8)", "10"],
      ["2", "Anna Berg", "", "10", "0", "10", "(8)"],
      // A formula-like name stays text in a spreadsheet.
      ["3", '\'=HYPERLINK(""x"")', "", "3", "3", "", ""],
    ]);

    const stored = (await db().select().from(pointsSeries).where(eq(pointsSeries.id, seriesId)))[0]!.lastPointsFile;
    const bad = await uploadPointsFile(s.host, seriesId, cookie, `Category,Name,Points\n${category},Anna Berg,ten\n${category},,4\n`);
    expect(bad.status).toBe(400);
    const page = await bad.text();
    expect(page).toContain("Row 2: Points must be a number with at most two decimals");
    expect(page).toContain("Row 3: Name is required");
    const garbage = await uploadPointsFile(s.host, seriesId, cookie, '\u0000\u0001 not a csv "');
    expect(garbage.status).toBe(400);
    expect((await uploadPointsFile(s.host, seriesId, cookie, null)).status).toBe(400);
    expect((await db().select().from(pointsSeries).where(eq(pointsSeries.id, seriesId)))[0]!.lastPointsFile).toBe(stored);

    expect((await uploadPointsFile(s.host, seriesId, cookie, null, "clear")).status).toBe(200);
    expect((await csvLines(s.host, seriesId))[0]).not.toContain("Carried");
  });
});
