/**
 * Shipments of a depot (issue 27, decision 0051): to a race or a club, their request and packing list
 * (core/shipping/packing.ts), tracked items packed by number, shipping, rentals back or missing, and closing.
 * Each step is one D1 batch whose first statement moves the shipment on and stamps a fresh step token; the
 * others only write while the shipment holds that token, so a step sent twice or from two tabs acts once.
 */
import { and, asc, desc, eq, gte, sql, type SQL } from "drizzle-orm";
import { expandRequest, packingLines, type PackingOutcome, type PackingType } from "../../core/shipping/packing";
import { closeProblem, countsAddUp, fullyPacked, packingProgress, SHIPPING_MESSAGES, type ShipmentState } from "../../core/shipping/shipments";
import {
  clubs,
  depotStock,
  gochipRacks,
  inventoryItems,
  inventoryTypes,
  races,
  rawBatch,
  shipmentCounts,
  shipmentItems,
  shipmentRequests,
  shipments,
  type Db,
} from "../../schema/d1";
import { uniqueConstraintOf } from "../../schema/d1/errors";
import { catalogue, FORBIDDEN, mayAtDepot, refused, type DepotCaller, type ShippingOutcome, type TypeRow } from "./depot-stock";

export type ShipmentRow = typeof shipments.$inferSelect;

export interface NewShipment {
  submission: string;
  /** "race:<id>" or "club:<id>". */
  destination: string;
  address: string | null;
  contactName: string | null;
  contactEmail: string | null;
  contactPhone: string | null;
  shipBy: string | null;
  useFrom: string | null;
  returnBy: string | null;
  notes: string | null;
}

/** The depot's shipments, open ones first, newest first. */
export async function shipmentsOf(db: Db, depotId: string) {
  return db
    .select({ id: shipments.id, destination: shipments.destination, state: shipments.state, shipBy: shipments.shipBy, returnBy: shipments.returnBy })
    .from(shipments)
    .where(eq(shipments.depotId, depotId))
    .orderBy(sql`${shipments.state} = 'closed'`, desc(shipments.createdAt))
    .limit(200);
}

/** Where a shipment can go: races from a week ago on, and clubs, by name. */
export async function destinationChoices(db: Db, now: number) {
  const [raceRows, clubRows] = await Promise.all([
    db
      .select({ id: races.id, name: races.name })
      .from(races)
      .where(gte(races.startTime, now - 7 * 86_400_000))
      .orderBy(asc(races.startTime))
      .limit(200),
    db.select({ id: clubs.id, name: clubs.name }).from(clubs).orderBy(asc(clubs.name)).limit(500),
  ]);
  return [
    ...raceRows.map((r) => ({ value: `race:${r.id}`, label: `Race: ${r.name}` })),
    ...clubRows.map((c) => ({ value: `club:${c.id}`, label: `Club: ${c.name}` })),
  ];
}

/** A new draft shipment; its id is the form's one-time id, so a second send lands on the first one. */
export async function createShipment(db: Db, caller: DepotCaller, input: NewShipment, now: number): Promise<ShippingOutcome<{ id: string }>> {
  if (!mayAtDepot(caller, "create")) return refused(403, { form: FORBIDDEN });
  const [kind, id] = input.destination.split(":");
  const table = kind === "race" ? races : kind === "club" ? clubs : null;
  const [target] = table && id ? await db.select({ name: table.name }).from(table).where(eq(table.id, id)) : [];
  if (!target) return refused(400, { destination: SHIPPING_MESSAGES.destination });
  try {
    await db.insert(shipments).values({
      id: input.submission,
      depotId: caller.depotId,
      raceId: kind === "race" ? id! : null,
      clubId: kind === "club" ? id! : null,
      destination: target.name,
      address: input.address,
      contactName: input.contactName,
      contactEmail: input.contactEmail,
      contactPhone: input.contactPhone,
      shipBy: input.shipBy,
      useFrom: input.useFrom,
      returnBy: input.returnBy,
      notes: input.notes,
      createdBy: caller.userId,
      createdAt: now,
      updatedAt: now,
    });
  } catch (error) {
    if (!uniqueConstraintOf(error)?.startsWith("shipments.id")) throw error;
    const again = await findShipment(db, caller.depotId, input.submission);
    if (!again) return refused(409, { form: "This form was already used: open the shipments list" });
  }
  return { ok: true, id: input.submission };
}

