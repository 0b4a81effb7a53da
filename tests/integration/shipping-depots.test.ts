/**
 * Shipping depots (issue 27, decision 0051) through /shipments/{depot}: stock received once per form, a
 * shipment's packing list from its request, items packed by number and never in two open shipments, shipping,
 * rentals back or missing, and closing only when nothing rented is out; the depot roles' reach.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createSiteWithRace } from "./fixtures";
import { createUserWithPassword, db, pagePost, signIn, pageGet } from "./auth-fixtures";
import { depotStock, inventoryItems, inventoryTypes, shipmentItems, shipments, shippingDepots } from "../../schema/d1";

const PASSWORD = "glacier-ski-42";
const get = (path: string, cookie?: string) => pageGet("localhost", path, cookie);

async function depotWithStaff(tag: string) {
  const depot = { id: crypto.randomUUID(), name: `Depot ${tag}` };
  await db()
    .insert(shippingDepots)
    .values({ ...depot, fieldMtimes: {} });
  const type = async (key: string, more: Partial<typeof inventoryTypes.$inferInsert> = {}) => {
    const id = crypto.randomUUID();
    await db()
      .insert(inventoryTypes)
      .values({ id, key: `${key}-${tag}`, name: key, fieldMtimes: {}, ...more });
    return id;
  };
  const cable = await type("cable", { isRentable: true, autoPackKey: "mats" });
  const mat = await type("mat", {
    isRentable: true,
    isTracked: true,
    autoPackKey: "mats",
    included: [{ key: `cable-${tag}`, quantity: 2 }],
    packingInstructions: "Roll, do not fold.",
  });
  const admin = await createUserWithPassword(`depot-admin-${tag}@example.com`, PASSWORD, [{ type: "depot_admin", scope: depot.id }]);
  const user = await createUserWithPassword(`depot-user-${tag}@example.com`, PASSWORD, [{ type: "depot_user", scope: depot.id }]);
  void admin;
  void user;
  return {
    depot,
    types: { cable, mat },
    adminCookie: await signIn("localhost", `depot-admin-${tag}@example.com`, PASSWORD),
    userCookie: await signIn("localhost", `depot-user-${tag}@example.com`, PASSWORD),
  };
}

const receive = (depot: string, cookie: string, fields: Record<string, string>) =>
  pagePost("localhost", `/shipments/${depot}`, { intent: "receive", submission: crypto.randomUUID(), ...fields }, cookie);

describe("a shipping depot's stock and shipments", () => {
  it("receives stock once per form, ships a packing list with included items, and takes rentals back", { timeout: 60_000 }, async () => {
    const { depot, types, userCookie, adminCookie } = await depotWithStaff("flow");
    const { race } = await createSiteWithRace(db(), { hostname: "ship-flow.localhost", siteName: "Ship", raceName: "Harbour 10K" });
    const base = `/shipments/${depot.id}`;
    const cables = { intent: "receive", submission: crypto.randomUUID(), type: types.cable, quantity: "10" };
    // Sent twice (a double click): received once.
    expect((await pagePost("localhost", base, cables, userCookie)).status).toBe(302);
    expect((await pagePost("localhost", base, cables, userCookie)).status).toBe(302);
    expect((await receive(depot.id, userCookie, { type: types.mat, numbers: "M-1\nM-2, M-3" })).status).toBe(302);
    const dup = await receive(depot.id, userCookie, { type: types.mat, numbers: "M-3" });
    expect(dup.status).toBe(409);
    expect(await dup.text()).toContain("An item with this number is already in this depot: M-3");
    const [stock] = await db().select().from(depotStock).where(eq(depotStock.depotId, depot.id));
    expect(stock).toMatchObject({ onHand: 10, out: 0, missing: 0 });

    const submission = crypto.randomUUID();
    const made = await pagePost(
      "localhost",
      base,
      { intent: "create", submission, destination: `race:${race.id}`, ship_by: "2026-12-01", return_by: "2026-12-10" },
      userCookie,
    );
    expect(made.headers.get("Location")).toBe(`${base}/${submission}?saved=created`);
    expect((await pagePost("localhost", base, { intent: "create", submission, destination: `race:${race.id}` }, userCookie)).headers.get("Location")).toBe(
      `${base}/${submission}?saved=created`,
    );
    expect(await db().select().from(shipments).where(eq(shipments.depotId, depot.id))).toHaveLength(1);
    const page = `${base}/${submission}`;
    const post = (fields: Record<string, string>, cookie = userCookie) => pagePost("localhost", page, fields, cookie);
    expect((await post({ intent: "request", type: types.mat, quantity: "2" })).status).toBe(302);
    const shown = await (await get(page, userCookie)).text();
    expect(shown).toContain("Roll, do not fold.");
    expect(shown).toMatch(/<strong>4<\/strong> × <!-- -->cable/);

    // Not all numbers packed yet: not packed.
    expect((await post({ intent: "pack", number: "M-1" })).status).toBe(302);
    expect((await post({ intent: "pack", number: "M-1" })).status).toBe(302);
    const early = await post({ intent: "packed" });
    expect(early.status).toBe(409);
    expect(await early.text()).toContain("Pack every tracked item before marking the shipment packed");
    expect((await post({ intent: "pack", number: "NOPE" })).status).toBe(404);
    expect((await post({ intent: "pack", number: "M-2" })).status).toBe(302);
    expect(await (await post({ intent: "pack", number: "M-3" })).text()).toContain("Every item of this type is already packed");
    expect((await post({ intent: "packed" })).status).toBe(302);
    expect((await post({ intent: "close" })).status).toBe(409);
    expect((await post({ intent: "ship" })).status).toBe(302);
    expect((await post({ intent: "ship" })).status).toBe(302);
    const [afterShip] = await db().select().from(depotStock).where(eq(depotStock.depotId, depot.id));
    expect(afterShip).toMatchObject({ onHand: 6, out: 4 });

    const closing = await post({ intent: "close" });
    expect(closing.status).toBe(409);
    expect(await closing.text()).toContain("3 rented items are still out: mark each back or missing before closing");
    const [m1] = await db()
      .select()
      .from(inventoryItems)
      .where(and(eq(inventoryItems.depotId, depot.id), eq(inventoryItems.number, "M-1")));
    const [m2] = await db()
      .select()
      .from(inventoryItems)
      .where(and(eq(inventoryItems.depotId, depot.id), eq(inventoryItems.number, "M-2")));
    expect(m1!.state).toBe("out");
    expect((await post({ intent: "back", target: m1!.id })).status).toBe(302);
    expect((await post({ intent: "missing", target: m2!.id })).status).toBe(302);
    expect((await post({ intent: "missing", target: m2!.id })).status).toBe(409);
    expect(await (await post({ intent: "counts", type: types.cable, back: "3", missing: "0" })).text()).toContain(
      "Back and missing must add up to what was sent",
    );
    expect((await post({ intent: "counts", type: types.cable, back: "3", missing: "1" })).status).toBe(302);
    const [returned] = await db().select().from(shipments).where(eq(shipments.id, submission));
    expect(returned!.state).toBe("returned");
    expect((await post({ intent: "close" })).status).toBe(302);
    const [finalStock] = await db().select().from(depotStock).where(eq(depotStock.depotId, depot.id));
    expect(finalStock).toMatchObject({ onHand: 9, out: 0, missing: 1 });
    const depotPage = await (await get(base, adminCookie)).text();
    expect(depotPage).toContain("Missing items");
    expect(depotPage).toContain("M-2");
    expect((await get(`${page}/slip`, userCookie)).status).toBe(200);
  });

  it("never puts one item in two open shipments, even when both pack it at once", async () => {
    const { depot, types, userCookie } = await depotWithStaff("twice");
    const { club } = await createSiteWithRace(db(), { hostname: "ship-twice.localhost", siteName: "Twice", raceName: "Twice race" });
    await receive(depot.id, userCookie, { type: types.cable, quantity: "20" });
    await receive(depot.id, userCookie, { type: types.mat, numbers: "T-1" });
    const open = async () => {
      const id = crypto.randomUUID();
      await pagePost("localhost", `/shipments/${depot.id}`, { intent: "create", submission: id, destination: `club:${club.id}` }, userCookie);
      await pagePost("localhost", `/shipments/${depot.id}/${id}`, { intent: "request", type: types.mat, quantity: "1" }, userCookie);
      return id;
    };
    const [a, b] = [await open(), await open()];
    const both = await Promise.all([a, b].map((id) => pagePost("localhost", `/shipments/${depot.id}/${id}`, { intent: "pack", number: "T-1" }, userCookie)));
    expect(both.map((r) => r.status).sort()).toEqual([302, 409]);
    expect(await db().select().from(shipmentItems).where(eq(shipmentItems.state, "packed"))).toSatisfy(
      (rows: { itemId: string }[]) => rows.filter((r) => r.itemId).length >= 1,
    );
    const held = await db().select().from(shipmentItems);
    expect(held.filter((r) => r.shipmentId === a || r.shipmentId === b)).toHaveLength(1);
  });

  it("refuses an include cycle on the catalogue and in a request", async () => {
    const tag = crypto.randomUUID().slice(0, 6);
    const { depot, userCookie } = await depotWithStaff(`cyc${tag}`);
    const id = crypto.randomUUID();
    await db()
      .insert(inventoryTypes)
      .values([
        { id, key: `a-${tag}`, name: "A", included: [`b-${tag}`], fieldMtimes: {} },
        { id: crypto.randomUUID(), key: `b-${tag}`, name: "B", included: [`a-${tag}`], fieldMtimes: {} },
      ]);
    const { club } = await createSiteWithRace(db(), { hostname: `ship-${tag}.localhost`, siteName: "Cyc", raceName: "Cyc race" });
    const ship = crypto.randomUUID();
    await pagePost("localhost", `/shipments/${depot.id}`, { intent: "create", submission: ship, destination: `club:${club.id}` }, userCookie);
    const refused = await pagePost("localhost", `/shipments/${depot.id}/${ship}`, { intent: "request", type: id, quantity: "1" }, userCookie);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(`Included types must not include each other: a-${tag} → b-${tag} → a-${tag}`);
  });

  it("lets a depot user pack but not delete, refuses others, and answers garbage with a 4xx", { timeout: 30_000 }, async () => {
    const { depot, types, userCookie, adminCookie } = await depotWithStaff("roles");
    const { club } = await createSiteWithRace(db(), { hostname: "ship-roles.localhost", siteName: "Roles", raceName: "Roles race" });
    const id = crypto.randomUUID();
    await pagePost("localhost", `/shipments/${depot.id}`, { intent: "create", submission: id, destination: `club:${club.id}` }, userCookie);
    const page = `/shipments/${depot.id}/${id}`;
    expect((await pagePost("localhost", page, { intent: "delete" }, userCookie)).status).toBe(403);
    expect((await pagePost("localhost", page, { intent: "delete" }, adminCookie)).headers.get("Location")).toBe(`/shipments/${depot.id}?saved=deleted`);
    await createUserWithPassword("stranger-depot@example.com", PASSWORD, []);
    const stranger = await signIn("localhost", "stranger-depot@example.com", PASSWORD);
    expect((await get(`/shipments/${depot.id}`, stranger)).status).toBe(403);
    expect((await receive(depot.id, stranger, { type: types.cable, quantity: "5" })).status).toBe(403);
    // Another depot's admin sees nothing of this one.
    const other = await depotWithStaff("other");
    expect((await get(`/shipments/${depot.id}`, other.adminCookie)).status).toBe(403);
    const garbage: Record<string, string>[] = [
      { intent: "receive", submission: "x", type: "y", quantity: "many" },
      { intent: "create", submission: crypto.randomUUID(), destination: "race:nope" },
      { intent: "create", submission: crypto.randomUUID(), destination: `club:${club.id}`, ship_by: "2026-13-45" },
      { intent: "found", target: "nothing" },
      { intent: "???" },
    ];
    for (const fields of garbage) {
      const status = (await pagePost("localhost", `/shipments/${depot.id}`, fields, userCookie)).status;
      expect(status, JSON.stringify(fields)).toBeGreaterThanOrEqual(400);
      expect(status, JSON.stringify(fields)).toBeLessThan(500);
    }
    const later: Record<string, string>[] = [
      { intent: "request", type: "zz", quantity: "-1" },
      { intent: "pack" },
      { intent: "counts", type: "x" },
      { intent: "ship" },
    ];
    for (const fields of later) {
      const status = (await pagePost("localhost", `/shipments/${depot.id}/${crypto.randomUUID()}`, fields, userCookie)).status;
      expect(status, JSON.stringify(fields)).toBeGreaterThanOrEqual(400);
      expect(status, JSON.stringify(fields)).toBeLessThan(500);
    }
    expect((await get(`/shipments/${depot.id}/${crypto.randomUUID()}`, userCookie)).status).toBe(404);
    expect((await get(`/shipments/${depot.id}/not-a-uuid/slip`, userCookie)).status).toBe(404);
  });
});
