import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { expandRequest, includedCycle, includedOf, packingLines, PACKING_MESSAGES, type IncludedEntry, type PackingType } from "./packing";
import { closeProblem, countsAddUp, fullyPacked, packingProgress } from "./shipments";

const type = (key: string, more: Partial<PackingType> = {}): PackingType => ({
  key,
  name: key,
  included: [],
  autoPackKey: null,
  packingInstructions: null,
  ordinal: 0,
  isTracked: false,
  isRentable: false,
  ...more,
});
const catalogue = (...types: PackingType[]) => new Map(types.map((t) => [t.key, t]));

const demo = catalogue(
  type("mat", {
    name: "Chip timing mat",
    included: [{ key: "mat-cable", quantity: 2 }],
    autoPackKey: "mats",
    ordinal: 1,
    isTracked: true,
    isRentable: true,
    packingInstructions: "Roll, do not fold.",
  }),
  type("mat-cable", { name: "Mat cable", autoPackKey: "mats", ordinal: 2, isRentable: true }),
  type("decoder", { name: "Decoder", included: ["power", "antenna"], ordinal: 0, isTracked: true, isRentable: true, packingInstructions: "In its case." }),
  type("power", { name: "Power supply", autoPackKey: "power", ordinal: 5 }),
  type("antenna", { name: "Antenna", autoPackKey: "power", ordinal: 4, packingInstructions: "Wrap the tip." }),
);

describe("a packing list from a request", () => {
  it("adds each type's included items per unit and groups them by auto-pack key", () => {
    const out = expandRequest(demo, [
      { key: "mat", quantity: 20 },
      { key: "decoder", quantity: 2 },
    ]);
    expect(out).toEqual({
      ok: true,
      groups: [
        {
          key: "decoder",
          lines: [{ key: "decoder", name: "Decoder", quantity: 2, requested: 2, included: 0, isTracked: true, isRentable: true }],
          instructions: ["In its case."],
        },
        {
          key: "mats",
          lines: [
            { key: "mat", name: "Chip timing mat", quantity: 20, requested: 20, included: 0, isTracked: true, isRentable: true },
            { key: "mat-cable", name: "Mat cable", quantity: 40, requested: 0, included: 40, isTracked: false, isRentable: true },
          ],
          instructions: ["Roll, do not fold."],
        },
        {
          key: "power",
          lines: [
            { key: "antenna", name: "Antenna", quantity: 2, requested: 0, included: 2, isTracked: false, isRentable: false },
            { key: "power", name: "Power supply", quantity: 2, requested: 0, included: 2, isTracked: false, isRentable: false },
          ],
          instructions: ["Wrap the tip."],
        },
      ],
    });
  });

  it("adds what is asked for to what is included, and ignores nothing asked", () => {
    const out = expandRequest(demo, [
      { key: "mat-cable", quantity: 3 },
      { key: "mat", quantity: 1 },
      { key: "power", quantity: 0 },
    ]);
    expect(out.ok && packingLines(out.groups).map((l) => [l.key, l.quantity, l.requested, l.included])).toEqual([
      ["mat", 1, 1, 0],
      ["mat-cable", 5, 3, 2],
    ]);
  });

  it("refuses an unknown type and an include cycle rather than looping", () => {
    expect(expandRequest(demo, [{ key: "nope", quantity: 1 }])).toEqual({ ok: false, error: PACKING_MESSAGES.unknown("nope") });
    const loop = catalogue(type("a", { included: ["b"] }), type("b", { included: ["c"] }), type("c", { included: ["a"] }));
    expect(expandRequest(loop, [{ key: "a", quantity: 1 }])).toEqual({ ok: false, error: "Included types must not include each other: a → b → c → a" });
    expect(includedCycle(catalogue(type("x", { included: ["x"] })), ["x"])).toEqual(["x", "x"]);
    expect(expandRequest(catalogue(type("a", { included: ["ghost"] })), [{ key: "a", quantity: 1 }])).toEqual({
      ok: false,
      error: PACKING_MESSAGES.unknown("ghost"),
    });
  });

  it("refuses a list beyond a million of one type", () => {
    const big = catalogue(type("a", { included: [{ key: "b", quantity: 1000 }] }), type("b"));
    expect(expandRequest(big, [{ key: "a", quantity: 2000 }])).toEqual({ ok: false, error: PACKING_MESSAGES.tooMany });
  });
});

