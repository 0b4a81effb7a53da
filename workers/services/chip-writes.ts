/**
 * What a racer's save, or a chip replacement, writes to the depots' chips, as data (decision 0083). The racer is
 * written by the RaceRoom first; if the D1 batch after it fails, the same writes go to the jobs queue and are
 * replayed there until D1 takes them. A second send of the form cannot repair it: the racer already holds the new
 * chip and bib, so its diff is empty (a replacement is refused as the same chip). Every statement moves a chip
 * only while it is where the race read it, and a replacement's session is written under the form's id, so a
 * replay writes once.
 */
import * as z from "zod";
import { GOCHIP_STATUSES, REPLACEMENT_REASONS } from "../../core/gochips/chips";
import type { RaceChip } from "../../core/gochips/handouts";

/** At most this many chips of each kind a job (a queue message holds 128 KB). */
export const CHIP_WRITES_PART = 200;

const raceChipSchema = z.object({
  id: z.string().min(1).max(64),
  depotId: z.string().min(1).max(64),
  hexCode: z.string().max(64),
  status: z.enum(GOCHIP_STATUSES),
  rackId: z.string().max(64).nullable(),
  shipmentId: z.string().max(64).nullable(),
  issuedRacerId: z.string().max(64).nullable(),
}) satisfies z.ZodType<RaceChip>;
const racerSchema = z.object({ id: z.string().min(1).max(64), bib: z.number().int().nullable() });

export const chipWritesSchema = z.object({
  raceId: z.string().min(1).max(64),
  /** When the racer was saved: the chips' issue time, however late a replay writes it. */
  at: z.number().int().nonnegative(),
  /** Depot chips issued to racers (out of their racks, or loose at the race). */
  issue: z.array(z.object({ chip: raceChipSchema, racer: racerSchema })).max(CHIP_WRITES_PART),
  /** Depot chips a racer no longer holds: back "Not in a rack". */
  giveBack: z.array(z.object({ chip: raceChipSchema, racerId: z.string().min(1).max(64) })).max(CHIP_WRITES_PART),
  /** Racers whose issued chips take their bib. */
  follow: z.array(racerSchema).max(CHIP_WRITES_PART),
});
export type ChipWrites = z.infer<typeof chipWritesSchema>;

/** The writes in parts that fit a queue message each. */
export function chipWriteParts(writes: ChipWrites): ChipWrites[] {
  const size = Math.max(writes.issue.length, writes.giveBack.length, writes.follow.length);
  const partsOf: ChipWrites[] = [];
  for (let start = 0; start < size; start += CHIP_WRITES_PART) {
    const end = start + CHIP_WRITES_PART;
    partsOf.push({
      raceId: writes.raceId,
      at: writes.at,
      issue: writes.issue.slice(start, end),
      giveBack: writes.giveBack.slice(start, end),
      follow: writes.follow.slice(start, end),
    });
  }
  return partsOf;
}

/** A chip replacement's D1 side (gochip-replacements.ts `recordReplacement`), queued when D1 refused it. */
export const replacementRecordSchema = z.object({
  raceId: z.string().min(1).max(64),
  clubId: z.string().min(1).max(64),
  at: z.number().int().nonnegative(),
  /** The form's one-time id: the session's id. */
  submission: z.string().min(1).max(64),
  racer: racerSchema,
  oldChip: z.string().max(64).nullable(),
  newChip: z.string().min(1).max(64),
  reason: z.enum(REPLACEMENT_REASONS),
  userId: z.string().max(64),
  old: z.object({ id: z.string().min(1).max(64), depotId: z.string().min(1).max(64) }).nullable(),
  fresh: raceChipSchema.nullable(),
});
export type ReplacementRecord = z.infer<typeof replacementRecordSchema>;
