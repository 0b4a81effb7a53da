/**
 * GoChips (decision 0068): a depot's lots and racks made once per form, chips loaded into a rack's slots, an
 * Activator's test uploaded as CSV (the second failure makes a chip faulty), a rack shipped to a race, and a
 * racer's lost or faulty chip replaced on the racer page through the RaceRoom (later reads credited to the
 * racer, the old chip marked at the depot); the depot roles' reach, double submits and garbage input.
 */
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { gochipLots, gochipRacks, gochipReplacements, gochips, gochipTests } from "../../schema/d1";
import { createUserWithPassword, db, multipartPost, pagePost, signIn, worker } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { CHIP_PASSWORD, chipsOf, depotWithStaff, get, loadedRack, shipRackToRace } from "./gochip-fixtures";
import { createApp, issueToken } from "./oauth-fixtures";
import { postReads, SECOND, setUpTimedRoom } from "./timing-fixtures";

const PASSWORD = CHIP_PASSWORD;

/** A multipart post with a file, as the test form sends it. */
const upload = (path: string, fields: Record<string, string>, file: string, cookie: string) =>
  multipartPost(path, { ...fields, file: new File([file], "activator.csv", { type: "text/csv" }) }, cookie);

describe("a depot's GoChips", () => {
  it("records lots and racks once per form, loads slots, and marks a chip faulty at its second failed test", { timeout: 60_000 }, async () => {
    const d = await depotWithStaff("flow");
    const lot = { intent: "lot", submission: crypto.randomUUID(), lot_number: "L-2026-01", received_on: "2026-11-02", chip_count: "500" };
    // Sent twice (a double click): one lot.
    expect((await pagePost("localhost", `${d.base}/chips`, lot, d.userCookie)).status).toBe(302);
    expect((await pagePost("localhost", `${d.base}/chips`, lot, d.userCookie)).status).toBe(302);
    expect(await db().select().from(gochipLots).where(eq(gochipLots.depotId, d.depot.id))).toHaveLength(1);
    const again = await pagePost("localhost", `${d.base}/chips`, { ...lot, submission: crypto.randomUUID() }, d.userCookie);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("A lot with this number is already in this depot");

    const rack = await loadedRack(d);
    const rackPage = `${d.base}/racks/${rack}`;
    // The same codes again add nothing; a code in the depot already is refused by name; too many for the room too.
    expect((await pagePost("localhost", rackPage, { intent: "load", from: "1", codes: "0000A1" }, d.userCookie)).status).toBe(302);
    const other = crypto.randomUUID();
    await pagePost("localhost", `${d.base}/chips`, { intent: "rack", submission: other, number: "R2", slot_count: "2" }, d.userCookie);
    const taken = await pagePost("localhost", `${d.base}/racks/${other}`, { intent: "load", from: "1", codes: "0000A3" }, d.userCookie);
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain("A chip with this hex code is already in this depot: 0000A3");
    const full = await pagePost("localhost", `${d.base}/racks/${other}`, { intent: "load", from: "2", codes: "BBBB01\nBBBB02" }, d.userCookie);
    expect(await full.text()).toContain("The rack has room for only 1 more chip from slot 2");
    // A first slot that is no number, or past the rack, is refused with the rack's own range.
    for (const from of ["x", "3", ""]) {
      const wrong = await pagePost("localhost", `${d.base}/racks/${other}`, { intent: "load", from, codes: "BBBB01" }, d.userCookie);
      expect([wrong.status, await wrong.text()], from).toEqual([400, expect.stringContaining("Choose a slot from 1 to 2")]);
    }
    expect((await chipsOf(d.depot.id))["0000A3"]).toEqual({ slot: 3, status: "untested", failures: 0 });

    // The Activator's CSV: A4 and A5 do not answer; FFFF99 is none of the rack's.
    const csv = "Hex Code,Read at\r\n0000A1,10:00:01\r\n0000A2,10:00:02\r\n0000A3,10:00:03\r\nFFFF99,10:00:04\r\n";
    const first = { intent: "test", submission: crypto.randomUUID(), rack, activator: "Activator 7" };
    expect((await upload(`${d.base}/chips`, first, csv, d.userCookie)).status).toBe(302);
    expect((await upload(`${d.base}/chips`, first, csv, d.userCookie)).status).toBe(302);
    expect(await db().select().from(gochipTests).where(eq(gochipTests.depotId, d.depot.id))).toHaveLength(1);
    let chips = await chipsOf(d.depot.id);
    expect(chips["0000A1"]!.status).toBe("ok");
    expect(chips["0000A4"]).toEqual({ slot: 4, status: "untested", failures: 1 });
    // The second test typed in: A5 answers this time, A4 fails again and is faulty.
    const second = { intent: "test", submission: crypto.randomUUID(), rack, codes: "0000A1\n0000A2\n0000A3\n0000A5" };
    expect((await pagePost("localhost", `${d.base}/chips`, second, d.userCookie)).status).toBe(302);
    chips = await chipsOf(d.depot.id);
    expect(chips["0000A4"]).toEqual({ slot: 4, status: "faulty", failures: 2 });
    expect(chips["0000A5"]).toEqual({ slot: 5, status: "ok", failures: 1 });
    const page = await (await get(`${d.base}/chips`, d.userCookie)).text();
    expect(page).toContain("Faulty: 1");
    expect(page).toContain("0000A4: Faulty (rack R1, slot 4)");
    expect(page).toContain("FFFF99");
    const slots = await (await get(rackPage, d.userCookie)).text();
    expect(slots).toContain("0000A4");
    expect(slots).toContain("Empty");
  });

  it("is refused to other people, answers garbage with a 4xx, and keeps each depot's racks its own", { timeout: 60_000 }, async () => {
    const d = await depotWithStaff("roles");
    const rack = await loadedRack(d);
    const other = await depotWithStaff("roles-other");
    await createUserWithPassword("stranger-chips@example.com", PASSWORD, []);
    const stranger = await signIn("localhost", "stranger-chips@example.com", PASSWORD);
    expect((await get(`${d.base}/chips`, stranger)).status).toBe(403);
    expect((await get(`${d.base}/chips`, other.adminCookie)).status).toBe(403);
    expect(
      (await pagePost("localhost", `${d.base}/chips`, { intent: "rack", submission: crypto.randomUUID(), number: "X", slot_count: "5" }, stranger)).status,
    ).toBe(403);
    // Another depot's rack under this depot's address is not found, and it cannot be loaded from there.
    expect((await get(`${other.base}/racks/${rack}`, other.adminCookie)).status).toBe(404);
    expect((await pagePost("localhost", `${other.base}/racks/${rack}`, { intent: "load", from: "6", codes: "CCCC01" }, other.adminCookie)).status).toBe(404);
    expect((await get(`${d.base}/racks/not-a-rack`, d.userCookie)).status).toBe(404);
    const garbage: Record<string, string>[] = [
      { intent: "lot", submission: "x", lot_number: "" },
      { intent: "lot", submission: crypto.randomUUID(), lot_number: "L", received_on: "2026-13-45", chip_count: "many" },
      { intent: "rack", submission: crypto.randomUUID(), number: "R9", slot_count: "0" },
      { intent: "test", submission: crypto.randomUUID(), rack: "nope", codes: "AAAA" },
      { intent: "test", submission: crypto.randomUUID(), rack, codes: "0000A1\nnot a chip" },
      { intent: "test", submission: crypto.randomUUID(), rack, codes: "" },
      { intent: "???" },
    ];
    for (const fields of garbage) {
      const status = (await pagePost("localhost", `${d.base}/chips`, fields, d.userCookie)).status;
      expect(status, JSON.stringify(fields)).toBeGreaterThanOrEqual(400);
      expect(status, JSON.stringify(fields)).toBeLessThan(500);
    }
    const rackGarbage: Record<string, string>[] = [
      { intent: "load", from: "0", codes: "AAAA" },
      { intent: "load", from: "1", codes: "zz" },
      { intent: "ship", shipment: "nope" },
      { intent: "ship", shipment: crypto.randomUUID() },
      { intent: "what" },
    ];
    for (const fields of rackGarbage) {
      const status = (await pagePost("localhost", `${d.base}/racks/${rack}`, fields, d.userCookie)).status;
      expect(status, JSON.stringify(fields)).toBeGreaterThanOrEqual(400);
      expect(status, JSON.stringify(fields)).toBeLessThan(500);
    }
    const tooBig = await upload(`${d.base}/chips`, { intent: "test", submission: crypto.randomUUID(), rack }, "A".repeat(300_000), d.userCookie);
    expect(tooBig.status).toBe(400);
  });
});

