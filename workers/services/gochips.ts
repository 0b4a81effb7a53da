/**
 * A depot's GoChips (decision 0068): lots, racks and the chips in their slots, and an Activator's test over a
 * rack. Every query names the caller's depot; who may do what is `can` on the depots area (Shipping Depot
 * User: view, create, edit; Admin: all). A form sent twice acts once: a new lot, rack or test takes its form's
 * one-time id as its own, and loading codes already in the rack adds nothing.
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull, notInArray, or, sql } from "drizzle-orm";
import { chipPlace, GOCHIP_MESSAGES, slotsFor, testOutcome, type GochipStatus, type TestedChip } from "../../core/gochips/chips";
import type { RaceChip } from "../../core/gochips/handouts";
import { isInvalid } from "../../core/time/parse";
import { gochipLots, gochipRacks, gochips, gochipTests, races, shipments, type Db } from "../../schema/d1";
import { uniqueConstraintOf } from "../../schema/d1/errors";
import { FORBIDDEN, mayAtDepot, refused, type DepotCaller, type ShippingOutcome } from "./depot-stock";
import { groupedBy } from "../../core/lists/group";

/** D1 binds at most 100 values a statement: codes go in parts. */
const PART = 80;
export const parts = <T>(rows: readonly T[], size = PART): T[][] =>
  Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));

export const GOCHIP_DEPOT_MESSAGES = {
  lotTaken: "A lot with this number is already in this depot",
  rackTaken: "A rack with this number is already in this depot",
  noRack: "There is no such rack at this depot",
  slotTaken: "Someone else loaded this rack at the same time: reload the page and try again",
  notOpen: "Choose an open shipment of this depot",
  duplicate: (codes: readonly string[]) => `${GOCHIP_MESSAGES.duplicate}: ${codes.slice(0, 10).join(", ")}${codes.length > 10 ? " …" : ""}`,
} as const;

/** The depot's chips counted by status, its lots and racks, the latest tests and the chips out of use. */
export async function chipOverview(db: Db, depotId: string) {
  const [counts, lots, racks, tests, outOfUse] = await Promise.all([
    db
      .select({ status: gochips.status, n: sql<number>`count(*)` })
      .from(gochips)
      .where(eq(gochips.depotId, depotId))
      .groupBy(gochips.status),
    lotsOf(db, depotId),
    racksOf(db, depotId),
    db
      .select({
        id: gochipTests.id,
        at: gochipTests.createdAt,
        rack: gochipRacks.number,
        activator: gochipTests.activator,
        answered: gochipTests.answered,
        silent: gochipTests.silent,
        unknown: gochipTests.unknown,
      })
      .from(gochipTests)
      .leftJoin(gochipRacks, eq(gochipRacks.id, gochipTests.rackId))
      .where(eq(gochipTests.depotId, depotId))
      .orderBy(desc(gochipTests.createdAt))
      .limit(20),
    db
      .select({ hexCode: gochips.hexCode, status: gochips.status, failures: gochips.failures, rack: gochipRacks.number, slot: gochips.slot })
      .from(gochips)
      .leftJoin(gochipRacks, eq(gochipRacks.id, gochips.rackId))
      .where(and(eq(gochips.depotId, depotId), inArray(gochips.status, ["faulty", "lost"])))
      .orderBy(asc(gochips.hexCode))
      .limit(500),
  ]);
  const byStatus = Object.fromEntries(counts.map((c) => [c.status, c.n])) as Partial<Record<GochipStatus, number>>;
  return { byStatus, lots, racks, tests, outOfUse };
}

/** The depot's lots, the latest received first. */
export async function lotsOf(db: Db, depotId: string) {
  return db
    .select({ id: gochipLots.id, lotNumber: gochipLots.lotNumber, receivedOn: gochipLots.receivedOn, chipCount: gochipLots.chipCount, notes: gochipLots.notes })
    .from(gochipLots)
    .where(eq(gochipLots.depotId, depotId))
    .orderBy(desc(gochipLots.receivedOn), asc(gochipLots.lotNumber))
    .limit(500);
}

/** The depot's racks with how many chips each holds and the shipment it travels with. */
export async function racksOf(db: Db, depotId: string) {
  return db
    .select({
      id: gochipRacks.id,
      number: gochipRacks.number,
      slotCount: gochipRacks.slotCount,
      chips: sql<number>`(SELECT count(*) FROM gochips WHERE gochips.rack_id = ${gochipRacks.id})`,
      shipment: shipments.destination,
      shipmentState: shipments.state,
    })
    .from(gochipRacks)
    .leftJoin(shipments, eq(shipments.id, gochipRacks.shipmentId))
    .where(eq(gochipRacks.depotId, depotId))
    .orderBy(asc(gochipRacks.number))
    .limit(500);
}

