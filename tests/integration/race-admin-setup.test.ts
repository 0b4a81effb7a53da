import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { initialMtimes } from "../../core/entity/field-mtimes";
import { FIELD_KEY_EMPTY } from "../../core/timing/racer-fields";
import { DELETE_BLOCKED_PUBLIC_RESULTS } from "../../core/timing/validation";
import { clubs, races } from "../../schema/d1";
import type { StoredDocument } from "../../schema/race/documents";
import { createUserWithPassword, db, signIn, pagePost, worker } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { postReads, SECOND } from "./timing-fixtures";

const HOST = "localhost";
const PASSWORD = "glacier-ski-42";

function get(path: string, cookie?: string) {
  return worker.fetch(hostRequest(HOST, path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" }));
}

const post = (path: string, cookie: string, fields: Record<string, string>) => pagePost(HOST, path, fields, cookie);

/** A race on its own club site, and a signed-in user with `role` on it (or no role at all). */
async function raceWithUser(role: "race_admin" | "race_timer" | null = "race_admin") {
  const label = crypto.randomUUID().slice(0, 8);
  const { race, club } = await createSiteWithRace(db(), {
    hostname: `setup-${label}.example.org`,
    siteName: `Setup ${label}`,
    raceName: "Setup Race",
    startInDays: 3,
  });
  const email = `setup-${label}@example.com`;
  await createUserWithPassword(email, PASSWORD, role ? [{ type: role, scope: race.id }] : []);
  const cookie = await signIn(HOST, email, PASSWORD);
  const room = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(race.id));
  return { race, club, cookie, room, admin: `/race/${race.id}/admin` };
}

/** The id the page redirected to (`?edit=<id>`) after a create. */
function editedId(response: Response): string {
  expect(response.status).toBe(302);
  const id = new URL(response.headers.get("Location")!, "http://x").searchParams.get("edit");
  expect(id).toBeTruthy();
  return id!;
}

/** The message shown next to a field, tied to it by id. */
function fieldError(html: string, field: string): string | null {
  return new RegExp(`id="${field}-error" class="form-error">([^<]*)<`).exec(html)?.[1] ?? null;
}

function testId(html: string, id: string): string | null {
  return new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(html)?.[1] ?? null;
}

/** Every field of the setup form, as the page sends it. */
function setupForm(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    intent: "save",
    name: "Setup Race",
    sport: "Running",
    start: "2026-06-01T09:00",
    end: "",
    timezone: "America/Toronto",
    location: "Gatineau Park",
    visibility: "public",
    timing_mode: "lap",
    start_mode: "mass",
    start_option: "",
    lap_count: "3",
    max_lap_count: "",
    precision: "1",
    calc_precision: "1",
    display_precision: "1",
    same_time_threshold: "0.5",
    same_time_display: "s/t",
    dnf_option: "hide",
    dsq_option: "time",
    start_interval: "15",
    start_size: "1",
    start_gap: "0",
    first_bib: "",
    start_list_visibility: "hidden",
    ...overrides,
  };
}

