// Category result groups (issue 23, decision 0034): made through the result format page's service, ranked
// live by the RaceRoom like any result group, kept across an eviction, never duplicated, refused for heats.
import { describe, expect, it } from "vitest";
import { compareKeys, rankSorted } from "../../core/timing/rank";
import { createCategoryGroups, type CategoryGroupsForm } from "../../app/category-groups.server";
import { raceDayOf } from "../../schema/race/settings";
import type { FormatSnapshot } from "../../schema/wire/race-socket";
import { createTimedRace, evictRoom, postReads, SECOND } from "./timing-fixtures";

const finishRead = (seq: number, chip: string, seconds: number, startMicros: number) => ({ seq, chip, time: startMicros + seconds * SECOND, channel: 2 });

const AGE_CLASSES: CategoryGroupsForm = {
  source: "age",
  field: null,
  birth_field: "dob",
  age_classes: "U18, 18-34, 35+",
  age_basis: "race_day",
  by_sex: true,
};

/** A birth date `years` before the race's day, moved by `days`. */
function bornBefore(raceDay: string, years: number, days = 0): string {
  const date = new Date(`${Number(raceDay.slice(0, 4)) - years}${raceDay.slice(4)}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Each group's bibs in rank order with their places, as a results page ranks them. */
function ranked(snapshot: FormatSnapshot): Record<string, [number | null, number | null][]> {
  return Object.fromEntries(
    snapshot.groups.map((g) => {
      const rows = snapshot.rows.filter((r) => r.groups.includes(g.id)).sort((a, b) => compareKeys(a.key, b.key));
      return [g.name, rankSorted(rows, g.sameTimeThreshold).map((r) => [(r.result as (typeof rows)[number]).bib, r.rank])];
    }),
  );
}

describe("category result groups", () => {
  it("creates age classes by sex through the page's service; they rank live, survive an eviction, and creating again replaces them", async () => {
    const t = await createTimedRace({ racers: 5 });
    const raceDay = raceDayOf(t.race.startTime, t.race.timezone);
    // Bib 1 turns 18 on race day; bib 2 a day later; bib 3 has no birth date; bibs 4 and 5 are masters.
    const people = [
      { dob: bornBefore(raceDay, 18), sex: "F" },
      { dob: bornBefore(raceDay, 18, 1), sex: "F" },
      { dob: null, sex: "M" },
      { dob: bornBefore(raceDay, 40), sex: "M" },
      { dob: bornBefore(raceDay, 36), sex: "M" },
    ];
    for (const [i, person] of people.entries()) expect((await t.room.saveRacer(t.racerIds[i]!, person)).ok).toBe(true);

    const created = await createCategoryGroups({ room: t.room, author: { userId: null } }, t.format.id, AGE_CLASSES, []);
    expect(created).toEqual({ ok: true, created: 6, replaced: 0 });
    const reads = [620, 600, 580, 650, 640].map((seconds, i) => finishRead(i + 1, `C${i + 1}`, seconds, t.startMicros));
    expect((await postReads(t.host, t.race.id, t.credential.token, { reads })).status).toBe(200);
    await t.room.flushLive();

    const expected = {
      "U18 Women": [[2, 1]],
      "U18 Men": [],
      "Women 18–34": [[1, 1]],
      "Men 18–34": [],
      "Women 35+": [],
      "Men 35+": [
        [5, 1],
        [4, 2],
      ],
    };
    const before = (await t.room.snapshot(t.format.id))!;
    expect(ranked(before)).toEqual(expected);
    // Bib 3, with no birth date, is in no age class.
    expect(before.rows.find((r) => r.bib === 3)?.groups ?? []).toEqual([]);

    // The room forgets everything in memory; the groups are stored setup and rank the same.
    await evictRoom(t.room);
    expect(ranked((await t.room.snapshot(t.format.id))!)).toEqual(expected);

    // Creating again replaces the six by name (same ids) and adds none; a racer's birthday edit moves them live.
    const ids = (await t.room.documents("ResultGroup")).map((g) => g.id);
    expect(await createCategoryGroups({ room: t.room, author: { userId: null } }, t.format.id, AGE_CLASSES, [])).toEqual({ ok: true, created: 0, replaced: 6 });
    expect((await t.room.documents("ResultGroup")).map((g) => g.id)).toEqual(ids);
    expect((await t.room.saveRacer(t.racerIds[1]!, { dob: bornBefore(raceDay, 20) })).ok).toBe(true);
    await t.room.flushLive();
    const after = ranked((await t.room.snapshot(t.format.id))!);
    expect(after["U18 Women"]).toEqual([]);
    expect(after["Women 18–34"]).toEqual([
      [2, 1],
      [1, 2],
    ]);
  });

  it("creates groups from a racer field's values, and refuses a heats race in words", async () => {
    const t = await createTimedRace({ racers: 3 });
    for (const [i, club] of ["Nordic", "Alpine", "nordic"].entries()) expect((await t.room.saveRacer(t.racerIds[i]!, { club })).ok).toBe(true);
    const byClub: CategoryGroupsForm = { ...AGE_CLASSES, source: "field", field: "club", by_sex: false };
    expect(await createCategoryGroups({ room: t.room, author: { userId: null } }, t.format.id, byClub, [])).toEqual({ ok: true, created: 2, replaced: 0 });
    await t.room.flushLive();
    const snapshot = (await t.room.snapshot(t.format.id))!;
    expect(snapshot.groups.map((g) => g.name)).toEqual(["Nordic", "Alpine"]);
    expect(snapshot.rows.filter((r) => r.groups.includes(snapshot.groups[0]!.id)).map((r) => r.bib)).toEqual([1, 3]);

    expect((await t.room.updateSettings({ is_heats: true })).ok).toBe(true);
    expect(await createCategoryGroups({ room: t.room, author: { userId: null } }, t.format.id, AGE_CLASSES, [])).toEqual({
      ok: false,
      errors: { form: "Create New Result Groups is not for heats: a sprint ranks its racers by its heats. Group by Start Order instead." },
    });
  });
});