/** One rack of the depot with its chips by slot; null when it is not this depot's. */
export async function rackOf(db: Db, depotId: string, rackId: string) {
  if (!/^[0-9a-f-]{36}$/.test(rackId)) return null;
  const [rack] = await db
    .select()
    .from(gochipRacks)
    .where(and(eq(gochipRacks.id, rackId), eq(gochipRacks.depotId, depotId)));
  if (!rack) return null;
  const chips = await db
    .select({ id: gochips.id, hexCode: gochips.hexCode, slot: gochips.slot, status: gochips.status, failures: gochips.failures, lot: gochipLots.lotNumber })
    .from(gochips)
    .leftJoin(gochipLots, eq(gochipLots.id, gochips.lotId))
    .where(and(eq(gochips.depotId, depotId), eq(gochips.rackId, rack.id)))
    .orderBy(asc(gochips.slot));
  return { rack, chips };
}

/** A shipment back at the depot: its racks are too (decision 0077), and no rack leaves with it. */
const BACK: ("returned" | "closed")[] = ["returned", "closed"];

/** Open shipments of the depot a rack may travel with. */
export async function openShipmentChoices(db: Db, depotId: string) {
  const rows = await db
    .select({ id: shipments.id, destination: shipments.destination, shipBy: shipments.shipBy })
    .from(shipments)
    .where(and(eq(shipments.depotId, depotId), notInArray(shipments.state, BACK)))
    .orderBy(desc(shipments.createdAt))
    .limit(200);
  return rows.map((s) => ({ value: s.id, label: s.shipBy ? `${s.destination} (ship by ${s.shipBy})` : s.destination }));
}

export interface NewLot {
  submission: string;
  lotNumber: string;
  receivedOn: string | null;
  chipCount: number;
  notes: string | null;
}

/** Records a lot received; its id is the form's one-time id, so a second send makes nothing. */
export async function createLot(db: Db, caller: DepotCaller, lot: NewLot): Promise<ShippingOutcome> {
  if (!mayAtDepot(caller, "create")) return refused(403, { form: FORBIDDEN });
  const { submission, ...fields } = lot;
  return createOnce(db, gochipLots, { id: submission, depotId: caller.depotId, ...fields, fieldMtimes: {} }, { lot_number: GOCHIP_DEPOT_MESSAGES.lotTaken });
}

/** Starts a rack; its id is the form's one-time id. */
export async function createRack(db: Db, caller: DepotCaller, rack: { submission: string; number: string; slotCount: number }) {
  if (!mayAtDepot(caller, "create")) return refused(403, { form: FORBIDDEN });
  const row = { id: rack.submission, depotId: caller.depotId, number: rack.number, slotCount: rack.slotCount, fieldMtimes: {} };
  return createOnce(db, gochipRacks, row, { number: GOCHIP_DEPOT_MESSAGES.rackTaken });
}

/**
 * One insert whose id is a form's one-time id. SQLite may name the number's index before the id's, so a clash
 * is the same form again when the row with this id is there (of this depot), and a taken number otherwise.
 */
async function createOnce<T extends typeof gochipLots | typeof gochipRacks>(
  db: Db,
  table: T,
  row: T["$inferInsert"] & { id: string; depotId: string },
  taken: Record<string, string>,
): Promise<ShippingOutcome> {
  try {
    await db.insert(table).values(row);
    return { ok: true };
  } catch (error) {
    if (!uniqueConstraintOf(error)) throw error;
    const [again] = await db
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.id, row.id), eq(table.depotId, row.depotId)));
    return again ? { ok: true } : refused(409, taken);
  }
}

/**
 * Loads chips into a rack's free slots from `from` on: codes new to the depot (of a lot, when given), and the
 * depot's chips in no rack (issued at a race and back, decision 0073), which are then no longer issued. Codes
 * already in this rack are skipped (the same form again); a code in another rack is refused by name.
 */
