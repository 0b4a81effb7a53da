/**
 * Reads, keypad entries and range data from the venue's devices, taken as the timing API takes them
 * (docs/api/timing-api.md): the same batch schemas, the same identities (a read by device, boot and seq, a
 * keypad entry by its key, a range entry by device and seq: a resend is a duplicate), the same refusals and
 * the same receipts. Written to the log, fsync'd, before the answer (decisions 0060, 0067).
 */
import { issueText, keepsRacer, readKeyOf, SequenceReused } from "../durable/race/ingest";
import { isInvalid, parseTimeOfDay } from "../core/time/parse";
import { manualEntriesProblem } from "../durable/race/keypad-rules";
import { manualBatchSchema, rangeBatchSchema, readBatchSchema, type ManualReceipt, type RangeReceipt, type ReadBatchReceipt } from "../schema/wire/timing-api";
import type { BoxRace } from "./race";
import { isRead, type ReadLog, type StoredLine, type StoredManual, type StoredRange, type StoredRead } from "./store";

export type IntakeReply<T = ReadBatchReceipt> = { ok: true; receipt: T } | { ok: false; status: number; error: string; message: string };

const sameRead = (a: StoredRead, b: StoredRead) => a.chip === b.chip && a.bib === b.bib && a.channel === b.channel && a.time === b.time && a.tod === b.tod;

/** The race's reads by key, and the highest seq per device and boot, rebuilt from the log on start. */
export class Intake {
  private readonly byKey = new Map<string, StoredRead>();
  private readonly lastSeq = new Map<string, number>();
  /** Keypad keys and range `<device>:range:<seq>` keys already taken: the platform's own identities. */
  private readonly entryKeys = new Set<string>();

  constructor(
    private readonly race: BoxRace,
    private readonly log: ReadLog,
    private readonly now: () => number = Date.now,
  ) {
    for (const line of log.all()) this.remember(line);
  }

  private remember(line: StoredLine): void {
    if (!isRead(line)) return void this.entryKeys.add(entryKeyOf(line));
    const read = line;
    this.byKey.set(readKeyOf(read.device, read.boot, read.seq), read);
    const scope = `${read.device}\u0000${read.boot ?? ""}`;
    this.lastSeq.set(scope, Math.max(this.lastSeq.get(scope) ?? -1, read.seq));
  }

  /** A device's batch; `deviceId` from its `Timing-Device` header or its credential's id part. */
  take(deviceId: string, body: unknown): IntakeReply {
    if (!this.race.device(deviceId)) return { ok: false, status: 400, error: "unknown_device", message: "This race has no timing device with that id" };
    const batch = readBatchSchema.safeParse(body);
    if (!batch.success) return { ok: false, status: 400, error: "invalid_batch", message: issueText(batch.error.issues) };
    const badTod = batch.data.reads.findIndex((r) => r.tod !== undefined && isInvalid(parseTimeOfDay(r.tod)));
    if (badTod >= 0) {
      const problem = parseTimeOfDay(batch.data.reads[badTod]!.tod!) as { error: string };
      return { ok: false, status: 400, error: "invalid_batch", message: `reads[${badTod}].tod: ${problem.error}` };
    }
    const boot = batch.data.boot ?? null;
    const receipt: ReadBatchReceipt = { accepted: 0, duplicates: 0, unassigned: 0, outside: 0, last_seq: -1, ...(boot === null ? {} : { boot }) };
    const lastBefore = this.lastSeq.get(`${deviceId}\u0000${boot ?? ""}`) ?? -1;
    const fresh: StoredRead[] = [];
    const inBatch = new Map<string, StoredRead>();
    const at = this.now();
    for (const read of batch.data.reads) {
      const stored: StoredRead = {
        n: this.log.length + fresh.length + 1,
        device: deviceId,
        boot,
        seq: read.seq,
        ...(read.chip === undefined ? {} : { chip: read.chip }),
        ...(read.chip === undefined && read.bib !== undefined ? { bib: read.bib } : {}),
        ...(read.time === undefined ? {} : { time: read.time }),
        ...(read.time === undefined && read.tod !== undefined ? { tod: read.tod } : {}),
        ...(read.channel === undefined ? {} : { channel: read.channel }),
        at,
      };
      receipt.last_seq = Math.max(receipt.last_seq, read.seq);
      const key = readKeyOf(deviceId, boot, read.seq);
      const known = this.byKey.get(key) ?? inBatch.get(key);
      if (known) {
        // A resend is the same read; anything else under the same number is a device that restarted.
        if (!sameRead(known, stored)) {
          const refusal = new SequenceReused(read.seq, boot, lastBefore);
          return { ok: false, status: 409, error: "seq_reused", message: refusal.advice };
        }
        receipt.duplicates += 1;
        continue;
      }
      inBatch.set(key, stored);
      fresh.push(stored);
      const judged = this.race.judge(stored);
      receipt.accepted += 1;
      if (judged.state === "outside") receipt.outside += 1;
      else if (!(judged.racerId && keepsRacer(judged.state))) receipt.unassigned += 1;
    }
    this.store(fresh);
    receipt.last_seq = Math.max(receipt.last_seq, lastBefore);
    return { ok: true, receipt };
  }

