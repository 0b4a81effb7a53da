import { describe, expect, it } from "vitest";
import { parseCsv } from "../../core/entity/csv";
import { parseTimeOfDay } from "../../core/time/parse";
import { zeroTimeOf } from "../../core/time/zero-time";
import { createUserWithPassword, signIn, pagePost, worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";
import { countReportReads, createTimedRace, evictRoom, postReads, racerForm, SECOND } from "./timing-fixtures";
import { everyRacer } from "../../workers/services/race-racers";

const HOST = "localhost";
const PASSWORD = "finish-line-77";
const SAME_ORIGIN = { Origin: `http://${HOST}:8787`, "Sec-Fetch-Site": "same-origin" };

type TimedRace = Awaited<ReturnType<typeof createTimedRace>>;

function get(path: string, cookie: string) {
  return worker.fetch(hostRequest(HOST, path, { headers: { Cookie: cookie }, redirect: "manual" }));
}

const post = (path: string, cookie: string, fields: Record<string, string>) => pagePost(HOST, path, fields, cookie);

/** A file upload (multipart), as the import form sends it. */
function upload(path: string, cookie: string, fields: Record<string, string>, file: { name: string; text: string }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set("file", new File([file.text], file.name, { type: "text/csv" }));
  return worker.fetch(hostRequest(`${HOST}:8787`, path, { method: "POST", headers: { Cookie: cookie, ...SAME_ORIGIN }, body: form, redirect: "manual" }));
}

/** A user holding one race role on `raceId`, signed in. */
async function signedIn(type: string, raceId: string | null) {
  const email = `${type}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  await createUserWithPassword(email, PASSWORD, raceId ? [{ type, scope: raceId }] : []);
  return signIn(HOST, email, PASSWORD);
}

async function adminOf(options: Parameters<typeof createTimedRace>[0] = {}) {
  const t = await createTimedRace(options);
  return { t, cookie: await signedIn("race_admin", t.race.id), base: `/race/${t.race.id}/admin` };
}

/** A CSV download's cells; its bytes must start with the UTF-8 byte order mark (text() would drop it unseen). */
async function csvCells(response: Response): Promise<string[][]> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parseCsv(new TextDecoder().decode(bytes)).map((r) => r.map((c) => c.text));
}

const rowCount = (html: string) => html.match(/data-testid="racer-row"/g)?.length ?? 0;
const zeroTime = (t: TimedRace) => zeroTimeOf(t.race.startTime * 1000, t.race.timezone);
const tod = (text: string) => parseTimeOfDay(text) as number;

/** The edit form of racer `i` (bib i, chip Ci) as it was created, with `changes`. */

/** The racer's result time once the room has taken in its reads (they join the results at the next push). */
async function timeOf(t: TimedRace, racerId: string, until: (time: number | null) => boolean) {
  for (let attempt = 0; attempt < 40; attempt++) {
    const time = (await everyRacer(t.room)).find((r) => r.id === racerId)!.time;
    if (until(time) || attempt === 39) return time;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return null;
}

describe("racers list", () => {
  it("pages by 50, searches by name or bib, and downloads as spreadsheet-safe CSV", async () => {
    const { t, cookie, base } = await adminOf({ racers: 55 });
    const first = await get(`${base}/racers`, cookie);
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(rowCount(html)).toBe(50);
    expect(html).toContain("Page 1 of 2");
    expect(html).toContain("Racer1 Test1");
    expect(html).toContain(`href="${base}/racers/new"`);
    expect(html).toContain("Not started");

    const second = await (await get(`${base}/racers?page=2`, cookie)).text();
    expect(rowCount(second)).toBe(5);
    expect(second).toContain("Racer55 Test55");

    const byName = await (await get(`${base}/racers?q=test7`, cookie)).text();
    expect(rowCount(byName)).toBe(1);
    expect(byName).toContain("Racer7 Test7");
    const byBib = await (await get(`${base}/racers?q=12`, cookie)).text();
    expect(rowCount(byBib)).toBe(1);
    expect(byBib).toContain("Racer12 Test12");
    const none = await (await get(`${base}/racers?q=nobody`, cookie)).text();
    expect(none).toContain("No racer matches");

    await t.room.saveRacer(t.racerIds[0]!, { first_name: "=HYPERLINK(evil)" });
    const csv = await get(`${base}/racers/csv`, cookie);
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    expect(csv.headers.get("Content-Disposition")).toContain("timed-race-racers.csv");
    const rows = await csvCells(csv);
    expect(rows[0]).toEqual(["Bib", "Name", "Course", "Start group", "Chips", "Status", "Time"]);
    expect(rows).toHaveLength(56);
    expect(rows[1]).toEqual(["1", "'=HYPERLINK(evil) Test1", "10 km", "", "C1", "Not started", ""]);
  });

  it("is searched and paged by the race room, which never hands over more than a page", async () => {
    const { t } = await adminOf({ racers: 7 });
    const second = await t.room.racerPage({ q: "", page: 2, perPage: 3 });
    expect(second).toMatchObject({ total: 7, all: 7, page: 2, pages: 3 });
    expect(second.racers.map((r) => r.data.bib)).toEqual([4, 5, 6]);
    // A page past the end is the last one; a search counts only what it matches.
    expect((await t.room.racerPage({ q: "", page: 9, perPage: 3 })).racers.map((r) => r.data.bib)).toEqual([7]);
    expect(await t.room.racerPage({ q: "test5", page: 1, perPage: 3 })).toMatchObject({ total: 1, all: 7, page: 1, pages: 1 });
  });

  it("orders racers without a bib last, by last name as the locale orders it, and searches accented names in any case", async () => {
    const { t } = await adminOf({ racers: 2 });
    for (const last_name of ["Zeller", "Éclair", "eagle"]) expect((await t.room.saveRacer(null, { first_name: "Ana", last_name })).ok).toBe(true);
    const page = await t.room.racerPage({ q: "", page: 1, perPage: 10 });
    expect(page.racers.map((r) => `${r.data.bib ?? "-"} ${r.data.last_name}`)).toEqual(["1 Test1", "2 Test2", "- eagle", "- Éclair", "- Zeller"]);
    expect(page.racers[0]).toMatchObject({ id: t.racerIds[0], status: "notstarted", statusText: "", time: null, data: { chip: "C1" } });
    const found = await t.room.racerPage({ q: "ÉCL", page: 1, perPage: 10 });
    expect(found.racers.map((r) => r.data.last_name)).toEqual(["Éclair"]);
    expect(found).toMatchObject({ total: 1, all: 5 });
  });

  it("hands over the whole field in slices, each after the last one's cursor", async () => {
    const { t } = await adminOf({ racers: 7 });
    const bibs: (number | null)[] = [];
    let after = 0;
    for (let slices = 1; ; slices++) {
      const slice = await t.room.racerSlice(after, 3);
      bibs.push(...slice.racers.map((r) => r.data.bib));
      expect(slice.racers.length).toBeLessThanOrEqual(3);
      if (slice.next === null) {
        expect(slices).toBe(3);
        break;
      }
      after = slice.next;
    }
    expect(bibs).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("shows the empty state", async () => {
    const { cookie, base } = await adminOf({ racers: 0 });
    const html = await (await get(`${base}/racers`, cookie)).text();
    expect(html).toContain("No racers yet.");
  });
});

describe("racer page", () => {
  it("refuses a bib another racer holds, by the bib field, and writes nothing", async () => {
    const { t, cookie, base } = await adminOf();
    const response = await post(`${base}/racers/${t.racerIds[0]}`, cookie, racerForm(t, 1, { bib: "2" }));
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toMatch(/id="bib-error"[^>]*>Bib 2 is already taken/);
    expect(html).toMatch(/aria-describedby="bib-error"/);
    expect((await t.room.racer(t.racerIds[0]!))!.data.bib).toBe(1);
  });

  it("saves fields, and a DSQ clears an earlier DNF", async () => {
    const { t, cookie, base } = await adminOf();
    const id = t.racerIds[0]!;
    const dnf = await post(
      `${base}/racers/${id}`,
      cookie,
      racerForm(t, 1, { status: "dnf", status_time: "10:30:00", penalty: "2.5", club: "Nordic", chip_list: "X1, X2" }),
    );
    expect(dnf.status).toBe(302);
    expect(dnf.headers.get("Location")).toBe(`${base}/racers/${id}?done=saved`);
    let racer = (await t.room.racer(id))!.data;
    expect(racer).toMatchObject({
      dnf_time: zeroTime(t) + tod("10:30:00"),
      dsq_time: null,
      dns: false,
      penalty: 2_500_000,
      club: "Nordic",
      chip_list: ["X1", "X2"],
    });

    const missingTime = await post(`${base}/racers/${id}`, cookie, racerForm(t, 1, { status: "dsq", status_time: "" }));
    expect(missingTime.status).toBe(400);
    expect(await missingTime.text()).toContain("A DSQ needs the time it happened");

    const dsq = await post(
      `${base}/racers/${id}`,
      cookie,
      racerForm(t, 1, { status: "dsq", status_time: "10:45:00.5", penalty: "2.5", club: "Nordic", chip_list: "X1, X2" }),
    );
    expect(dsq.status).toBe(302);
    racer = (await t.room.racer(id))!.data;
    expect(racer).toMatchObject({ dnf_time: null, dsq_time: zeroTime(t) + tod("10:45:00.5"), dns: false });
    const page = await (await get(`${base}/racers/${id}`, cookie)).text();
    expect(page).toContain('value="10:45:00.5"');
    const list = await (await get(`${base}/racers`, cookie)).text();
    expect(list).toContain("<td>DSQ</td>");
  });

  it("checks the race's own fields and keeps them", async () => {
    const { t, cookie, base } = await adminOf();
    await t.room.updateSettings({
      fields_list: [
        { key: "shirt", display: "Shirt size", type: "option", options: ["S", "M", "L"] },
        { key: "country", display: "Country", type: "text" },
      ],
    });
    const id = t.racerIds[0]!;
    const page = await (await get(`${base}/racers/${id}`, cookie)).text();
    expect(page).toContain("Shirt size");
    const bad = await post(`${base}/racers/${id}`, cookie, racerForm(t, 1, { "custom.shirt": "XL", "custom.country": "NOR" }));
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/id="custom-shirt-error"[^>]*>Must be one of: S, M, L/);
    const good = await post(`${base}/racers/${id}`, cookie, racerForm(t, 1, { "custom.shirt": "m", "custom.country": "NOR" }));
    expect(good.status).toBe(302);
    expect((await t.room.racer(id))!.data.custom).toEqual({ shirt: "M", country: "NOR" });
    const rack = await csvCells(await get(`${base}/reports/chip-rack/csv`, cookie));
    expect(rack[0]).toEqual(["Bib", "Chip rack", "Chips", "Name", "Team", "Club", "City", "Country"]);
    expect(rack[1]).toEqual(["1", "0", "C1", "Racer1 Test1", "", "", "", "NOR"]);
  });

  it("saves the seeding fields, refuses a bad number by its field, and shows them back", async () => {
    const { t, cookie, base } = await adminOf();
    const id = t.racerIds[0]!;
    const seeding = { ccc_licence: "CCC-77", licence: "", cpl_distance_pts: "412.5", cpl_sprint_pts: "", seed: "3", is_manual_seed: "on" };
    const bad = await post(`${base}/racers/${id}`, cookie, racerForm(t, 1, { ...seeding, cpl_sprint_pts: "many" }));
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/id="cpl_sprint_pts-error"[^>]*>Must be a Number/);
    expect((await t.room.racer(id))!.data).toMatchObject({ ccc_licence: null, cpl_distance_pts: null, seed: null, is_manual_seed: false });

    const saved = await post(`${base}/racers/${id}`, cookie, racerForm(t, 1, seeding));
    expect(saved.status).toBe(302);
    expect((await t.room.racer(id))!.data).toMatchObject({
      ccc_licence: "CCC-77",
      licence: null,
      cpl_distance_pts: 412.5,
      cpl_sprint_pts: null,
      seed: 3,
      is_manual_seed: true,
    });
    const page = await (await get(`${base}/racers/${id}`, cookie)).text();
    expect(page).toContain("Seeding");
    expect(page).toMatch(/name="cpl_distance_pts"[^>]*value="412.5"/);
    expect(page).toMatch(/name="is_manual_seed"[^>]*checked/);
    expect(page).toContain("Manual seed (seeding does not recalculate it)");

    // Unticking the checkbox (it posts nothing) and blanking the seed clear them.
    const cleared = await post(`${base}/racers/${id}`, cookie, racerForm(t, 1, { ...seeding, seed: "", is_manual_seed: "" }));
    expect(cleared.status).toBe(302);
    expect((await t.room.racer(id))!.data).toMatchObject({ ccc_licence: "CCC-77", seed: null, is_manual_seed: false });
  });

  it("adds a racer from the new form", async () => {
    const { t, cookie, base } = await adminOf();
    const response = await post(`${base}/racers/new`, cookie, {
      intent: "save",
      first_name: "Nina",
      last_name: "New",
      bib: "40",
      course: t.course.id,
      status: "ok",
    });
    expect(response.status).toBe(302);
    const created = (await everyRacer(t.room)).find((r) => r.data.bib === 40)!;
    expect(created.data).toMatchObject({ first_name: "Nina", last_name: "New", course: t.course.id });
    expect(response.headers.get("Location")).toBe(`${base}/racers/${created.id}?done=created`);
  });

  it("clears all times after a confirmation, leaving the racer without a time", async () => {
    const { t, cookie, base } = await adminOf();
    const id = t.racerIds[0]!;
    const read = await postReads(t.host, t.race.id, t.credential.token, { reads: [{ seq: 1, chip: "C1", time: t.startMicros + 600 * SECOND, channel: 2 }] });
    expect(read.status).toBe(200);
    expect(await timeOf(t, id, (time) => time !== null)).toBe(600 * SECOND);
    const page = await (await get(`${base}/racers/${id}`, cookie)).text();
    expect(page).toContain("Finish reader");
    expect(page).toContain("Used");

    const confirm = await (await get(`${base}/racers/${id}?confirm=clear`, cookie)).text();
    expect(confirm).toContain("removes the racer’s time lists, biathlon data, penalty times, the oncourse flag and warnings");
    const cleared = await post(`${base}/racers/${id}`, cookie, { intent: "clear" });
    expect(cleared.status).toBe(302);
    expect(await timeOf(t, id, (time) => time === null)).toBeNull();
    expect((await t.room.racerCrossings(id)).map((c) => c.state)).toEqual(["cleared"]);
  });

  it("deletes a racer after a confirmation", async () => {
    const { t, cookie, base } = await adminOf();
    const id = t.racerIds[2]!;
    expect(await (await get(`${base}/racers/${id}?confirm=delete`, cookie)).text()).toContain("This cannot be undone");
    const response = await post(`${base}/racers/${id}`, cookie, { intent: "delete" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toContain(`${base}/racers?deleted=`);
    expect(await t.room.racer(id)).toBeNull();
    expect((await get(`${base}/racers/${id}`, cookie)).status).toBe(404);
  });
});

describe("CSV import", () => {
  it("previews row errors and writes nothing, then imports a valid file all at once", async () => {
    const { t, cookie, base } = await adminOf();
    const path = `${base}/racers/import`;
    const bad = ["First Name,Last Name,Bib,Course,Club", "Ann,Able,101,10 km,Nordic", "Bob,Baker,1,10 km,", "Cy,Cole,abc,Nowhere,", "Dee,Dunn,101,10 km,"].join(
      "\r\n",
    );
    const preview = await upload(path, cookie, { intent: "preview" }, { name: "entries.csv", text: bad });
    expect(preview.status).toBe(400);
    const html = await preview.text();
    expect(html).toContain("Nothing has been imported");
    expect(html).toMatch(/<td>3<\/td><td>Bib<\/td><td>Bib 1 is already taken<\/td>/);
    expect(html).toMatch(/<td>4<\/td><td>Bib<\/td><td>Must be a whole number<\/td>/);
    expect(html).toMatch(/<td>4<\/td><td>Course<\/td><td>No course named “Nowhere”<\/td>/);
    expect(html).toMatch(/<td>5<\/td><td>Bib<\/td><td>Bib 101 is also on row 2<\/td>/);
    expect(html).not.toContain("Import 4 racers");
    // Posting the import of the same text anyway writes nothing either.
    expect((await post(path, cookie, { intent: "import", text: bad })).status).toBe(400);
    expect(await everyRacer(t.room)).toHaveLength(3);

    const good = "\uFEFFfirst_name,last_name,bib,chip,course\nAnn,Able,101,C101,10 km\nBob,Baker,102,,10 km\n";
    const ok = await upload(path, cookie, { intent: "preview" }, { name: "entries.csv", text: good });
    expect(ok.status).toBe(200);
    const okHtml = await ok.text();
    expect(okHtml).toContain("Import 2 racers");
    expect(await everyRacer(t.room)).toHaveLength(3);
    const imported = await post(path, cookie, { intent: "import", text: good, source: "entries.csv" });
    expect(imported.status).toBe(302);
    expect(imported.headers.get("Location")).toBe(`${base}/racers?imported=2`);
    const racers = await everyRacer(t.room);
    expect(racers).toHaveLength(5);
    expect(racers.find((r) => r.data.bib === 101)!.data).toMatchObject({ first_name: "Ann", chip: "C101", course: t.course.id, imported_from: "entries.csv" });
    expect(await (await get(`${base}/racers?imported=2`, cookie)).text()).toContain("Imported 2 racers");
  });

  it("imports the seeding columns", async () => {
    const { t, cookie, base } = await adminOf();
    const text = "Bib,Last Name,CCC Licence,Licence,CPL distance points,CPL sprint points,Seed\n201,Seeded,CCC-9,,120.5,,4\n";
    const imported = await post(`${base}/racers/import`, cookie, { intent: "import", text, source: "seeds.csv" });
    expect(imported.status).toBe(302);
    const racer = (await everyRacer(t.room)).find((r) => r.data.bib === 201)!;
    expect(racer.data).toMatchObject({
      last_name: "Seeded",
      ccc_licence: "CCC-9",
      licence: null,
      cpl_distance_pts: 120.5,
      cpl_sprint_pts: null,
      seed: 4,
      is_manual_seed: false,
    });
  });
});

describe("reports", () => {
  it("writes the start list CSV grouped by start group, by scheduled start then bib, only racers with a start group", async () => {
    const { t, cookie, base } = await adminOf({ racers: 5 });
    const wave1 = (await t.room.saveDocument("StartGroup", null, { name: "Wave 1" })) as { ok: true; value: { id: string } };
    const wave2 = (await t.room.saveDocument("StartGroup", null, { name: "Wave 2" })) as { ok: true; value: { id: string } };
    const at = (text: string) => zeroTime(t) + tod(text);
    const [r1, r2, r3, r4] = t.racerIds as [string, string, string, string];
    await t.room.saveRacer(r1, { setupgroup_id: wave2.value.id, scheduled_start_time: at("10:00:00") });
    await t.room.saveRacer(r2, { setupgroup_id: wave1.value.id, scheduled_start_time: at("09:00:30") });
    await t.room.saveRacer(r3, { setupgroup_id: wave1.value.id, scheduled_start_time: at("09:00:00") });
    await t.room.saveRacer(r4, { setupgroup_id: wave1.value.id });
    const response = await get(`${base}/reports/start-list/csv`, cookie);
    expect(response.status).toBe(200);
    expect(await csvCells(response)).toEqual([
      ["Start group", "Course", "Start", "Bib", "Name", "Club", "Team", "City"],
      ["Wave 1", "10 km", "09:00:00", "3", "Racer3 Test3", "", "", ""],
      ["Wave 1", "10 km", "09:00:30", "2", "Racer2 Test2", "", "", ""],
      ["Wave 1", "10 km", "", "4", "Racer4 Test4", "", "", ""],
      ["Wave 2", "10 km", "10:00:00", "1", "Racer1 Test1", "", "", ""],
    ]);
    const page = await (await get(`${base}/reports/start-list`, cookie)).text();
    expect(page).toContain("Wave 1 · 10 km");
    expect(page).toContain("@media print");
    const found = await (await get(`${base}/reports/start-list?q=Racer3`, cookie)).text();
    expect(found).toContain("1 racer matches “Racer3”.");
    expect(found).toContain("Racer3 Test3");
    expect(found).not.toContain("Racer2 Test2");
    const rack = await (await get(`${base}/reports/chip-rack`, cookie)).text();
    expect(rack).toContain("Rack 0");
    expect((await get(`${base}/reports/nothing`, cookie)).status).toBe(404);
  });

  it("reads the room's racers once per list revision for every report page, search, CSV and the start order page", async () => {
    const { t, cookie, base } = await adminOf({ racers: 4 });
    const wave = (await t.room.saveDocument("StartGroup", null, { name: "Wave 1" })) as { ok: true; value: { id: string } };
    for (const id of t.racerIds) await t.room.saveRacer(id, { setupgroup_id: wave.value.id });
    // One count across the eviction below: the fresh room is hooked again with the same counter.
    const counter = { n: 0 };
    const { reads } = await countReportReads(t.room, counter);
    const views = [
      "/reports/start-list",
      "/reports/start-list?page=2",
      "/reports/start-list?q=Racer2",
      "/reports/chip-rack",
      "/reports/chip-rack/csv",
      "/reports/start-list/csv",
      "/startorder",
    ];
    for (const view of views) expect((await get(`${base}${view}`, cookie)).status).toBe(200);
    expect(reads()).toBe(1);

    // An edit is a new revision: every page shows it, after one more read.
    expect((await t.room.saveRacer(t.racerIds[1]!, { first_name: "Renamed" })).ok).toBe(true);
    expect(await (await get(`${base}/reports/start-list?q=Test2`, cookie)).text()).toContain("Renamed Test2");
    expect(await (await get(`${base}/reports/chip-rack`, cookie)).text()).toContain("Renamed Test2");
    expect(reads()).toBe(2);

    // An evicted room keeps its revision: what the isolate built is still the list, and is not read again.
    await evictRoom(t.room);
    await countReportReads(t.room, counter);
    expect(await (await get(`${base}/reports/start-list`, cookie)).text()).toContain("Renamed Test2");
    expect(reads()).toBe(2);
    // A change made after the eviction is seen.
    expect((await t.room.saveRacer(t.racerIds[2]!, { last_name: "Moved" })).ok).toBe(true);
    expect(await (await get(`${base}/reports/start-list`, cookie)).text()).toContain("Racer3 Moved");
    expect(reads()).toBe(3);
  });
});

describe("keypad", () => {
  it("records a crossing from the plain form, and a resent form is a duplicate", async () => {
    const t = await createTimedRace();
    const cookie = await signedIn("race_timer", t.race.id);
    const path = `/race/${t.race.id}/admin/keypad`;
    const page = await get(path, cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/id="keypad-bib"[^>]*inputmode="numeric"/i);
    const key = /name="key" value="([^"]+)"/.exec(html)![1]!;
    const form = { intent: "time", key, bib: "2", point: t.finish.id };
    const first = await post(path, cookie, form);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("A time for bib 2 is recorded.");
    const crossings = await t.room.racerCrossings(t.racerIds[1]!);
    expect(crossings).toHaveLength(1);
    expect(crossings[0]).toMatchObject({ device_id: "manual", timing_point_id: t.finish.id, bib: 2, state: "assigned" });
    const again = await post(path, cookie, form);
    expect(await again.text()).toContain("already recorded");
    expect(await t.room.racerCrossings(t.racerIds[1]!)).toHaveLength(1);

    const unknown = await post(path, cookie, { intent: "time", key: crypto.randomUUID(), bib: "99", point: t.finish.id });
    expect(await unknown.text()).toContain("no racer has bib 99");
    const status = await post(path, cookie, { intent: "status", key: crypto.randomUUID(), bib: "3", status: "dns" });
    expect(status.status).toBe(200);
    expect((await t.room.racer(t.racerIds[2]!))!.data.dns).toBe(true);
    const missingBib = await post(path, cookie, { intent: "time", key: crypto.randomUUID(), bib: "", point: t.finish.id });
    expect(missingBib.status).toBe(400);
    expect(await missingBib.text()).toContain("Enter a bib number");
  });

  it("refuses a race announcer (403) and answers a stranger 404", async () => {
    const t = await createTimedRace();
    const announcer = await signedIn("race_announcer", t.race.id);
    const path = `/race/${t.race.id}/admin/keypad`;
    expect((await get(path, announcer)).status).toBe(403);
    const refused = await post(path, announcer, { intent: "time", key: crypto.randomUUID(), bib: "1", point: t.finish.id });
    expect(refused.status).toBe(403);
    expect(await t.room.racerCrossings(t.racerIds[0]!)).toHaveLength(0);
    // An announcer may look at racers but not change them.
    expect((await get(`/race/${t.race.id}/admin/racers`, announcer)).status).toBe(200);
    expect((await post(`/race/${t.race.id}/admin/racers/${t.racerIds[0]}`, announcer, { intent: "delete" })).status).toBe(403);

    const stranger = await signedIn("race_admin", null);
    const otherRace = await signedIn("race_admin", crypto.randomUUID());
    for (const cookie of [stranger, otherRace]) {
      expect((await get(path, cookie)).status).toBe(404);
      expect((await get(`/race/${t.race.id}/admin/racers`, cookie)).status).toBe(404);
      expect((await get(`/race/${t.race.id}/admin/racers/csv`, cookie)).status).toBe(404);
      expect((await post(`/race/${t.race.id}/admin/racers/import`, cookie, { intent: "import", text: "bib\n5" })).status).toBe(404);
    }
    expect(await everyRacer(t.room)).toHaveLength(3);
  });
});

describe("race overview", () => {
  it("links each race role to the tools it may use and the result formats", async () => {
    const t = await createTimedRace();
    await t.room.saveDocument("ResultFormat", null, { name: "Announcer", is_announcer: true });
    const timer = await (await get(`/race/${t.race.id}/overview`, await signedIn("race_timer", t.race.id))).text();
    expect(timer).toContain("Timed Race");
    expect(timer).toContain(`href="/race/${t.race.id}/admin/keypad"`);
    expect(timer).toContain(`href="/races/${t.race.id}?format=${t.format.id}"`);
    expect(timer).toContain("Announcer (announcer)");
    const photographer = await (await get(`/race/${t.race.id}/overview`, await signedIn("race_photographer", t.race.id))).text();
    expect(photographer).not.toContain("/admin/keypad");
    expect(photographer).not.toContain("Announcer (announcer)");
    expect(photographer).toContain(`?format=${t.format.id}`);
  });
});
