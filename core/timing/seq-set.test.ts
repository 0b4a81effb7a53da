import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SeqSet } from "./seq-set";
import { fcParams } from "../testing/fast-check";

describe("SeqSet", () => {
  it("answers like a Set for any sequence of adds and deletes", () => {
    // Seqs around page boundaries (4,096 apart), negative and fractional ones too.
    const seq = fc.oneof(fc.integer({ min: -5, max: 9000 }), fc.constantFrom(4095, 4096, 8191, 8192, -4096, 0.5, 2 ** 53 - 1));
    const op = fc.record({ add: fc.boolean(), seq });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const set = new SeqSet();
        const model = new Set<number>();
        for (const { add, seq: n } of ops) {
          if (add) {
            expect(set.add(n)).toBe(!model.has(n));
            model.add(n);
          } else expect(set.delete(n)).toBe(model.delete(n));
          expect(set.size).toBe(model.size);
          expect(set.has(n)).toBe(model.has(n));
        }
        for (const { seq: n } of ops) expect(set.has(n)).toBe(model.has(n));
      }),
      fcParams(),
    );
  });

  it("keeps seqs apart across pages and forgets an emptied page", () => {
    const set = new SeqSet();
    expect(set.add(4095)).toBe(true);
    expect(set.add(4096)).toBe(true);
    expect(set.add(4096)).toBe(false);
    expect(set.delete(4095)).toBe(true);
    expect(set.has(4095)).toBe(false);
    expect(set.has(4096)).toBe(true);
    expect(set.delete(4095)).toBe(false);
    expect(set.size).toBe(1);
  });

  it("holds every seq of a full page, the 32nd bit of each word included, and empties it again", () => {
    const set = new SeqSet();
    const page = Array.from({ length: 4096 }, (_, i) => 8192 + i);
    for (const seq of page) expect(set.add(seq)).toBe(true);
    expect(set.size).toBe(4096);
    expect([8191, 8192, 8223, 8224, 12287, 12288].map((seq) => set.has(seq))).toEqual([false, true, true, true, true, false]);
    for (const seq of page.filter((seq) => seq % 32 === 31)) expect(set.delete(seq)).toBe(true);
    expect(set.has(8223)).toBe(false);
    expect(set.has(8222)).toBe(true);
    for (const seq of page) set.delete(seq);
    expect(set.size).toBe(0);
    expect(set.add(8223)).toBe(true);
  });
});
