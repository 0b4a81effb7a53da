import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { db } from "./auth-fixtures";
import { createSiteWithRace } from "./fixtures";
import { postReads, SECOND } from "./timing-fixtures";

function ok(result: { ok: boolean; value?: unknown; errors?: Record<string, string> }): { id: string } {
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value as { id: string };
}

describe("a triathlon race", () => {
  it("times each section from one reader's channels, transitions in the total, and shows section columns", async () => {
    const host = `tri-${crypto.randomUUID().slice(0, 8)}.example.org`;
    const { race } = await createSiteWithRace(db(), { hostname: host, siteName: "Tri Test", raceName: "Sprint Triathlon", startInDays: 0 });
    const room = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(race.id));
    await room.open({ id: race.id, clubId: race.clubId, name: race.name, startTime: race.startTime, timezone: race.timezone, siteId: race.siteId });
    expect((await room.updateSettings({ timing_mode: "triathlon", precision: 1, calc_precision: 1 })).ok).toBe(true);
    const reader = ok(await room.saveDocument("TimingDevice", null, { type: "impinj", name: "Mats" }));
    const credential = (await room.issueDeviceCredential(reader.id))!;
    const names = ["Swim exit", "T1 out", "Bike lap", "T2 out", "Finish"];
    const points: string[] = [];
    for (const [i, name] of names.entries()) points.push(ok(await room.saveDocument("TimingPoint", null, { name, devices_list: [{ id: reader.id, channel: i + 1 }] })).id);
    const course = ok(
      await room.saveDocument("Course", null, {
        name: "Sprint",
        bike_lap_count: 2,
        points_list: names.map((name, i) => ({ id: `p${i}`, point: points[i], mode: i % 2 === 0 ? "lap" : "split", name, section: i + 1, min_split: 60 * SECOND })),
      }),
    );
    const format = ok(await room.saveDocument("ResultFormat", null, { name: "Results", is_public: true }));
    await room.saveRacer(null, { first_name: "Tri", last_name: "Athlete", bib: 1, chip: "T1", course: course.id });
    await room.saveRacer(null, { first_name: "Still", last_name: "Biking", bib: 2, chip: "T2", course: course.id });
    const t0 = race.startTime * 1000;
    const read = (seq: number, chip: string, channel: number, s: number) => ({ seq, chip, channel, time: t0 + s * SECOND });
    const reads = [
      read(1, "T1", 1, 600),
      read(2, "T1", 2, 660),
      read(3, "T1", 3, 1560),
      read(4, "T1", 3, 2460),
      read(5, "T1", 4, 2490),
      read(6, "T1", 5, 3690),
      read(7, "T2", 1, 620),
      read(8, "T2", 2, 700),
      read(9, "T2", 3, 1700),
    ];
    expect((await postReads(host, race.id, credential.token, { reads })).status).toBe(200);
    const snapshot = (await room.snapshot(format.id))!;
    expect(snapshot.groups[0]!.columns).toEqual([
      { index: 0, name: "Swim", since: null },
      { index: 1, name: "T1", since: 0 },
      { index: 3, name: "Bike", since: 1 },
      { index: 4, name: "T2", since: 3 },
      { index: 5, name: "Run", since: 4 },
    ]);
    const [first, second] = snapshot.rows.sort((a, b) => (a.bib ?? 0) - (b.bib ?? 0));
    expect(first).toMatchObject({ status: "finished", time: 3690 * SECOND });
    // Section times as the page shows them: each split less the one before.
    const elapsed = (index: number) => first!.splits.find((s) => s.index === index)!.elapsed;
    expect([elapsed(0), elapsed(1) - elapsed(0), elapsed(3) - elapsed(1), elapsed(4) - elapsed(3), elapsed(5) - elapsed(4)]).toEqual([600, 60, 1800, 30, 1200].map((s) => s * SECOND));
    expect(second).toMatchObject({ status: "oncourse", time: null });
    expect(second!.splits.map((s) => s.index)).toEqual([0, 1, 2]);
  });
});
