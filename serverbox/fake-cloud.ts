/**
 * The timing API as the box's sync sees it, for the box's tests: a read known by device, boot and seq, a
 * keypad entry by its key, a range entry by device and seq (as durable/race/timing-input.ts keys them), and
 * failures scripted call by call. Test support only.
 */
import type { CloudAnswer, ReadReceipt, UpstreamRead } from "./cloud";
import type { ManualEntry, RangeEntry } from "../schema/wire/timing-api";

/** refused: nothing reached the platform; lost-answer: it was written, the answer never came; 503/404: refused by the platform. */
export type Failure = "refused" | "lost-answer" | "503" | "404" | null;

type Receipt = ReadReceipt & { unknown_bibs: string[]; unknown: number[] };

export class FakeCloud {
  /** Identity → content of everything written, to catch one identity used for two different things. */
  readonly stored = new Map<string, string>();
  /** Identities in the order they were written. */
  readonly applied: string[] = [];
  accepted = 0;
  calls = 0;
  constructor(private readonly failures: Failure[] | ((call: number) => Failure) = []) {}

  postReads(_raceId: string, device: string, boot: string, reads: UpstreamRead[]): Promise<CloudAnswer<ReadReceipt>> {
    return this.write(reads.map((read) => [`${device}:${boot}:${read.seq}`, JSON.stringify(read)]));
  }

  postManual(_raceId: string, entries: ManualEntry[]): Promise<CloudAnswer<Receipt>> {
    return this.write(entries.map((entry) => [entry.key, JSON.stringify(entry)]));
  }

  postRange(_raceId: string, device: string, entries: RangeEntry[]): Promise<CloudAnswer<Receipt>> {
    return this.write(entries.map((entry) => [`${device}:range:${entry.seq}`, JSON.stringify(entry)]));
  }

  private async write(items: [string, string][]): Promise<CloudAnswer<Receipt>> {
    const call = this.calls++;
    const failure = typeof this.failures === "function" ? this.failures(call) : (this.failures[call] ?? null);
    if (failure === "refused") return { kind: "network", message: "ECONNREFUSED" };
    if (failure === "503") return { kind: "http", status: 503, error: "unavailable", message: "later", body: {}, retryAfterMs: null };
    if (failure === "404") return { kind: "http", status: 404, error: "not_found", message: "No such race", body: {}, retryAfterMs: null };
    const receipt: Receipt = { accepted: 0, duplicates: 0, unassigned: 0, outside: 0, last_seq: 0, unknown_bibs: [], unknown: [] };
    for (const [key, content] of items) {
      const known = this.stored.get(key);
      if (known !== undefined && known !== content) throw new Error(`one identity, two contents: ${key}`);
      if (known !== undefined) receipt.duplicates += 1;
      else {
        this.stored.set(key, content);
        this.applied.push(key);
        receipt.accepted += 1;
        this.accepted += 1;
      }
    }
    // Written, but the answer never arrives: the box must send the batch again.
    if (failure === "lost-answer") return { kind: "network", message: "socket hang up" };
    return { kind: "ok", status: 200, body: receipt };
  }
}
