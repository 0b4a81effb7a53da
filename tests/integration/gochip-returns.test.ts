/**
 * The rest of a GoChip's life between depot and race (decision 0077): More chips through the handout rule, a
 * bib changed later following onto the issued chip, a chip typed at registration by the depots' rule, a
 * shipment marked returned bringing its racks back and listing the chips issued at the race, and a depot
 * checking a chip in or marking a lost one found, once per form.
 */
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { entityChanges, formElements, gochipRacks, registrations, shipments } from "../../schema/d1";
import { syncRegistrationRacers } from "../../workers/services/registration-racers";
import { cookieFrom, db, pagePost } from "./auth-fixtures";
import { atPickup, chip, depotWithStaff, get, loadedRack, setChipStatus, shipRackToRace, signedInWith } from "./gochip-fixtures";
import { createForm, post } from "./registration-fixtures";
import { createTimedRace, racerForm } from "./timing-fixtures";
import { everyRacer } from "../../workers/services/race-racers";

const pickup = (tag: string) => atPickup(`rack-${tag}`, "Chip Loppet");

describe("More chips at bib pickup", () => {
  it("issues, refuses and gives back every chip of the list as the racer's chip, and the import's Chips column alike", { timeout: 60_000 }, async () => {
    const { d, timed, rack, admin, racers } = await pickup("more");
    await setChipStatus(d.depot.id, "0000A4", "faulty");
    const first = timed.racerIds[0]!;
    const save = (chipList: string) => pagePost("localhost", `${racers}/${first}`, racerForm(timed, 1, { chip_list: chipList }), admin);
    expect((await save("0000a1, club-9")).status).toBe(302);
    expect((await timed.room.racer(first))!.data.chip_list).toEqual(["0000A1", "club-9"]);
    expect(await chip(d.depot.id, "0000A1")).toMatchObject({ rackId: null, slot: null, issuedRacerId: first, issuedBib: 1, issuedRackId: rack });
    // Sent twice: nothing moves again.
    const issued = await chip(d.depot.id, "0000A1");
    expect((await save("0000A1, club-9")).status).toBe(302);
    expect(await chip(d.depot.id, "0000A1")).toEqual(issued);

    const refused = await save("0000A1, 0000a4");
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("0000A4: This chip is marked faulty: take another");
    expect((await chip(d.depot.id, "0000A4")).rackId).not.toBeNull();

    // Dropped from the list: given back, in no rack, as a changed Chip is.
    expect((await save("club-9")).status).toBe(302);
    expect(await chip(d.depot.id, "0000A1")).toMatchObject({ rackId: null, issuedRacerId: null, issuedBib: null, issuedAt: null });

    // The import's Chips column: a faulty chip is the row's Chips problem; the others are issued.
    const path = `${racers}/import`;
    const bad = "First Name,Bib,Chip,Chips\nAnn,101,,0000A4\n";
    const preview = await pagePost("localhost", path, { intent: "preview", text: bad }, admin);
    expect(preview.status).toBe(400);
    expect(await preview.text()).toMatch(/<td>2<\/td><td>Chips<\/td><td>0000A4: This chip is marked faulty: take another<\/td>/);
    const good = 'First Name,Bib,Chip,Chips\nAnn,101,0000A2,"0000a3, own-1"\n';
    expect((await pagePost("localhost", path, { intent: "import", text: good, source: "more.csv" }, admin)).status).toBe(302);
    const ann = (await everyRacer(timed.room)).find((r) => r.data.bib === 101)!;
    expect(ann.data.chip_list).toEqual(["0000A3", "own-1"]);
    expect(await chip(d.depot.id, "0000A3")).toMatchObject({ rackId: null, issuedRacerId: ann.id, issuedBib: 101 });
    expect(await chip(d.depot.id, "0000A2")).toMatchObject({ rackId: null, issuedRacerId: ann.id, issuedBib: 101 });
  });
});