describe("race setup page", () => {
  it("shows the race with its nav and counts, and saves race fields and timing settings", async () => {
    const { race, cookie, room, admin } = await raceWithUser();
    const page = await get(admin, cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('aria-label="Race administration"');
    expect(html).toContain("0 racers · 0 crossings recorded");
    expect(html).toMatch(/<option value="triathlon">Triathlon<\/option>/);
    expect(html).toMatch(/<option value="enduro">Enduro<\/option>/);
    expect(html).toContain("<legend>Segments &amp; Timing Devices</legend>");
    // Forms post to the index route itself, so they work before hydration.
    expect(html).toContain(`<form method="post" action="${admin}?index"`);

    const saved = await post(
      `${admin}?index`,
      cookie,
      setupForm({ name: "Renamed Race", start_mode: "individual", end: "2026-06-01T15:00", is_start_size_enabled: "on", start_size: "2" }),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`${admin}?saved=saved`);
    const settings = (await room.settings())!;
    expect(settings).toMatchObject({
      timing_mode: "lap",
      lap_count: 3,
      start_mode: "individual",
      start_option: null,
      same_time_threshold: 500_000,
      start_interval: 15 * SECOND,
      start_size: 2,
      is_start_size_enabled: true,
    });
    const row = await db().query.races.findFirst({ where: eq(races.id, race.id) });
    // 09:00 in Toronto on 1 June is 13:00 UTC (EDT).
    expect(row).toMatchObject({
      name: "Renamed Race",
      sport: "Running",
      startTime: Date.UTC(2026, 5, 1, 13),
      endTime: Date.UTC(2026, 5, 1, 19),
      location: "Gatineau Park",
    });
    const after = await (await get(`${admin}?saved=saved`, cookie)).text();
    expect(after).toContain("Your changes are saved.");
    expect(after).toContain('value="2026-06-01T09:00"');
    expect(after).toContain("Default for individual start: chip start.");

    // A form read before someone else's change may not overwrite it; nothing is written.
    const stale = await post(`${admin}?index`, cookie, setupForm({ name: "Stale name", lap_count: "9", field_mtimes: JSON.stringify({ name: 1 }) }));
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("Someone else changed name since you opened this page.");
    expect((await db().query.races.findFirst({ where: eq(races.id, race.id) }))!.name).toBe("Renamed Race");
    expect((await room.settings())!.lap_count).toBe(3);

    // A technique belongs to its sport.
    expect((await post(`${admin}?index`, cookie, setupForm({ sport: "Cross Country Skiing", technique: "Classic" }))).status).toBe(302);
    expect((await room.settings())!.technique).toBe("Classic");
    expect(await (await get(admin, cookie)).text()).toContain('<option value="Classic" selected="">');
    expect((await post(`${admin}?index`, cookie, setupForm({ sport: "Running", technique: "Classic" }))).status).toBe(302);
    expect((await room.settings())!.technique).toBeNull();
  });

  it("says the spec's words for a lap count that is not a number or below 1, next to the field", async () => {
    const { cookie, room, admin } = await raceWithUser();
    const words = await post(`${admin}?index`, cookie, setupForm({ lap_count: "abc" }));
    expect(words.status).toBe(400);
    const html = await words.text();
    expect(fieldError(html, "lap_count")).toBe("Must be a Number");
    expect(html).toMatch(/name="lap_count"[^>]*aria-describedby="[^"]*lap_count-error/);
    expect(html).toContain('value="abc"');
    const zero = await post(`${admin}?index`, cookie, setupForm({ lap_count: "0", end: "2026-05-01T09:00" }));
    const zeroHtml = await zero.text();
    expect(fieldError(zeroHtml, "lap_count")).toBe("Must be at least 1");
    expect(fieldError(zeroHtml, "end")).toBe("The end must be after the start");
    // Nothing was written.
    expect((await room.settings())!.lap_count).toBe(1);
  });

  it("refuses a one-lap biathlon next to the lap count and writes nothing, the race's name included", async () => {
    const { race, cookie, room, admin } = await raceWithUser();
    const refused = await post(`${admin}?index`, cookie, setupForm({ name: "Renamed Biathlon", lap_count: "1", biathlon_penalty_type: "time" }));
    expect(refused.status).toBe(400);
    expect(fieldError(await refused.text(), "lap_count")).toBe("Biathlon races must have at least 2 laps");
    expect((await room.raceEntity())!.row.name).toBe(race.name);
    expect((await room.settings())!.biathlon_penalty_type).toBeNull();
    expect((await post(`${admin}?index`, cookie, setupForm({ lap_count: "3", biathlon_penalty_type: "time" }))).status).toBe(302);
    expect((await room.settings())!).toMatchObject({
      lap_count: 3,
      biathlon_penalty_type: "time",
      biathlon_result_calc: "total",
      biathlon_column_option: "laps",
    });
  });

  it("refuses a race timer's save with 403 and shows a stranger nothing (404)", async () => {
    const timer = await raceWithUser("race_timer");
    expect((await get(timer.admin, timer.cookie)).status).toBe(200);
    const refused = await post(`${timer.admin}?index`, timer.cookie, setupForm({ name: "Timer's name" }));
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("You may not do this");
    expect((await post(`${timer.admin}/courses`, timer.cookie, { intent: "create", name: "Sneaky" })).status).toBe(403);
    expect((await timer.room.documents("Course")).length).toBe(0);

    const stranger = await raceWithUser(null);
    for (const path of [stranger.admin, `${stranger.admin}/courses`, `${stranger.admin}/devices`, `${timer.admin}/formats`]) {
      expect((await get(path, stranger.cookie)).status).toBe(404);
    }
    expect((await post(`${timer.admin}?index`, stranger.cookie, setupForm())).status).toBe(404);
  });
});