export async function findShipment(db: Db, depotId: string, id: string): Promise<ShipmentRow | null> {
  const [row] = await db
    .select()
    .from(shipments)
    .where(and(eq(shipments.id, id), eq(shipments.depotId, depotId)));
  return row ?? null;
}

const packingTypeOf = (t: TypeRow): PackingType => ({
  key: t.key,
  name: t.name,
  included: t.included,
  autoPackKey: t.autoPackKey,
  packingInstructions: t.packingInstructions,
  ordinal: t.ordinal,
  isTracked: t.isTracked,
  isRentable: t.isRentable,
});

/** Everything the shipment page shows: the request, its packing list, the packed items and the returns. */
export async function shipmentDetail(db: Db, depotId: string, id: string) {
  const shipment = await findShipment(db, depotId, id);
  if (!shipment) return null;
  const [types, requests, items, counts, stock] = await Promise.all([
    catalogue(db),
    db.select().from(shipmentRequests).where(eq(shipmentRequests.shipmentId, id)),
    db
      .select({ itemId: shipmentItems.itemId, typeId: shipmentItems.typeId, state: shipmentItems.state, number: inventoryItems.number })
      .from(shipmentItems)
      .innerJoin(inventoryItems, eq(inventoryItems.id, shipmentItems.itemId))
      .where(eq(shipmentItems.shipmentId, id))
      .orderBy(asc(inventoryItems.number)),
    db.select().from(shipmentCounts).where(eq(shipmentCounts.shipmentId, id)),
    db.select().from(depotStock).where(eq(depotStock.depotId, depotId)),
  ]);
  const byId = new Map(types.map((t) => [t.id, t]));
  const byKey = new Map(types.map((t) => [t.key, packingTypeOf(t)]));
  const request = requests.map((r) => ({ typeId: r.typeId, key: byId.get(r.typeId)?.key ?? "", name: byId.get(r.typeId)?.name ?? "", quantity: r.quantity }));
  const packing: PackingOutcome = expandRequest(byKey, request);
  const packedByType = new Map<string, number>();
  for (const item of items) if (item.state === "packed") packedByType.set(byId.get(item.typeId)!.key, (packedByType.get(byId.get(item.typeId)!.key) ?? 0) + 1);
  const progress = packing.ok ? packingProgress(packingLines(packing.groups), packedByType) : [];
  const onHand = new Map(stock.map((s) => [byId.get(s.typeId)?.key, s.onHand]));
  const short = packing.ok
    ? packingLines(packing.groups)
        .filter((l) => !l.isTracked && (onHand.get(l.key) ?? 0) < l.quantity)
        .map((l) => SHIPPING_MESSAGES.shortStock(l.name, onHand.get(l.key) ?? 0, l.quantity))
    : [];
  const typeName = (typeId: string) => byId.get(typeId)?.name ?? "";
  return {
    shipment,
    types: types.filter((t) => t.isActive).map((t) => ({ id: t.id, key: t.key, name: t.name })),
    request,
    packing,
    progress,
    short,
    items: items.map((i) => ({ ...i, type: typeName(i.typeId) })),
    counts: counts.map((c) => ({ ...c, type: typeName(c.typeId) })),
    stillOut: items.filter((i) => i.state === "out").length + counts.filter((c) => c.isRentable && c.back === null).length,
  };
}

/** The guard of a step's later statements: the shipment still holds this step's token. */
const holds = (id: string, token: string) => sql`EXISTS (SELECT 1 FROM shipments WHERE id = ${id} AND step_token = ${token})`;

/** Moves the shipment on from one of `from` with a fresh token; the step's statements follow it in the batch. */
function step(caller: DepotCaller, id: string, from: readonly ShipmentState[], set: SQL, token: string, now: number, extra: SQL = sql`1 = 1`): SQL {
  const states = sql.join(
    from.map((s) => sql`${s}`),
    sql`, `,
  );
  return sql`UPDATE shipments SET ${set}, step_token = ${token}, updated_at = ${now} WHERE id = ${id} AND depot_id = ${caller.depotId} AND state IN (${states}) AND ${extra}`;
}