describe("a chip in the registry", () => {
  it("is refused with the same words by the data API and the admin page when its rack is another depot's", { timeout: 60_000 }, async () => {
    const d = await depotWithStaff("registry");
    const other = await depotWithStaff("registry-other");
    const foreignRack = await loadedRack(other);
    const email = `depot-api-${crypto.randomUUID().slice(0, 6)}@example.com`;
    const user = await createUserWithPassword(email, PASSWORD, [{ type: "depot_admin", scope: d.depot.id }]);
    const token = await issueToken(user.id, await createApp({ scopes: "depots" }), "localhost", "depots");
    const put = async (body: Record<string, unknown>) => {
      const response = await worker.fetch(
        hostRequest("localhost", "/data-api/Gochip/", {
          method: "PUT",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ depot: d.depot.id, ...body }),
        }),
      );
      return { status: response.status, body: await response.json<Record<string, unknown>>() };
    };
    expect((await put({ hex_code: "ABCD01", rack: foreignRack, slot: 9 })).body.message).toBe("rack: Choose a rack, lot or shipment of this depot");
    expect((await put({ hex_code: "ABCD01", slot: 9 })).body.message).toBe("rack: A chip in a slot needs its rack");
    expect((await put({ hex_code: "abcd01" })).status).toBe(400);
    expect((await put({ hex_code: "ABCD01" })).status).toBe(201);

    const sysEmail = `sys-chips-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const admin = await createUserWithPassword(sysEmail, PASSWORD, [{ type: "system_admin" }]);
    await env.DB.prepare("UPDATE roles SET config = ? WHERE user_id = ?")
      .bind(JSON.stringify({ depots: true }), admin.id)
      .run();
    const cookie = await signIn("admin.localhost", sysEmail, PASSWORD);
    const path = "/_admin/depots/new?class=Gochip";
    const page = await (await worker.fetch(hostRequest("admin.localhost", path, { headers: { Cookie: cookie } }))).text();
    const submission = /<input type="hidden" name="submission" value="([^"]*)"/.exec(page)![1]!;
    const fields: [string, string][] = [
      ["intent", "create"],
      ["submission", submission],
      ["depot", d.depot.id],
      ["hex_code", "ABCD02"],
      ["rack", foreignRack],
      ["slot", "9"],
      ["status", "untested"],
      ["failures", "0"],
    ];
    const refused = await pagePost("admin.localhost", path, fields, cookie);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Choose a rack, lot or shipment of this depot");
    expect(Object.keys(await chipsOf(d.depot.id))).toEqual(["ABCD01"]);
  });
});

describe("a GoChip replacement at a race", () => {
  it("gives the racer the new chip through the room, keeps the old one's reads, marks it at the depot, and acts once", { timeout: 60_000 }, async () => {
    const d = await depotWithStaff("race");
    const host = `chips-${crypto.randomUUID().slice(0, 8)}.localhost`;
    const { club, race } = await createSiteWithRace(db(), { hostname: host, siteName: "Chips", raceName: "Chip 10K", startInDays: 0 });
    const timed = await setUpTimedRoom(race);
    const rack = await loadedRack(d);
    const shipment = await shipRackToRace(d, rack, race.id);
    const [shipped] = await db().select().from(gochipRacks).where(eq(gochipRacks.id, rack));
    expect(shipped!.shipmentId).toBe(shipment);
    await db()
      .update(gochips)
      .set({ status: "faulty" })
      .where(and(eq(gochips.depotId, d.depot.id), eq(gochips.hexCode, "0000A4")));

    const email = `race-admin-${crypto.randomUUID().slice(0, 6)}@example.com`;
    await createUserWithPassword(email, PASSWORD, [{ type: "org_admin", clubId: club.id }]);
    const cookie = await signIn("localhost", email, PASSWORD);
    const racerId = timed.racerIds[0]!;
    const page = `/race/${race.id}/admin/racers/${racerId}`;
    // The start read of the racer's first chip, C1.
    const read = (seq: number, chip: string, seconds: number, channel: number) => ({ seq, chip, time: race.startTime * 1000 + seconds * SECOND, channel });
    expect((await postReads(host, race.id, timed.credential.token, { reads: [read(1, "C1", 0, 1)] })).status).toBe(200);

    const faulty = await pagePost("localhost", page, { intent: "replace-chip", submission: crypto.randomUUID(), new_chip: "0000a4", reason: "lost" }, cookie);
    expect(faulty.status).toBe(400);
    expect(await faulty.text()).toContain("This chip is marked faulty: take another");
    const taken = await pagePost("localhost", page, { intent: "replace-chip", submission: crypto.randomUUID(), new_chip: "C2C2", reason: "lost" }, cookie);
    expect(taken.status).toBe(302);

    const submission = crypto.randomUUID();
    const replace = { intent: "replace-chip", submission, new_chip: "0000A1", reason: "faulty" };
    expect((await pagePost("localhost", page, replace, cookie)).headers.get("Location")).toBe(`${page}?done=replaced`);
    // Sent twice (a double click): one session, the racer as the first left them.
    expect((await pagePost("localhost", page, replace, cookie)).status).toBe(302);
    const sessions = await db().select().from(gochipReplacements).where(eq(gochipReplacements.raceId, race.id));
    expect(sessions.map((s) => [s.oldChip, s.newChip, s.reason])).toEqual([
      ["C1", "C2C2", "lost"],
      ["C2C2", "0000A1", "faulty"],
    ]);
    const racer = await timed.room.racer(racerId);
    expect(racer!.data.chip).toBe("0000A1");
    expect(racer!.data.chip_list).toEqual(["C1", "C2C2"]);

    // A later read of the new chip is the racer's; the start read of the old one stays theirs.
    expect((await postReads(host, race.id, timed.credential.token, { reads: [read(2, "0000A1", 1800, 2)] })).status).toBe(200);
    const crossings = await timed.room.racerCrossings(racerId);
    expect(crossings.filter((c) => c.state === "assigned").map((c) => c.chip)).toEqual(["C1", "0000A1"]);

    // Replacing the depot's chip marks it lost at the depot.
    expect(
      (await pagePost("localhost", page, { intent: "replace-chip", submission: crypto.randomUUID(), new_chip: "0000A2", reason: "lost" }, cookie)).status,
    ).toBe(302);
    expect((await chipsOf(d.depot.id))["0000A1"]!.status).toBe("lost");
    const [last] = await db().select().from(gochipReplacements).where(eq(gochipReplacements.newChip, "0000A2"));
    expect(last!.depotId).toBe(d.depot.id);
    const shown = await (await get(page, cookie)).text();
    expect(shown).toContain("0000A1 (lost) → 0000A2");

    // Another racer's chip is refused in the room's words; garbage is a 4xx.
    const clash = await pagePost("localhost", page, { intent: "replace-chip", submission: crypto.randomUUID(), new_chip: "0000A3", reason: "lost" }, cookie);
    expect(clash.status).toBe(302);
    const second = `/race/${race.id}/admin/racers/${timed.racerIds[1]!}`;
    const held = await pagePost("localhost", second, { intent: "replace-chip", submission: crypto.randomUUID(), new_chip: "0000A3", reason: "lost" }, cookie);
    expect(held.status).toBe(400);
    for (const fields of [
      { intent: "replace-chip", submission: "x", new_chip: "0000A5", reason: "lost" },
      { intent: "replace-chip", submission: crypto.randomUUID(), new_chip: "xyz!", reason: "lost" },
      { intent: "replace-chip", submission: crypto.randomUUID(), new_chip: "0000A5", reason: "stolen" },
    ]) {
      expect((await pagePost("localhost", page, fields, cookie)).status, JSON.stringify(fields)).toBe(400);
    }
    // A depot user of the depot has no say in the race.
    expect((await pagePost("localhost", page, { ...replace, submission: crypto.randomUUID() }, d.userCookie)).status).toBeGreaterThanOrEqual(403);
  });
});
