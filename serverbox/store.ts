/**
 * The box's own store (a folder, `.serverbox/` by default): its identity and token (`box.json`, mode 0600),
 * and per race its setup (`setup.json`), its reads (`reads.jsonl`, append-only, one line per read, fsync'd
 * before a device is answered) and its sync position (`sync.json`). Decision 0060.
 */
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, writeSync, chmodSync } from "node:fs";
import path from "node:path";
import * as z from "zod";
import { manualEntrySchema, type ManualEntry } from "../schema/wire/manual-entry";
import { rangeEntrySchema } from "../schema/wire/timing-api";

/** What pairing gave the box: kept before anything else, since the platform hands the token out once. */
export const identitySchema = z.object({
  serial: z.string().min(1).max(100),
  name: z.string().min(1).max(200),
  token: z.string().min(1).nullable(),
  serverId: z.string().nullable(),
  clubId: z.string().nullable(),
  /** Before decision 0067, the one race the box timed; read once into `raceIds`. */
  raceId: z.string().nullable(),
  /** The races the timer chose to time and sync (decision 0067). */
  raceIds: z.array(z.string()).default([]),
});
export type Identity = z.infer<typeof identitySchema>;

/** One read as a device sent it, with the box's own number (its line) and when it arrived. */
export const storedReadSchema = z.object({
  n: z.number().int().min(1),
  /** Lines written before decision 0067 have no kind: every one was a read. */
  kind: z.literal("read").optional(),
  device: z.string().min(1),
  boot: z.string().nullable(),
  seq: z.number().int().min(0),
  chip: z.string().optional(),
  bib: z.number().int().optional(),
  time: z.number().int().optional(),
  tod: z.string().optional(),
  channel: z.number().int().optional(),
  at: z.number(),
});
export type StoredRead = z.infer<typeof storedReadSchema>;

/** A keypad entry as the keypad sent it (its key is its identity upstream); a status without a time gets its arrival's. */
export const storedManualSchema = z.object({
  n: z.number().int().min(1),
  kind: z.literal("manual"),
  entry: z.custom<ManualEntry>((value) => manualEntrySchema.safeParse(value).success, "not a keypad entry"),
  at: z.number(),
});
export type StoredManual = z.infer<typeof storedManualSchema>;

/** A range-data entry from the race's range device, with the device's own seq (its identity upstream). */
export const storedRangeSchema = z.object({
  n: z.number().int().min(1),
  kind: z.literal("range"),
  device: z.string().min(1),
  entry: rangeEntrySchema,
  at: z.number(),
});
export type StoredRange = z.infer<typeof storedRangeSchema>;

/** A line of a race's log: a device read, a keypad entry or a range entry, numbered in the order they arrived. */
export const storedLineSchema = z.union([storedManualSchema, storedRangeSchema, storedReadSchema]);
export type StoredLine = StoredRead | StoredManual | StoredRange;

export const isRead = (line: StoredLine): line is StoredRead => line.kind === undefined || line.kind === "read";

/**
 * Where the sync stands for a race: its upstream boot, per device the last line the platform acknowledged,
 * and how many leading lines are all acknowledged (where the next scan starts).
 */
export const syncStateSchema = z.object({
  boot: z.string(),
  cursors: z.record(z.string(), z.number().int().min(0)),
  synced: z.number().int().min(0),
  accepted: z.number().int().min(0),
  duplicates: z.number().int().min(0),
  lastSync: z.number().nullable(),
});
export type SyncState = z.infer<typeof syncStateSchema>;

/** Writes a small file whole or not at all: a crash leaves the old one or the new one, never half. */
export function writeFileAtomic(file: string, text: string, mode = 0o644): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, "w", mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  chmodSync(file, mode);
  syncDirectory(path.dirname(file));
}

/** The rename is durable only once its folder is. */
function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems refuse to open a folder for syncing; the file itself was synced.
  }
}