export async function loadChips(
  db: Db,
  caller: DepotCaller,
  rackId: string,
  load: { codes: string[]; from: number; lotId: string | null },
): Promise<ShippingOutcome<{ added: number }>> {
  if (!mayAtDepot(caller, "edit")) return refused(403, { form: FORBIDDEN });
  const found = await rackOf(db, caller.depotId, rackId);
  if (!found) return refused(404, { form: GOCHIP_DEPOT_MESSAGES.noRack });
  if (load.lotId) {
    const [lot] = await db
      .select({ id: gochipLots.id })
      .from(gochipLots)
      .where(and(eq(gochipLots.id, load.lotId), eq(gochipLots.depotId, caller.depotId)));
    if (!lot) return refused(400, { lot: GOCHIP_MESSAGES.otherDepot });
  }
  const here = new Set(found.chips.map((c) => c.hexCode));
  const codes = load.codes.filter((c) => !here.has(c));
  if (codes.length === 0) return { ok: true, added: 0 };
  const known = (
    await Promise.all(
      parts(codes).map((part) =>
        db
          .select({ id: gochips.id, hexCode: gochips.hexCode, rackId: gochips.rackId })
          .from(gochips)
          .where(and(eq(gochips.depotId, caller.depotId), inArray(gochips.hexCode, part))),
      ),
    )
  ).flat();
  const elsewhere = known.filter((c) => c.rackId !== null);
  if (elsewhere.length > 0) return refused(409, { codes: GOCHIP_DEPOT_MESSAGES.duplicate(elsewhere.map((c) => c.hexCode)) });
  const slots = slotsFor(found.rack.slotCount, new Set(found.chips.map((c) => c.slot ?? 0)), load.from, codes);
  if (isInvalid(slots)) return refused(400, { from: slots.error });
  const loose = new Map(known.map((c) => [c.hexCode, c.id]));
  const rows = codes
    .filter((hexCode) => !loose.has(hexCode))
    .map((hexCode) => ({
      id: crypto.randomUUID(),
      depotId: caller.depotId,
      hexCode,
      lotId: load.lotId,
      rackId: found.rack.id,
      slot: slots.get(hexCode)!,
      fieldMtimes: {},
    }));
  // A chip back from a race keeps its lot; only while still in no rack, so a second load at once moves it once.
  const putBack = [...loose].map(([hexCode, id]) =>
    db
      .update(gochips)
      .set({ rackId: found.rack.id, slot: slots.get(hexCode)!, ...NOT_ISSUED })
      .where(and(eq(gochips.id, id), eq(gochips.depotId, caller.depotId), isNull(gochips.rackId))),
  );
  try {
    // Nine bound values a row (drizzle binds the status and failures defaults too): 11 rows stay under D1's 100.
    const [first, ...rest] = [...parts(rows, 11).map((part) => db.insert(gochips).values(part)), ...putBack];
    await db.batch([first!, ...rest]);
  } catch (error) {
    const index = uniqueConstraintOf(error);
    if (index?.startsWith("gochips.rack_id")) return refused(409, { form: GOCHIP_DEPOT_MESSAGES.slotTaken });
    if (index?.startsWith("gochips.depot_id")) return refused(409, { codes: GOCHIP_MESSAGES.duplicate });
    throw error;
  }
  return { ok: true, added: codes.length };
}

/** A chip in a rack is issued to nobody. */
const NOT_ISSUED = { issuedRaceId: null, issuedRacerId: null, issuedBib: null, issuedAt: null, issuedRackId: null, issuedShipmentId: null } as const;

/** Sends a rack with an open shipment of the depot, or keeps it at the depot (null). */
export async function setRackShipment(db: Db, caller: DepotCaller, rackId: string, shipmentId: string | null): Promise<ShippingOutcome> {
  if (!mayAtDepot(caller, "edit")) return refused(403, { form: FORBIDDEN });
  if (shipmentId) {
    const [open] = await db
      .select({ id: shipments.id })
      .from(shipments)
      .where(and(eq(shipments.id, shipmentId), eq(shipments.depotId, caller.depotId), notInArray(shipments.state, BACK)));
    if (!open) return refused(400, { shipment: GOCHIP_DEPOT_MESSAGES.notOpen });
  }
  const done = await db
    .update(gochipRacks)
    .set({ shipmentId })
    .where(and(eq(gochipRacks.id, rackId), eq(gochipRacks.depotId, caller.depotId)))
    .returning({ id: gochipRacks.id });
  return done.length > 0 ? { ok: true } : refused(404, { form: GOCHIP_DEPOT_MESSAGES.noRack });
}

export interface TestUpload {
  submission: string;
  rackId: string;
  activator: string | null;
  codes: string[];
}

/**
 * An Activator's test of a rack: the rack's chips against the codes that answered (core/gochips/chips.ts), the
 * test and every chip's new state in one batch whose first statement is the test under the form's one-time id,
 * so a second send writes nothing.
 */
