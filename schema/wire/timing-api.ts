/**
 * The timing API's request bodies (docs/api/timing-api.md): batches of reads from a timing device, and
 * manual entries from the keypad page. A batch is checked whole before anything is written.
 */
import * as z from "zod";
import { BIATHLON_MAX_MISSES, BIATHLON_MAX_SHOOTINGS } from "../../core/timing/biathlon";
import { manualEntrySchema, TIME_OF_DAY_MESSAGE, TIME_OF_DAY_PATTERN } from "./manual-entry";

/** Reads per batch: a chip reader's buffer after a minute offline fits, and one batch stays one quick transaction. */
export const MAX_READS_PER_BATCH = 1000;

const timeOfDay = z.string().regex(TIME_OF_DAY_PATTERN, TIME_OF_DAY_MESSAGE);

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

// Keypad entries are parsed in the browser too: zod/mini, in their own module (manual-entry.ts).
export { keyerOf, manualEntrySchema, SERVERBOX_KEYER, type ManualEntry } from "./manual-entry";

const shooting = z.number().int().min(1).max(BIATHLON_MAX_SHOOTINGS);
const misses = z.number().int().min(0, "Misses must be 0 to 5").max(BIATHLON_MAX_MISSES, "Misses must be 0 to 5");

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