describe("courses and timing points", () => {
  it("creates timing points and a course with points, reorders them and shows the course", async () => {
    const { cookie, room, admin } = await raceWithUser();
    expect(await (await get(`${admin}/courses`, cookie)).text()).toContain("No courses yet.");
    const start = editedId(await post(`${admin}/points`, cookie, { intent: "create", name: "Start line" }));
    const finish = editedId(await post(`${admin}/points`, cookie, { intent: "create", name: "Finish line" }));
    const course = editedId(
      await post(`${admin}/courses`, cookie, {
        intent: "create",
        name: "10 km",
        lap_count: "2",
        end_time: "11:30",
        course_distance_km: "10",
        lap_distance_km: "5",
      }),
    );
    const add = (point: string, mode: string, name = "") =>
      post(`${admin}/courses`, cookie, { intent: "add-point", target: course, point, mode, name, min_split: "12.5" });
    expect((await add(finish, "lap", "Finish")).status).toBe(302);
    expect((await add(start, "start")).status).toBe(302);
    // The start went in second: move it up.
    const moved = await post(`${admin}/courses`, cookie, { intent: "move-point", target: course, index: "1", direction: "up" });
    expect(moved.headers.get("Location")).toBe(`${admin}/courses?edit=${course}&saved=moved`);

    const [stored] = (await room.documents("Course")) as StoredDocument<"Course">[];
    expect(stored!.data).toMatchObject({ name: "10 km", lap_count: 2, course_distance_km: 10, lap_distance_km: 5 });
    expect(stored!.data.points_list.map((p) => [p.point, p.mode, p.name, p.min_split])).toEqual([
      [start, "start", "Start line", 12_500_000],
      [finish, "lap", "Finish", 12_500_000],
    ]);
    const list = await (await get(`${admin}/courses`, cookie)).text();
    expect(list).toContain("10 km");
    expect(list).toContain("Start line (start) → Finish (lap)");
    const editor = await (await get(`${admin}/courses?edit=${course}`, cookie)).text();
    expect(editor).toContain('value="11:30:00"');
    expect(editor).toContain('aria-label="Move Finish up"');
    expect(editor).toContain(`<form method="post" action="${admin}/courses?edit=${course}"`);

    // A point a course uses cannot be deleted; the course can, after a confirmation step.
    const blocked = await post(`${admin}/points?delete=${start}`, cookie, { intent: "delete", target: start });
    expect(blocked.status).toBe(409);
    expect(await blocked.text()).toContain("The course “10 km” uses this timing point.");
    expect(await (await get(`${admin}/courses?delete=${course}`, cookie)).text()).toContain("Delete the course “10 km”?");
    expect((await post(`${admin}/courses?delete=${course}`, cookie, { intent: "delete", target: course })).status).toBe(302);
    expect(await room.documents("Course")).toEqual([]);
  });

  it("checks a course's lap count with the spec's words", async () => {
    const { cookie, room, admin } = await raceWithUser();
    const words = await post(`${admin}/courses`, cookie, { intent: "create", name: "Loop", lap_count: "abc" });
    expect(words.status).toBe(400);
    expect(fieldError(await words.text(), "lap_count")).toBe("Must be a Number");
    const zero = await post(`${admin}/courses`, cookie, { intent: "create", name: "Loop", lap_count: "0", course_distance_km: "-3" });
    const html = await zero.text();
    expect(fieldError(html, "lap_count")).toBe("Must be at least 1");
    expect(fieldError(html, "course_distance_km")).toBe("Must be 0 or more");
    expect(await room.documents("Course")).toEqual([]);
  });
});

