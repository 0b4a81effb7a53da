/**
 * Every hand-set racer chip at a race goes through here (decisions 0076, 0077): the racer form (save and new
 * racer, Chip and More chips), a racer import (bib pickup) and racers made from registrations, besides a
 * replacement (gochip-replacements.ts), which issues through the same statements (`issueChips`). The rule is
 * `chipHandout` (core/gochips/handouts.ts): a depot chip marked faulty or lost is refused, one in a rack shipped
 * to the race leaves its slot and is issued to the racer, a depot chip issued to them and dropped goes back "Not
 * in a rack"; a club's own chip is text. The racer is written by the RaceRoom first, and the depots' chips only
 * when it succeeded, in one D1 batch whose updates each move a chip once, so a second send of the same form
 * changes nothing. A racer's bib changed later follows onto the chips issued to them (`followBibs`). A batch D1
 * refuses after the room wrote is queued and written again (`writeChipsOrQueue`, decision 0083).
 */
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { normaliseHex } from "../../core/gochips/chips";
import { chipBookOf, chipHandout, oneChip, type ChipBook, type RacerChips, type RaceChip } from "../../core/gochips/handouts";
import { gochips, type Db } from "../../schema/d1";
import type { StoredRacer } from "../../schema/race/engine-input";
import type { FieldErrors } from "../../core/entity/field-errors";
import { parts, raceChips } from "./gochips";
import type { roomOf } from "./race-access";
import type { ImportReply } from "../../durable/race/racer-writes";
import type { ChipMove } from "../../durable/race/registration-entries";
import { chipWriteParts, type ChipWrites } from "./chip-writes";
import { everyRacer } from "./race-racers";

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

/**
 * The bibs of racers holding chips issued at the race follow onto those chips (the depot sees the racer's
 * current bib): one statement per 200 racers, as `issueChips`.
 */
export function followBibs(db: Db, raceId: string, racers: readonly { id: string; bib: number | null }[]) {
  return parts(racers, ISSUE_PART).map((part) => {
    const json = JSON.stringify(part.map((r) => ({ r: r.id, b: r.bib })));
    return db
      .update(gochips)
      .set({ issuedBib: sql`(SELECT json_extract(value, '$.b') FROM json_each(${json}) WHERE json_extract(value, '$.r') = "gochips"."issued_racer_id")` })
      .where(
        and(
          eq(gochips.issuedRaceId, raceId),
          isNull(gochips.rackId),
          sql`"gochips"."issued_racer_id" IN (SELECT json_extract(value, '$.r') FROM json_each(${json}))`,
        ),
      );
  });
}

/**
 * After a write that renumbers racers in the RaceRoom (Assign bibs, racers made from registrations): the chips
 * issued at the race whose bib is no longer their racer's take it, in one batch. A race with no issued chip
 * reads only D1.
 */
export async function followRoomBibs(env: Env, db: Db, raceId: string, room: Room): Promise<number> {
  const issued = await db
    .select({ racerId: gochips.issuedRacerId, bib: gochips.issuedBib })
    .from(gochips)
    .where(and(eq(gochips.issuedRaceId, raceId), isNull(gochips.rackId), isNotNull(gochips.issuedRacerId)));
  if (issued.length === 0) return 0;
  const bibs = new Map((await everyRacer(room)).map((r) => [r.id, r.data.bib]));
  const stale = issued.filter((c) => bibs.has(c.racerId!) && bibs.get(c.racerId!) !== c.bib).map((c) => ({ id: c.racerId!, bib: bibs.get(c.racerId!)! }));
  await writeChipsOrQueue(env, db, { ...noWrites(raceId), follow: [...new Map(stale.map((r) => [r.id, r])).values()] });
  return stale.length;
}

