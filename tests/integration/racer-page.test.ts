/**
 * The racer page (issue 23, decision 0035): the RaceRoom's racer detail (places, gaps, lap times, pace at
 * each point), the page under the results page's rules (404 for a private race, a racer of another race, a
 * racer in no format the caller may see, garbage ids), and the detail after the room was evicted between
 * crossings.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { races } from "../../schema/d1";
import { db, worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";
import { createTimedRace, evictRoom, postReads, SECOND } from "./timing-fixtures";

const finishRead = (seq: number, chip: string, seconds: number, startMicros: number) => ({ seq, chip, time: startMicros + seconds * SECOND, channel: 2 });

/** Two laps of 5 km; racer 1 leads lap 1, racer 2 passes them on lap 2, racer 3 has done one lap. */
async function twoLapRace() {
  const t = await createTimedRace({ racers: 3, mode: "lap", lapCount: 2 });
  expect((await t.room.saveDocument("Course", t.course.id, { lap_distance_km: 5 })).ok).toBe(true);
  const reads = [
    finishRead(1, "C1", 600, t.startMicros),
    finishRead(2, "C2", 610, t.startMicros),
    finishRead(3, "C3", 620, t.startMicros),
    finishRead(4, "C2", 1200, t.startMicros),
    finishRead(5, "C1", 1250, t.startMicros),
  ];
  expect((await postReads(t.host, t.race.id, t.credential.token, { reads })).status).toBe(200);
  return t;
}

const page = (host: string, path: string) => worker.fetch(hostRequest(host, path));

describe("racer detail", () => {
  it("gives each lap its time, lap time, place among the group, gap to the leader there and pace", async () => {
    const t = await twoLapRace();
    const detail = (await t.room.racerDetail(t.racerIds[1]!, [t.format.id]))!;
    expect(detail.racer).toMatchObject({ bib: 2, name: "Racer2 Test2", status: "finished", time: 1200 * SECOND, laps: 2 });
    expect(detail.finish).toEqual({ rank: 1, ranked: 2, behind: 0 });
    expect(
      detail.points.map((p) => [p.name, p.elapsed / SECOND, p.lapTime! / SECOND, p.rank, p.passed, p.behind / SECOND, p.distanceKm, p.pace! / SECOND]),
    ).toEqual([
      ["Finish 1", 610, 610, 2, 3, 10, 5, 122],
      ["Finish 2", 1200, 590, 1, 2, 0, 10, 118],
    ]);
    const first = (await t.room.racerDetail(t.racerIds[0]!, [t.format.id]))!;
    expect(first.finish).toEqual({ rank: 2, ranked: 2, behind: 50 * SECOND });
    expect(first.points.map((p) => [p.rank, p.behind / SECOND])).toEqual([
      [1, 0],
      [2, 50],
    ]);
    expect(await t.room.racerDetail("no-such-racer", [t.format.id])).toBeNull();
    expect(await t.room.racerDetail(t.racerIds[0]!, ["no-such-format"])).toBeNull();
  });

  it("gives the same detail after the room was evicted between crossings", async () => {
    const t = await createTimedRace({ racers: 2, mode: "lap", lapCount: 2 });
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(1, "C1", 600, t.startMicros), finishRead(2, "C2", 605, t.startMicros)] });
    await evictRoom(t.room);
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(3, "C2", 1190, t.startMicros)] });
    await evictRoom(t.room);
    const detail = (await t.room.racerDetail(t.racerIds[1]!, [t.format.id]))!;
    expect(detail.points.map((p) => [p.elapsed / SECOND, p.lapTime! / SECOND, p.rank, p.passed, p.behind / SECOND])).toEqual([
      [605, 605, 2, 2, 5],
      [1190, 585, 1, 1, 0],
    ]);
    expect(detail.racer.status).toBe("finished");
    // The page reads the same after yet another eviction.
    await evictRoom(t.room);
    const html = await (await page(t.host, `/races/${t.race.id}/racers/${t.racerIds[1]}`)).text();
    // Racer 1 has not finished lap 2: racer 2 is the only one ranked.
    expect(html).toContain('data-fact="Rank">1 of 1 in All Racers</dd>');
    expect(html).toContain('<tr data-point="Finish 1"><th scope="row">Finish 1</th><td class="num">10:05.0</td>');
  });
});

