import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { db } from "./auth-fixtures";
import { createSiteWithRace } from "./fixtures";
import { postReads, SECOND } from "./timing-fixtures";
import { groupViews, stateFromSnapshot } from "../../app/results/results-state";
import { races } from "../../schema/d1";
import type { CourseDoc, StartGroupDoc } from "../../schema/race/documents";
import { stagesBefore } from "../../workers/services/race-stages";

/** A race on its own site starting today, its RaceRoom opened. */
async function openRace(hostPrefix: string, siteName: string, raceName: string) {
  const host = `${hostPrefix}-${crypto.randomUUID().slice(0, 8)}.example.org`;
  const { race } = await createSiteWithRace(db(), { hostname: host, siteName, raceName, startInDays: 0 });
  const room = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(race.id));
  await room.open({ id: race.id, clubId: race.clubId, name: race.name, startTime: race.startTime, timezone: race.timezone, siteId: race.siteId });
  return { host, race, room };
}

function ok(result: { ok: boolean; value?: unknown; errors?: Record<string, string> }): { id: string } {
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value as { id: string };
}

describe("a triathlon race", () => {
  it("times each section from one reader's channels, transitions in the total, and shows section columns", async () => {
    const { host, race, room } = await openRace("tri", "Tri Test", "Sprint Triathlon");
    expect((await room.updateSettings({ timing_mode: "triathlon", precision: 1, calc_precision: 1 })).ok).toBe(true);
    const reader = ok(await room.saveDocument("TimingDevice", null, { type: "impinj", name: "Mats" }));
    const credential = (await room.issueDeviceCredential(reader.id))!;
    const names = ["Swim exit", "T1 out", "Bike lap", "T2 out", "Finish"];
    const points: string[] = [];
    for (const [i, name] of names.entries())
      points.push(ok(await room.saveDocument("TimingPoint", null, { name, devices_list: [{ id: reader.id, channel: i + 1 }] })).id);
    const course = ok(
      await room.saveDocument("Course", null, {
        name: "Sprint",
        bike_lap_count: 2,
        points_list: names.map((name, i) => ({
          id: `p${i}`,
          point: points[i],
          mode: i % 2 === 0 ? "lap" : "split",
          name,
          section: i + 1,
          min_split: 60 * SECOND,
        })),
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
    expect([elapsed(0), elapsed(1) - elapsed(0), elapsed(3) - elapsed(1), elapsed(4) - elapsed(3), elapsed(5) - elapsed(4)]).toEqual(
      [600, 60, 1800, 30, 1200].map((s) => s * SECOND),
    );
    expect(second).toMatchObject({ status: "oncourse", time: null });
    expect(second!.splits.map((s) => s.index)).toEqual([0, 1, 2]);
  });
});

describe("a biathlon sprint", () => {
  it("takes misses from the range-data device, counts penalty loops from the recorder and ranks with a missing loop charged", async () => {
    const { host, race, room } = await openRace("bia", "Biathlon Test", "Sprint 7.5 km");
    // The spec's check: a biathlon has at least 2 laps.
    expect(await room.updateSettings({ timing_mode: "lap", lap_count: 1, biathlon_penalty_type: "lap" })).toEqual({
      ok: false,
      errors: { lap_count: "Biathlon races must have at least 2 laps" },
    });
    const reader = ok(await room.saveDocument("TimingDevice", null, { type: "impinj", name: "Stadium" }));
    const recorder = ok(await room.saveDocument("TimingDevice", null, { type: "impinj", name: "Penalty loop" }));
    const pad = ok(await room.saveDocument("TimingDevice", null, { type: "webkeypad", name: "Range keypad" }));
    const rangeRefused = await room.updateSettings({ lap_count: 3, biathlon_penalty_type: "lap", biathlon_range_device: reader.id });
    expect(rangeRefused).toEqual({ ok: false, errors: { biathlon_range_device: "Range data comes from a keypad, android keypad, summit or generic device" } });
    expect(
      (
        await room.updateSettings({
          timing_mode: "lap",
          lap_count: 3,
          precision: 1,
          calc_precision: 1,
          biathlon_penalty_type: "lap",
          biathlon_penalty_device: recorder.id,
          biathlon_range_device: pad.id,
        })
      ).ok,
    ).toBe(true);
    const [readerToken, padToken, recorderToken] = (await Promise.all(
      [reader, pad, recorder].map(async (d) => (await room.issueDeviceCredential(d.id))!.token),
    )) as [string, string, string];
    const stadium = ok(await room.saveDocument("TimingPoint", null, { name: "Stadium", devices_list: [{ id: reader.id, channel: 1 }] }));
    const rangeIn = ok(await room.saveDocument("TimingPoint", null, { name: "Range in", devices_list: [{ id: reader.id, channel: 2 }] }));
    const rangeOut = ok(await room.saveDocument("TimingPoint", null, { name: "Range out", devices_list: [{ id: reader.id, channel: 3 }] }));
    ok(await room.saveDocument("TimingPoint", null, { name: "Penalty loop", devices_list: [{ id: recorder.id }] }));
    const course = ok(
      await room.saveDocument("Course", null, {
        name: "7.5 km",
        points_list: [
          { id: "ri", point: rangeIn.id, mode: "split", name: "Range in", range_role: "in", min_split: 0 },
          { id: "ro", point: rangeOut.id, mode: "split", name: "Range out", range_role: "out", min_split: 0 },
          { id: "fin", point: stadium.id, mode: "lap", name: "Stadium", min_split: 0 },
        ],
      }),
    );
    const format = ok(await room.saveDocument("ResultFormat", null, { name: "Results", is_public: true }));
    const cara = ok(await room.saveRacer(null, { first_name: "Cara", last_name: "Loop", bib: 3, chip: "B3", course: course.id }));
    await room.saveRacer(null, { first_name: "Dana", last_name: "Short", bib: 4, chip: "B4", course: course.id });

    const t0 = race.startTime * 1000;
    const at = (seq: number, chip: string, channel: number, s: number) => ({ seq, chip, channel, time: t0 + s * SECOND });
    const laps = [
      at(1, "B3", 1, 400),
      at(2, "B3", 2, 410),
      at(3, "B3", 3, 440),
      at(4, "B3", 1, 900),
      at(5, "B3", 2, 910),
      at(6, "B3", 3, 945),
      at(7, "B3", 1, 1300),
    ];
    const danaLaps = [at(8, "B4", 1, 380), at(9, "B4", 1, 880), at(10, "B4", 1, 1250)];
    expect((await postReads(host, race.id, readerToken, { reads: [...laps, ...danaLaps] })).status).toBe(200);
    // Cara skis two loops after shooting 1 (462 is the same loop as 460) and one after shooting 2; Dana one for two misses.
    const loops = [at(1, "B3", 0, 460), at(2, "B3", 0, 462), at(3, "B3", 0, 490), at(4, "B3", 0, 950), at(5, "B4", 0, 470)].map(
      ({ channel: _c, ...read }) => read,
    );
    expect((await postReads(host, race.id, recorderToken, { reads: loops })).status).toBe(200);

    const range = {
      entries: [
        { seq: 1, bib: 3, shooting: 1, misses: 2 },
        { seq: 2, bib: 3, shooting: 2, misses: 1 },
        { seq: 3, chip: "B4", shooting: 1, misses: 2 },
        { seq: 4, bib: 4, shooting: 2, misses: 0 },
        { seq: 5, bib: 99, shooting: 1, misses: 0 },
      ],
    };
    const notRange = await postReads(host, race.id, readerToken, range, "range");
    expect(notRange.status).toBe(403);
    expect(await notRange.json()).toMatchObject({ error: "not_range_device", message: "This device is not the race's range-data device" });
    const sent = await postReads(host, race.id, padToken, range, "range");
    expect(await sent.json()).toEqual({ accepted: 5, duplicates: 0, unknown: [5] });
    // The same batch again changes nothing.
    expect(await (await postReads(host, race.id, padToken, range, "range")).json()).toEqual({ accepted: 0, duplicates: 5, unknown: [] });
    const badMisses = await postReads(host, race.id, padToken, { entries: [{ seq: 9, bib: 3, shooting: 1, misses: 6 }] }, "range");
    expect(badMisses.status).toBe(400);

    const snapshot = (await room.snapshot(format.id))!;
    expect(snapshot.groups[0]!.columns.map((c) => c.name)).toEqual(["Lap 1", "Shooting 1 (P)", "Lap 2", "Shooting 2 (P)", "Lap 3"]);
    const rows = snapshot.rows.sort((a, b) => (a.bib ?? 0) - (b.bib ?? 0));
    expect(rows[0]).toMatchObject({
      status: "finished",
      time: 1300 * SECOND,
      biathlon: { misses: [2, 1], loops: [2, 1], penalty: 0, range: 65 * SECOND, ski: 1235 * SECOND },
    });
    // Dana's 1250 s plus 60 s for the loop she did not ski puts her behind Cara.
    expect(rows[1]).toMatchObject({ status: "finished", time: 1310 * SECOND, biathlon: { misses: [2, 0], loops: [1, 0], penalty: 60 * SECOND, range: null } });
    expect((await room.timedEntity(cara.id))!).toMatchObject({ lap_1_biathlon_dict: { misses: 2 }, lap_2_biathlon_dict: { misses: 1 } });

    // Clearing a racer's times removes the range data too.
    await room.clearTimes(cara.id);
    const cleared = (await room.snapshot(format.id))!.rows.find((r) => r.bib === 3)!;
    expect(cleared).toMatchObject({ status: "notstarted", biathlon: { misses: [null, null] } });
  });
});

describe("a two-run race", () => {
  it("cuts each racer's reads into runs at the start wand, takes a run's own DNF from the keypad and ranks by the sum", async () => {
    const { host, race, room } = await openRace("runs", "Alpine Test", "Giant Slalom");
    expect(
      (
        await room.updateSettings({
          timing_mode: "p2p",
          start_option: "chipstart",
          precision: 2,
          calc_precision: 2,
          multi_run_option: "fixed",
          run_count: 2,
          multi_run_mode: "sum",
        })
      ).ok,
    ).toBe(true);
    const gates = ok(await room.saveDocument("TimingDevice", null, { type: "photocell", name: "Gates" }));
    const token = (await room.issueDeviceCredential(gates.id))!.token;
    const wand = ok(await room.saveDocument("TimingPoint", null, { name: "Start wand", devices_list: [{ id: gates.id, channel: 1 }] }));
    const finish = ok(await room.saveDocument("TimingPoint", null, { name: "Finish", devices_list: [{ id: gates.id, channel: 2 }] }));
    const course = ok(
      await room.saveDocument("Course", null, {
        name: "GS",
        points_list: [
          { id: "s", point: wand.id, mode: "start", name: "Start", min_split: 5 * SECOND },
          { id: "f", point: finish.id, mode: "lap", name: "Finish", min_split: 0 },
        ],
      }),
    );
    const format = ok(await room.saveDocument("ResultFormat", null, { name: "Results", is_public: true }));
    for (const [bib, name] of [
      [1, "Ana"],
      [2, "Ben"],
    ] as const)
      await room.saveRacer(null, { first_name: name, last_name: "Skier", bib, course: course.id });

    const t0 = race.startTime * 1000;
    const read = (seq: number, bib: number, channel: number, s: number) => ({ seq, bib, channel, time: t0 + s * SECOND });
    const reads = [
      read(1, 1, 1, 0),
      read(2, 1, 2, 60.5),
      read(3, 2, 1, 30),
      read(4, 2, 2, 88),
      read(5, 1, 1, 900),
      read(6, 1, 2, 955.25),
      read(7, 2, 1, 930),
      read(8, 2, 2, 985),
    ];
    expect((await postReads(host, race.id, token, { reads })).status).toBe(200);
    let snapshot = (await room.snapshot(format.id))!;
    expect(snapshot.groups[0]).toMatchObject({
      columns: [
        { name: "Run 1", run: 1 },
        { name: "Run 2", run: 2 },
      ],
      timeLabel: "Total",
    });
    let byBib = new Map(snapshot.rows.map((r) => [r.bib, r]));
    // Ana 60.5 + 55.25 = 115.75; Ben 58 + 55 = 113: Ben leads.
    expect(byBib.get(1)).toMatchObject({
      status: "finished",
      time: 115.75 * SECOND,
      runs: [
        { status: "finished", time: 60.5 * SECOND },
        { status: "finished", time: 55.25 * SECOND },
      ],
    });
    expect(byBib.get(2)).toMatchObject({ status: "finished", time: 113 * SECOND, rankKey: [113 * SECOND] });

    // The jury disqualifies Ben in run 2 only: he drops out of the sum, Ana wins.
    const reply = await room.manualEntries("jury", {
      entries: [{ kind: "status", key: "ben-run2-dsq", bib: 2, status: "dsq", time: t0 + 990 * SECOND, run: 2 }],
    });
    expect(reply).toMatchObject({ ok: true, value: { accepted: 1 } });
    snapshot = (await room.snapshot(format.id))!;
    byBib = new Map(snapshot.rows.map((r) => [r.bib, r]));
    expect(byBib.get(2)).toMatchObject({
      status: "dsq",
      statusText: "DSQ",
      time: null,
      rankKey: null,
      runs: [{ status: "finished" }, { status: "dsq", time: null }],
    });
    expect((await room.timedEntity(byBib.get(2)!.racerId))!).toMatchObject({ dsq_2_time: t0 + 990 * SECOND, is_dns_2: false, dsq_time: null });
  });
});

describe("a 3-leg relay", () => {
  it("sends each racer's team, leg and handover read; the page's teams rank on the last leg's finish from the first leg's start", async () => {
    const { host, race, room } = await openRace("relay", "Relay Test", "Club Relay");
    expect(await room.updateSettings({ is_relay: true, relay_member_count: 0 })).toMatchObject({
      ok: false,
      errors: { relay_member_count: expect.any(String) },
    });
    const settled = await room.updateSettings({
      timing_mode: "lap",
      lap_count: 1,
      precision: 1,
      calc_precision: 1,
      fields_list: [{ key: "leg", display: "Leg", type: "number" }],
      is_relay: true,
      relay_member_count: 3,
      team_field: "team",
      team_order: "leg",
    });
    expect(settled.ok).toBe(true);
    const mat = ok(await room.saveDocument("TimingDevice", null, { type: "impinj", name: "Stadium mat" }));
    const token = (await room.issueDeviceCredential(mat.id))!.token;
    const exchange = ok(await room.saveDocument("TimingPoint", null, { name: "Exchange", devices_list: [{ id: mat.id, channel: 1 }] }));
    const finish = ok(await room.saveDocument("TimingPoint", null, { name: "Finish", devices_list: [{ id: mat.id, channel: 2 }] }));
    // Each leg runs the loop: through the exchange zone, then the finish line; leg 1..2 hand over at the exchange.
    const course = ok(
      await room.saveDocument("Course", null, {
        name: "Loop",
        points_list: [
          { id: "x", point: exchange.id, mode: "split", name: "Exchange", min_split: 0 },
          { id: "f", point: finish.id, mode: "lap", name: "Finish", min_split: 0 },
        ],
      }),
    );
    expect(await room.updateSettings({ team_relay_transition_point: "no-such-point" })).toEqual({
      ok: false,
      errors: { team_relay_transition_point: "Choose one of the race's timing points" },
    });
    expect((await room.updateSettings({ team_relay_transition_point: exchange.id })).ok).toBe(true);
    const format = ok(await room.saveDocument("ResultFormat", null, { name: "Results", is_public: true }));
    const racers: [number, string, string, number][] = [
      [11, "Ann", "Nordic", 1],
      [12, "Nia", "Nordic", 2],
      [13, "Ned", "Nordic", 3],
      [21, "Alp", "Alpine", 1],
      [22, "Ari", "Alpine", 2],
      [23, "Abe", "Alpine", 3],
    ];
    for (const [bib, name, team, leg] of racers)
      ok(await room.saveRacer(null, { first_name: name, last_name: team, bib, team, course: course.id, custom: { leg } }));

    const t0 = race.startTime * 1000;
    const read = (seq: number, bib: number, channel: number, s: number) => ({ seq, bib, channel, time: t0 + s * SECOND });
    // Nordic hands over at 600 and 1230; Ned reaches the exchange at 1800 and the line at 1815.
    // Alpine hands over at 590 and 1250; Abe is still out.
    const reads = [read(1, 11, 1, 600), read(2, 12, 1, 1230), read(3, 13, 1, 1800), read(4, 13, 2, 1815), read(5, 21, 1, 590), read(6, 22, 1, 1250)];
    expect((await postReads(host, race.id, token, { reads })).status).toBe(200);

    const snapshot = (await room.snapshot(format.id))!;
    expect(snapshot.relay).toEqual({ memberCount: 3, lapTimeDisplay: "racer_at_lap_finish" });
    const byBib = new Map(snapshot.rows.map((r) => [r.bib, r]));
    expect(byBib.get(12)).toMatchObject({ team: "Nordic", leg: 2, handover: t0 + 1230 * SECOND, status: "oncourse" });
    expect(byBib.get(13)).toMatchObject({ leg: 3, handover: t0 + 1800 * SECOND, status: "finished", finish: t0 + 1815 * SECOND });

    const [view] = groupViews(stateFromSnapshot(snapshot), "");
    expect(view!.teams!.map((t) => [t.team, t.rank, t.status, t.time, t.legs.map((leg) => leg.time)])).toEqual([
      ["Nordic", 1, "finished", 1815 * SECOND, [600 * SECOND, 630 * SECOND, 585 * SECOND]],
      ["Alpine", null, "oncourse", null, [590 * SECOND, 660 * SECOND, null]],
    ]);
    // A search by bib finds that racer's team.
    expect(groupViews(stateFromSnapshot(snapshot), "22")[0]!.teams!.map((t) => t.team)).toEqual(["Alpine"]);
  });
});

describe("a two-stage race", () => {
  /** A point-to-point stage with one finish mat; returns a function posting finishes (bib, seconds after the gun). */
  async function stageRace(
    room: Awaited<ReturnType<typeof openRace>>["room"],
    host: string,
    raceId: string,
    startMs: number,
    names: [number, string, string | null][],
  ) {
    expect((await room.updateSettings({ timing_mode: "p2p", precision: 1, calc_precision: 1 })).ok).toBe(true);
    const mat = ok(await room.saveDocument("TimingDevice", null, { type: "impinj", name: "Finish mat" }));
    const token = (await room.issueDeviceCredential(mat.id))!.token;
    const point = ok(await room.saveDocument("TimingPoint", null, { name: "Finish", devices_list: [{ id: mat.id }] }));
    const course = ok(
      await room.saveDocument("Course", null, { name: "Stage", points_list: [{ id: "f", point: point.id, mode: "lap", name: "Finish", min_split: 0 }] }),
    );
    const format = ok(await room.saveDocument("ResultFormat", null, { name: "Results", is_public: true }));
    for (const [bib, first, person] of names) ok(await room.saveRacer(null, { first_name: first, last_name: "Stage", bib, person, course: course.id }));
    const finish = async (finishes: [number, number][]) =>
      expect(
        (await postReads(host, raceId, token, { reads: finishes.map(([bib, s], i) => ({ seq: i + 1, bib, time: startMs * 1000 + s * SECOND })) })).status,
      ).toBe(200);
    return { format, finish };
  }

  it("counts the stages before, brings in stage 1's times by person or bib, and ranks All Stages on the total", async () => {
    const one = await openRace("stage", "Tour Test", "Stage 1");
    const stage1 = await stageRace(one.room, one.host, one.race.id, one.race.startTime, [
      [1, "Ana", "person-ana"],
      [2, "Ben", null],
    ]);
    await stage1.finish([
      [1, 3600],
      [2, 3500],
    ]);
    // Stage 2 is the same club's next race.
    const race2 = { ...one.race, id: crypto.randomUUID(), name: "Stage 2", startTime: one.race.startTime + 86_400_000 };
    await db()
      .insert(races)
      .values({ ...race2, fieldMtimes: {} });
    const room2 = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(race2.id));
    await room2.open({ id: race2.id, clubId: race2.clubId, name: race2.name, startTime: race2.startTime, timezone: race2.timezone, siteId: race2.siteId });
    const stage2 = await stageRace(room2, one.host, race2.id, race2.startTime, [
      [11, "Ana", "person-ana"],
      [2, "Ben", null],
      [3, "Cy", null],
    ]);
    expect(await room2.importStageTimes(await one.room.stageResults())).toEqual({ ok: false, errors: { prev_race: "Choose the stage before this one first" } });

    const counted = await stagesBefore(env, db(), race2, one.race.id);
    expect(counted).toEqual({ ok: true, count: 1 });
    expect((await room2.updateSettings({ prev_race: one.race.id, prev_stages_count: 1 })).ok).toBe(true);
    // Stage 1 naming stage 2 as its stage before would loop.
    expect(await stagesBefore(env, db(), one.race, race2.id)).toEqual({ ok: false, error: "A stage cannot follow itself or a later stage" });
    const other = await openRace("other", "Other Club", "Elsewhere");
    expect(await stagesBefore(env, db(), race2, other.race.id)).toEqual({ ok: false, error: "Choose a race of this club" });

    // Ana is matched by person (her bib changed to 11), Ben by bib; Cy was not in stage 1.
    expect(await room2.importStageTimes(await one.room.stageResults())).toEqual({ ok: true, value: { matched: 2, unmatched: 1 } });
    await stage2.finish([
      [11, 3400],
      [2, 3550],
      [3, 3000],
    ]);
    const snapshot = (await room2.snapshot(stage2.format.id))!;
    expect(snapshot.stage).toEqual({ number: 2 });
    const state = stateFromSnapshot(snapshot);
    // Stage 2 Only: Cy 50:00, Ana 56:40, Ben 59:10.
    expect(groupViews(state, "")[0]!.ranked.map((r) => [r.row.bib, r.rank, r.shownTime])).toEqual([
      [3, 1, 3000 * SECOND],
      [11, 2, 3400 * SECOND],
      [2, 3, 3550 * SECOND],
    ]);
    // All Stages: Ana 1:00:00 + 56:40 = 1:56:40, Ben 58:20 + 59:10 = 1:57:30; Cy has no stage 1, unranked.
    expect(groupViews(state, "", "multistage")[0]!.ranked.map((r) => [r.row.bib, r.rank, r.shownTime, r.diff])).toEqual([
      [11, 1, 7000 * SECOND, 0],
      [2, 2, 7050 * SECOND, 50 * SECOND],
      [3, null, null, null],
    ]);
  });
});

describe("an enduro", () => {
  it("sums two timed stages around an untimed transfer and shows each stage with the total after it", async () => {
    const { host, race, room } = await openRace("enduro", "Enduro Test", "Mountain Enduro");
    expect((await room.updateSettings({ timing_mode: "enduro", precision: 1, calc_precision: 1, enduro_column_option: "all" })).ok).toBe(true);
    const reader = ok(await room.saveDocument("TimingDevice", null, { type: "impinj", name: "Stage boxes" }));
    const token = (await room.issueDeviceCredential(reader.id))!.token;
    const names = ["S1 start", "S1 finish", "S2 start", "S2 finish"];
    const points: string[] = [];
    for (const [i, name] of names.entries())
      points.push(ok(await room.saveDocument("TimingPoint", null, { name, devices_list: [{ id: reader.id, channel: i + 1 }] })).id);
    const course = ok(
      await room.saveDocument("Course", null, {
        name: "Enduro",
        points_list: names.map((name, i) => ({
          id: `p${i}`,
          point: points[i],
          mode: i % 2 === 0 ? "start" : "split",
          name,
          min_split: (i % 2 === 0 ? 0 : 60) * SECOND,
        })),
      }),
    );
    const format = ok(await room.saveDocument("ResultFormat", null, { name: "Results", is_public: true }));
    await room.saveRacer(null, { first_name: "Ana", last_name: "Rider", bib: 1, chip: "E1", course: course.id });
    await room.saveRacer(null, { first_name: "Ben", last_name: "Rider", bib: 2, chip: "E2", course: course.id });
    const t0 = race.startTime * 1000;
    const read = (seq: number, chip: string, channel: number, s: number) => ({ seq, chip, channel, time: t0 + s * SECOND });
    // Ana: 5:00 and 3:58 with an 18-minute transfer; Ben: a finish 20 s after the start is refused, then 4:50; stage 2 still out.
    const reads = [
      read(1, "E1", 1, 100),
      read(2, "E1", 2, 400),
      read(3, "E1", 3, 1500),
      read(4, "E1", 4, 1738),
      read(5, "E2", 1, 130),
      read(6, "E2", 2, 150),
      read(7, "E2", 2, 420),
      read(8, "E2", 3, 1400),
    ];
    expect((await postReads(host, race.id, token, { reads })).status).toBe(200);
    const snapshot = (await room.snapshot(format.id))!;
    expect(snapshot.groups[0]!.columns.map((c) => c.name)).toEqual(["Stage #1", "After Stage #1", "Stage #2", "After Stage #2"]);
    const byBib = new Map(snapshot.rows.map((r) => [r.bib, r]));
    expect(byBib.get(1)).toMatchObject({
      status: "finished",
      time: 538 * SECOND,
      segments: [
        { time: 300 * SECOND, runs: 1 },
        { time: 238 * SECOND, runs: 1 },
      ],
    });
    expect(byBib.get(2)).toMatchObject({
      status: "oncourse",
      time: null,
      segments: [
        { time: 290 * SECOND, runs: 1 },
        { time: null, runs: 0 },
      ],
    });
  });
});

describe("a time limit race's display options", () => {
  it("shows laps up to the maximum with places at each line, counts laps behind, and offers pace per km", async () => {
    const { host, race, room } = await openRace("limit", "Limit Test", "One Hour Race");
    expect(
      (
        await room.updateSettings({
          timing_mode: "timelimit",
          precision: 1,
          calc_precision: 1,
          column_option: "major",
          rank_display: "splits",
          display_diffs: "lap-count",
        })
      ).ok,
    ).toBe(true);
    const mat = ok(await room.saveDocument("TimingDevice", null, { type: "impinj", name: "Line" }));
    const token = (await room.issueDeviceCredential(mat.id))!.token;
    const line = ok(await room.saveDocument("TimingPoint", null, { name: "Line", devices_list: [{ id: mat.id }] }));
    const course = ok(
      await room.saveDocument("Course", null, {
        name: "Loop",
        max_lap_count: 3,
        lap_distance_km: 2.5,
        points_list: [{ id: "l", point: line.id, mode: "lap", name: "Lap", min_split: 30 * SECOND }],
      }),
    );
    const format = ok(await room.saveDocument("ResultFormat", null, { name: "Results", is_public: true }));
    await room.saveRacer(null, { first_name: "Ana", last_name: "Loop", bib: 1, course: course.id });
    await room.saveRacer(null, { first_name: "Ben", last_name: "Loop", bib: 2, course: course.id });
    const t0 = race.startTime * 1000;
    const read = (seq: number, bib: number, s: number) => ({ seq, bib, time: t0 + s * SECOND });
    // Ana: three laps of 10:00; Ben: laps at 9:50 and 20:30, then stops.
    expect(
      (await postReads(host, race.id, token, { reads: [read(1, 1, 600), read(2, 1, 1200), read(3, 1, 1800), read(4, 2, 590), read(5, 2, 1230)] })).status,
    ).toBe(200);
    let snapshot = (await room.snapshot(format.id))!;
    expect(snapshot.groups[0]).toMatchObject({
      columns: [
        { name: "Lap 1", since: null },
        { name: "Lap 2", since: 0 },
        { name: "Lap 3", since: 1 },
      ],
      splitRanks: true,
      lapsBehind: true,
    });
    const [view] = groupViews(stateFromSnapshot(snapshot), "");
    expect(view!.ranked.map((r) => [r.row.bib, r.rank, r.row.laps])).toEqual([
      [1, 1, 3],
      [2, 2, 2],
    ]);
    expect(view!.leaderLaps).toBe(3);
    // Ben led at the first line, Ana at the second.
    expect([...view!.standings!.get(0)!.ranks]).toEqual([
      [view!.ranked[1]!.row.racerId, 1],
      [view!.ranked[0]!.row.racerId, 2],
    ]);

    expect((await room.updateSettings({ column_option: "pace" })).ok).toBe(true);
    snapshot = (await room.snapshot(format.id))!;
    expect(snapshot.groups[0]).toMatchObject({ columns: [], pace: { courseKm: null, lapKm: 2.5 } });
  });
});

describe("a free-order segment race", () => {
  it("resyncs segment courses and start groups on save, ranks course groups in any or the listed order, and refuses broken setups", async () => {
    const { host, race, room } = await openRace("free", "Free Order Test", "Bike Park Segments");
    const reader = ok(await room.saveDocument("TimingDevice", null, { type: "impinj", name: "Segment boxes" }));
    const token = (await room.issueDeviceCredential(reader.id))!.token;
    const names = ["A start", "A finish", "B start", "B finish"];
    const points: string[] = [];
    for (const [i, name] of names.entries())
      points.push(ok(await room.saveDocument("TimingPoint", null, { name, devices_list: [{ id: reader.id, channel: i + 1 }] })).id);
    const oldCourse = ok(await room.saveDocument("Course", null, { name: "Old course" }));
    const segments = [
      { id: "seg-a", name: "Segment #1", start_point: points[0], finish_point: points[1], min_time: 30 * SECOND },
      { id: "seg-b", name: "Segment #2", start_point: points[2], finish_point: points[3], min_time: 30 * SECOND },
    ];

    // Meta start groups belong to free-order races only (the spec's message); nothing is written.
    expect(await room.updateSettings({ meta_startgroups_list: [{ id: "w1", name: "Wave 1" }] })).toEqual({
      ok: false,
      errors: { meta_startgroups_list: "Meta start groups requested on a non-free-segment race" },
    });
    expect(await room.updateSettings({ timing_mode: "enduro", is_free_segment: true, segments_list: [{ ...segments[0], finish_point: "gone" }] })).toEqual({
      ok: false,
      errors: { segments_list: "Choose one of the race's timing points" },
    });

    // Turning free-order on with two segments: the default course group, one course per segment, the old course gone.
    const saved = await room.updateSettings({ timing_mode: "enduro", precision: 1, calc_precision: 1, is_free_segment: true, segments_list: segments });
    expect(saved.ok).toBe(true);
    const settings = (await room.settings())!;
    expect(settings.meta_courses_list.map((g) => [g.name, g.segment_order_type, g.segment_order_list])).toEqual([["All Racers", "any", []]]);
    const courses = (await room.documents("Course")).map((c) => ({ id: c.id, data: c.data as CourseDoc }));
    expect(courses.map((c) => [c.data.name, c.data.segment_id, c.data.points_list.map((p) => p.point)])).toEqual([
      ["Segment #1", "seg-a", [points[0], points[1]]],
      ["Segment #2", "seg-b", [points[2], points[3]]],
    ]);
    expect(courses.some((c) => c.id === oldCourse.id)).toBe(false);
    expect(
      (await room.documents("StartGroup")).map((g) => [g.data.name, (g.data as StartGroupDoc).segment_id, (g.data as StartGroupDoc).start_option]),
    ).toEqual([
      ["Segment #1", "seg-a", "chipstart"],
      ["Segment #2", "seg-b", "chipstart"],
    ]);

    // A course group naming a segment the race does not have is refused.
    const allRacers = settings.meta_courses_list[0]!;
    expect(await room.updateSettings({ meta_courses_list: [allRacers, { id: "sprint", name: "Sprint", segment_order_list: ["seg-x"] }] })).toEqual({
      ok: false,
      errors: { meta_courses_list: "That segment does not exist" },
    });
    // Two groups: Open rides both segments in any order; Junior (category U16) rides them in the segment list's order, A then B.
    const junior = {
      id: "junior",
      name: "Junior",
      segment_order_type: "fixed",
      segment_order_list: ["seg-a", "seg-b"],
      criteria: [{ field: "category", op: "eq", value: "U16" }],
    };
    expect(
      (await room.updateSettings({ meta_courses_list: [{ ...allRacers, name: "Open" }, junior], meta_startgroups_list: [{ id: "w1", name: "Wave 1" }] })).ok,
    ).toBe(true);
    expect((await room.documents("StartGroup")).map((g) => g.data.name)).toEqual(["Wave 1 – Segment #1", "Wave 1 – Segment #2"]);
    expect(await room.saveRacer(null, { first_name: "No", last_name: "Wave", bib: 9, metastart_id: "w9" })).toEqual({
      ok: false,
      errors: { metastart_id: "StartGroup not found" },
    });
    // A free-order racer rides a course group, not a segment's own course.
    expect(await room.saveRacer(null, { first_name: "Seg", last_name: "Course", bib: 9, course: courses[0]!.id })).toEqual({
      ok: false,
      errors: { course: "No such course" },
    });

    const format = ok(await room.saveDocument("ResultFormat", null, { name: "Results", is_public: true, group_type: "course" }));
    await room.saveRacer(null, { first_name: "Ana", last_name: "Open", bib: 1, chip: "F1", course: allRacers.id, metastart_id: "w1" });
    await room.saveRacer(null, { first_name: "Jo", last_name: "Junior", bib: 2, chip: "F2", category: "U16", metastart_id: "w1" });
    const t0 = race.startTime * 1000;
    const read = (seq: number, chip: string, channel: number, s: number) => ({ seq, chip, channel, time: t0 + s * SECOND });
    const reads = [
      // Ana rides B (2:00) before A (3:00): any order, 5:00.
      read(1, "F1", 3, 100),
      read(2, "F1", 4, 220),
      read(3, "F1", 1, 400),
      read(4, "F1", 2, 580),
      // Jo rides B (2:30) before A (2:40), then B again (2:20): in the listed order only the later B counts, 5:00.
      read(5, "F2", 3, 100),
      read(6, "F2", 4, 250),
      read(7, "F2", 1, 300),
      read(8, "F2", 2, 460),
      read(9, "F2", 3, 600),
      read(10, "F2", 4, 740),
    ];
    expect((await postReads(host, race.id, token, { reads })).status).toBe(200);
    const snapshot = (await room.snapshot(format.id))!;
    expect(snapshot.groups.map((g) => [g.name, g.columns.map((c) => c.name)])).toEqual([
      ["Open", ["Segment #1", "Segment #2"]],
      ["Junior", ["Segment #1", "Segment #2"]],
    ]);
    const byBib = new Map(snapshot.rows.map((r) => [r.bib, r]));
    expect(byBib.get(1)).toMatchObject({
      status: "finished",
      time: 300 * SECOND,
      course: "Open",
      segments: [
        { time: 180 * SECOND, runs: 1 },
        { time: 120 * SECOND, runs: 1 },
      ],
    });
    expect(byBib.get(2)).toMatchObject({
      status: "finished",
      time: 300 * SECOND,
      course: "Junior",
      segments: [
        { time: 160 * SECOND, runs: 1 },
        { time: 140 * SECOND, runs: 1 },
      ],
    });
    // The racer's timed entity names the course group their category placed them in.
    expect((await room.timedEntity(byBib.get(2)!.racerId))!).toMatchObject({ course: "junior" });

    // Removing a segment deletes its course and start group.
    expect((await room.updateSettings({ segments_list: [segments[1]], meta_courses_list: [{ ...allRacers, name: "Open" }] })).ok).toBe(true);
    expect((await room.documents("Course")).map((c) => (c.data as CourseDoc).segment_id)).toEqual(["seg-b"]);
    expect((await room.documents("StartGroup")).map((g) => g.data.name)).toEqual(["Wave 1 – Segment #2"]);
  });
});