/** A draft's request: how many of a type (0 takes it off). */
export async function setRequest(db: Db, caller: DepotCaller, id: string, typeId: string, quantity: number, now: number): Promise<ShippingOutcome> {
  if (!mayAtDepot(caller, "edit")) return refused(403, { form: FORBIDDEN });
  const shipment = await findShipment(db, caller.depotId, id);
  if (!shipment) return refused(404, { form: "There is no such shipment" });
  if (shipment.state !== "draft") return refused(409, { form: SHIPPING_MESSAGES.notDraft });
  const [type] = await db.select().from(inventoryTypes).where(eq(inventoryTypes.id, typeId));
  if (!type) return refused(400, { type: "Choose a type" });
  // The request as it would be must still expand (no include cycle, no unknown type) before it is saved.
  const detail = await shipmentDetail(db, caller.depotId, id);
  const next = [...detail!.request.filter((r) => r.typeId !== typeId), { typeId, key: type.key, name: type.name, quantity }];
  const types = new Map((await catalogue(db)).map((t) => [t.key, packingTypeOf(t)]));
  const expanded = expandRequest(types, next);
  if (!expanded.ok) return refused(400, { quantity: expanded.error });
  const token = crypto.randomUUID();
  const write =
    quantity > 0
      ? sql`INSERT INTO shipment_requests (shipment_id, type_id, quantity) SELECT ${id}, ${typeId}, ${quantity} WHERE ${holds(id, token)} ON CONFLICT (shipment_id, type_id) DO UPDATE SET quantity = excluded.quantity`
      : sql`DELETE FROM shipment_requests WHERE shipment_id = ${id} AND type_id = ${typeId} AND ${holds(id, token)}`;
  const [moved] = await rawBatch(db, [step(caller, id, ["draft"], sql`state = 'draft'`, token, now), write]);
  return moved!.meta.changes > 0 ? { ok: true } : refused(409, { form: SHIPPING_MESSAGES.notDraft });
}

/** Packs a tracked item by its number; the same item in two open shipments is refused by the database itself. */
export async function packItem(db: Db, caller: DepotCaller, id: string, number: string, now: number): Promise<ShippingOutcome> {
  if (!mayAtDepot(caller, "edit")) return refused(403, { form: FORBIDDEN });
  const detail = await shipmentDetail(db, caller.depotId, id);
  if (!detail) return refused(404, { form: "There is no such shipment" });
  if (detail.shipment.state !== "draft") return refused(409, { number: SHIPPING_MESSAGES.notPacking });
  const [item] = await db
    .select({ id: inventoryItems.id, typeId: inventoryItems.typeId, state: inventoryItems.state })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.depotId, caller.depotId), eq(inventoryItems.number, number.trim())));
  if (!item) return refused(404, { number: SHIPPING_MESSAGES.noSuchItem });
  if (detail.items.some((i) => i.itemId === item.id && i.state === "packed")) return { ok: true };
  const key = detail.types.find((t) => t.id === item.typeId)?.key;
  const line = detail.progress.find((p) => p.key === key && p.needed > 0);
  if (!line) return refused(400, { number: SHIPPING_MESSAGES.notOnList });
  if (item.state !== "available") return refused(409, { number: SHIPPING_MESSAGES.notAvailable });
  if (line.packed >= line.needed) return refused(409, { number: SHIPPING_MESSAGES.enoughPacked });
  try {
    const [inserted] = await rawBatch(db, [
      sql`INSERT INTO shipment_items (shipment_id, item_id, type_id, state, packed_at)
          SELECT ${id}, i.id, i.type_id, 'packed', ${now} FROM inventory_items i
          WHERE i.id = ${item.id} AND i.state = 'available'
            AND EXISTS (SELECT 1 FROM shipments s WHERE s.id = ${id} AND s.depot_id = ${caller.depotId} AND s.state = 'draft')
          ON CONFLICT (shipment_id, item_id) DO UPDATE SET state = 'packed', packed_at = excluded.packed_at, returned_at = NULL`,
    ]);
    return inserted!.meta.changes > 0 ? { ok: true } : refused(409, { number: SHIPPING_MESSAGES.notAvailable });
  } catch (error) {
    if (uniqueConstraintOf(error)?.startsWith("shipment_items.item_id")) return refused(409, { number: SHIPPING_MESSAGES.alreadyPacked });
    throw error;
  }
}

