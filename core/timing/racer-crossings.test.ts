import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Crossing } from "./model";
import { RacerCrossings } from "./racer-crossings";
import { fcParams } from "../testing/fast-check";

const byTimeThenSeq = (a: Crossing, b: Crossing): number => a.time - b.time || a.seq - b.seq;

/** Crossings with distinct seqs, for a few racers and points; times collide often so seq breaks ties. */
const crossingsArbitrary = fc.uniqueArray(
  fc.record({
    seq: fc.integer({ min: 1, max: 5000 }),
    racerId: fc.constantFrom("r1", "r2", "r3"),
    timingPointId: fc.constantFrom("tp-start", "tp-lap", "tp-hill"),
    // Absolute microseconds as a race's are (beyond 32-bit integers), a few apart.
    time: fc.integer({ min: 0, max: 20 }).map((t) => 1_800_000_000_000_000 + t * 250_000),
  }),
  { selector: (c) => c.seq, maxLength: 60 },
);

describe("RacerCrossings", () => {
  it("gives each racer's crossings sorted by time then seq, whether loaded in bulk or inserted live", () => {
    fc.assert(
      fc.property(crossingsArbitrary, fc.nat(60), (crossings, split) => {
        const packed = new RacerCrossings();
        // The first part loaded in bulk (any order), the rest inserted one at a time.
        for (const crossing of crossings.slice(0, split)) packed.append(crossing, crossing.racerId);
        packed.sortAll();
        for (const crossing of crossings.slice(split)) packed.insert(crossing, crossing.racerId);
        for (const racerId of ["r1", "r2", "r3"]) {
          const expected = crossings.filter((c) => c.racerId === racerId).sort(byTimeThenSeq);
          expect(packed.of(racerId)).toEqual(expected);
        }
      }),
      fcParams(),
    );
  });

  it("drops a racer's crossings and returns their seqs", () => {
    const packed = new RacerCrossings();
    packed.insert({ seq: 7, racerId: "r1", timingPointId: "tp-lap", time: 2_000 }, "r1");
    packed.insert({ seq: 3, racerId: "r1", timingPointId: "tp-hill", time: 1_000 }, "r1");
    packed.insert({ seq: 5, racerId: "r2", timingPointId: "tp-lap", time: 1_500 }, "r2");
    expect(packed.remove("r1")).toEqual([3, 7]);
    expect(packed.of("r1")).toEqual([]);
    expect(packed.remove("r1")).toEqual([]);
    expect(packed.of("r2")).toEqual([{ seq: 5, racerId: "r2", timingPointId: "tp-lap", time: 1_500 }]);
  });

  it("keeps a list under the id it is given, not the read's own copy of it", () => {
    const packed = new RacerCrossings();
    const racerId = "r1";
    packed.append({ seq: 1, racerId: ["r", "1"].join(""), timingPointId: "tp-lap", time: 10 }, racerId);
    packed.sortAll();
    const [crossing] = packed.of("r1");
    expect(crossing?.racerId).toBe(racerId);
  });
});