// A random acyclic catalogue: type i may only include types after it, so no cycle can form.
const acyclic = fc.integer({ min: 1, max: 7 }).chain((n) =>
  fc
    .tuple(
      ...Array.from({ length: n }, (_, i) =>
        fc.record({
          included:
            i + 1 < n
              ? fc.array(fc.tuple(fc.integer({ min: i + 1, max: n - 1 }), fc.integer({ min: 1, max: 3 }), fc.boolean()), { maxLength: 3 })
              : fc.constant([] as [number, number, boolean][]),
          pack: fc.constantFrom(null, "p1", "p2"),
          ordinal: fc.integer({ min: 0, max: 3 }),
        }),
      ),
    )
    .map((specs) =>
      catalogue(
        ...specs.map((s, i) =>
          type(`t${i}`, {
            included: s.included.map(([to, q, asText]): IncludedEntry => (asText && q === 1 ? `t${to}` : { key: `t${to}`, quantity: q })),
            autoPackKey: s.pack,
            ordinal: s.ordinal,
          }),
        ),
      ),
    ),
);

/** The units of each type one unit of `key` brings, itself included, by plain recursion. */
function unitsOf(types: ReadonlyMap<string, PackingType>, key: string, into: Map<string, number>, times: number) {
  into.set(key, (into.get(key) ?? 0) + times);
  for (const entry of types.get(key)!.included) {
    const { key: child, quantity } = includedOf(entry);
    unitsOf(types, child, into, times * quantity);
  }
}

describe("packing list properties", () => {
  it("is the same for a request in any order, and its quantities add up to the included counts", () => {
    fc.assert(
      fc.property(
        acyclic.chain((types) =>
          fc.tuple(
            fc.constant(types),
            fc.array(fc.record({ key: fc.constantFrom(...types.keys()), quantity: fc.integer({ min: 0, max: 5 }) }), { maxLength: 6 }),
          ),
        ),
        fc.integer(),
        ([types, request], seed) => {
          const out = expandRequest(types, request);
          const shuffled = [...request].sort((a, b) => ((a.key.charCodeAt(1) * 31 + seed) % 7) - ((b.key.charCodeAt(1) * 31 + seed) % 7));
          expect(expandRequest(types, shuffled)).toEqual(out);
          expect(out.ok).toBe(true);
          if (!out.ok) return;
          const expected = new Map<string, number>();
          for (const line of request) if (line.quantity > 0) unitsOf(types, line.key, expected, line.quantity);
          const lines = packingLines(out.groups);
          expect(new Map(lines.map((l) => [l.key, l.quantity]))).toEqual(new Map([...expected].filter(([, q]) => q > 0)));
          for (const l of lines) expect(l.requested + l.included).toBe(l.quantity);
          const askedTotal = request.reduce((sum, l) => sum + Math.max(0, l.quantity), 0);
          expect(lines.reduce((sum, l) => sum + l.requested, 0)).toBe(askedTotal);
          for (const g of out.groups) for (const l of g.lines) expect(types.get(l.key)!.autoPackKey ?? l.key).toBe(g.key);
        },
      ),
      fcParams(),
    );
  });

  it("refuses any catalogue with a cycle among the requested types' includes", () => {
    fc.assert(
      fc.property(acyclic, fc.nat(), fc.nat(), (types, a, b) => {
        const keys = [...types.keys()].sort();
        const from = keys[a % keys.length]!;
        const to = keys[Math.min(b % keys.length, keys.indexOf(from))]!;
        // An edge back to an earlier type (or itself) closes a loop through the types in between when reachable.
        const looped = new Map(types);
        looped.set(from, { ...types.get(from)!, included: [...types.get(from)!.included, to] });
        const reach = new Map<string, number>();
        unitsOf(types, to, reach, 1);
        const out = expandRequest(looped, [{ key: to, quantity: 1 }]);
        if (reach.has(from)) expect(out).toMatchObject({ ok: false });
        else expect(out.ok).toBe(true);
      }),
      fcParams(),
    );
  });
});

describe("where a shipment stands", () => {
  it("is packed when every tracked line has its numbers", () => {
    const out = expandRequest(demo, [{ key: "mat", quantity: 2 }]);
    const lines = out.ok ? packingLines(out.groups) : [];
    expect(fullyPacked(packingProgress(lines, new Map([["mat", 1]])))).toBe(false);
    expect(packingProgress(lines, new Map([["mat", 2]]))).toEqual([{ key: "mat", name: "Chip timing mat", needed: 2, packed: 2, done: true }]);
  });

  it("cannot close with rented items still out", () => {
    expect(closeProblem("shipped", 2)).toBe("2 rented items are still out: mark each back or missing before closing");
    expect(closeProblem("returned", 0)).toBeNull();
    expect(closeProblem("draft", 0)).toBe("Only a shipped or returned shipment can be closed");
    expect(countsAddUp(40, 38, 2)).toBe(true);
    expect(countsAddUp(40, 38, 1)).toBe(false);
    expect(countsAddUp(4, -1, 5)).toBe(false);
  });
});