describe("the racer page", () => {
  it("shows the racer's header, splits and position chart, and is linked from the results page", async () => {
    const t = await twoLapRace();
    const results = await (await page(t.host, `/races/${t.race.id}`)).text();
    expect(results).toContain(`href="/races/${t.race.id}/racers/${t.racerIds[1]}?format=${t.format.id}"`);

    const response = await page(t.host, `/races/${t.race.id}/racers/${t.racerIds[1]}?format=${t.format.id}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<h1>2 Racer2 Test2</h1>");
    expect(html).toContain('data-fact="Rank">1 of 2 in All Racers</dd>');
    expect(html).toContain('data-fact="Time">20:00.0</dd>');
    expect(html).toMatch(
      /<th scope="row">Finish 1 \(5 km\)<\/th><td class="num">10:10.0<\/td><td class="num">10:10.0<\/td><td class="num">10:10.0<\/td><td class="num">2 of 3<\/td><td class="num">\+10.0<\/td><td class="num">2:02 \/km<\/td>/,
    );
    expect(html).toMatch(
      /Finish 2 \(10 km\)<\/th><td class="num">20:00.0<\/td><td class="num">9:50.0<\/td><td class="num">9:50.0<\/td><td class="num">1 of 2<\/td><td class="num">Leader<\/td><td class="num">1:58 \/km<\/td>/,
    );
    expect(html).toContain("<title");
    expect(html).toContain("Position of Racer2 Test2 by lap: Finish 1: 2, Finish 2: 1");
    expect(html).toContain('<polyline points="36,72 308,12"');

    const oneLap = await (await page(t.host, `/races/${t.race.id}/racers/${t.racerIds[2]}`)).text();
    expect(oneLap).toContain('data-fact="Status">On course</dd>');
    expect(oneLap).toContain("3 of 3");
  });

  it("says plainly when a racer has no splits, did not start or did not finish", async () => {
    const t = await createTimedRace({ racers: 3 });
    await t.room.saveRacer(t.racerIds[1]!, { dns: true });
    await t.room.saveRacer(t.racerIds[2]!, { dnf_time: t.startMicros + 100 * SECOND });
    const text = async (racerId: string) => (await page(t.host, `/races/${t.race.id}/racers/${racerId}`)).text();
    expect(await text(t.racerIds[0]!)).toContain("Not started yet. Splits appear here as the racer passes the timing points.");
    expect(await text(t.racerIds[1]!)).toContain("Did not start.");
    expect(await text(t.racerIds[2]!)).toContain("Did not finish. No timing point was passed.");
  });

  it("is 404 for a racer of another race, garbage ids, a format the caller may not see, and a private race", async () => {
    const t = await twoLapRace();
    const other = await createTimedRace({ racers: 1 });
    const status = async (path: string) => (await page(t.host, path)).status;
    expect(await status(`/races/${t.race.id}/racers/${other.racerIds[0]}`)).toBe(404);
    expect(await status(`/races/${t.race.id}/racers/${encodeURIComponent("x'; DROP TABLE racers;--")}`)).toBe(404);
    expect(await status(`/races/${t.race.id}/racers/${"a".repeat(65)}`)).toBe(404);
    expect(await status(`/races/${t.race.id}/racers/${t.racerIds[0]}?format=%3Cscript%3E`)).toBe(404);
    expect(await status(`/races/not-a-race/racers/${t.racerIds[0]}`)).toBe(404);

    // A system format (announcer) is for race staff: its racers have no public page by it, nor without a public format.
    const announcer = await t.room.saveDocument("ResultFormat", null, { name: "Announcer", is_public: false, is_announcer: true });
    expect(announcer.ok).toBe(true);
    const announcerId = (announcer as { value: { id: string } }).value.id;
    expect(await status(`/races/${t.race.id}/racers/${t.racerIds[0]}?format=${announcerId}`)).toBe(404);
    expect(await status(`/races/${t.race.id}/racers/${t.racerIds[0]}`)).toBe(200);
    expect((await t.room.saveDocument("ResultFormat", t.format.id, { is_public: false })).ok).toBe(true);
    expect(await status(`/races/${t.race.id}/racers/${t.racerIds[0]}`)).toBe(404);
    expect((await t.room.saveDocument("ResultFormat", t.format.id, { is_public: true })).ok).toBe(true);

    await db().update(races).set({ visibility: "private" }).where(eq(races.id, t.race.id));
    expect(await status(`/races/${t.race.id}/racers/${t.racerIds[0]}`)).toBe(404);
  });
});
