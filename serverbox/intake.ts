/**
 * Reads from the venue's devices, taken as the timing API takes them (docs/api/timing-api.md): the same
 * batch schema, a read known by device, boot and seq (a resend is a duplicate, a different read under a
 * used number is `seq_reused`), and the same receipt. Written to the log, fsync'd, before the answer.
 */
import { keepsRacer, readKeyOf, SequenceReused } from "../durable/race/ingest";
import { isInvalid, parseTimeOfDay } from "../core/time/parse";
import { readBatchSchema, type ReadBatchReceipt } from "../schema/wire/timing-api";
import type { BoxRace } from "./race";
import type { ReadLog, StoredRead } from "./store";

export type IntakeReply = { ok: true; receipt: ReadBatchReceipt } | { ok: false; status: number; error: string; message: string };

const issueText = (issues: readonly { path: readonly PropertyKey[]; message: string }[]) =>
  issues.map((i) => `${i.path.map(String).join(".") || "body"}: ${i.message}`).join("; ");

const sameRead = (a: StoredRead, b: StoredRead) => a.chip === b.chip && a.bib === b.bib && a.channel === b.channel && a.time === b.time && a.tod === b.tod;

/** The race's reads by key, and the highest seq per device and boot, rebuilt from the log on start. */
export class Intake {
  private readonly byKey = new Map<string, StoredRead>();
  private readonly lastSeq = new Map<string, number>();

  constructor(
    private readonly race: BoxRace,
    private readonly log: ReadLog,
    private readonly now: () => number = Date.now,
  ) {
    for (const read of log.all()) this.remember(read);
  }

  private remember(read: StoredRead): void {
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
    // Durable before the answer: a read the device was told is taken survives a crash of the box.
    this.log.append(fresh);
    for (const read of fresh) this.remember(read);
    this.race.add(fresh);
    receipt.last_seq = Math.max(receipt.last_seq, lastBefore);
    return { ok: true, receipt };
  }
}
