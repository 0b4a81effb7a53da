/**
 * A GoChip replacement session at a race (decision 0068): a racer's lost or faulty chip swapped for another.
 * The racer's chips change through the RaceRoom's racer write (the room refuses a chip another racer holds),
 * so later reads of the new chip are the racer's and the old chip's earlier reads stay theirs. Then one D1
 * batch records the session under the form's one-time id and marks the old chip lost or faulty at the depot
 * whose rack came to this race; the new chip, when a depot's rack brought it, leaves its slot and is recorded as
 * issued to the racer (decision 0073). Chips are looked up only in racks shipped to this race or issued at it.
 * Who may: `replace_chip` on the race (core/access/policy.ts): race editors and the Race Timer at the line.
 */
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Principal } from "../../core/access/policy";
import { chipsAfterReplacement, GOCHIP_MESSAGES, replacementProblem, type ReplacementReason } from "../../core/gochips/chips";
import { gochipReplacements, gochips, type Db } from "../../schema/d1";
import { uniqueConstraintOf } from "../../schema/d1/errors";
import type { StoredRacer } from "../../schema/race/engine-input";
import { raceChips } from "./gochips";
import { issueChips } from "./racer-chips";
import type { ReplacementRecord } from "./chip-writes";
import { canOnRace, type RaceCatalogue, type roomOf } from "./race-access";

type Room = Awaited<ReturnType<typeof roomOf>>;

export interface Replacement {
  submission: string;
  /** The racer page names the racer; the timer's page their bib. */
  racer: { id: string } | { bib: number };
  /** Normalised (core/gochips/chips.ts normaliseHex). */
  newChip: string;
  reason: ReplacementReason;
  userId: string;
}

export type ReplacementOutcome = { ok: true } | { ok: false; status: 400 | 403 | 404; errors: Record<string, string> };

export const REPLACEMENT_MESSAGES = {
  forbidden: "You may not replace chips at this race",
  noRacer: "There is no such racer in this race",
  noBib: (bib: number) => `No racer has bib ${bib} in this race`,
} as const;

async function sessionExists(db: Db, raceId: string, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: gochipReplacements.id })
    .from(gochipReplacements)
    .where(and(eq(gochipReplacements.id, id), eq(gochipReplacements.raceId, raceId)));
  return row !== undefined;
}

/** Replaces a racer's chip once per form sent. */
export async function replaceChip(
  env: Env,
  db: Db,
  principal: Principal,
  race: Pick<RaceCatalogue, "id" | "clubId" | "siteId">,
  room: Room,
  replacement: Replacement,
): Promise<ReplacementOutcome> {
  if (!canOnRace(principal, "replace_chip", race)) return { ok: false, status: 403, errors: { form: REPLACEMENT_MESSAGES.forbidden } };
  if (await sessionExists(db, race.id, replacement.submission)) return { ok: true };
  const wanted = replacement.racer;
  const racer = ("id" in wanted ? await room.racer(wanted.id) : await room.racer({ bib: wanted.bib })) as StoredRacer | null;
  if (!racer && "bib" in wanted) return { ok: false, status: 400, errors: { bib: REPLACEMENT_MESSAGES.noBib(wanted.bib) } };
  if (!racer) return { ok: false, status: 404, errors: { form: REPLACEMENT_MESSAGES.noRacer } };
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
  const record: ReplacementRecord = {
    raceId: race.id,
    clubId: race.clubId,
    at: Date.now(),
    submission: replacement.submission,
    racer: { id: racer.id, bib: racer.data.bib },
    oldChip,
    newChip: replacement.newChip,
    reason: replacement.reason,
    userId: replacement.userId,
    old: old ? { id: old.id, depotId: old.depotId } : null,
    fresh: fresh ?? null,
  };
  try {
    await recordReplacement(db, record);
  } catch (error) {
    // The racer already holds the new chip, so the form sent again would be refused as the same chip: the record
    // waits in the queue instead (decision 0083).
    console.error("Recording a chip replacement failed; queued to be written again", race.id, error);
    await env.JOBS_QUEUE.send({ kind: "chip-replacement", ...record });
  }
  return { ok: true };
}

/**
 * The replacement's D1 side in one batch: the session under the form's one-time id, the old chip marked at its
 * depot, the new depot chip issued. Written once: a second run fails on the session's id and writes nothing.
 */
export async function recordReplacement(db: Db, record: ReplacementRecord): Promise<void> {
  const session = db.insert(gochipReplacements).values({
    id: record.submission,
    createdAt: record.at,
    clubId: record.clubId,
    raceId: record.raceId,
    racerId: record.racer.id,
    oldChip: record.oldChip,
    newChip: record.newChip,
    reason: record.reason,
    depotId: record.old?.depotId ?? null,
    userId: record.userId,
    fieldMtimes: {},
  });
  // The session first: a second send of the form fails on its id and the batch writes nothing.
  const { old, fresh } = record;
  const marked = old
    ? [
        db
          .update(gochips)
          .set({ status: record.reason })
          .where(and(eq(gochips.id, old.id), eq(gochips.depotId, old.depotId))),
      ]
    : [];
  const issued = fresh ? issueChips(db, record.raceId, [{ chip: fresh, racer: record.racer }], record.at) : [];
  try {
    await db.batch([session, ...marked, ...issued]);
  } catch (error) {
    if (!uniqueConstraintOf(error)?.startsWith("gochip_replacements.id")) throw error;
  }
}

/** The race's replacement sessions, newest first: of some racers (the racer page), or all (null: the timer's page). */
export async function replacementsOf(db: Db, raceId: string, racerIds: readonly string[] | null) {
  if (racerIds !== null && racerIds.length === 0) return [];
  return db
    .select({
      id: gochipReplacements.id,
      at: gochipReplacements.createdAt,
      oldChip: gochipReplacements.oldChip,
      newChip: gochipReplacements.newChip,
      reason: gochipReplacements.reason,
    })
    .from(gochipReplacements)
    .where(and(eq(gochipReplacements.raceId, raceId), racerIds === null ? undefined : inArray(gochipReplacements.racerId, [...racerIds])))
    .orderBy(desc(gochipReplacements.createdAt))
    .limit(50);
}