describe("a bib changed after the chip was handed out", () => {
  it("follows onto the issued chip from the racer form and from Assign bibs", { timeout: 60_000 }, async () => {
    const { d, race, timed, admin, racers } = await pickup("bibs");
    const [first, second] = timed.racerIds as [string, string];
    expect((await pagePost("localhost", `${racers}/${first}`, racerForm(timed, 1, { chip: "0000A1" }), admin)).status).toBe(302);
    expect((await pagePost("localhost", `${racers}/${second}`, racerForm(timed, 2, { chip_list: "0000A2" }), admin)).status).toBe(302);
    expect((await chip(d.depot.id, "0000A1")).issuedBib).toBe(1);

    // The racer form: a new bib, the chip left alone.
    expect((await pagePost("localhost", `${racers}/${first}`, racerForm(timed, 21, { chip: "0000A1" }), admin)).status).toBe(302);
    expect(await chip(d.depot.id, "0000A1")).toMatchObject({ issuedBib: 21, issuedRacerId: first });

    // Assign bibs renumbers the group from 200: both issued chips take their racer's new bib.
    const group = await timed.room.saveDocument("StartGroup", null, { name: "All", first_bib: 200 });
    const groupId = (group as { value: { id: string } }).value.id;
    for (const id of timed.racerIds) expect((await timed.room.saveRacer(id, { setupgroup_id: groupId })).ok).toBe(true);
    const page = `/race/${race.id}/admin/startorder`;
    expect((await pagePost("localhost", `${page}?confirm=bibs&group=${groupId}`, { intent: "bibs", target: groupId }, admin)).status).toBe(302);
    const bibs = new Map((await everyRacer(timed.room)).map((r) => [r.id, r.data.bib]));
    expect(bibs.get(first)).toBeGreaterThanOrEqual(200);
    expect((await chip(d.depot.id, "0000A1")).issuedBib).toBe(bibs.get(first));
    expect((await chip(d.depot.id, "0000A2")).issuedBib).toBe(bibs.get(second));
    expect(await (await get(`${d.base}/chips`, d.userCookie)).text()).toContain(
      `0000A1</td><td>Issued at the race</td><td>Chip Loppet</td><td>${bibs.get(first)}</td>`,
    );
  });
});