/** Takes a packed item back out of a draft. */
export async function unpackItem(db: Db, caller: DepotCaller, id: string, itemId: string): Promise<ShippingOutcome> {
  if (!mayAtDepot(caller, "edit")) return refused(403, { form: FORBIDDEN });
  await rawBatch(db, [
    sql`DELETE FROM shipment_items WHERE shipment_id = ${id} AND item_id = ${itemId} AND state = 'packed'
        AND EXISTS (SELECT 1 FROM shipments WHERE id = ${id} AND depot_id = ${caller.depotId} AND state = 'draft')`,
  ]);
  return { ok: true };
}

/** Draft → packed once every tracked item of the list has its number (exactly as many as listed). */
export async function markPacked(db: Db, caller: DepotCaller, id: string, now: number): Promise<ShippingOutcome> {
  if (!mayAtDepot(caller, "edit")) return refused(403, { form: FORBIDDEN });
  const detail = await shipmentDetail(db, caller.depotId, id);
  if (!detail) return refused(404, { form: "There is no such shipment" });
  if (detail.shipment.state === "packed") return { ok: true };
  if (!detail.packing.ok) return refused(400, { form: detail.packing.error });
  // A shipment of GoChip racks alone (a race's chips, nothing else) asks for no item and is packed as it is.
  if (detail.request.length === 0 && !(await carriesRacks(db, caller.depotId, id))) return refused(400, { form: SHIPPING_MESSAGES.emptyRequest });
  if (!fullyPacked(detail.progress)) return refused(409, { form: SHIPPING_MESSAGES.notPacked });
  await rawBatch(db, [step(caller, id, ["draft"], sql`state = 'packed'`, crypto.randomUUID(), now)]);
  return { ok: true };
}

async function carriesRacks(db: Db, depotId: string, id: string): Promise<boolean> {
  const [rack] = await db
    .select({ id: gochipRacks.id })
    .from(gochipRacks)
    .where(and(eq(gochipRacks.depotId, depotId), eq(gochipRacks.shipmentId, id)))
    .limit(1);
  return rack !== undefined;
}

/** Packed → draft, to change the request or the items again. */
export async function reopenPacking(db: Db, caller: DepotCaller, id: string, now: number): Promise<ShippingOutcome> {
  if (!mayAtDepot(caller, "edit")) return refused(403, { form: FORBIDDEN });
  await rawBatch(db, [step(caller, id, ["packed"], sql`state = 'draft'`, crypto.randomUUID(), now)]);
  return { ok: true };
}

/**
 * Packed → shipped: rentable items go out, the others are gone with it; untracked lines are counted and taken
 * from stock (never below zero: a short count fails the whole batch).
 */
export async function ship(db: Db, caller: DepotCaller, id: string, now: number): Promise<ShippingOutcome> {
  if (!mayAtDepot(caller, "edit")) return refused(403, { form: FORBIDDEN });
  const detail = await shipmentDetail(db, caller.depotId, id);
  if (!detail) return refused(404, { form: "There is no such shipment" });
  if (detail.shipment.state === "shipped") return { ok: true };
  if (detail.shipment.state !== "packed") return refused(409, { form: SHIPPING_MESSAGES.notShippable });
  if (!detail.packing.ok) return refused(400, { form: detail.packing.error });
  if (detail.short.length > 0) return refused(409, { form: detail.short[0]! });
  const token = crypto.randomUUID();
  const guard = holds(id, token);
  const rentable = sql`(SELECT is_rentable FROM inventory_types t WHERE t.id = type_id)`;
  const untracked = packingLines(detail.packing.groups).filter((l) => !l.isTracked);
  const typeIdOf = (key: string) => detail.types.find((t) => t.key === key)?.id ?? "";
  const statements: SQL[] = [
    step(caller, id, ["packed"], sql`state = 'shipped', shipped_at = ${now}`, token, now),
    sql`UPDATE inventory_items SET state = CASE WHEN ${rentable} THEN 'out' ELSE 'gone' END
        WHERE depot_id = ${caller.depotId} AND id IN (SELECT item_id FROM shipment_items WHERE shipment_id = ${id} AND state = 'packed') AND ${guard}`,
    sql`UPDATE shipment_items SET state = CASE WHEN ${rentable} THEN 'out' ELSE 'delivered' END WHERE shipment_id = ${id} AND state = 'packed' AND ${guard}`,
    ...untracked.flatMap((l) => [
      sql`INSERT INTO shipment_counts (shipment_id, type_id, sent, is_rentable) SELECT ${id}, ${typeIdOf(l.key)}, ${l.quantity}, ${l.isRentable ? 1 : 0} WHERE ${guard}`,
      sql`UPDATE depot_stock SET on_hand = on_hand - ${l.quantity}, out = out + ${l.isRentable ? l.quantity : 0}
          WHERE depot_id = ${caller.depotId} AND type_id = ${typeIdOf(l.key)} AND ${guard}`,
    ]),
  ];
  try {
    await rawBatch(db, statements);
  } catch (error) {
    if (/CHECK constraint failed/.test(String(error instanceof Error ? error.message : error)))
      return refused(409, { form: "Not enough stock left to ship this" });
    throw error;
  }
  return { ok: true };
}