/** "Assign bibs" (the start order page): the room numbers the racers, then their issued chips take the new bibs. */
export async function assignBibsWithChips(env: Env, db: Db, raceId: string, room: Room, startGroupId: string | null) {
  const result = await room.assignBibs(startGroupId);
  if (result.ok && result.value.changed > 0) await followRoomBibs(env, db, raceId, room);
  return result;
}

const noWrites = (raceId: string, at = Date.now()): ChipWrites => ({ raceId, at, issue: [], giveBack: [], follow: [] });

/** The writes as one D1 batch: chips given back, chips issued, then bibs followed. */
export async function writeChips(db: Db, writes: ChipWrites): Promise<void> {
  const { raceId } = writes;
  const [first, ...rest] = [
    ...writes.giveBack.map((g) => giveBackChip(db, raceId, g.chip, g.racerId)),
    ...issueChips(db, raceId, writes.issue, writes.at),
    ...followBibs(db, raceId, writes.follow),
  ];
  if (first) await db.batch([first, ...rest]);
}

/**
 * After the RaceRoom wrote the racers: the depots' chips in one batch, or, when D1 refuses it, the same writes
 * queued (`chip-writes` jobs) to be written again, as the racers are saved and a second send would find no change.
 * Throws only when the queue refuses them too.
 */
export async function writeChipsOrQueue(env: Env, db: Db, writes: ChipWrites): Promise<void> {
  try {
    await writeChips(db, writes);
  } catch (error) {
    console.error("Writing the depots' chips failed; queued to be written again", writes.raceId, error);
    // A message each: a batch of messages may hold 256 KB in all, and an import's chips can be more.
    await Promise.all(chipWriteParts(writes).map((part) => env.JOBS_QUEUE.send({ kind: "chip-writes", ...part })));
  }
}

/** The race's depot chips that a racer's chip texts could name: for a form, the codes it changes between. */
export async function bookFor(db: Db, raceId: string, chips: (string | null | undefined)[]): Promise<ChipBook> {
  const codes = chips.flatMap((c) => (c ? [normaliseHex(c)] : [])).filter((c): c is string => typeof c === "string");
  return chipBookOf(await raceChips(db, raceId, [...new Set(codes)]));
}

const textList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((c): c is string => typeof c === "string") : []);

/**
 * The racer form: creates (racer null; as `newId`, the form's one-time id) or changes a racer through the
 * RaceRoom, its Chip and More chips by the depots' rule, a changed bib following onto their issued chips.
 * Changes that leave the chips and bib alone read and write no depot.
 */
export async function saveRacerChip(
  env: Env,
  db: Db,
  raceId: string,
  room: Room,
  racer: StoredRacer | null,
  changes: Record<string, unknown>,
  newId?: string,
): Promise<Saved> {
  const chipsChange = "chip" in changes || "chip_list" in changes;
  if (!chipsChange && !(racer && "bib" in changes)) return (await room.saveRacer(racer?.id ?? null, changes, newId)) as Saved;
  const before: RacerChips = { chip: racer?.data.chip ?? null, chip_list: racer?.data.chip_list ?? [] };
  const after: RacerChips = {
    chip: "chip" in changes ? (typeof changes.chip === "string" ? changes.chip : null) : before.chip,
    chip_list: "chip_list" in changes ? textList(changes.chip_list) : before.chip_list,
  };
  // A new racer is known by the id they will have, so "Add racer" sent again finds their chips issued to them.
  const book = chipsChange ? await bookFor(db, raceId, [before.chip, ...before.chip_list, after.chip, ...after.chip_list]) : chipBookOf([]);
  const handout = chipHandout(racer?.id ?? newId ?? null, before, after, book);
  if (!handout.ok) return { ok: false, errors: { [handout.field]: handout.problem } };
  const written = {
    ...changes,
    ...("chip" in changes ? { chip: handout.chips.chip } : {}),
    ...("chip_list" in changes ? { chip_list: handout.chips.chip_list } : {}),
  };
  const saved = (await room.saveRacer(racer?.id ?? null, written, newId)) as Saved;
  if (!saved.ok) return saved;
  const who = { id: saved.value.id, bib: saved.value.data.bib };
  await writeChipsOrQueue(env, db, {
    ...noWrites(raceId),
    giveBack: handout.giveBack.map((chip) => ({ chip, racerId: who.id })),
    issue: handout.issue.map((chip) => ({ chip, racer: who })),
    // The chips issued to them before keep up with a new bib (their issue above already has it).
    follow: racer && "bib" in changes ? [who] : [],
  });
  return saved;
}