describe("devices", () => {
  it("shows a new device's credential once, and the credential sends reads", async () => {
    const { race, cookie, room, admin } = await raceWithUser();
    const created = await post(`${admin}/devices`, cookie, { intent: "create", type: "summit", humanname: "Finish", device_number: "3" });
    expect(created.status).toBe(200);
    expect(created.headers.get("Cache-Control")).toContain("no-store");
    const html = await created.text();
    const token = testId(html, "device-token")!;
    expect(token).toMatch(/^[0-9a-f-]{36}\..+/);
    expect(html).toContain("It will not be shown again");
    expect(html).toContain(`/timing-api/races/${race.id}/reads`);
    expect(html).toContain("Authorization: Bearer");
    const [device] = (await room.documents("TimingDevice")) as StoredDocument<"TimingDevice">[];
    // The type's row of the device table.
    expect(device!.data).toMatchObject({ type: "summit", accuracy: 0.2, precision: 4, has_bibs: true, show_on_grid: true, extra_columns: ["Channel"] });

    const startMicros = race.startTime * 1000;
    const reads = await postReads(HOST, race.id, token, { reads: [{ seq: 1, chip: "E2000001", time: startMicros + 60 * SECOND, channel: 1 }] });
    expect(reads.status).toBe(200);

    const list = await (await get(`${admin}/devices`, cookie)).text();
    expect(list).toContain("Finish 3");
    expect(list).toContain("Summit Timer");
    expect(list).toContain("Issued");
    expect(list).not.toContain(token);

    // Offsets are typed in seconds, signed, and kept in microseconds.
    const saved = await post(`${admin}/devices`, cookie, {
      intent: "save",
      target: device!.id,
      name: "",
      humanname: "Finish",
      device_number: "3",
      accuracy: "0.2",
      precision: "4",
      offset: "-1.25",
      has_bibs: "on",
      show_on_grid: "on",
    });
    expect(saved.status).toBe(302);
    expect(((await room.documents("TimingDevice"))[0] as StoredDocument<"TimingDevice">).data.offset).toBe(-1_250_000);
    expect(await (await get(`${admin}/devices`, cookie)).text()).toContain("-1.25");

    // A new credential replaces the old one after a confirmation step.
    expect(await (await get(`${admin}/devices?credential=${device!.id}`, cookie)).text()).toContain("The old credential stops working at once");
    const renewed = await post(`${admin}/devices?credential=${device!.id}`, cookie, { intent: "credential", target: device!.id });
    const newToken = testId(await renewed.text(), "device-token")!;
    expect(newToken).not.toBe(token);
    expect((await postReads(HOST, race.id, token, { reads: [{ seq: 2, chip: "E2000001", time: startMicros + 70 * SECOND }] })).status).toBe(401);
    expect((await postReads(HOST, race.id, newToken, { reads: [{ seq: 2, chip: "E2000001", time: startMicros + 70 * SECOND }] })).status).toBe(200);
  });
});

describe("start groups", () => {
  it("refuses a group that starts after the race's end with 'Invalid group time'", async () => {
    const { cookie, room, admin } = await raceWithUser();
    await get(admin, cookie);
    // 09:00 to 13:00 in Toronto (EDT) on 1 June.
    await room.changeRace({ start_time: Date.UTC(2026, 5, 1, 13), end_time: Date.UTC(2026, 5, 1, 17) }, null);
    const late = await post(`${admin}/startgroups`, cookie, { intent: "create", name: "Late wave", start_mode: "", scheduled_start_time: "13:00:01" });
    expect(late.status).toBe(400);
    expect(fieldError(await late.text(), "scheduled_start_time")).toBe("Invalid group time");
    const bad = await post(`${admin}/startgroups`, cookie, { intent: "create", name: "Wave", scheduled_start_time: "25:00:00" });
    expect(fieldError(await bad.text(), "scheduled_start_time")).toBe("Hours must be below 24");
    expect(await room.documents("StartGroup")).toEqual([]);

    const ok = await post(`${admin}/startgroups`, cookie, {
      intent: "create",
      name: "Wave 1",
      start_mode: "individual",
      start_interval: "30",
      start_size: "2",
    });
    expect(ok.status).toBe(302);
    const [group] = (await room.documents("StartGroup")) as StoredDocument<"StartGroup">[];
    expect(group!.data).toMatchObject({ name: "Wave 1", start_mode: "individual", start_interval: 30 * SECOND, start_size: 2, scheduled_start_time: null });
    expect(await (await get(`${admin}/startgroups`, cookie)).text()).toContain("Wave 1");
  });
});

