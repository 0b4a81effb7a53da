import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { racerFromStorage, racerSchema } from "./racer";

// Valid racer input: a handful of fields of each kind, the rest left to their defaults.
const racerInput = fc.record(
  {
    first_name: fc.string({ maxLength: 20 }),
    bib: fc.option(fc.integer({ min: 0, max: 999_999 })),
    chip_list: fc.array(fc.stringMatching(/^[A-Z0-9]{1,8}$/), { maxLength: 3 }),
    category_dict: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.string({ maxLength: 5 })),
    run_statuses: fc.array(fc.option(fc.record({ is_dns: fc.boolean() })), { maxLength: 2 }),
    dns: fc.boolean(),
    penalty: fc.integer({ min: 0, max: 10 ** 9 }),
    custom: fc.dictionary(fc.stringMatching(/^c_[a-z]{1,4}$/), fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.boolean(), fc.constant(null))),
  },
  { requiredKeys: [] },
);

describe("racerFromStorage", () => {
  it("reads a stored racer, with any fields missing, exactly as parsing it again would", () => {
    fc.assert(
      fc.property(racerInput, fc.array(fc.constantFrom(...Object.keys(racerSchema.shape)), { maxLength: 10 }), (input, dropped) => {
        // What storage holds: a parsed racer, less the fields a later schema added.
        const stored: Record<string, unknown> = { ...racerSchema.parse(input) };
        for (const key of dropped) delete stored[key];
        expect(racerFromStorage(JSON.stringify(stored))).toEqual(racerSchema.parse(stored));
      }),
    );
  });

  it("gives each racer its own copy of a default list", () => {
    const a = racerFromStorage("{}");
    const b = racerFromStorage("{}");
    a.chip_list.push("A1");
    a.custom.x = 1;
    expect(b.chip_list).toEqual([]);
    expect(b.custom).toEqual({});
  });
});
