import { describe, expect, it } from "vitest";
import type { HeatsView } from "../../schema/wire/race-socket";
import { worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";
import { createTimedRace, openRaceSocket, postReads, SECOND } from "./timing-fixtures";

/** A 30-racer sprint whose qualifier is done: bib N finished Nth, so qualified Nth. */
async function sprintWithQualifier(options: { racers?: number } = {}) {
  const t = await createTimedRace({ racers: options.racers ?? 30 });
  const group = await t.room.saveDocument("StartGroup", null, { name: "Open" });
  if (!group.ok) throw new Error("no group");
  for (const id of t.racerIds) expect((await t.room.saveRacer(id, { setupgroup_id: group.value.id })).ok).toBe(true);
  // Finish reads arrive out of bib order; the ranking, not the arrival, decides.
  const reads = t.racerIds.map((_, i) => ({ seq: i + 1, chip: `C${i + 1}`, time: t.startMicros + (100 + i + 1) * SECOND, channel: 2 })).reverse();
  expect((await postReads(t.host, t.race.id, t.credential.token, { reads })).status).toBe(200);
  return { ...t, groupId: group.value.id };
}

const heatsOf = (view: HeatsView) => view.groups[0]!.rounds.flatMap((r) => r.heats);
const heatNamed = (view: HeatsView, canonical: string) => heatsOf(view).find((h) => h.canonicalName === canonical)!;
const bibsOf = (view: HeatsView, canonical: string) => heatNamed(view, canonical).entries.map((e) => e.bib);
/** Each heat won in seat order: the favourite first. */
const favourites = (view: HeatsView, canonical: string) =>
  heatNamed(view, canonical)
    .entries.map((e) => e.bib)
    .join(" ");

describe("sprint heats in the RaceRoom", () => {
  it("refuses to seed heats until the race runs them", async () => {
    const t = await sprintWithQualifier({ racers: 6 });
    expect(await t.room.seedHeats(t.groupId, null)).toEqual({ ok: false, errors: { startgroup: "Turn on sprint heats for this race first" } });
    expect(await t.room.seedHeats(crypto.randomUUID(), null)).toEqual({ ok: false, errors: { startgroup: "StartGroup not found" } });
  });

  it("breaks a qualifier tie by CPL sprint points, and refuses a racer in several categories", async () => {
    const t = await sprintWithQualifier({ racers: 12 });
    await t.room.updateSettings({ is_heats: true });
    // Bibs 2 and 3 tie on time; bib 3 has more sprint points, so it is seeded second.
    const tie = t.startMicros + 102 * SECOND;
    expect((await postReads(t.host, t.race.id, t.credential.token, { reads: [{ seq: 100, chip: "C3", time: tie, channel: 2 }] })).status).toBe(200);
    await t.room.clearTimes(t.racerIds[2]!);
    expect((await postReads(t.host, t.race.id, t.credential.token, { reads: [{ seq: 101, chip: "C3", time: tie, channel: 2 }] })).status).toBe(200);
    await t.room.saveRacer(t.racerIds[2]!, { cpl_sprint_pts: 50 });
    await t.room.saveRacer(t.racerIds[1]!, { cpl_sprint_pts: 10 });
    expect((await t.room.seedHeats(t.groupId, null)).ok).toBe(true);
    const view = await t.room.heatsView();
    // The 12-racer format: SF2 seats Q2, Q3, Q6, Q7, Q10, Q11.
    expect(bibsOf(view, "SF2")).toEqual([3, 2, 6, 7, 10, 11]);

    const other = await sprintWithQualifier({ racers: 6 });
    await other.room.updateSettings({ is_heats: true });
    await other.room.saveRacer(other.racerIds[0]!, { category_dict: { junior: true, senior: true } });
    expect(await other.room.seedHeats(other.groupId, null)).toEqual({ ok: false, errors: { startgroup: "Multiple categories, cannot seed!" } });
  });

  it("seeds the standard format from the qualifier and runs it to the finals, the bracket pushed to spectators", async () => {
    const t = await sprintWithQualifier();
    expect((await t.room.updateSettings({ is_heats: true })).ok).toBe(true);
    const spectator = await openRaceSocket(t.host, t.race.id, { heats: true });
    expect((await spectator.next("heats")).heats.groups).toEqual([]);

    expect(await t.room.seedHeats(t.groupId, null)).toEqual({ ok: true, value: { heats: 9 } });
    // The settings change's own push (an empty bracket) may reach the socket after it opened: skip it.
    let view = (await spectator.next("heats")).heats;
    while (view.groups.length === 0) view = (await spectator.next("heats")).heats;
    expect(view.groups[0]!.formatKey).toBe("30");
    expect(bibsOf(view, "QF1")).toEqual([1, 10, 11, 20, 21, 30]);
    expect(bibsOf(view, "SF1")).toEqual([null, null, null, null, null, null]);
    expect(((await t.room.racer(t.racerIds[9]!))!.data as { qualifier_num: number }).qualifier_num).toBe(10);
    const stored = (await t.room.documents("Heat")) as unknown as { data: { canonical_name: string; racer_ids_list: string[] } }[];
    expect(stored.find((h) => h.data.canonical_name === "QF1")!.data.racer_ids_list).toEqual([0, 9, 10, 19, 20, 29].map((i) => t.racerIds[i]));

    // A semifinal cannot be entered before its racers are known.
    expect(await t.room.saveHeatResult(heatNamed(view, "SF1").id, { order: "1 2", times: {}, statuses: {} })).toEqual({
      ok: false,
      errors: { heat: "This heat's racers are not decided yet" },
    });
    expect(await t.room.saveHeatResult(heatNamed(view, "QF1").id, { order: "1 99", times: {}, statuses: {} })).toEqual({
      ok: false,
      errors: { order: "Bib 99 is not in this heat" },
    });

    for (const qf of ["QF1", "QF2", "QF3", "QF4", "QF5"])
      expect((await t.room.saveHeatResult(heatNamed(view, qf).id, { order: favourites(view, qf), times: {}, statuses: {} })).ok).toBe(true);
    view = await t.room.heatsView();
    expect(bibsOf(view, "SF1")).toEqual([1, 10, 4, 7, 11, 12]);
    // The spectator's bracket followed every heat.
    let pushed: HeatsView;
    do pushed = (await spectator.next("heats")).heats;
    while (pushed.version < view.version);
    expect(bibsOf(pushed, "SF1")).toEqual([1, 10, 4, 7, 11, 12]);

    expect((await t.room.saveHeatResult(heatNamed(view, "SF1").id, { order: "1 4 10 7 11 12", times: {}, statuses: {} })).ok).toBe(true);
    expect((await t.room.saveHeatResult(heatNamed(view, "SF2").id, { order: "2 3 5 6 8 9", times: {}, statuses: {} })).ok).toBe(true);
    // A quarterfinal cannot change under a semifinal that already has a result.
    expect(await t.room.clearHeatResult(heatNamed(view, "QF1").id)).toEqual({
      ok: false,
      errors: { heat: "Semifinal 1 already has a result; clear the later rounds first" },
    });
    view = await t.room.heatsView();
    expect(bibsOf(view, "A-Final")).toEqual([1, 4, 2, 3, 5, 6]);
    expect(bibsOf(view, "B-Final")).toEqual([7, 8, 9, 10, 11, 12]);

    // A photo finish for second in the A-Final; the B-Final is raced first.
    expect((await t.room.saveHeatResult(heatNamed(view, "B-Final").id, { order: "8 7 9 10 11 12", times: {}, statuses: {} })).ok).toBe(true);
    expect((await t.room.saveHeatResult(heatNamed(view, "A-Final").id, { order: "2 1=3 4 5", times: {}, statuses: { [t.racerIds[5]!]: "dns" } })).ok).toBe(
      true,
    );
    view = await t.room.heatsView();
    const ranking = view.groups[0]!.ranking;
    expect(ranking.slice(0, 8).map((r) => [r.bib, r.rank])).toEqual([
      [2, 1],
      [1, 2],
      [3, 2],
      [4, 4],
      [5, 5],
      [6, 6],
      [8, 7],
      [7, 8],
    ]);
    expect(ranking[5]).toMatchObject({ bib: 6, status: "dns", roundReached: 3 });
    expect(ranking.map((r) => r.bib).slice(12)).toEqual(Array.from({ length: 18 }, (_, i) => i + 13));

    // Seeding again is refused once heats have results.
    expect(await t.room.seedHeats(t.groupId, null)).toEqual({
      ok: false,
      errors: { startgroup: "Heats of this start group already have results; clear them before seeding again" },
    });
    spectator.socket.close();
  });

  it("picks lucky losers by heat time when the quarterfinals are timed", async () => {
    const t = await sprintWithQualifier();
    await t.room.updateSettings({ is_heats: true });
    await t.room.seedHeats(t.groupId, null);
    const view = await t.room.heatsView();
    for (const qf of ["QF1", "QF2", "QF3", "QF4", "QF5"]) {
      const heat = heatNamed(view, qf);
      // Places 1-6 in 3:00 to 3:05, except QF5, whose third and fourth (bibs 13 and 18) beat every other third.
      const clock = qf === "QF5" ? ["3:00.0", "3:00.5", "3:01.2", "3:01.4", "3:05.0", "3:06.0"] : ["3:00.0", "3:01.0", "3:02.0", "3:03.0", "3:04.0", "3:05.0"];
      const times = Object.fromEntries(heat.entries.map((e, i) => [e.racerId!, clock[i]!]));
      expect((await t.room.saveHeatResult(heat.id, { order: favourites(view, qf), times, statuses: {} })).ok).toBe(true);
    }
    const after = await t.room.heatsView();
    expect(after.groups[0]!.rounds[0]!.timed).toBe(true);
    // By qualifier rank the lucky losers would be bibs 11 and 12; by heat time they are 13 and 18.
    expect(bibsOf(after, "SF1").slice(4)).toEqual([13, 18]);
    expect(heatNamed(after, "QF5").entries.map((e) => e.advances)).toEqual(["place", "place", "lucky", "lucky", null, null]);
  });
});

describe("public race pages of a sprint", () => {
  it("shows the bracket to spectators, and the start list only once it is public", async () => {
    const t = await sprintWithQualifier({ racers: 12 });
    await t.room.updateSettings({ is_heats: true });
    expect((await t.room.seedHeats(t.groupId, null)).ok).toBe(true);
    // Every result group of a sprint ranks one start group's heats.
    expect(await t.room.saveDocument("ResultGroup", null, { format: t.format.id, name: "Everyone" })).toEqual({
      ok: false,
      errors: { startgroup: "No start group for heats result group" },
    });
    expect((await t.room.saveDocument("ResultGroup", null, { format: t.format.id, name: "Open", startgroup: t.groupId })).ok).toBe(true);
    const heats = await worker.fetch(hostRequest(t.host, `/races/${t.race.id}/heats`));
    expect(heats.status).toBe(200);
    const html = await heats.text();
    expect(html).toContain("12 racers: semifinals and finals");
    expect(html).toContain("Semifinal 1");

    expect((await worker.fetch(hostRequest(t.host, `/races/${t.race.id}/startlist`))).status).toBe(404);
    expect((await t.room.updateSettings({ start_list_visibility: "public" })).ok).toBe(true);
    const startList = await worker.fetch(hostRequest(t.host, `/races/${t.race.id}/startlist`));
    expect(startList.status).toBe(200);
    const list = await startList.text();
    expect(list).toContain("Open · 10 km");
    // Bib order: the racers' assigned starts are all blank, so bib decides.
    expect(list.indexOf("Racer2 Test2")).toBeLessThan(list.indexOf("Racer10 Test10"));
    expect((await worker.fetch(hostRequest(t.host, `/races/${t.race.id}`))).status).toBe(200);
  });
});
