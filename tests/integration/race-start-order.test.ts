import { describe, expect, it } from "vitest";
import { SEED_GROUP_ORDER_INVALID } from "../../core/timing/seeding";
import type { StartGroupDoc } from "../../schema/race/documents";
import { createUserWithPassword, pagePost, signIn, worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";
import { createTimedRace, SECOND } from "./timing-fixtures";
import { everyRacer } from "../../workers/services/race-racers";

const HOST = "localhost";
const PASSWORD = "seeded-start-31";

function get(path: string, cookie: string) {
  return worker.fetch(hostRequest(HOST, path, { headers: { Cookie: cookie }, redirect: "manual" }));
}

/** The race's one start group as stored (the RPC stub loses the document's kind). */
async function groupOf(t: { room: { documents: (kind: "StartGroup") => Promise<unknown> } }): Promise<StartGroupDoc> {
  return ((await t.room.documents("StartGroup")) as { data: StartGroupDoc }[])[0]!.data;
}

const post = (path: string, cookie: string, fields: Record<string, string>) => pagePost(HOST, path, fields, cookie);

/** The message shown next to a field, tied to it by id. */
function fieldError(html: string, field: string): string | null {
  return new RegExp(`id="${field}-error" class="form-error">([^<]*)<`).exec(html)?.[1] ?? null;
}

/** Every field of the race settings form, as the page sends it. */
function raceSettingsForm(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    intent: "race-settings",
    seed_function: "random",
    prev_stages_count: "0",
    first_bib: "1",
    reserved_bibs: "",
    missing_bibs_csv: "",
    starttime_sort: "bib",
    start_interval: "30",
    start_size: "1",
    start_gap: "60",
    mass_start_cutoff: "180",
    ...overrides,
  };
}

/**
 * An individual start race with one CPL-seeded start group: 21 racers with distance points (3 seed groups of
 * 7), 2 with only a licence (group 4) and 2 with neither (group 5); and one racer outside the group who
 * keeps bib 2.
 */
async function cplRace() {
  const t = await createTimedRace({ racers: 0 });
  expect((await t.room.updateSettings({ start_mode: "individual" })).ok).toBe(true);
  const saved = await t.room.saveDocument("StartGroup", null, { name: "Distance", seed_function: "cpl_individual" });
  if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
  const groupId = (saved.value as { id: string }).id;
  const ids: Record<string, string> = {};
  const add = async (key: string, fields: Record<string, unknown>) => {
    const racer = await t.room.saveRacer(null, { first_name: key, last_name: "Skier", course: t.course.id, ...fields });
    if (!racer.ok) throw new Error(JSON.stringify(racer.errors));
    ids[key] = racer.value.id;
  };
  for (let i = 1; i <= 21; i++) await add(`p${i}`, { setupgroup_id: groupId, cpl_distance_pts: 500 - i * 10 });
  await add("lic1", { setupgroup_id: groupId, ccc_licence: "CCC-1" });
  await add("lic2", { setupgroup_id: groupId, licence: "L-2" });
  await add("none1", { setupgroup_id: groupId });
  await add("none2", { setupgroup_id: groupId });
  await add("outside", { bib: 2 });
  const email = `starter-${crypto.randomUUID().slice(0, 8)}@example.com`;
  await createUserWithPassword(email, PASSWORD, [{ type: "race_admin", scope: t.race.id }]);
  const cookie = await signIn(HOST, email, PASSWORD);
  return { t, groupId, ids, cookie, page: `/race/${t.race.id}/admin/startorder` };
}

