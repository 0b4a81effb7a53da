/**
 * Every hand-set racer chip at a race goes through here (decision 0076): the racer form (save and new racer)
 * and a racer import (bib pickup), besides a replacement (gochip-replacements.ts), which issues through the same
 * statements (`issueChips`). The rule is `chipHandout` (core/gochips/handouts.ts): a depot chip marked faulty or lost is refused,
 * one in a rack shipped to the race leaves its slot and is issued to the racer, the depot chip issued to them
 * before goes back "Not in a rack"; a club's own chip is text. The racer is written by the RaceRoom first, and
 * the depots' chips only when it succeeded, in one D1 batch whose updates each move a chip once, so a second
 * send of the same form changes nothing.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { normaliseHex } from "../../core/gochips/chips";
import { chipBookOf, chipHandout, type ChipBook, type RaceChip } from "../../core/gochips/handouts";
import { gochips, type Db } from "../../schema/d1";
import type { StoredRacer } from "../../schema/race/engine-input";
import type { FieldErrors } from "../../core/entity/field-errors";
import { parts, raceChips } from "./gochips";
import type { roomOf } from "./race-access";
import type { ImportReply } from "../../durable/race/racer-writes";

type Room = Awaited<ReturnType<typeof roomOf>>;
type Saved = { ok: true; value: StoredRacer } | { ok: false; errors: FieldErrors };

/** A depot chip handed to a racer: the chip as the race read it, and the racer's id and bib. */
export interface ChipIssue {
  chip: RaceChip;
  racer: { id: string; bib: number | null };
}

/** Issues a part of the chips a statement: the json holds them, so a statement binds a handful of values. */
const ISSUE_PART = 200;

/**
 * Depot chips out of their racks (or issued at the race to nobody who holds them now) and issued to racers: one
 * statement per 200 chips, the chips and racers passed as one JSON value (D1 binds at most 100 values). Each
 * chip moves only while it is where the race read it, so a second send moves nothing.
 */
export function issueChips(db: Db, raceId: string, issues: readonly ChipIssue[], now = Date.now()) {
  return parts(issues, ISSUE_PART).map((part) => {
    const json = JSON.stringify(
      part.map((i) => ({ c: i.chip.id, r: i.racer.id, b: i.racer.bib, k: i.chip.rackId && i.chip.shipmentId ? i.chip.rackId : null, s: i.chip.shipmentId })),
    );
    // Qualified: json_each has an "id" column of its own.
    const of = (key: string) => sql`(SELECT json_extract(value, ${`$.${key}`}) FROM json_each(${json}) WHERE json_extract(value, '$.c') = "gochips"."id")`;
    return db
      .update(gochips)
      .set({
        rackId: null,
        slot: null,
        issuedRaceId: raceId,
        issuedAt: now,
        issuedRacerId: of("r"),
        issuedBib: of("b"),
        issuedRackId: sql`coalesce(${of("k")}, "gochips"."issued_rack_id")`,
        issuedShipmentId: sql`coalesce(${of("s")}, "gochips"."issued_shipment_id")`,
      })
      .where(
        and(
          sql`"gochips"."id" IN (SELECT json_extract(value, '$.c') FROM json_each(${json}))`,
          sql`("gochips"."rack_id" = ${of("k")} OR ("gochips"."rack_id" IS NULL AND ${of("k")} IS NULL AND "gochips"."issued_race_id" = ${raceId}))`,
        ),
      );
  });
}

/**
 * The depot chip issued to this racer goes back, in no rack ("Not in a rack" at its depot). It keeps the race
 * and the rack it came from, so the race may hand it to someone else (it is on the pickup table, not lost).
 */
function giveBackChip(db: Db, raceId: string, chip: RaceChip, racerId: string) {
  return db
    .update(gochips)
    .set({ issuedRacerId: null, issuedBib: null, issuedAt: null })
    .where(
      and(
        eq(gochips.id, chip.id),
        eq(gochips.depotId, chip.depotId),
        isNull(gochips.rackId),
        eq(gochips.issuedRaceId, raceId),
        eq(gochips.issuedRacerId, racerId),
      ),
    );
}

