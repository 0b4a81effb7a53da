/**
 * GoChips handed out at bib pickup (decision 0076): the racer form (a new racer, a changed chip) and a racer
 * import issue a depot chip from a rack shipped to the race, give back the depot chip the racer had, refuse a
 * chip the depot marked faulty or lost, take a club's own chip as text, and act once when sent twice.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { gochips } from "../../schema/d1";
import { db, pagePost } from "./auth-fixtures";
import { atPickup, chip, get, setChipStatus, shipRackToRace, signedInWith } from "./gochip-fixtures";
import { racerForm } from "./timing-fixtures";
import { everyRacer } from "../../workers/services/race-racers";

async function pickup(tag: string) {
  const shipped = await atPickup(`pickup-${tag}`, "Chip 10K");
  const setStatus = (hexCode: string, status: "faulty" | "lost") => setChipStatus(shipped.d.depot.id, hexCode, status);
  return { ...shipped, setStatus };
}

describe("a depot chip handed out on the racer form", () => {
  it("is issued to a new racer once when Add racer is sent twice, and the chip changed gives the first back", { timeout: 60_000 }, async () => {
    const { d, timed, rack, shipment, admin, racers } = await pickup("form");
    const submission = crypto.randomUUID();
    const add = racerForm(timed, 41, { submission, chip: "0000a1" });
    const added = await pagePost("localhost", `${racers}/new`, add, admin);
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe(`${racers}/${submission}?done=created`);
    const issued = await chip(d.depot.id, "0000A1");
    expect(issued).toMatchObject({ rackId: null, slot: null, issuedRacerId: submission, issuedBib: 41, issuedRackId: rack, issuedShipmentId: shipment });
    // Sent again (a double click): the same racer, the chip issued once.
    const again = await pagePost("localhost", `${racers}/new`, add, admin);
    expect(again.headers.get("Location")).toBe(`${racers}/${submission}?done=created`);
    expect(await everyRacer(timed.room)).toHaveLength(4);
    expect((await chip(d.depot.id, "0000A1")).issuedAt).toBe(issued.issuedAt);
    // The racer holds the code as the depot writes it.
    expect((await timed.room.racer(submission))!.data.chip).toBe("0000A1");
    expect(await (await get(`${d.base}/chips`, d.userCookie)).text()).toMatch(/0000A1<\/td><td>Issued at the race<\/td><td>Chip 10K<\/td><td>41<\/td>/);

    // Another depot chip: it is issued and the first goes back to the depot, in no rack.
    const change = racerForm(timed, 41, { chip: "0000A2" });
    expect((await pagePost("localhost", `${racers}/${submission}`, change, admin)).status).toBe(302);
    expect(await chip(d.depot.id, "0000A2")).toMatchObject({ rackId: null, issuedRacerId: submission, issuedBib: 41 });
    expect(await chip(d.depot.id, "0000A1")).toMatchObject({ rackId: null, slot: null, issuedRacerId: null, issuedBib: null, issuedAt: null });
    expect(await (await get(`${d.base}/chips`, d.userCookie)).text()).not.toMatch(/0000A1<\/td><td>Issued/);
    const twice = await chip(d.depot.id, "0000A2");
    expect((await pagePost("localhost", `${racers}/${submission}`, change, admin)).status).toBe(302);
    expect(await chip(d.depot.id, "0000A2")).toEqual(twice);

    // A club's own chip is text: accepted, and the depot chip goes back.
    expect((await pagePost("localhost", `${racers}/${submission}`, { ...change, chip: "club-77" }, admin)).status).toBe(302);
    expect((await timed.room.racer(submission))!.data.chip).toBe("club-77");
    expect((await chip(d.depot.id, "0000A2")).issuedAt).toBeNull();

    // A racer who had a club chip takes a depot chip from the rack, another the chip given back at the table.
    const [first, second] = timed.racerIds as [string, string];
    expect((await pagePost("localhost", `${racers}/${first}`, racerForm(timed, 1, { chip: "0000A3" }), admin)).status).toBe(302);
    expect(await chip(d.depot.id, "0000A3")).toMatchObject({ rackId: null, issuedRacerId: first, issuedBib: 1 });
    expect((await pagePost("localhost", `${racers}/${second}`, racerForm(timed, 2, { chip: "0000A1" }), admin)).status).toBe(302);
    expect(await chip(d.depot.id, "0000A1")).toMatchObject({ rackId: null, issuedRacerId: second, issuedBib: 2, issuedRackId: rack });
  });

  it("refuses a chip the depot marked faulty or lost, another racer's chip, and bad input; other roles may not", { timeout: 60_000 }, async () => {
    const { d, club, race, timed, admin, setStatus, racers } = await pickup("refused");
    await setStatus("0000A4", "faulty");
    await setStatus("0000A5", "lost");
    const first = timed.racerIds[0]!;
    const cases: [string, Record<string, string>, string][] = [
      [first, { chip: "0000a4" }, "This chip is marked faulty: take another"],
      [first, { chip: "0000A5" }, "This chip is marked lost: take another"],
      ["new", { submission: crypto.randomUUID(), bib: "50", chip: "0000A4" }, "This chip is marked faulty: take another"],
      [first, { chip: "C2" }, "Chip C2 is already taken"],
      ["new", { submission: "x", bib: "51", chip: "0000A1" }, "Please reload the page and try again"],
    ];
    for (const [racer, fields, message] of cases) {
      const response = await pagePost("localhost", `${racers}/${racer}`, racerForm(timed, 1, fields), admin);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(await response.text(), JSON.stringify(fields)).toContain(message);
    }
    expect((await timed.room.racer(first))!.data.chip).toBe("C1");
    expect(await everyRacer(timed.room)).toHaveLength(3);
    expect((await chip(d.depot.id, "0000A1")).rackId).not.toBeNull();

    // A Race Timer does not open the racer form; another race's admin does not find it.
    const timer = await signedInWith("timer", [{ type: "race_timer", clubId: club.id, scope: race.id }]);
    const add = racerForm(timed, 60, { submission: crypto.randomUUID(), chip: "0000A1" });
    expect((await pagePost("localhost", `${racers}/new`, add, timer)).status).toBe(403);
    const stranger = await signedInWith("stranger", [{ type: "race_admin", clubId: club.id, scope: crypto.randomUUID() }]);
    expect((await pagePost("localhost", `${racers}/new`, add, stranger)).status).toBe(404);
    expect((await chip(d.depot.id, "0000A1")).rackId).not.toBeNull();
  });
});

describe("depot chips in a racer import", () => {
  it("refuses a faulty chip in the preview, issues the rest to the new racers once", { timeout: 60_000 }, async () => {
    const { d, timed, admin, setStatus, racers } = await pickup("import");
    await setStatus("0000A4", "faulty");
    const path = `${racers}/import`;
    const bad = "First Name,Last Name,Bib,Chip\nAnn,Able,101,0000a1\nBob,Baker,102,0000A4\n";
    const preview = await pagePost("localhost", path, { intent: "preview", text: bad }, admin);
    expect(preview.status).toBe(400);
    expect(await preview.text()).toMatch(/<td>3<\/td><td>Chip<\/td><td>This chip is marked faulty: take another<\/td>/);
    expect((await pagePost("localhost", path, { intent: "import", text: bad }, admin)).status).toBe(400);
    expect((await chip(d.depot.id, "0000A1")).rackId).not.toBeNull();

    // Two rows naming one depot chip in two spellings are one chip.
    const twice = "First Name,Bib,Chip\nAnn,101,0000a1\nBob,102,00:00:A1\n";
    expect(await (await pagePost("localhost", path, { intent: "preview", text: twice }, admin)).text()).toContain("Chip 0000A1 is also on row 2");

    const good = "First Name,Last Name,Bib,Chip\nAnn,Able,101,0000a1\nBob,Baker,102,club-5\nCy,Cole,103,0000A2\nDee,Dunn,104,\n";
    const imported = await pagePost("localhost", path, { intent: "import", text: good, source: "pickup.csv" }, admin);
    expect(imported.status).toBe(302);
    const byBib = new Map((await everyRacer(timed.room)).map((r) => [r.data.bib, r]));
    expect([101, 102, 103].map((bib) => byBib.get(bib)!.data.chip)).toEqual(["0000A1", "club-5", "0000A2"]);
    expect(await chip(d.depot.id, "0000A1")).toMatchObject({ rackId: null, issuedRacerId: byBib.get(101)!.id, issuedBib: 101 });
    expect(await chip(d.depot.id, "0000A2")).toMatchObject({ rackId: null, issuedRacerId: byBib.get(103)!.id, issuedBib: 103 });
    // The same import sent again is refused by the room (bibs and chips taken) and moves no chip.
    const before = await chip(d.depot.id, "0000A1");
    expect((await pagePost("localhost", path, { intent: "import", text: good, source: "pickup.csv" }, admin)).status).toBe(400);
    expect(await chip(d.depot.id, "0000A1")).toEqual(before);
    expect(await everyRacer(timed.room)).toHaveLength(7);
  });

  it("issues hundreds of depot chips from one import of a thousand rows", { timeout: 120_000 }, async () => {
    const { d, race, timed, admin, racers } = await pickup("bulk");
    const rack = crypto.randomUUID();
    const made = await pagePost("localhost", `${d.base}/chips`, { intent: "rack", submission: rack, number: "BIG", slot_count: "1000" }, d.userCookie);
    expect(made.status).toBe(302);
    const codes = Array.from({ length: 450 }, (_, i) => `B${String(i).padStart(5, "0")}`);
    expect((await pagePost("localhost", `${d.base}/racks/${rack}`, { intent: "load", from: "1", codes: codes.join("\n") }, d.userCookie)).status).toBe(302);
    await shipRackToRace(d, rack, race.id);
    const rows = Array.from({ length: 1000 }, (_, i) => `R${i},${1000 + i},${i < codes.length ? codes[i] : `own-${i}`}`);
    const text = ["Last Name,Bib,Chip", ...rows].join("\n");
    const imported = await pagePost("localhost", `${racers}/import`, { intent: "import", text, source: "big.csv" }, admin);
    expect(imported.status).toBe(302);
    const issued = await db()
      .select()
      .from(gochips)
      .where(and(eq(gochips.depotId, d.depot.id), eq(gochips.issuedRaceId, race.id)));
    expect(issued).toHaveLength(450);
    const byBib = new Map((await everyRacer(timed.room)).map((r) => [r.data.bib, r.id]));
    expect(issued.every((c) => c.rackId === null && c.issuedRackId === rack && byBib.get(c.issuedBib!) === c.issuedRacerId)).toBe(true);
    expect(issued.find((c) => c.hexCode === "B00449")!.issuedBib).toBe(1449);
  });
});
