/**
 * GoChips coming back to their depot (decision 0077): a chip issued at a race checked in to a rack slot, and a
 * lost chip marked found (into a rack slot, or loose: "Not in a rack"). One service for both, as Load chips is
 * for a rack: the chip is no longer issued to anyone, a found chip is "Untested" until its next test, and each
 * changed field is written to the chip's history (`entity_changes`) in the same batch. The first history row
 * takes the form's one-time id, so a second send (a double click) fails on it and writes nothing. Who: the
 * depot's staff who may edit (Shipping Depot Admin and User, through `can`).
 */
import { and, eq, isNull, or, sql } from "drizzle-orm";
import { GOCHIP_MESSAGES, normaliseHex } from "../../core/gochips/chips";
import { isInvalid } from "../../core/time/parse";
import { entityChanges, gochipRacks, gochips, rawBatch, type Db } from "../../schema/d1";
import { uniqueConstraintOf } from "../../schema/d1/errors";
import { Gochip } from "../../schema/entities/gochip-classes";
import { FORBIDDEN, mayAtDepot, refused, type DepotCaller, type ShippingOutcome } from "./depot-stock";
import { GOCHIP_DEPOT_MESSAGES } from "./gochips";

export const GOCHIP_RETURN_MESSAGES = {
  noChip: "There is no chip with this hex code at this depot",
  inRack: (rack: string, slot: number | null) => `This chip is in rack ${rack}${slot === null ? "" : `, slot ${slot}`}: only a chip in no rack is checked in`,
  notLost: "This chip is not marked lost",
  needsRack: "Choose the rack and slot it goes back into",
  slotTaken: (slot: number) => `Slot ${slot} of this rack holds another chip`,
  slotNeeded: "Choose the slot",
  changedMeanwhile: "This chip changed meanwhile: reload the page and try again",
} as const;

export interface ChipReturn {
  submission: string;
  /** "found": a lost chip (rack optional); "checkin": a chip in no rack back into a slot. */
  mode: "found" | "checkin";
  hexCode: string;
  rackId: string | null;
  slot: number | null;
}

type Chip = typeof gochips.$inferSelect;

/** Whether this form already did its work: its first history row is there. */
async function done(db: Db, submission: string): Promise<boolean> {
  const [row] = await db.select({ id: entityChanges.id }).from(entityChanges).where(eq(entityChanges.id, submission));
  return row !== undefined;
}

/** Why the chip cannot go where asked, or the rack it goes into (null: loose). */
async function target(db: Db, caller: DepotCaller, chip: Chip, wanted: ChipReturn): Promise<{ ok: false; outcome: ShippingOutcome } | { ok: true }> {
  const no = (status: 400 | 404 | 409, errors: Record<string, string>) => ({ ok: false as const, outcome: refused(status, errors) });
  if (chip.rackId !== null && chip.status !== "lost") {
    const [rack] = await db.select({ number: gochipRacks.number }).from(gochipRacks).where(eq(gochipRacks.id, chip.rackId));
    return no(409, { hex_code: GOCHIP_RETURN_MESSAGES.inRack(rack?.number ?? "?", chip.slot) });
  }
  if (wanted.mode === "found" && chip.status !== "lost") return no(409, { hex_code: GOCHIP_RETURN_MESSAGES.notLost });
  if (wanted.rackId === null) return wanted.mode === "checkin" ? no(400, { rack: GOCHIP_RETURN_MESSAGES.needsRack }) : { ok: true };
  const [rack] = await db
    .select({ slotCount: gochipRacks.slotCount })
    .from(gochipRacks)
    .where(and(eq(gochipRacks.id, wanted.rackId), eq(gochipRacks.depotId, caller.depotId)));
  if (!rack) return no(400, { rack: GOCHIP_DEPOT_MESSAGES.noRack });
  if (wanted.slot === null) return no(400, { slot: GOCHIP_RETURN_MESSAGES.slotNeeded });
  if (!Number.isInteger(wanted.slot) || wanted.slot < 1 || wanted.slot > rack.slotCount) return no(400, { slot: GOCHIP_MESSAGES.slotRange(rack.slotCount) });
  const [holder] = await db
    .select({ id: gochips.id })
    .from(gochips)
    .where(and(eq(gochips.depotId, caller.depotId), eq(gochips.rackId, wanted.rackId), eq(gochips.slot, wanted.slot)));
  if (holder && holder.id !== chip.id) return no(409, { slot: GOCHIP_RETURN_MESSAGES.slotTaken(wanted.slot) });
  return { ok: true };
}

