import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../core/testing/fast-check";
import { FakeCloud, type Failure } from "./fake-cloud";
import type { StoredLine, SyncState } from "./store";
import { channelOf, SyncLoop, type LogView, type SyncIo } from "./sync";

/** The log in memory: the loop only reads it. */
class MemoryLog implements LogView {
  readonly lines: StoredLine[] = [];
  all(): readonly StoredLine[] {
    return this.lines;
  }
  slice(from: number, limit = Number.MAX_SAFE_INTEGER): StoredLine[] {
    return this.lines.slice(from, from + limit);
  }
}

type Kind = "hill" | "finish" | "keypad" | "range";
type Op = { t: "append"; kinds: Kind[] } | { t: "step"; failure: Failure } | { t: "restart" };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant("append" as const), kinds: fc.array(fc.constantFrom<Kind>("hill", "finish", "keypad", "range"), { minLength: 1, maxLength: 6 }) }),
  fc.record({ t: fc.constant("step" as const), failure: fc.constantFrom<Failure>(null, null, "refused", "lost-answer", "503") }),
  fc.constant({ t: "restart" as const }),
);

const BOOT = "SB-1-abc";

function lineOf(kind: Kind, n: number, rangeSeq: number): StoredLine {
  if (kind === "keypad") return { n, kind: "manual", entry: { kind: "time", key: `keypad-${n}-entry`, bib: n % 5, point: "finish", time: n * 1000 }, at: n };
  if (kind === "range") return { n, kind: "range", device: "range", entry: { seq: rangeSeq, bib: n % 5, shooting: 1 + (n % 4), misses: n % 6 }, at: n };
  return { n, device: kind, boot: "reader", seq: n, chip: `C${n % 7}`, time: n * 1000, at: n };
}

/** The platform's identity of a line, as FakeCloud (and the race room) keys it. */
function identityOf(line: StoredLine): string {
  if (line.kind === "manual") return line.entry.key;
  if (line.kind === "range") return `${line.device}:range:${line.entry.seq}`;
  return `${line.device}:${BOOT}:${line.n}`;
}

describe("forwarding a race's log", () => {
  it("delivers every line exactly once and each channel in order, through failures, lost answers, restarts and small batches", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), fc.integer({ min: 1, max: 4 }), async (ops, batchSize) => {
        const log = new MemoryLog();
        let failure: Failure = null;
        const cloud = new FakeCloud(() => failure);
        let saved: SyncState = { boot: BOOT, cursors: {}, synced: 0, accepted: 0, duplicates: 0, lastSync: null };
        const io: SyncIo = { sleep: async () => undefined, random: () => 0, now: () => 1, saveState: (state) => (saved = structuredClone(state)) };
        // A restart reads what was saved last: a batch sent but not yet saved is sent again.
        const fresh = () => new SyncLoop(cloud, "race", log, structuredClone(saved), io, undefined, batchSize);
        let loop = fresh();
        let rangeSeq = 0;
        for (const o of ops) {
          if (o.t === "append") for (const kind of o.kinds) log.lines.push(lineOf(kind, log.lines.length + 1, kind === "range" ? ++rangeSeq : 0));
          else if (o.t === "restart") loop = fresh();
          else {
            failure = o.failure;
            expect(await loop.step()).not.toBe("stopped");
          }
        }
        failure = null;
        loop = fresh();
        for (let i = 0; i < log.lines.length + 2 && (await loop.step()) === "sent"; i++);
        expect(await loop.step()).toBe("idle");
        expect(loop.synced).toBe(log.lines.length);
        // Each line once, and within each channel in the order it arrived at the box.
        expect(cloud.applied).toHaveLength(log.lines.length);
        const channels = new Set(log.lines.map(channelOf));
        for (const channel of channels) {
          const own = log.lines.filter((l) => channelOf(l) === channel).map(identityOf);
          const sent = new Set(own);
          expect(cloud.applied.filter((key) => sent.has(key))).toEqual(own);
        }
      }),
      fcParams(),
    );
  });
});