describe("racer fields", () => {
  it("generates and shows each new field's key", async () => {
    const { cookie, room, admin } = await raceWithUser();
    expect(await (await get(`${admin}/fields`, cookie)).text()).toContain("No racer fields yet.");
    const add = async (display: string, type: string, options = "") => {
      const response = await post(`${admin}/fields`, cookie, { intent: "create", display, type, options });
      expect(response.status).toBe(302);
      const page = await (await get(response.headers.get("Location")!, cookie)).text();
      return testId(page, "field-key");
    };
    expect(await add("T-Shirt Size", "option", "S\nM\nL")).toBe("tshirtsize");
    expect(await add("T-Shirt Size", "text")).toBe("tshirtsize_2");
    expect(await add("Masters", "category")).toBe("is_masters");
    // A reserved Racer field name gets a suffix rather than clashing.
    expect(await add("Bib", "number")).toBe("bib_2");
    const empty = await post(`${admin}/fields`, cookie, { intent: "create", display: "!!!", type: "text" });
    expect(fieldError(await empty.text(), "display")).toBe(FIELD_KEY_EMPTY);
    const noOptions = await post(`${admin}/fields`, cookie, { intent: "create", display: "Shoe", type: "option", options: "" });
    expect(fieldError(await noOptions.text(), "options")).toBe("Enter at least one option");

    const fields = (await room.settings())!.fields_list;
    expect(fields[0]).toEqual({
      key: "tshirtsize",
      display: "T-Shirt Size",
      type: "option",
      options: ["S", "M", "L"],
      is_public: false,
      is_mandatory: false,
      precision: null,
    });
    // Edit flags, then delete after a confirmation step.
    expect((await post(`${admin}/fields`, cookie, { intent: "save", target: "is_masters", display: "Masters 40+", is_public: "on" })).status).toBe(302);
    expect((await room.settings())!.fields_list[2]).toMatchObject({ key: "is_masters", display: "Masters 40+", is_public: true });
    expect(await (await get(`${admin}/fields?delete=bib_2`, cookie)).text()).toContain("Delete the field “Bib”?");
    expect((await post(`${admin}/fields?delete=bib_2`, cookie, { intent: "delete", target: "bib_2" })).status).toBe(302);
    expect((await room.settings())!.fields_list.map((f) => (f as { key: string }).key)).toEqual(["tshirtsize", "tshirtsize_2", "is_masters"]);
  });
});

describe("result formats and deleting the race", () => {
  it("refuses to delete a race with a public format, and deletes it once the format is private", async () => {
    const { race, cookie, room, admin } = await raceWithUser();
    const format = editedId(
      await post(`${admin}/formats`, cookie, {
        intent: "create",
        name: "Results",
        kind: "public",
        display_precision: "1",
        display_diffs: "on",
        group_type: "field",
        group_field: "sex",
      }),
    );
    const stored = (await room.documents("ResultFormat"))[0] as StoredDocument<"ResultFormat">;
    expect(stored.data).toMatchObject({
      name: "Results",
      is_public: true,
      is_unlisted: false,
      is_announcer: false,
      is_live: false,
      group_type: "field",
      group_field: "sex",
      display_diffs: true,
    });
    const formatPage = await (await get(`${admin}/formats?edit=${format}`, cookie)).text();
    expect(formatPage).toContain(`href="/races/${race.id}?format=${format}"`);
    expect(formatPage).toContain("All Racers in One List");

    // An explicit result group under the format, then deleted after confirmation.
    expect(
      (
        await post(`${admin}/formats`, cookie, {
          intent: "add-group",
          target: format,
          name: "Women",
          course: "",
          startgroup: "",
          criterion_field: "sex",
          criterion_op: "eq",
          criterion_value: "F",
        })
      ).status,
    ).toBe(302);
    const [group] = (await room.documents("ResultGroup")) as StoredDocument<"ResultGroup">[];
    expect(group!.data).toMatchObject({ format, name: "Women", criteria_list: [{ field: "sex", op: "eq", value: "F" }] });
    expect(await (await get(`${admin}/formats?edit=${format}`, cookie)).text()).toContain("Sex is F");
    expect((await post(`${admin}/formats?edit=${format}&deleteGroup=${group!.id}`, cookie, { intent: "delete-group", target: group!.id })).status).toBe(302);
    expect(await room.documents("ResultGroup")).toEqual([]);

    const confirm = await (await get(`${admin}?confirm=delete`, cookie)).text();
    expect(confirm).toContain("Delete the race “Setup Race”?");
    const refused = await post(`${admin}?index&confirm=delete`, cookie, { intent: "delete" });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(DELETE_BLOCKED_PUBLIC_RESULTS);
    expect(await db().query.races.findFirst({ where: eq(races.id, race.id) })).toBeTruthy();

    const live = await post(`${admin}/formats`, cookie, {
      intent: "save",
      target: format,
      name: "Results",
      kind: "live",
      display_precision: "1",
      group_type: "all",
    });
    expect(live.status).toBe(302);
    const deleted = await post(`${admin}?index&confirm=delete`, cookie, { intent: "delete" });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe("/manage");
    expect(await db().query.races.findFirst({ where: eq(races.id, race.id) })).toBeUndefined();
    expect(await room.getSetup()).toBeNull();
    expect((await get(admin, cookie)).status).toBe(404);
  });

  it("does not offer deletion to a timer", async () => {
    const { cookie, admin } = await raceWithUser("race_timer");
    expect(await (await get(admin, cookie)).text()).not.toContain("Delete race");
    expect((await post(`${admin}?index&confirm=delete`, cookie, { intent: "delete" })).status).toBe(403);
  });
});