describe("start order page", () => {
  it("seeds a CPL individual group, assigns start times, then bibs around a missing-bib list", async () => {
    const { t, groupId, ids, cookie, page } = await cplRace();
    const html = await (await get(page, cookie)).text();
    expect(html).toContain("Start order");
    expect(html).toContain('placeholder="default: 6,5,4,3,2,1"');
    expect(html).toContain(`href="/race/${t.race.id}/admin/reports/start-list"`);

    // The confirm step comes first: the actions overwrite racers' data.
    const confirm = await (await get(`${page}?confirm=seed&group=${groupId}`, cookie)).text();
    expect(confirm).toContain("Seed racers?");
    const seeded = await post(`${page}?confirm=seed&group=${groupId}`, cookie, { intent: "seed", target: groupId });
    expect(seeded.status).toBe(302);
    const seededAt = seeded.headers.get("Location")!;
    expect(seededAt).toContain("done=seed");
    expect(await (await get(seededAt, cookie)).text()).toContain("Seeded 25 racers in 1 start group (25 changed).");
    const byId = async () => new Map((await everyRacer(t.room)).map((r) => [r.id, r.data]));
    let racers = await byId();
    const seedOf = (key: string) => racers.get(ids[key]!)!.seed;
    expect([1, 7, 8, 14, 15, 21].map((i) => seedOf(`p${i}`))).toEqual([1, 1, 2, 2, 3, 3]);
    expect(["lic1", "lic2", "none1", "none2"].map(seedOf)).toEqual([4, 4, 5, 5]);
    expect(racers.get(ids.outside!)!.seed).toBeNull();
    for (const key of Object.keys(ids).filter((k) => k !== "outside")) expect(racers.get(ids[key]!)!.random).toEqual(expect.any(Number));

    // Start by seed: groups 5, 4, 3, 2, 1 (the best last), 30 s apart; the race's missing bibs are set too.
    expect(
      (
        await post(page, cookie, {
          intent: "group-settings",
          target: groupId,
          seed_function: "cpl_individual",
          custom_seed_order: "",
          starttime_sort: "seed",
          first_bib: "",
          reserved_bibs: "",
        })
      ).status,
    ).toBe(302);
    expect((await post(page, cookie, raceSettingsForm({ missing_bibs_csv: " 12, 3-5 " }))).status).toBe(302);
    expect((await t.room.settings())!.missing_bibs_csv).toBe("3-5, 12");
    const timed = await post(`${page}?confirm=times`, cookie, { intent: "times" });
    expect(timed.status).toBe(302);
    expect(await (await get(timed.headers.get("Location")!, cookie)).text()).toMatch(
      /Assigned start times to 25 racers in 1 start group, from [\d:.]+ to [\d:.]+ \(25 changed\)\./,
    );
    racers = await byId();
    const gun = t.race.startTime * 1000;
    const inGroup = Object.keys(ids)
      .filter((k) => k !== "outside")
      .map((k) => ({ key: k, ...racers.get(ids[k]!)! }));
    const byStart = [...inGroup].sort((a, b) => a.assigned_start_time! - b.assigned_start_time!);
    expect(byStart.map((r) => (r.assigned_start_time! - gun) / SECOND)).toEqual(Array.from({ length: 25 }, (_, i) => i * 30));
    expect(byStart.map((r) => r.seed)).toEqual([5, 5, 4, 4, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1]);
    expect(racers.get(ids.outside!)!.assigned_start_time).toBeNull();
    expect(await groupOf(t)).toMatchObject({ assigned_start_time: gun, first_start_time: gun, last_start_time: gun + 24 * 30 * SECOND });

    // Bibs in start order, skipping the missing ones and the bib the racer outside the group keeps.
    const numbered = await post(`${page}?confirm=bibs&group=${groupId}`, cookie, { intent: "bibs", target: groupId });
    expect(numbered.status).toBe(302);
    expect(await (await get(numbered.headers.get("Location")!, cookie)).text()).toContain("Assigned bibs 1–30 to 25 racers in 1 start group (25 changed).");
    racers = await byId();
    expect(byStart.map((r) => racers.get(ids[r.key]!)!.bib)).toEqual([1, 6, 7, 8, 9, 10, 11, ...Array.from({ length: 18 }, (_, i) => 13 + i)]);
    expect(racers.get(ids.outside!)!.bib).toBe(2);

    // The preview lists the group in start order.
    const after = await (await get(page, cookie)).text();
    expect(after).toContain("25 racers · CPL Individual Start · start-time sort: Seed (seed groups, then random)");
    const first = racers.get(ids[byStart[0]!.key]!)!;
    const row = /<tr><td>([^<]*)<\/td><td>([^<]*)<\/td><th scope="row">([^<]*)<\/th><td>([^<]*)<\/td>/.exec(after);
    expect(row?.slice(2)).toEqual(["1", `${first.first_name} ${first.last_name}`, "5"]);
    expect(row?.[1]).toMatch(/^\d{1,2}:\d{2}:\d{2}/);
  });

  it("refuses a Seed Group Order that is not numbers, beside the field, and a bad missing-bib list", async () => {
    const { t, groupId, cookie, page } = await cplRace();
    const refused = await post(page, cookie, {
      intent: "group-settings",
      target: groupId,
      seed_function: "",
      custom_seed_order: "5, four, 3",
      starttime_sort: "",
      first_bib: "",
      reserved_bibs: "",
    });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(fieldError(html, `custom_seed_order-${groupId}`)).toBe(SEED_GROUP_ORDER_INVALID);
    expect(SEED_GROUP_ORDER_INVALID).toBe("Enter seed group numbers separated by commas");
    expect((await groupOf(t)).custom_seed_order).toBe("");
    // The room refuses it too, and stores a good one normalised.
    const direct = await t.room.saveDocument("StartGroup", groupId, { custom_seed_order: "x" });
    expect(direct).toMatchObject({ ok: false, errors: { custom_seed_order: SEED_GROUP_ORDER_INVALID } });
    expect(
      (
        await post(page, cookie, {
          intent: "group-settings",
          target: groupId,
          seed_function: "",
          custom_seed_order: " 1, 2,,3 ",
          starttime_sort: "",
          first_bib: "",
          reserved_bibs: "",
        })
      ).status,
    ).toBe(302);
    expect((await groupOf(t)).custom_seed_order).toBe("1,2,3");

    const badBibs = await post(page, cookie, raceSettingsForm({ missing_bibs_csv: "13; 40" }));
    expect(badBibs.status).toBe(400);
    expect(fieldError(await badBibs.text(), "missing_bibs_csv")).toBe("Enter bib numbers or ranges separated by commas, like 13, 40-45");

    // Pursuit without previous stages is refused in the confirm step, and nothing is written.
    expect((await t.room.saveDocument("StartGroup", groupId, { seed_function: "pursuit" })).ok).toBe(true);
    const pursuit = await post(`${page}?confirm=seed`, cookie, { intent: "seed" });
    expect(pursuit.status).toBe(400);
    expect(await pursuit.text()).toContain("Pursuit seeding needs earlier stages");
    expect((await everyRacer(t.room)).every((r) => r.data.seed === null)).toBe(true);
  });
});
