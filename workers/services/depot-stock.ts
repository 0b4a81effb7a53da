/**
 * A shipping depot's stock (issue 27, decision 0051): tracked types item by item with their number, untracked
 * types as counts; receiving stock once per form sent; the stock by type (available, packed, out, missing)
 * and what went missing. Every query names its depot; who may do what is `can` on the depots area.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { can, type Action, type Principal } from "../../core/access/policy";
import { SHIPPING_MESSAGES } from "../../core/shipping/shipments";
import { depotStock, inventoryItems, inventoryTypes, rawBatch, shipmentItems, shippingDepots, stockReceipts, type Db } from "../../schema/d1";
import { uniqueConstraintOf } from "../../schema/d1/errors";

export interface DepotCaller {
  principal: Principal;
  userId: string;
  depotId: string;
}

export type ShippingOutcome<T = object> = ({ ok: true } & T) | { ok: false; status: 400 | 403 | 404 | 409; errors: Record<string, string> };

export const refused = (status: 400 | 403 | 404 | 409, errors: Record<string, string>) => ({ ok: false as const, status, errors });

export const FORBIDDEN = "Your role at this depot does not allow this";

/** Whether the caller may do this at its depot (Shipping Depot User: view, create, edit; Admin: all). */
export const mayAtDepot = (caller: DepotCaller, action: Action) =>
  can(caller.principal, action, { area: "depots", id: caller.depotId, depotId: caller.depotId });

export async function findDepot(db: Db, depotId: string) {
  if (!/^[0-9a-f-]{36}$/.test(depotId)) return null;
  const [depot] = await db.select().from(shippingDepots).where(eq(shippingDepots.id, depotId));
  return depot ?? null;
}

export type TypeRow = typeof inventoryTypes.$inferSelect;

/** The platform's catalogue, in its order. */
export const catalogue = (db: Db): Promise<TypeRow[]> => db.select().from(inventoryTypes).orderBy(asc(inventoryTypes.ordinal), asc(inventoryTypes.key));

export interface StockRow {
  typeId: string;
  key: string;
  name: string;
  isTracked: boolean;
  isRentable: boolean;
  available: number;
  packed: number;
  out: number;
  missing: number;
}

/** The depot's stock by type: tracked items counted by state (packed = held by an open shipment), untracked from its counts. */
export async function stockOf(db: Db, depotId: string): Promise<StockRow[]> {
  const [types, items, packed, counts] = await Promise.all([
    catalogue(db),
    db
      .select({ typeId: inventoryItems.typeId, state: inventoryItems.state, n: sql<number>`count(*)` })
      .from(inventoryItems)
      .where(eq(inventoryItems.depotId, depotId))
      .groupBy(inventoryItems.typeId, inventoryItems.state),
    db
      .select({ typeId: inventoryItems.typeId, n: sql<number>`count(*)` })
      .from(shipmentItems)
      .innerJoin(inventoryItems, eq(inventoryItems.id, shipmentItems.itemId))
      .where(and(eq(inventoryItems.depotId, depotId), eq(shipmentItems.state, "packed")))
      .groupBy(inventoryItems.typeId),
    db.select().from(depotStock).where(eq(depotStock.depotId, depotId)),
  ]);
  const rows: StockRow[] = [];
  for (const type of types) {
    const base = { typeId: type.id, key: type.key, name: type.name, isTracked: type.isTracked, isRentable: type.isRentable };
    if (type.isTracked) {
      const count = (state: string) => items.find((i) => i.typeId === type.id && i.state === state)?.n ?? 0;
      const held = packed.find((p) => p.typeId === type.id)?.n ?? 0;
      rows.push({ ...base, available: count("available") - held, packed: held, out: count("out"), missing: count("missing") });
    } else {
      const c = counts.find((s) => s.typeId === type.id);
      rows.push({ ...base, available: c?.onHand ?? 0, packed: 0, out: c?.out ?? 0, missing: c?.missing ?? 0 });
    }
  }
  return rows.filter((r) => r.available + r.packed + r.out + r.missing > 0);
}