  /** Durable before the answer: what a device was told is taken survives a crash of the box. */
  private store(fresh: StoredLine[]): void {
    this.log.append(fresh);
    for (const line of fresh) this.remember(line);
    this.race.add(fresh);
  }

  /**
   * A keypad's batch (`POST …/manual`): each entry once by its key, refused whole as the platform refuses it. `keypad` is
   * the paired phone that sent it (null: the laptop's own keypad); it replaces whatever phone a body names.
   */
  takeManual(body: unknown, keypad: string | null = null): IntakeReply<ManualReceipt> {
    const batch = manualBatchSchema.safeParse(body);
    if (!batch.success) return { ok: false, status: 400, error: "invalid_entries", message: issueText(batch.error.issues) };
    const problem = manualEntriesProblem(batch.data.entries, (id) => this.race.hasPoint(id));
    if (problem) return { ok: false, status: 400, error: "invalid_entries", message: problem };
    const receipt: ManualReceipt = { accepted: 0, duplicates: 0, unknown_bibs: [] };
    const fresh: StoredManual[] = [];
    const at = this.now();
    for (const entry of batch.data.entries) {
      if (this.entryKeys.has(entry.key) || fresh.some((f) => f.entry.key === entry.key)) {
        receipt.duplicates += 1;
        continue;
      }
      // A status's time is when it was entered: stamped here, so it means the same when forwarded hours later.
      const { keypad: _named, ...sent } = entry;
      const timed = sent.kind === "status" && sent.time === undefined ? { ...sent, time: at * 1000 } : sent;
      const stamped = keypad === null ? timed : { ...timed, keypad };
      fresh.push({ n: this.log.length + fresh.length + 1, kind: "manual", entry: stamped, at });
      receipt.accepted += 1;
      if (this.race.racerOf(entry) === null) receipt.unknown_bibs.push(entry.key);
    }
    this.store(fresh);
    return { ok: true, receipt };
  }

  /** The race's range-data device's batch (`POST …/range`): each entry once by its seq, as the platform keeps it. */
  takeRange(deviceId: string, body: unknown): IntakeReply<RangeReceipt> {
    if (!this.race.device(deviceId)) return { ok: false, status: 400, error: "unknown_device", message: "This race has no timing device with that id" };
    if (this.race.settings.biathlon_penalty_type === null || this.race.settings.biathlon_range_device !== deviceId)
      return { ok: false, status: 403, error: "not_range_device", message: "This device is not the race's range-data device" };
    const batch = rangeBatchSchema.safeParse(body);
    if (!batch.success) return { ok: false, status: 400, error: "invalid_batch", message: issueText(batch.error.issues) };
    const receipt: RangeReceipt = { accepted: 0, duplicates: 0, unknown: [] };
    const fresh: StoredRange[] = [];
    const at = this.now();
    for (const entry of batch.data.entries) {
      const line: StoredRange = { n: this.log.length + fresh.length + 1, kind: "range", device: deviceId, entry, at };
      if (this.entryKeys.has(entryKeyOf(line)) || fresh.some((f) => f.entry.seq === entry.seq)) {
        receipt.duplicates += 1;
        continue;
      }
      fresh.push(line);
      receipt.accepted += 1;
      if (this.race.racerOf(entry) === null) receipt.unknown.push(entry.seq);
    }
    this.store(fresh);
    return { ok: true, receipt };
  }
}

/** The platform's identity of a keypad or range entry (durable/race/timing-input.ts keys them the same way). */
function entryKeyOf(line: StoredManual | StoredRange): string {
  return line.kind === "manual" ? line.entry.key : `${line.device}:range:${line.entry.seq}`;
}
