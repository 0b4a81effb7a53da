import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { presentWanted, wantedOf, withWanted } from "./change-waitlist";

const value = fc.record({ v: fc.oneof(fc.string(), fc.integer()), p: fc.nat(10_000) });
const answers = fc.dictionary(fc.constantFrom("a", "b", "c", "d", "e"), value);

describe("a change's wanted answers", () => {
  it("keep the changed fields only, a removed answer as null", () => {
    const next = { a: { v: "10k", p: 4500 } };
    expect(wantedOf(next, ["a", "b"])).toEqual({ a: { v: "10k", p: 4500 }, b: null });
    expect(presentWanted({ a: { v: "10k", p: 4500 }, b: null })).toEqual({ a: { v: "10k", p: 4500 } });
  });

  it("applied to the answers they were taken from give the answers asked for, and leave other fields as they are now", () => {
    fc.assert(
      fc.property(answers, answers, answers, (before, next, meanwhile) => {
        const fields = [...new Set([...Object.keys(before), ...Object.keys(next)])].filter((id) => JSON.stringify(before[id]) !== JSON.stringify(next[id]));
        const wanted = wantedOf(next, fields);
        expect(withWanted(before, wanted)).toEqual(next);
        // A correction made meanwhile to another field stays.
        const later = withWanted({ ...meanwhile, ...before }, wanted);
        for (const id of Object.keys(meanwhile)) if (!fields.includes(id) && !(id in before)) expect(later[id]).toEqual(meanwhile[id]);
      }),
      fcParams(),
    );
  });
});