describe("creating a race", () => {
  it("creates a race in a club the user administers and opens its admin page", async () => {
    const clubId = crypto.randomUUID();
    const club = { id: clubId, name: "Creators Club", timezone: "Europe/Oslo" };
    await db()
      .insert(clubs)
      .values({ ...club, fieldMtimes: initialMtimes(club, Date.now()) });
    const email = `creator-${clubId.slice(0, 8)}@example.com`;
    await createUserWithPassword(email, PASSWORD, [{ type: "org_admin", clubId }]);
    const cookie = await signIn(HOST, email, PASSWORD);
    expect(await (await get("/manage", cookie)).text()).toContain('href="/race/new"');
    const form = await (await get("/race/new", cookie)).text();
    expect(form).toContain("Create a race");
    expect(form).toMatch(/<option value="Europe\/Oslo" selected="">/);

    const missing = await post("/race/new", cookie, { intent: "create", club: clubId, name: "", start: "", timezone: "Europe/Oslo" });
    expect(missing.status).toBe(400);
    const missingHtml = await missing.text();
    expect(fieldError(missingHtml, "name")).toBe("Enter a name");
    expect(fieldError(missingHtml, "start")).toBe("Enter a date and time");

    const created = await post("/race/new", cookie, {
      intent: "create",
      club: clubId,
      name: "Spring Sprint",
      sport: "Running",
      start: "2026-06-01T10:00",
      timezone: "Europe/Oslo",
    });
    expect(created.status).toBe(302);
    const location = created.headers.get("Location")!;
    const raceId = /^\/race\/([0-9a-f-]{36})\/admin$/.exec(location)![1]!;
    const row = await db().query.races.findFirst({ where: eq(races.id, raceId) });
    // 10:00 in Oslo on 1 June is 08:00 UTC (CEST).
    expect(row).toMatchObject({
      clubId,
      name: "Spring Sprint",
      sport: "Running",
      startTime: Date.UTC(2026, 5, 1, 8),
      timezone: "Europe/Oslo",
      visibility: "private",
    });
    const room = env.RACE_ROOM.get(env.RACE_ROOM.idFromName(raceId));
    expect(await room.getSetup()).toMatchObject({ id: raceId, name: "Spring Sprint", timezone: "Europe/Oslo" });
    const admin = await get(location, cookie);
    expect(admin.status).toBe(200);
    expect(await admin.text()).toContain("Spring Sprint");
  });

  it("refuses a user who may not create races", async () => {
    const { cookie } = await raceWithUser("race_admin");
    expect((await get("/race/new", cookie)).status).toBe(403);
    expect(await (await get("/manage", cookie)).text()).not.toContain('href="/race/new"');
  });
});