describe("a chip typed on a registration form", () => {
  it("is issued from its rack when it is a depot chip; a faulty one leaves the racer without it and the racer page says why", { timeout: 60_000 }, async () => {
    const t = await createTimedRace({ racers: 0 });
    const d = await depotWithStaff("registration");
    const rack = await loadedRack(d);
    await shipRackToRace(d, rack, t.race.id);
    await setChipStatus(d.depot.id, "0000A4", "faulty");
    const f = await createForm({ isStripe: false });
    await db().update(registrations).set({ clubId: t.club.id, raceId: t.race.id, raceCourseId: t.course.id }).where(eq(registrations.id, f.registration.id));
    const chipField = crypto.randomUUID();
    await db().insert(formElements).values({
      id: chipField,
      registrationId: f.registration.id,
      clubId: f.club.id,
      siteId: f.site.id,
      fieldMtimes: {},
      type: "text",
      caption: "Chip",
      ordinal: 12,
    });
    const person = (first: string, code: string) => ({
      intent: "save-person",
      [f.ids.first]: first,
      [f.ids.last]: "Racer",
      [f.ids.distance]: "10k",
      [chipField]: code,
    });
    const opened = await post(f.host, f.path, person("Ada", "0000a1"));
    const cookie = cookieFrom(opened, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
    await post(f.host, f.path, person("Bob", "0000A4"), cookie);
    await post(f.host, `${f.path}/cart`, { intent: "continue", email: "chips@example.com" }, cookie);
    expect((await post(f.host, `${f.path}/pay`, { intent: "manual" }, cookie)).status).toBe(302);
    await expect
      .poll(async () => (await everyRacer(t.room)).map((r) => [r.data.first_name, r.data.chip]).sort(), { timeout: 10_000 })
      .toEqual([
        ["Ada", "0000A1"],
        ["Bob", null],
      ]);
    const ada = (await everyRacer(t.room)).find((r) => r.data.first_name === "Ada")!;
    const bob = (await everyRacer(t.room)).find((r) => r.data.first_name === "Bob")!;
    await expect.poll(async () => (await chip(d.depot.id, "0000A1")).issuedRacerId, { timeout: 10_000 }).toBe(ada.id);
    expect(await chip(d.depot.id, "0000A1")).toMatchObject({ rackId: null, issuedBib: ada.data.bib, issuedRaceId: t.race.id });
    expect((await chip(d.depot.id, "0000A4")).rackId).not.toBeNull();

    const admin = await signedInWith("race-admin", [{ type: "race_admin", clubId: t.club.id, scope: t.race.id }]);
    const page = await (await get(`/race/${t.race.id}/admin/racers/${bob.id}`, admin)).text();
    expect(page).toContain("The chip typed at registration (0000A4) was not given to this racer: This chip is marked faulty: take another");
    expect(await (await get(`/race/${t.race.id}/admin/racers/${ada.id}`, admin)).text()).not.toContain("The chip typed at registration");

    // A re-sync changes nothing, at the depot either.
    const before = await chip(d.depot.id, "0000A1");
    expect(await syncRegistrationRacers(env, db(), f.registration.id, null)).toEqual({ ok: true, created: 0, updated: 0, removed: 0 });
    expect(await chip(d.depot.id, "0000A1")).toEqual(before);
  });
});

describe("a shipment that comes back", () => {
  it("brings its racks back by itself and lists the chips issued at the race until they are checked in", { timeout: 60_000 }, async () => {
    const { d, timed, rack, shipment, admin, racers } = await pickup("return");
    const first = timed.racerIds[0]!;
    expect((await pagePost("localhost", `${racers}/${first}`, racerForm(timed, 1, { chip: "0000A1" }), admin)).status).toBe(302);
    const page = `${d.base}/${shipment}`;
    // Not shipped yet: it cannot be marked returned.
    const early = await pagePost("localhost", page, { intent: "returned" }, d.userCookie);
    expect(early.status).toBe(409);
    expect(await early.text()).toContain("Returns are recorded once the shipment has shipped");
    // Packing and shipping are decision 0051's (tests/integration/shipping-depots.test.ts): this one is shipped.
    await db().update(shipments).set({ state: "shipped", shippedAt: Date.now() }).where(eq(shipments.id, shipment));
    expect(await (await get(page, d.userCookie)).text()).toContain("0000A1</td><td>Issued at the race</td><td>Chip Loppet</td><td>1</td>");

    // A Shipping Depot User of another depot and a race admin may not.
    const other = await depotWithStaff("return-other");
    expect((await pagePost("localhost", page, { intent: "returned" }, other.userCookie)).status).toBe(403);
    expect((await pagePost("localhost", page, { intent: "returned" }, admin)).status).toBe(403);
    const racks = async () => (await db().select().from(gochipRacks).where(eq(gochipRacks.id, rack)))[0]!.shipmentId;
    expect(await racks()).toBe(shipment);

    // Marked returned (twice: a double click): the rack is at the depot, the chip not returned, listed on the return.
    expect((await pagePost("localhost", page, { intent: "returned" }, d.userCookie)).status).toBe(302);
    expect((await pagePost("localhost", page, { intent: "returned" }, d.userCookie)).status).toBe(302);
    expect(await racks()).toBeNull();
    const returned = await (await get(page, d.userCookie)).text();
    expect(returned).toMatch(/<strong>Status:<\/strong> (<!-- -->)?Returned/);
    expect(returned).toContain("0000A1</td><td>Not returned</td><td>Chip Loppet</td><td>1</td>");
    const racksRow = (await (await get(`${d.base}/chips`, d.userCookie)).text()).match(/Rack (<!-- -->)?R1<\/a><\/td>.{0,80}/)?.[0];
    expect(racksRow).toContain("At the depot");
    // The race no longer issues from the rack that came back.
    const second = timed.racerIds[1]!;
    expect((await pagePost("localhost", `${racers}/${second}`, racerForm(timed, 2, { chip: "0000A2" }), admin)).status).toBe(302);
    expect((await chip(d.depot.id, "0000A2")).rackId).toBe(rack);
    // A returned shipment takes no rack.
    const ship = await pagePost("localhost", `${d.base}/racks/${rack}`, { intent: "ship", shipment }, d.userCookie);
    expect(ship.status).toBe(400);
    expect(await ship.text()).toContain("Choose an open shipment of this depot");
  });
  it("brings its racks back when it is closed straight from shipped, and the race no longer finds their chips", { timeout: 60_000 }, async () => {
    const { d, timed, rack, shipment, admin, racers } = await pickup("close");
    await db().update(shipments).set({ state: "shipped", shippedAt: Date.now() }).where(eq(shipments.id, shipment));
    expect((await pagePost("localhost", `${d.base}/${shipment}`, { intent: "close" }, d.userCookie)).status).toBe(302);
    expect((await db().select().from(gochipRacks).where(eq(gochipRacks.id, rack)))[0]!.shipmentId).toBeNull();
    expect((await pagePost("localhost", `${racers}/${timed.racerIds[0]!}`, racerForm(timed, 1, { chip: "0000A1" }), admin)).status).toBe(302);
    expect((await chip(d.depot.id, "0000A1")).rackId).toBe(rack);
  });
});

describe("a shipment of racks alone", () => {
  it("is packed, shipped and returned without asking for any item; one with neither is refused", { timeout: 60_000 }, async () => {
    const { d, race, rack, shipment } = await pickup("alone");
    const page = `${d.base}/${shipment}`;
    const state = async () => (await db().select().from(shipments).where(eq(shipments.id, shipment)))[0]!.state;
    expect((await pagePost("localhost", page, { intent: "packed" }, d.userCookie)).status).toBe(302);
    expect(await state()).toBe("packed");
    expect((await pagePost("localhost", page, { intent: "ship" }, d.userCookie)).status).toBe(302);
    expect(await state()).toBe("shipped");
    expect((await pagePost("localhost", page, { intent: "returned" }, d.userCookie)).status).toBe(302);
    expect(await state()).toBe("returned");
    expect((await db().select().from(gochipRacks).where(eq(gochipRacks.id, rack)))[0]!.shipmentId).toBeNull();

    const empty = crypto.randomUUID();
    expect((await pagePost("localhost", d.base, { intent: "create", submission: empty, destination: `race:${race.id}` }, d.userCookie)).status).toBe(302);
    const refused = await pagePost("localhost", `${d.base}/${empty}`, { intent: "packed" }, d.userCookie);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Ask for at least one item, or put a GoChip rack on this shipment");
  });
});

describe("chips back at the depot", () => {
  it("checks an issued chip into a rack slot and marks a lost chip found, once per form, with its history", { timeout: 60_000 }, async () => {
    const { d, timed, rack, admin, racers } = await pickup("found");
    const first = timed.racerIds[0]!;
    expect((await pagePost("localhost", `${racers}/${first}`, racerForm(timed, 1, { chip: "0000A1" }), admin)).status).toBe(302);
    const chips = `${d.base}/chips`;
    const checkin = { intent: "checkin", submission: crypto.randomUUID(), hex_code: "0000a1", rack, slot: "7" };
    const answers = await Promise.all([pagePost("localhost", chips, checkin, d.userCookie), pagePost("localhost", chips, checkin, d.userCookie)]);
    expect(answers.map((r) => r.status)).toEqual([302, 302]);
    const back = await chip(d.depot.id, "0000A1");
    expect(back).toMatchObject({ rackId: rack, slot: 7, issuedRaceId: null, issuedRacerId: null, issuedBib: null, issuedAt: null });
    const history = await db()
      .select()
      .from(entityChanges)
      .where(and(eq(entityChanges.classname, "Gochip"), eq(entityChanges.entityId, back.id)));
    expect(history.map((h) => h.field).sort()).toEqual([
      "issued_bib",
      "issued_race",
      "issued_racer",
      "issued_rack",
      "issued_shipment",
      "issued_time",
      "rack",
      "slot",
    ]);
    expect(history.find((h) => h.id === checkin.submission)).toBeDefined();
    expect(await (await get(chips, d.userCookie)).text()).not.toContain("0000A1</td><td>Issued");

    // A chip in a rack is not checked in; a taken slot and a slot past the rack are refused; garbage is a 4xx.
    const refusals: [Record<string, string>, number, string][] = [
      [{ hex_code: "0000A2", rack, slot: "8" }, 409, "This chip is in rack R1, slot 2: only a chip in no rack is checked in"],
      [{ hex_code: "FFFF01", rack, slot: "8" }, 404, "There is no chip with this hex code at this depot"],
      [{ hex_code: "not hex!", rack, slot: "8" }, 400, "A hex code is 4 to 32 hexadecimal digits (0-9, A-F)"],
      [{ hex_code: "0000A3", rack: "nope", slot: "8" }, 400, "Choose a rack"],
      [{ hex_code: "0000A3", rack: "", slot: "" }, 409, "This chip is in rack R1, slot 3"],
    ];
    for (const [fields, status, message] of refusals) {
      const response = await pagePost("localhost", chips, { intent: "checkin", submission: crypto.randomUUID(), ...fields }, d.userCookie);
      expect(response.status, JSON.stringify(fields)).toBe(status);
      expect(await response.text(), JSON.stringify(fields)).toContain(message);
    }
    expect((await pagePost("localhost", chips, { intent: "checkin", submission: "x", hex_code: "0000A1" }, d.userCookie)).status).toBe(400);

    // A lost chip (replaced at the race: issued, in no rack) found, loose: Untested, "Not in a rack", once.
    await setChipStatus(d.depot.id, "0000A5", "lost");
    const lostInRack = { intent: "found", submission: crypto.randomUUID(), hex_code: "0000A5", rack: "", slot: "" };
    expect((await pagePost("localhost", chips, lostInRack, d.userCookie)).status).toBe(302);
    expect(await chip(d.depot.id, "0000A5")).toMatchObject({ status: "untested", rackId: null, slot: null });
    expect((await pagePost("localhost", chips, lostInRack, d.userCookie)).status).toBe(302);
    const notLost = await pagePost("localhost", chips, { ...lostInRack, submission: crypto.randomUUID() }, d.userCookie);
    expect(notLost.status).toBe(409);
    expect(await notLost.text()).toContain("This chip is not marked lost");

    // Found into a taken slot is refused; into a free one it goes.
    await setChipStatus(d.depot.id, "0000A5", "lost");
    const taken = await pagePost("localhost", chips, { ...lostInRack, submission: crypto.randomUUID(), rack, slot: "7" }, d.userCookie);
    expect(taken.status).toBe(409);
    // A slot past the rack, or no number at all, is refused with the rack's own range.
    for (const slot of ["11", "x", "99999", "2.5"]) {
      const past = await pagePost("localhost", chips, { ...lostInRack, submission: crypto.randomUUID(), rack, slot }, d.userCookie);
      expect([past.status, await past.text()], slot).toEqual([400, expect.stringContaining("Choose a slot from 1 to 10")]);
    }
    expect(await taken.text()).toContain("Slot 7 of this rack holds another chip");
    expect((await pagePost("localhost", chips, { ...lostInRack, submission: crypto.randomUUID(), rack, slot: "9" }, d.userCookie)).status).toBe(302);
    expect(await chip(d.depot.id, "0000A5")).toMatchObject({ status: "untested", rackId: rack, slot: 9 });

    // Two tabs mark it found at once, each with its own form: one moves it, the other is told, and one history is kept.
    await setChipStatus(d.depot.id, "0000A5", "lost");
    const tabs = await Promise.all(
      ["", "8"].map((slot) => pagePost("localhost", chips, { ...lostInRack, submission: crypto.randomUUID(), rack: slot ? rack : "", slot }, d.userCookie)),
    );
    expect(tabs.map((r) => r.status).sort()).toEqual([302, 409]);
    const chipId = (await chip(d.depot.id, "0000A5")).id;
    const statusRows = await db()
      .select()
      .from(entityChanges)
      .where(and(eq(entityChanges.entityId, chipId), eq(entityChanges.field, "status")));
    // Lost → untested twice before (the two finds above), and once now.
    expect(statusRows.filter((r) => r.newValue === JSON.stringify("untested"))).toHaveLength(3);

    // Roles: a race admin has no depot page; another depot's staff neither.
    const other = await depotWithStaff("found-other");
    const again = { ...checkin, submission: crypto.randomUUID(), hex_code: "0000A4", slot: "10" };
    expect((await pagePost("localhost", chips, again, admin)).status).toBe(403);
    expect((await pagePost("localhost", chips, again, other.userCookie)).status).toBe(403);
  });
});