/** The depot's tracked items that did not come back, by type and number. */
export async function missingItems(db: Db, depotId: string) {
  return db
    .select({ id: inventoryItems.id, number: inventoryItems.number, type: inventoryTypes.name })
    .from(inventoryItems)
    .innerJoin(inventoryTypes, eq(inventoryTypes.id, inventoryItems.typeId))
    .where(and(eq(inventoryItems.depotId, depotId), eq(inventoryItems.state, "missing")))
    .orderBy(asc(inventoryTypes.ordinal), asc(inventoryItems.number))
    .limit(500);
}

export interface Receipt {
  submission: string;
  typeId: string;
  /** Untracked types: how many arrived. */
  quantity: number;
  /** Tracked types: the numbers of the items that arrived. */
  numbers: string[];
}

/** The numbers typed into the receiving form: one per line or separated by commas, blanks dropped, each once. */
export function numbersOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\n,;]+/)
        .map((n) => n.trim())
        .filter((n) => n !== ""),
    ),
  ];
}

/**
 * Stock arrives at the depot: tracked items one by one (a number already at this depot is refused), untracked
 * as a count added to its stock. The receipt row's id is the form's one-time id, so a second send adds nothing.
 */
export async function receiveStock(db: Db, caller: DepotCaller, receipt: Receipt, now: number): Promise<ShippingOutcome<{ added: number }>> {
  if (!mayAtDepot(caller, "create")) return refused(403, { form: FORBIDDEN });
  const [type] = await db.select().from(inventoryTypes).where(eq(inventoryTypes.id, receipt.typeId));
  if (!type) return refused(400, { type: "Choose a type" });
  const log = db.insert(stockReceipts).values({
    id: receipt.submission,
    depotId: caller.depotId,
    typeId: type.id,
    quantity: type.isTracked ? receipt.numbers.length : receipt.quantity,
    numbers: type.isTracked ? receipt.numbers : [],
    userId: caller.userId,
    createdAt: now,
  });
  try {
    if (type.isTracked) {
      if (receipt.numbers.length === 0) return refused(400, { numbers: "Enter the number of each item" });
      const taken = await db
        .select({ number: inventoryItems.number })
        .from(inventoryItems)
        .where(and(eq(inventoryItems.depotId, caller.depotId), inArray(inventoryItems.number, receipt.numbers)));
      if (taken.length > 0) {
        const again = await sameReceipt(db, receipt.submission);
        return again ? { ok: true, added: 0 } : refused(409, { numbers: `${SHIPPING_MESSAGES.duplicateNumber}: ${taken.map((t) => t.number).join(", ")}` });
      }
      const rows = receipt.numbers.map((number) => ({
        id: crypto.randomUUID(),
        depotId: caller.depotId,
        typeId: type.id,
        number,
        name: null,
        fieldMtimes: {},
      }));
      // The receipt first: a resend fails on it and writes none of the items.
      await db.batch([log, ...chunk(rows, 12).map((part) => db.insert(inventoryItems).values(part))]);
      return { ok: true, added: rows.length };
    }
    if (receipt.quantity < 1) return refused(400, { quantity: "Enter how many arrived" });
    await db.batch([
      log,
      db
        .insert(depotStock)
        .values({ depotId: caller.depotId, typeId: type.id, onHand: receipt.quantity })
        .onConflictDoUpdate({ target: [depotStock.depotId, depotStock.typeId], set: { onHand: sql`${depotStock.onHand} + ${receipt.quantity}` } }),
    ]);
    return { ok: true, added: receipt.quantity };
  } catch (error) {
    if (uniqueConstraintOf(error)?.startsWith("stock_receipts.id")) return { ok: true, added: 0 };
    throw error;
  }
}

async function sameReceipt(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: stockReceipts.id }).from(stockReceipts).where(eq(stockReceipts.id, id));
  return row !== undefined;
}

function chunk<T>(rows: readonly T[], size: number): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < rows.length; i += size) parts.push(rows.slice(i, i + size));
  return parts;
}

/** A missing tracked item turned up: it is available again. */
export async function markFound(db: Db, caller: DepotCaller, itemId: string): Promise<ShippingOutcome> {
  if (!mayAtDepot(caller, "edit")) return refused(403, { form: FORBIDDEN });
  const [result] = await rawBatch(db, [
    sql`UPDATE inventory_items SET state = 'available' WHERE id = ${itemId} AND depot_id = ${caller.depotId} AND state = 'missing'`,
  ]);
  return result!.meta.changes > 0 ? { ok: true } : refused(404, { form: "This item is not missing" });
}
