/**
 * A GoChip replacement session at a race (decision 0068): a racer's lost or faulty chip swapped for another.
 * The racer's chips change through the RaceRoom's racer write (the room refuses a chip another racer holds),
 * so later reads of the new chip are the racer's and the old chip's earlier reads stay theirs. Then one D1
 * batch records the session under the form's one-time id and marks the old chip lost or faulty at the depot
 * whose rack came to this race. Chips are looked up only in racks shipped to this race.
 */
import { and, desc, eq, inArray } from "drizzle-orm";
import { chipsAfterReplacement, GOCHIP_MESSAGES, replacementProblem, type ReplacementReason } from "../../core/gochips/chips";
import { gochipReplacements, gochips, type Db } from "../../schema/d1";
import { uniqueConstraintOf } from "../../schema/d1/errors";
import type { StoredRacer } from "../../schema/race/engine-input";
import { raceChips } from "./gochips";
import type { RaceCatalogue, roomOf } from "./race-access";

type Room = Awaited<ReturnType<typeof roomOf>>;

export interface Replacement {
  submission: string;
  racerId: string;
  /** Normalised (core/gochips/chips.ts normaliseHex). */
  newChip: string;
  reason: ReplacementReason;
  userId: string;
}

export type ReplacementOutcome = { ok: true } | { ok: false; status: 400 | 404; errors: Record<string, string> };

async function sessionExists(db: Db, raceId: string, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: gochipReplacements.id })
    .from(gochipReplacements)
    .where(and(eq(gochipReplacements.id, id), eq(gochipReplacements.raceId, raceId)));
  return row !== undefined;
}

/** Replaces a racer's chip once per form sent. */
export async function replaceChip(db: Db, race: Pick<RaceCatalogue, "id" | "clubId">, room: Room, replacement: Replacement): Promise<ReplacementOutcome> {
  if (await sessionExists(db, race.id, replacement.submission)) return { ok: true };
  const racer = (await room.racer(replacement.racerId)) as StoredRacer | null;
  if (!racer) return { ok: false, status: 404, errors: { form: "There is no such racer in this race" } };
  const oldChip = racer.data.chip;
  const known = await raceChips(db, race.id, oldChip ? [oldChip, replacement.newChip] : [replacement.newChip]);
  const fresh = known.find((c) => c.hexCode === replacement.newChip);
  const problem = replacementProblem(oldChip, replacement.newChip, fresh?.status ?? null);
  if (problem) {
    // The same form sent twice while the first was still writing finds the racer changed already.
    if (problem === GOCHIP_MESSAGES.sameChip && (await sessionExists(db, race.id, replacement.submission))) return { ok: true };
    return { ok: false, status: 400, errors: { new_chip: problem } };
  }
  const saved = await room.saveRacer(racer.id, chipsAfterReplacement(racer.data, replacement.newChip));
  if (!saved.ok) return { ok: false, status: 400, errors: { new_chip: saved.errors.chip ?? saved.errors.chip_list ?? Object.values(saved.errors)[0] ?? "" } };
  const old = oldChip ? known.find((c) => c.hexCode === oldChip) : undefined;
  const session = db.insert(gochipReplacements).values({
    id: replacement.submission,
    clubId: race.clubId,
    raceId: race.id,
    racerId: racer.id,
    oldChip,
    newChip: replacement.newChip,
    reason: replacement.reason,
    depotId: old?.depotId ?? null,
    userId: replacement.userId,
    fieldMtimes: {},
  });
  try {
    if (old)
      await db.batch([
        session,
        db
          .update(gochips)
          .set({ status: replacement.reason })
          .where(and(eq(gochips.id, old.id), eq(gochips.depotId, old.depotId))),
      ]);
    else await session.run();
  } catch (error) {
    if (!uniqueConstraintOf(error)?.startsWith("gochip_replacements.id")) throw error;
  }
  return { ok: true };
}

/** The race's replacement sessions, newest first, for the racer page (one racer) or a list. */
export async function replacementsOf(db: Db, raceId: string, racerIds: readonly string[]) {
  if (racerIds.length === 0) return [];
  return db
    .select({
      id: gochipReplacements.id,
      at: gochipReplacements.createdAt,
      oldChip: gochipReplacements.oldChip,
      newChip: gochipReplacements.newChip,
      reason: gochipReplacements.reason,
    })
    .from(gochipReplacements)
    .where(and(eq(gochipReplacements.raceId, raceId), inArray(gochipReplacements.racerId, [...racerIds])))
    .orderBy(desc(gochipReplacements.createdAt))
    .limit(50);
}
