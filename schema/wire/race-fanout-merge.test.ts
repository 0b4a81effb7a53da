import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FormatFrame, Publication } from "./race-fanout";
import { enqueuePublication, mergeFrames } from "./race-fanout-merge";
import type { ResultRow } from "./race-socket";

const row = (racerId: string, time: number | null, groups = ["g"]): ResultRow => ({
  racerId,
  status: time === null ? "oncourse" : "finished",
  statusText: "",
  start: 0,
  laps: 1,
  splits: [],
  finish: time,
  time,
  key: [time ?? 0],
  rankKey: null,
  bib: Number(racerId.slice(1)),
  name: racerId,
  club: null,
  team: null,
  city: null,
  course: null,
  groups,
});

const frame = (formatId: string, from: number, version: number, rows: ResultRow[]): FormatFrame => ({
  formatId,
  from: String(from),
  version: String(version),
  frame: JSON.stringify({ type: "rows", formatId, from: String(from), version: String(version), rows }),
});

const rowsOf = (f: FormatFrame) => (JSON.parse(f.frame) as { rows: ResultRow[] }).rows;
const rowsPub = (...formats: FormatFrame[]): Publication => ({ kind: "rows", formats, heats: null });

describe("merging a shard's waiting publications", () => {
  it("merges chained frames of a format into one from the first's from to the last's version, each racer's latest row", () => {
    const merged = mergeFrames(frame("f", 3, 4, [row("r1", 100), row("r2", 200)]), frame("f", 4, 5, [row("r2", 150), row("r3", null)]));
    expect([merged.from, merged.version]).toEqual(["3", "5"]);
    expect(JSON.parse(merged.frame)).toMatchObject({ type: "rows", formatId: "f", from: "3", version: "5" });
    expect(rowsOf(merged).map((r) => [r.racerId, r.time])).toEqual([
      ["r1", 100],
      ["r2", 150],
      ["r3", null],
    ]);
  });

  it("keeps a racer's removal (no groups) when it is the latest row", () => {
    const merged = mergeFrames(frame("f", 1, 2, [row("r1", 100)]), frame("f", 2, 3, [row("r1", 100, [])]));
    expect(rowsOf(merged)[0]!.groups).toEqual([]);
  });

  it("queues a frame that does not chain after the one waiting, so the shard resyncs at the gap", () => {
    const queue = enqueuePublication([rowsPub(frame("f", 1, 2, [row("r1", 1)]))], rowsPub(frame("f", 7, 8, [row("r2", 2)])));
    expect(queue).toHaveLength(1);
    expect(queue[0]!.kind === "rows" && queue[0]!.formats.map((f) => [f.from, f.version])).toEqual([
      ["1", "2"],
      ["7", "8"],
    ]);
  });

  it("lets a reset replace everything before it, keeping the newest heats", () => {
    const heats = (version: number) => ({ version, frame: `{"type":"heats","v":${version}}` });
    const waiting: Publication[] = [{ ...rowsPub(frame("f", 1, 2, [row("r1", 1)])), heats: heats(9) }];
    const queue = enqueuePublication(waiting, { kind: "reset", version: "3", heats: heats(4) });
    expect(queue).toEqual([{ kind: "reset", version: "3", heats: heats(9), announcer: null }]);
    // Rows after a reset chain from the snapshot it sends: they wait behind it.
    const after = enqueuePublication(queue, rowsPub(frame("f", 3, 4, [row("r2", 2)])));
    expect(after.map((p) => p.kind)).toEqual(["reset", "rows"]);
  });

  it("keeps one announcer frame, the newest, through merges and resets", () => {
    const announcer = (version: number) => ({ version, frame: `{"type":"announcer","version":"${version}"}` });
    const first = enqueuePublication([], { ...rowsPub(), announcer: announcer(2) });
    const merged = enqueuePublication(first, rowsPub(frame("f", 2, 3, [row("r1", 1)])));
    expect(merged).toHaveLength(1);
    expect(merged[0]!.announcer).toEqual(announcer(2));
    const again = enqueuePublication(merged, { ...rowsPub(), announcer: announcer(4) });
    expect(again.map((p) => p.announcer)).toEqual([announcer(4)]);
    expect(enqueuePublication(again, { kind: "reset", version: "5", heats: null })[0]!.announcer).toEqual(announcer(4));
  });

  it("leaves every format where applying the ticks one by one would (any ticks, any formats)", () => {
    const tick = fc.array(
      fc.tuple(fc.constantFrom("a", "b"), fc.array(fc.tuple(fc.constantFrom("r1", "r2", "r3", "r4"), fc.option(fc.nat(1000))), { maxLength: 4 })),
      {
        maxLength: 2,
      },
    );
    fc.assert(
      fc.property(fc.array(tick, { minLength: 1, maxLength: 8 }), (ticks) => {
        const versions: Record<string, number> = { a: 0, b: 0 };
        const oneByOne: Record<string, Map<string, number | null>> = { a: new Map(), b: new Map() };
        let queue: Publication[] = [];
        ticks.forEach((formats, i) => {
          const version = i + 1;
          const frames: FormatFrame[] = [];
          for (const [formatId, rows] of new Map(formats)) {
            const list = [...new Map(rows)].map(([id, time]) => row(id, time));
            frames.push(frame(formatId, versions[formatId]!, version, list));
            versions[formatId] = version;
            for (const r of list) oneByOne[formatId]!.set(r.racerId, r.time);
          }
          queue = enqueuePublication(queue, rowsPub(...frames));
        });
        expect(queue).toHaveLength(1);
        const merged: Record<string, Map<string, number | null>> = { a: new Map(), b: new Map() };
        const held: Record<string, string> = { a: "0", b: "0" };
        for (const f of queue[0]!.kind === "rows" ? queue[0]!.formats : []) {
          expect(f.from).toBe(held[f.formatId]);
          held[f.formatId] = f.version;
          for (const r of rowsOf(f)) merged[f.formatId]!.set(r.racerId, r.time);
        }
        expect(held).toEqual({ a: String(versions.a), b: String(versions.b) });
        expect(merged).toEqual(oneByOne);
      }),
    );
  });
});
