/**
 * A chip replaced at the line by a Race Timer (decision 0073): "Replace a chip" by bib through the racer page's
 * replacement service, refused to roles without `replace_chip`; the depot's chip given to the racer leaves its
 * slot and is recorded as issued, is "Not returned" once the shipment is back, and "Load chips" puts it back.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { gochipReplacements, shipments } from "../../schema/d1";
import { db, pagePost } from "./auth-fixtures";
import { chip, get, raceWithShippedRack, setChipStatus, signedInWith } from "./gochip-fixtures";

async function raceWithRack(tag: string) {
  const shipped = await raceWithShippedRack(`issue-${tag}`, "Chip 5K");
  const { club, race } = shipped;
  const timer = await signedInWith("timer", [{ type: "race_timer", clubId: club.id, scope: race.id }]);
  return { ...shipped, timer, page: `/race/${race.id}/admin/chips` };
}

describe("a Race Timer replacing a chip at the line", () => {
  it("replaces it by bib through the racer page's service, once per form, and the chip leaves its rack", { timeout: 60_000 }, async () => {
    const { d, race, timed, rack, shipment, timer, page } = await raceWithRack("timer");
    const keypad = await (await get(`/race/${race.id}/admin/keypad`, timer)).text();
    expect(keypad).toContain(`href="${page}"`);
    expect((await get(page, timer)).status).toBe(200);

    const replace = { intent: "replace-chip", submission: crypto.randomUUID(), bib: "2", new_chip: "0000a3", reason: "faulty" };
    const done = await pagePost("localhost", page, replace, timer);
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`${page}?saved=chipReplaced`);
    // Sent twice (a double click): one session, the chip issued once.
    expect((await pagePost("localhost", page, replace, timer)).status).toBe(302);
    const sessions = await db().select().from(gochipReplacements).where(eq(gochipReplacements.raceId, race.id));
    expect(sessions.map((s) => [s.oldChip, s.newChip, s.reason])).toEqual([["C2", "0000A3", "faulty"]]);
    const racer = await timed.room.racer(timed.racerIds[1]!);
    expect([racer!.data.chip, racer!.data.chip_list]).toEqual(["0000A3", ["C2"]]);

    const issued = await chip(d.depot.id, "0000A3");
    expect(issued).toMatchObject({ rackId: null, slot: null, issuedRaceId: race.id, issuedRacerId: timed.racerIds[1], issuedBib: 2, issuedRackId: rack });
    expect(issued.issuedShipmentId).toBe(shipment);
    expect(issued.issuedAt).toBeGreaterThan(0);
    const rackPage = await (await get(`${d.base}/racks/${rack}`, d.userCookie)).text();
    expect(rackPage).toMatch(/<td>3<\/td><td>Empty<\/td>/);
    expect(rackPage).toContain("Issued at the race");
    expect(await (await get(`${d.base}/chips`, d.userCookie)).text()).toMatch(/0000A3<\/td><td>Issued at the race<\/td><td>Chip 5K<\/td><td>2<\/td>/);
    expect(await (await get(page, timer)).text()).toContain("C2 (faulty) → 0000A3");

    // The issued chip replaced in turn is found at its depot and marked lost there.
    const again = { intent: "replace-chip", submission: crypto.randomUUID(), bib: "2", new_chip: "0000A5", reason: "lost" };
    expect((await pagePost("localhost", page, again, timer)).status).toBe(302);
    expect((await chip(d.depot.id, "0000A3")).status).toBe("lost");
  });

  it("answers bad input with the form's messages and refuses roles that may not replace chips", { timeout: 60_000 }, async () => {
    const { d, club, race, timed, timer, page } = await raceWithRack("refusals");
    expect((await timed.room.saveRacer(timed.racerIds[2]!, { chip: "00C3" })).ok).toBe(true);
    await setChipStatus(d.depot.id, "0000A4", "faulty");
    const send = (fields: Record<string, string>, cookie = timer) =>
      pagePost("localhost", page, { intent: "replace-chip", submission: crypto.randomUUID(), bib: "1", new_chip: "0000A1", reason: "lost", ...fields }, cookie);
    const cases: [Record<string, string>, string][] = [
      [{ bib: "abc" }, "Enter a bib number"],
      [{ bib: "" }, "Enter a bib number"],
      [{ bib: "99" }, "No racer has bib 99 in this race"],
      [{ new_chip: "xyz!" }, "A hex code is 4 to 32 hexadecimal digits (0-9, A-F)"],
      [{ new_chip: "0000A4" }, "This chip is marked faulty: take another"],
      [{ bib: "3", new_chip: "00c3" }, "The new chip is the racer&#x27;s chip already"],
      [{ reason: "stolen" }, "Choose why the chip is replaced: lost or faulty"],
      [{ submission: "x" }, "Please reload the page and try again"],
      [{ intent: "other" }, "Unknown action"],
    ];
    for (const [fields, message] of cases) {
      const response = await send(fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(await response.text(), JSON.stringify(fields)).toContain(message);
    }
    // Another racer's chip is refused in the room's words.
    expect((await send({ new_chip: "C2" })).status).toBe(400);
    expect(await db().select().from(gochipReplacements).where(eq(gochipReplacements.raceId, race.id))).toEqual([]);

    const announcer = await signedInWith("announcer", [{ type: "race_announcer", clubId: club.id, scope: race.id }]);
    expect((await get(page, announcer)).status).toBe(403);
    expect((await send({}, announcer)).status).toBe(403);
    const otherTimer = await signedInWith("other-timer", [{ type: "race_timer", clubId: club.id, scope: crypto.randomUUID() }]);
    expect((await send({}, otherTimer)).status).toBe(404);
    expect((await send({}, d.userCookie)).status).toBe(404);
    // The timer still does not open the racer page (race edit).
    expect((await get(`/race/${race.id}/admin/racers/new`, timer)).status).toBe(403);
    expect((await chip(d.depot.id, "0000A1")).rackId).not.toBeNull();
  });
});

describe("a chip issued at a race and the shipment back", () => {
  it("is listed as not returned until Load chips puts it back in a rack, which acts once", { timeout: 60_000 }, async () => {
    const { d, rack, shipment, timer, page } = await raceWithRack("return");
    const replace = { intent: "replace-chip", submission: crypto.randomUUID(), bib: "1", new_chip: "0000A2", reason: "lost" };
    expect((await pagePost("localhost", page, replace, timer)).status).toBe(302);
    // The shipment comes back (its return steps are tests/integration/shipping.test.ts's).
    await db().update(shipments).set({ state: "returned" }).where(eq(shipments.id, shipment));
    const listed = await (await get(`${d.base}/chips`, d.userCookie)).text();
    expect(listed).toMatch(/0000A2<\/td><td>Not returned<\/td>/);

    // It goes back into the first empty slot, and the same load sent twice moves it once.
    const load = { intent: "load", from: "1", codes: "0000A2" };
    const back = await pagePost("localhost", `${d.base}/racks/${rack}`, load, d.userCookie);
    expect(back.status).toBe(302);
    expect((await pagePost("localhost", `${d.base}/racks/${rack}`, load, d.userCookie)).status).toBe(302);
    const returned = await chip(d.depot.id, "0000A2");
    expect(returned).toMatchObject({ rackId: rack, slot: 2, issuedRaceId: null, issuedAt: null, issuedBib: null, issuedShipmentId: null });
    const after = await (await get(`${d.base}/chips`, d.userCookie)).text();
    expect(after).not.toContain("Not returned</td>");
    expect(after.slice(after.indexOf('id="issued"'))).toContain("None.");
  });
});