/** Nothing rented with the shipment is still out. */
const accountedFor = (id: string) => sql`NOT EXISTS (SELECT 1 FROM shipment_items WHERE shipment_id = ${id} AND state = 'out')
    AND NOT EXISTS (SELECT 1 FROM shipment_counts WHERE shipment_id = ${id} AND is_rentable = 1 AND back IS NULL)`;

/** Shipped → returned once nothing rented is still out (run at the end of each return step). */
const returnedWhenAccounted = (id: string, now: number) =>
  sql`UPDATE shipments SET state = 'returned', updated_at = ${now} WHERE id = ${id} AND state = 'shipped' AND ${accountedFor(id)}`;

/**
 * A shipment back (returned or closed) brings its GoChip racks back to the depot by themselves (decision 0077):
 * run last in each step's batch, so it acts only once the shipment is back.
 */
const racksBack = (caller: DepotCaller, id: string) =>
  sql`UPDATE gochip_racks SET shipment_id = NULL WHERE depot_id = ${caller.depotId} AND shipment_id = ${id}
      AND EXISTS (SELECT 1 FROM shipments WHERE id = ${id} AND depot_id = ${caller.depotId} AND state IN ('returned', 'closed'))`;

/** A rented item came back, or did not. */
export async function markItem(db: Db, caller: DepotCaller, id: string, itemId: string, outcome: "back" | "missing", now: number): Promise<ShippingOutcome> {
  if (!mayAtDepot(caller, "edit")) return refused(403, { form: FORBIDDEN });
  const token = crypto.randomUUID();
  const guard = holds(id, token);
  const isOut = sql`EXISTS (SELECT 1 FROM shipment_items WHERE shipment_id = ${id} AND item_id = ${itemId} AND state = 'out')`;
  const [moved] = await rawBatch(db, [
    step(caller, id, ["shipped"], sql`state = state`, token, now, isOut),
    sql`UPDATE inventory_items SET state = ${outcome === "back" ? "available" : "missing"} WHERE id = ${itemId} AND depot_id = ${caller.depotId} AND ${guard}`,
    sql`UPDATE shipment_items SET state = ${outcome}, returned_at = ${now} WHERE shipment_id = ${id} AND item_id = ${itemId} AND state = 'out' AND ${guard}`,
    returnedWhenAccounted(id, now),
    racksBack(caller, id),
  ]);
  return moved!.meta.changes > 0 ? { ok: true } : refused(409, { form: SHIPPING_MESSAGES.notShipped });
}

