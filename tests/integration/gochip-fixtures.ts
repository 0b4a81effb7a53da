/**
 * GoChip test set-up shared by tests/integration/gochips.test.ts and gochip-issues.test.ts: a depot with a
 * Shipping Depot User and Admin signed in, a loaded rack, a rack shipped to a race, and the depot's chips.
 */
import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import { gochips, shippingDepots } from "../../schema/d1";
import { createUserWithPassword, db, pagePost, signIn, worker } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { setUpTimedRoom } from "./timing-fixtures";

export const CHIP_PASSWORD = "glacier-ski-42";

export const get = (path: string, cookie?: string) =>
  worker.fetch(hostRequest("localhost", path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" }));

/** A new user holding these roles, signed in on localhost: their cookie. */
export async function signedInWith(tag: string, roles: Parameters<typeof createUserWithPassword>[2]) {
  const email = `${tag}-${crypto.randomUUID().slice(0, 6)}@example.com`;
  await createUserWithPassword(email, CHIP_PASSWORD, roles);
  return signIn("localhost", email, CHIP_PASSWORD);
}

export async function depotWithStaff(tag: string) {
  const depot = { id: crypto.randomUUID(), name: `Chips ${tag}` };
  await db()
    .insert(shippingDepots)
    .values({ ...depot, fieldMtimes: {} });
  const cookie = (type: string) => signedInWith(`${type}-${tag}`, [{ type, scope: depot.id }]);
  return { depot, base: `/shipments/${depot.id}`, userCookie: await cookie("depot_user"), adminCookie: await cookie("depot_admin") };
}

export type DepotWithStaff = Awaited<ReturnType<typeof depotWithStaff>>;

/** A rack of ten slots with chips 0000A1…0000A5 in slots 1–5. */
export async function loadedRack(d: DepotWithStaff, number = "R1") {
  const rack = crypto.randomUUID();
  expect((await pagePost("localhost", `${d.base}/chips`, { intent: "rack", submission: rack, number, slot_count: "10" }, d.userCookie)).status).toBe(302);
  const codes = ["0000A1", "0000a2", "0x0000A3", "0000A4", "0000A5"].join("\n");
  expect((await pagePost("localhost", `${d.base}/racks/${rack}`, { intent: "load", from: "1", codes }, d.userCookie)).status).toBe(302);
  return rack;
}

/** A shipment of the depot to the race, and the rack sent with it: the shipment's id. */
export async function shipRackToRace(d: DepotWithStaff, rack: string, raceId: string) {
  const shipment = crypto.randomUUID();
  expect((await pagePost("localhost", d.base, { intent: "create", submission: shipment, destination: `race:${raceId}` }, d.userCookie)).status).toBe(302);
  expect((await pagePost("localhost", `${d.base}/racks/${rack}`, { intent: "ship", shipment }, d.userCookie)).status).toBe(302);
  return shipment;
}

export const chipsOf = async (depotId: string) =>
  Object.fromEntries(
    (await db().select().from(gochips).where(eq(gochips.depotId, depotId))).map((c) => [c.hexCode, { slot: c.slot, status: c.status, failures: c.failures }]),
  );

/** One chip of the depot, every column. */
export const chip = async (depotId: string, hexCode: string) =>
  (
    await db()
      .select()
      .from(gochips)
      .where(and(eq(gochips.depotId, depotId), eq(gochips.hexCode, hexCode)))
  )[0]!;

/** A depot with staff, a timed race (racers 1–3 with chips C1–C3) on a site of its own, and the depot's loaded rack shipped to it. */
export async function raceWithShippedRack(tag: string, raceName: string) {
  const d = await depotWithStaff(tag);
  const host = `${tag}-${crypto.randomUUID().slice(0, 8)}.localhost`;
  const { club, race } = await createSiteWithRace(db(), { hostname: host, siteName: `Chips ${tag}`, raceName, startInDays: 0 });
  const timed = await setUpTimedRoom(race);
  const rack = await loadedRack(d);
  const shipment = await shipRackToRace(d, rack, race.id);
  return { d, club, race, timed, rack, shipment };
}

/** raceWithShippedRack with the race's Race Admin signed in, at the bib pickup table: their cookie and the racers page. */
export async function atPickup(tag: string, raceName: string) {
  const shipped = await raceWithShippedRack(tag, raceName);
  const admin = await signedInWith("race-admin", [{ type: "race_admin", clubId: shipped.club.id, scope: shipped.race.id }]);
  return { ...shipped, admin, racers: `/race/${shipped.race.id}/admin/racers` };
}

/** A chip the depot marked faulty or lost (as a test or its staff would). */
export const setChipStatus = (depotId: string, hexCode: string, status: "faulty" | "lost") =>
  db()
    .update(gochips)
    .set({ status })
    .where(and(eq(gochips.depotId, depotId), eq(gochips.hexCode, hexCode)));