type Statement = ReturnType<typeof issueChips>[number] | ReturnType<typeof giveBackChip>;

async function writeAll(db: Db, statements: Statement[]): Promise<void> {
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
}

/** The race's depot chips that a chip text could name: for a form, the two codes it changes between. */
async function bookFor(db: Db, raceId: string, chips: (string | null | undefined)[]): Promise<ChipBook> {
  const codes = chips.flatMap((c) => (c ? [normaliseHex(c)] : [])).filter((c): c is string => typeof c === "string");
  return chipBookOf(await raceChips(db, raceId, [...new Set(codes)]));
}

/**
 * The racer form: creates (racer null; as `newId`, the form's one-time id) or changes a racer through the
 * RaceRoom, its chip by the depots' rule. Changes that leave the chip alone read no depot.
 */
export async function saveRacerChip(
  db: Db,
  raceId: string,
  room: Room,
  racer: StoredRacer | null,
  changes: Record<string, unknown>,
  newId?: string,
): Promise<Saved> {
  if (!("chip" in changes)) return (await room.saveRacer(racer?.id ?? null, changes, newId)) as Saved;
  const before = racer?.data.chip ?? null;
  const after = typeof changes.chip === "string" ? changes.chip : null;
  // A new racer is known by the id they will have, so "Add racer" sent again finds their chip issued to them.
  const handout = chipHandout(racer?.id ?? newId ?? null, before, after, await bookFor(db, raceId, [before, after]));
  if (!handout.ok) return { ok: false, errors: { chip: handout.problem } };
  const saved = (await room.saveRacer(racer?.id ?? null, { ...changes, chip: handout.chip }, newId)) as Saved;
  if (!saved.ok) return saved;
  const who = { id: saved.value.id, bib: saved.value.data.bib };
  await writeAll(db, [
    ...(handout.giveBack ? [giveBackChip(db, raceId, handout.giveBack, who.id)] : []),
    ...(handout.issue ? issueChips(db, raceId, [{ chip: handout.issue, racer: who }]) : []),
  ]);
  return saved;
}

/** The race's depot chips, read once for a whole import (decision 0076: not a query per row). */
export async function importChipBook(db: Db, raceId: string): Promise<ChipBook> {
  return chipBookOf(await raceChips(db, raceId, null));
}

/** A new racer's chip after the depots' rule, or its refusal (the import's preview shows it as the row's Chip problem). */
export const importChip = (book: ChipBook) => (chip: string | null) => chipHandout(null, null, chip, book);

/**
 * Writes an import's rows through the RaceRoom, all or nothing (a chip the depots refuse is the row's problem),
 * then issues the depot chips among them to the new racers in one batch.
 */
export async function importRacersWithChips(db: Db, raceId: string, room: Room, rows: Record<string, unknown>[], book: ChipBook): Promise<ImportReply> {
  const handouts = rows.map((r) => importChip(book)(typeof r.chip === "string" ? r.chip : null));
  const refused = handouts.flatMap((h, i) => (h.ok ? [] : [{ row: i + 1, errors: { chip: h.problem } }]));
  if (refused.length > 0) return { ok: false, rows: refused };
  const chips = handouts.map((h) => (h.ok ? h.chip : null));
  const result = await room.importRacers(rows.map((row, i) => (row.chip ? { ...row, chip: chips[i] } : row)));
  if (!result.ok) return result;
  const issues = handouts.flatMap((h, i) => (h.ok && h.issue ? [{ chip: h.issue, racer: { id: result.ids[i]!, bib: bibOf(rows[i]!) } }] : []));
  await writeAll(db, issueChips(db, raceId, issues));
  return result;
}

const bibOf = (row: Record<string, unknown>) => (typeof row.bib === "number" ? row.bib : null);
