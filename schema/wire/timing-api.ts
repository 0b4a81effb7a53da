/**
 * The timing API's request bodies (docs/api/timing-api.md): batches of reads from a timing device, and
 * manual entries from the keypad page. A batch is checked whole before anything is written.
 */
import { z } from "zod";
import { BIATHLON_MAX_MISSES, BIATHLON_MAX_SHOOTINGS } from "../../core/timing/biathlon";
import { MAX_RUNS } from "../../core/timing/multi-run";

/** Reads per batch: a chip reader's buffer after a minute offline fits, and one batch stays one quick transaction. */
export const MAX_READS_PER_BATCH = 1000;

const timeOfDay = z.string().regex(/^\d{1,2}:\d{2}:\d{2}(\.\d{1,6})?$/, "tod must be HH:MM:SS with up to 6 decimals");

export const deviceReadSchema = z
  .object({
    /** The device's own sequence number: a read sent again with the same number is recognised and ignored. */
    seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    chip: z.string().trim().min(1).max(64).optional(),
    bib: z.number().int().min(0).max(999_999).optional(),
    /** Microseconds since the Unix epoch, by the device's clock. */
    time: z.number().int().min(0).optional(),
    /** Or the time of day on the race's day in the race's time zone. */
    tod: timeOfDay.optional(),
    channel: z.number().int().min(0).max(99).optional(),
  })
  .strict()
  .refine((read) => (read.chip === undefined) !== (read.bib === undefined), { error: "Each read needs a chip or a bib, not both" })
  .refine((read) => (read.time === undefined) !== (read.tod === undefined), { error: "Each read needs a time or a tod, not both" });
export type DeviceRead = z.infer<typeof deviceReadSchema>;

/** A device's boot (session) id: new after every restart, so sequence numbers may start again from 1. */
export const deviceBootSchema = z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/, "boot must be 1 to 64 letters, digits, '.', '_', ':' or '-'");

export const readBatchSchema = z
  .object({
    boot: deviceBootSchema.optional(),
    reads: z.array(deviceReadSchema).min(1, "A batch needs at least one read").max(MAX_READS_PER_BATCH, `A batch holds at most ${MAX_READS_PER_BATCH} reads`),
  })
  .strict();
export type ReadBatch = z.infer<typeof readBatchSchema>;

export interface ReadBatchReceipt {
  /** Reads written now. */
  accepted: number;
  /** Reads already written by an earlier send, ignored. */
  duplicates: number;
  /** Written but matched to no racer (yet). */
  unassigned: number;
  /** Written but outside the race's time window, so not used for results. */
  outside: number;
  /** The highest sequence number this device has had written (in this boot, when the batch names one). */
  last_seq: number;
  /** The boot the batch was sent under, echoed. */
  boot?: string;
}

const manualKey = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[\w-]+$/, "key must be letters, digits, - or _");

const shooting = z.number().int().min(1).max(BIATHLON_MAX_SHOOTINGS);
const misses = z.number().int().min(0, "Misses must be 0 to 5").max(BIATHLON_MAX_MISSES, "Misses must be 0 to 5");

/** A keypad entry: a bib crossing a timing point, a status change, or a biathlon shooting's misses. `key` makes a retried send harmless. */
export const manualEntrySchema = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("time"),
      key: manualKey,
      bib: z.number().int().min(0).max(999_999),
      point: z.string().min(1).max(64),
      time: z.number().int().min(0).optional(),
      tod: timeOfDay.optional(),
    })
    .strict()
    .refine((entry) => (entry.time === undefined) !== (entry.tod === undefined), { error: "Each entry needs a time or a tod, not both" }),
  z
    .object({
      kind: z.literal("status"),
      key: manualKey,
      bib: z.number().int().min(0).max(999_999),
      status: z.enum(["dns", "dnf", "dsq", "ok"]),
      time: z.number().int().min(0).optional(),
      /** Multi-run: the run the status is for (dnf_{n}_time, dsq_{n}_time, is_dns_{n}); without it, the racer's. */
      run: z.number().int().min(1).max(MAX_RUNS).optional(),
    })
    .strict(),
  z.object({ kind: z.literal("range"), key: manualKey, bib: z.number().int().min(0).max(999_999), shooting, misses }).strict(),
]);
export type ManualEntry = z.infer<typeof manualEntrySchema>;

export const manualBatchSchema = z.object({ entries: z.array(manualEntrySchema).min(1).max(200) }).strict();
export type ManualBatch = z.infer<typeof manualBatchSchema>;

/**
 * Range data from the race's range-data device: missed shots per shooting, by bib or chip. `seq` is the
 * device's own sequence number, so a batch sent again changes nothing; a correction is a new entry.
 */
export const rangeEntrySchema = z
  .object({
    seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    bib: z.number().int().min(0).max(999_999).optional(),
    chip: z.string().trim().min(1).max(64).optional(),
    shooting,
    misses,
  })
  .strict()
  .refine((entry) => (entry.chip === undefined) !== (entry.bib === undefined), { error: "Each entry needs a chip or a bib, not both" });
export const rangeBatchSchema = z.object({ entries: z.array(rangeEntrySchema).min(1, "A batch needs at least one entry").max(500) }).strict();
export type RangeEntry = z.infer<typeof rangeEntrySchema>;

export interface RangeReceipt {
  accepted: number;
  duplicates: number;
  /** Sequence numbers of entries whose bib or chip is no racer's. */
  unknown: number[];
}

export interface ManualReceipt {
  accepted: number;
  duplicates: number;
  /** Entries whose bib is no racer's, by key. */
  unknown_bibs: string[];
}