/** An untracked rented line came back: how many returned and how many are missing (they add up to what was sent). */
export async function recordCounts(
  db: Db,
  caller: DepotCaller,
  id: string,
  typeId: string,
  back: number,
  missing: number,
  now: number,
): Promise<ShippingOutcome> {
  if (!mayAtDepot(caller, "edit")) return refused(403, { form: FORBIDDEN });
  const [line] = await db
    .select()
    .from(shipmentCounts)
    .where(and(eq(shipmentCounts.shipmentId, id), eq(shipmentCounts.typeId, typeId)));
  if (!line || !line.isRentable) return refused(404, { form: "This line was not rented out" });
  if (line.back !== null) return { ok: true };
  if (!countsAddUp(line.sent, back, missing)) return refused(400, { back: SHIPPING_MESSAGES.countsDontAddUp });
  const token = crypto.randomUUID();
  const guard = holds(id, token);
  const open = sql`EXISTS (SELECT 1 FROM shipment_counts WHERE shipment_id = ${id} AND type_id = ${typeId} AND back IS NULL)`;
  const [moved] = await rawBatch(db, [
    step(caller, id, ["shipped"], sql`state = state`, token, now, open),
    sql`UPDATE shipment_counts SET back = ${back}, missing = ${missing} WHERE shipment_id = ${id} AND type_id = ${typeId} AND back IS NULL AND ${guard}`,
    sql`UPDATE depot_stock SET out = out - ${line.sent}, on_hand = on_hand + ${back}, missing = missing + ${missing}
        WHERE depot_id = ${caller.depotId} AND type_id = ${typeId} AND ${guard}`,
    returnedWhenAccounted(id, now),
    racksBack(caller, id),
  ]);
  return moved!.meta.changes > 0 ? { ok: true } : { ok: true };
}

/** Shipped or returned → closed, never with a rented item unaccounted for. */
export async function closeShipment(db: Db, caller: DepotCaller, id: string, now: number): Promise<ShippingOutcome> {
  if (!mayAtDepot(caller, "edit")) return refused(403, { form: FORBIDDEN });
  const detail = await shipmentDetail(db, caller.depotId, id);
  if (!detail) return refused(404, { form: "There is no such shipment" });
  if (detail.shipment.state === "closed") return { ok: true };
  const problem = closeProblem(detail.shipment.state, detail.stillOut);
  if (problem) return refused(409, { form: problem });
  const [moved] = await rawBatch(db, [
    step(caller, id, ["shipped", "returned"], sql`state = 'closed', closed_at = ${now}`, crypto.randomUUID(), now, accountedFor(id)),
    racksBack(caller, id),
  ]);
  return moved!.meta.changes > 0 ? { ok: true } : refused(409, { form: closeProblem("shipped", 1)! });
}

/**
 * Shipped → returned by hand (decision 0077): a shipment with nothing rented still out (one that carried only
 * GoChip racks and goods, say) is marked back; its racks come back with it. Sent twice, the second finds it
 * returned and does nothing.
 */
export async function markReturned(db: Db, caller: DepotCaller, id: string, now: number): Promise<ShippingOutcome> {
  if (!mayAtDepot(caller, "edit")) return refused(403, { form: FORBIDDEN });
  const detail = await shipmentDetail(db, caller.depotId, id);
  if (!detail) return refused(404, { form: "There is no such shipment" });
  if (detail.shipment.state === "returned") return { ok: true };
  if (detail.shipment.state !== "shipped") return refused(409, { form: SHIPPING_MESSAGES.notShipped });
  if (detail.stillOut > 0) return refused(409, { form: SHIPPING_MESSAGES.stillOut(detail.stillOut) });
  const [moved] = await rawBatch(db, [
    step(caller, id, ["shipped"], sql`state = 'returned'`, crypto.randomUUID(), now, accountedFor(id)),
    racksBack(caller, id),
  ]);
  // Two sends at once: the other one moved it.
  return moved!.meta.changes > 0 || (await findShipment(db, caller.depotId, id))?.state === "returned"
    ? { ok: true }
    : refused(409, { form: SHIPPING_MESSAGES.notShipped });
}

/** Deletes a shipment that has not shipped (its packed items are free again): the depot admin's. */
export async function deleteShipment(db: Db, caller: DepotCaller, id: string): Promise<ShippingOutcome> {
  if (!mayAtDepot(caller, "delete")) return refused(403, { form: FORBIDDEN });
  const [gone] = await rawBatch(db, [sql`DELETE FROM shipments WHERE id = ${id} AND depot_id = ${caller.depotId} AND state IN ('draft', 'packed')`]);
  return gone!.meta.changes > 0 ? { ok: true } : refused(409, { form: "Only a shipment that has not shipped can be deleted" });
}