function readJsonFile<T>(file: string, schema: z.ZodType<T>): T | null {
  if (!existsSync(file)) return null;
  const parsed = schema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file} is not a serverbox file: ${parsed.error.issues[0]?.message ?? "unreadable"}`);
  return parsed.data;
}

/**
 * A race's reads: every line a complete JSON read ending in a newline. On opening, a last line without its
 * newline (a crash in the middle of a write: never acknowledged) is cut off, so the next read follows a whole line.
 */
export class ReadLog {
  private readonly fd: number;
  private readonly lines: StoredLine[];

  constructor(readonly file: string) {
    const bytes = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
    const end = bytes.lastIndexOf(0x0a) + 1;
    this.lines = [];
    for (const line of bytes.subarray(0, end).toString("utf8").split("\n")) {
      if (line === "") continue;
      this.lines.push(storedLineSchema.parse(JSON.parse(line)) as StoredLine);
    }
    this.fd = openSync(file, "a+", 0o600);
    if (end < bytes.length) {
      ftruncateSync(this.fd, end);
      fsyncSync(this.fd);
    }
  }

  get length(): number {
    return this.lines.length;
  }

  /** Lines from `from` (0-based) on, at most `limit`. */
  slice(from: number, limit = Number.MAX_SAFE_INTEGER): StoredLine[] {
    return this.lines.slice(from, from + limit);
  }

  all(): readonly StoredLine[] {
    return this.lines;
  }

  /** Appends reads (numbered by the caller) in one write and one fsync: when this returns, they survive a crash. */
  append(reads: StoredLine[]): void {
    if (reads.length === 0) return;
    const text = reads.map((r) => `${JSON.stringify(r)}\n`).join("");
    const bytes = Buffer.from(text, "utf8");
    let written = 0;
    while (written < bytes.length) written += writeSync(this.fd, bytes, written, bytes.length - written);
    fsyncSync(this.fd);
    this.lines.push(...reads);
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** The store folder: the identity, and one folder per race taken. */
export class BoxStore {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  private get identityFile(): string {
    return path.join(this.dir, "box.json");
  }

  identity(): Identity | null {
    return readJsonFile(this.identityFile, identitySchema);
  }

  /** The token is a secret: only the box's user may read the file. */
  saveIdentity(identity: Identity): void {
    writeFileAtomic(this.identityFile, `${JSON.stringify(identity, null, 2)}\n`, 0o600);
  }

  raceDir(raceId: string): string {
    if (!/^[A-Za-z0-9-]{1,64}$/.test(raceId)) throw new Error(`not a race id: ${raceId}`);
    const dir = path.join(this.dir, "races", raceId);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /** The race's setup as the platform sent it (checked by the caller), or null before it was fetched. */
  setup(raceId: string): unknown {
    const file = path.join(this.raceDir(raceId), "setup.json");
    return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as unknown) : null;
  }

  saveSetup(raceId: string, setup: unknown): void {
    writeFileAtomic(path.join(this.raceDir(raceId), "setup.json"), JSON.stringify(setup));
  }

  openReads(raceId: string): ReadLog {
    return new ReadLog(path.join(this.raceDir(raceId), "reads.jsonl"));
  }

  /**
   * The race's sync state. A new race gets a boot of the box's own (its serial and random letters), kept
   * for the race's whole life: its line numbers are its sequence numbers, so a resend is always the same read.
   */
  syncState(raceId: string, serial: string): SyncState {
    const file = path.join(this.raceDir(raceId), "sync.json");
    const stored = readJsonFile(file, syncStateSchema);
    if (stored) return stored;
    const state: SyncState = { boot: bootIdOf(serial, randomBytes(6).toString("hex")), cursors: {}, synced: 0, accepted: 0, duplicates: 0, lastSync: null };
    this.saveSyncState(raceId, state);
    return state;
  }

  saveSyncState(raceId: string, state: SyncState): void {
    writeFileAtomic(path.join(this.raceDir(raceId), "sync.json"), JSON.stringify(state));
  }
}

/** A boot id the timing API accepts (1 to 64 of letters, digits, `.`, `_`, `:`, `-`), prefixed with the serial. */
export function bootIdOf(serial: string, nonce: string): string {
  const prefix = serial.replace(/[^A-Za-z0-9._:-]/g, "-").slice(0, 40);
  return `${prefix}-${nonce}`.slice(0, 64);
}
