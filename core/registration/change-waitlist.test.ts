import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { CHANGE_WAITLIST_WORDS, presentWanted, wantedOf, withWanted } from "./change-waitlist";

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

describe("a change offer's words", () => {
  it("end a sentence on a time once, whether the time ends in a period or not", () => {
    expect(CHANGE_WAITLIST_WORDS.en.prompt("Bo", "Half", "May 1, 2027 at 4:06 p.m.")).toBe("A place in Half is held for Bo until May 1, 2027 at 4:06 p.m.");
    expect(CHANGE_WAITLIST_WORDS.en.prompt("Bo", "Half", "May 1, 2027 at 16:06")).toBe("A place in Half is held for Bo until May 1, 2027 at 16:06.");
  });
});