/** The race's depot chips, read once for a whole import (decision 0076: not a query per row). */
export async function importChipBook(db: Db, raceId: string): Promise<ChipBook> {
  return chipBookOf(await raceChips(db, raceId, null));
}

/** A new racer's chips after the depots' rule, or its refusal (the import's preview shows it as the row's Chip or Chips problem). */
export const importChip = (book: ChipBook) => (chips: RacerChips) => chipHandout(null, oneChip(null), chips, book);

/**
 * Writes an import's rows through the RaceRoom, all or nothing (a chip the depots refuse is the row's problem),
 * then issues the depot chips among them to the new racers in one batch.
 */
export async function importRacersWithChips(
  env: Env,
  db: Db,
  raceId: string,
  room: Room,
  rows: Record<string, unknown>[],
  book: ChipBook,
): Promise<ImportReply> {
  const handouts = rows.map((r) => importChip(book)({ chip: typeof r.chip === "string" ? r.chip : null, chip_list: textList(r.chip_list) }));
  const refused = handouts.flatMap((h, i) => (h.ok ? [] : [{ row: i + 1, errors: { [h.field]: h.problem } }]));
  if (refused.length > 0) return { ok: false, rows: refused };
  const written = rows.map((row, i) => {
    const h = handouts[i]!;
    if (!h.ok) return row;
    return { ...row, ...(row.chip ? { chip: h.chips.chip } : {}), ...("chip_list" in row ? { chip_list: h.chips.chip_list } : {}) };
  });
  const result = await room.importRacers(written);
  if (!result.ok) return result;
  const issues = handouts.flatMap((h, i) => (h.ok ? h.issue.map((chip) => ({ chip, racer: { id: result.ids[i]!, bib: bibOf(rows[i]!) } })) : []));
  await writeChipsOrQueue(env, db, { ...noWrites(raceId), issue: issues });
  return result;
}

const bibOf = (row: Record<string, unknown>) => (typeof row.bib === "number" ? row.bib : null);

/**
 * A chip typed on a registration form, by the depots' rule (decision 0077): a depot chip as the depot writes it,
 * a club's own as typed, and undefined when the depot marked it faulty or lost (the racer is entered without it).
 */
export function registrationChip(book: ChipBook, chip: string | null): string | null | undefined {
  const handout = chipHandout(null, oneChip(null), oneChip(chip), book);
  return handout.ok ? handout.chips.chip : undefined;
}

/** After a registration sync: the depot chips the RaceRoom gave racers are issued to them, those it took away go back. */
export async function followSyncedChips(env: Env, db: Db, raceId: string, moves: readonly ChipMove[]): Promise<void> {
  if (moves.length === 0) return;
  const book = await bookFor(
    db,
    raceId,
    moves.flatMap((m) => [m.before.chip, ...m.before.chip_list, m.after.chip, ...m.after.chip_list]),
  );
  const writes = noWrites(raceId);
  for (const m of moves) {
    const handout = chipHandout(m.id, m.before, m.after, book);
    if (!handout.ok) continue;
    writes.giveBack.push(...handout.giveBack.map((chip) => ({ chip, racerId: m.id })));
    writes.issue.push(...handout.issue.map((chip) => ({ chip, racer: { id: m.id, bib: m.bib } })));
  }
  await writeChipsOrQueue(env, db, writes);
}