/** A chip back at the depot: found, checked in, or both. */
export async function returnChip(db: Db, caller: DepotCaller, wanted: ChipReturn, now: number): Promise<ShippingOutcome> {
  if (!mayAtDepot(caller, "edit")) return refused(403, { form: FORBIDDEN });
  if (await done(db, wanted.submission)) return { ok: true };
  const code = normaliseHex(wanted.hexCode);
  if (isInvalid(code)) return refused(400, { hex_code: code.error });
  const [chip] = await db
    .select()
    .from(gochips)
    .where(and(eq(gochips.depotId, caller.depotId), eq(gochips.hexCode, code)));
  if (!chip) return refused(404, { hex_code: GOCHIP_RETURN_MESSAGES.noChip });
  const where = await target(db, caller, chip, wanted);
  if (!where.ok) return where.outcome;
  const after = {
    status: chip.status === "lost" ? ("untested" as const) : chip.status,
    rackId: wanted.rackId,
    slot: wanted.rackId === null ? null : wanted.slot,
    ...NOT_ISSUED,
  };
  const history = historyRows(chip, after, caller.userId, now, wanted.submission);
  // Only while the chip is as it was read (in no rack, or still lost where it was), so two forms at once move it once.
  const update = db
    .update(gochips)
    .set(after)
    .where(
      and(
        eq(gochips.id, chip.id),
        eq(gochips.depotId, caller.depotId),
        eq(gochips.status, chip.status),
        chip.rackId === null ? isNull(gochips.rackId) : or(eq(gochips.rackId, chip.rackId), isNull(gochips.rackId)),
        sql`coalesce(${gochips.issuedAt}, 0) = ${chip.issuedAt ?? 0}`,
      ),
    );
  const ids = history.map((h) => h.id);
  let moved = true;
  try {
    const [first, ...rest] = history;
    if (!first) await update;
    else {
      // A form that lost the race to another (two tabs) moved nothing: its history rows go again in the same batch.
      const [, updated] = await rawBatch(db, [
        db
          .insert(entityChanges)
          .values([first, ...rest])
          .getSQL(),
        update.getSQL(),
        sql`DELETE FROM entity_changes WHERE id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) AND changes() = 0`,
      ]);
      moved = (updated?.meta.changes ?? 0) > 0;
    }
  } catch (error) {
    const index = uniqueConstraintOf(error);
    if (index?.startsWith("entity_changes.id")) return { ok: true };
    if (index?.startsWith("gochips.rack_id")) return refused(409, { form: GOCHIP_DEPOT_MESSAGES.slotTaken });
    throw error;
  }
  return moved ? { ok: true } : refused(409, { form: GOCHIP_RETURN_MESSAGES.changedMeanwhile });
}

const NOT_ISSUED = { issuedRaceId: null, issuedRacerId: null, issuedBib: null, issuedAt: null, issuedRackId: null, issuedShipmentId: null } as const;

/** The chip's history rows as the registry names its fields (one per changed field); the first has the form's id. */
function historyRows(chip: Chip, after: Partial<Chip>, userId: string, at: number, submission: string) {
  const fieldOf = new Map(Gochip.fields.map((f) => [f.column.name, f.api]));
  const changed = Object.entries(after).filter(([key, value]) => chip[key as keyof Chip] !== value);
  return changed.map(([key, value], i) => ({
    id: i === 0 ? submission : crypto.randomUUID(),
    classname: Gochip.classname,
    entityId: chip.id,
    field: fieldOf.get(gochips[key as keyof Chip].name) ?? key,
    kind: "changed" as const,
    oldValue: asJson(chip[key as keyof Chip]),
    newValue: asJson(value),
    userId,
    appId: null,
    changedAt: at,
  }));
}

const asJson = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));