export async function recordTest(db: Db, caller: DepotCaller, upload: TestUpload, now: number): Promise<ShippingOutcome<{ testId: string }>> {
  if (!mayAtDepot(caller, "edit")) return refused(403, { form: FORBIDDEN });
  const found = await rackOf(db, caller.depotId, upload.rackId);
  if (!found) return refused(400, { rack: GOCHIP_DEPOT_MESSAGES.noRack });
  const tested: TestedChip[] = found.chips.map((c) => ({ hexCode: c.hexCode, status: c.status, failures: c.failures }));
  const outcome = testOutcome(tested, upload.codes);
  // Chips that end alike are written together, a part of codes a statement.
  const groups = groupedBy(outcome.chips, (chip) => `${chip.status}:${chip.failures}`);
  const updates = [...groups].flatMap(([key, chips]) => {
    const codes = chips.map((chip) => chip.hexCode);
    const [status, failures] = [key.split(":")[0] as GochipStatus, Number(key.split(":")[1])];
    return parts(codes).map((part) =>
      db
        .update(gochips)
        .set({ status, failures, lastTestedAt: now })
        .where(and(eq(gochips.depotId, caller.depotId), eq(gochips.rackId, found.rack.id), inArray(gochips.hexCode, part))),
    );
  });
  const test = db.insert(gochipTests).values({
    id: upload.submission,
    depotId: caller.depotId,
    rackId: found.rack.id,
    activator: upload.activator,
    userId: caller.userId,
    answered: outcome.answered,
    silent: outcome.silent,
    unknown: outcome.unknown,
    createdAt: now,
    fieldMtimes: {},
  });
  try {
    await db.batch([test, ...updates]);
  } catch (error) {
    if (uniqueConstraintOf(error)?.startsWith("gochip_tests.id")) return { ok: true, testId: upload.submission };
    throw error;
  }
  return { ok: true, testId: upload.submission };
}

/**
 * The depots' chips among `codes` that this race may know: those in racks travelling with shipments to the race,
 * and those issued at it (out of their racks since, decision 0073). The rack and shipment are null for the latter.
 * All of them (codes null) in one query for a racer import (decision 0076).
 */
export async function raceChips(db: Db, raceId: string, codes: readonly string[] | null): Promise<RaceChip[]> {
  if (codes !== null && codes.length === 0) return [];
  return db
    .select({
      id: gochips.id,
      depotId: gochips.depotId,
      hexCode: gochips.hexCode,
      status: gochips.status,
      rackId: gochips.rackId,
      shipmentId: shipments.id,
      issuedRacerId: gochips.issuedRacerId,
    })
    .from(gochips)
    .leftJoin(gochipRacks, eq(gochipRacks.id, gochips.rackId))
    .leftJoin(
      shipments,
      and(eq(shipments.id, gochipRacks.shipmentId), eq(shipments.depotId, gochips.depotId), eq(shipments.raceId, raceId), notInArray(shipments.state, BACK)),
    )
    .where(and(codes === null ? undefined : inArray(gochips.hexCode, [...codes]), or(isNotNull(shipments.id), eq(gochips.issuedRaceId, raceId))));
}

/**
 * The depot's chips issued to racers at races and not put back in a rack (decision 0073), of one rack they left,
 * of one shipment's racks (its return, decision 0077: with the chips given back at the race's table, in no rack
 * either) or all; each with where it is ("Issued at the race" while the shipment is out, "Not returned" once it is back).
 */
export async function issuedChips(db: Db, depotId: string, of: { rackId: string } | { shipmentId: string } | null) {
  const rows = await db
    .select({
      hexCode: gochips.hexCode,
      status: gochips.status,
      rackId: gochips.rackId,
      issuedAt: gochips.issuedAt,
      bib: gochips.issuedBib,
      race: races.name,
      rack: gochipRacks.number,
      shipmentState: shipments.state,
    })
    .from(gochips)
    .leftJoin(races, eq(races.id, gochips.issuedRaceId))
    .leftJoin(gochipRacks, and(eq(gochipRacks.id, gochips.issuedRackId), eq(gochipRacks.depotId, depotId)))
    .leftJoin(shipments, and(eq(shipments.id, gochips.issuedShipmentId), eq(shipments.depotId, depotId)))
    .where(
      and(
        eq(gochips.depotId, depotId),
        isNull(gochips.rackId),
        of !== null && "shipmentId" in of ? eq(gochips.issuedShipmentId, of.shipmentId) : isNotNull(gochips.issuedAt),
        of !== null && "rackId" in of ? eq(gochips.issuedRackId, of.rackId) : undefined,
      ),
    )
    .orderBy(desc(gochips.issuedAt))
    .limit(500);
  return rows.map(({ rackId, shipmentState, ...chip }) => ({ ...chip, place: chipPlace({ rackId, issuedAt: chip.issuedAt }, shipmentState) }));
}
