import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newElement } from "../forms/model";
import { cappedPools, chosenOptions, codePool, elementOfPool, optionPool, placeProblem, placesOfCart, poolLabel } from "./places";
import { fcParams } from "../testing/fast-check";

const distance = newElement("dist", "option", {
  caption: "Distance",
  quantity_limit: 100,
  options_list: [
    { id: "5k", display: "5 km", display_fr: "5 km (fr)" },
    { id: "10k", display: "10 km", limit: 5 },
  ],
});
const shirts = newElement("shirts", "multioption", {
  caption: "Shirts",
  options_list: [
    { id: "s", display: "S", limit: 2 },
    { id: "m", display: "M" },
  ],
});
const note = newElement("note", "text", { caption: "Note" });
const bib = newElement("bib", "text", { caption: "Bib request", quantity_limit: 3 });
const codes = newElement("codes", "discount", { config: { discounts_list: [{ code: "Half", type: "deduct_percent", amt: 50, elts_list: ["dist"], qty: 3 }] } });
const elements = [distance, shirts, note, bib, codes];

describe("places a cart takes", () => {
  it("an option and its field, each option of a multi-option, a limited text field, and one place per code use", () => {
    const claims = placesOfCart(
      elements,
      "cart1",
      [{ id: "p1", values: { dist: { v: "10k", p: 4500 }, shirts: { v: ["s", "m"], p: 0 }, note: { v: "hi", p: 0 }, bib: { v: "7", p: 0 } } }],
      { HALF: 2 },
    );
    expect(claims).toEqual([
      { pool: "el:dist", unit: "p1", individualId: "p1", cap: 100 },
      { pool: optionPool("dist", "10k"), unit: "p1", individualId: "p1", cap: 5 },
      { pool: "el:shirts", unit: "p1", individualId: "p1", cap: null },
      { pool: optionPool("shirts", "s"), unit: "p1", individualId: "p1", cap: 2 },
      { pool: optionPool("shirts", "m"), unit: "p1", individualId: "p1", cap: null },
      { pool: "el:bib", unit: "p1", individualId: "p1", cap: 3 },
      { pool: codePool("HALF"), unit: "cart1#1", individualId: null, cap: 3 },
      { pool: codePool("HALF"), unit: "cart1#2", individualId: null, cap: 3 },
    ]);
    expect(cappedPools(claims).get(codePool("half"))).toEqual({ cap: 3, wanted: 2 });
    expect(elementOfPool(optionPool("dist", "10k"))).toBe("dist");
    expect(elementOfPool(codePool("HALF"))).toBeNull();
    expect(poolLabel(elements, optionPool("dist", "5k"), "fr")).toBe("5 km (fr)");
    expect(poolLabel(elements, "el:bib")).toBe("Bib request");
  });

  it("a membership's option, and nothing for empty answers", () => {
    expect(chosenOptions({ v: { option: "racing", division_fees: 0 }, p: 0 })).toEqual(["racing"]);
    expect(chosenOptions({ v: "", p: 0 })).toEqual([]);
    expect(placesOfCart(elements, "c", [{ id: "p", values: { dist: { v: "", p: 0 }, shirts: { v: [], p: 0 } } }], {})).toEqual([]);
  });

  it("a limited checkbox or yes/no takes a place only when ticked or answered yes", () => {
    const bus = newElement("bus", "checkbox", { caption: "Bus to the start", quantity_limit: 40 });
    const dinner = newElement("dinner", "yesno", { caption: "Dinner", quantity_limit: 80 });
    const claimsOf = (bv: boolean, dv: "yes" | "no") =>
      placesOfCart([bus, dinner], "c", [{ id: "p", values: { bus: { v: bv, p: 0 }, dinner: { v: dv, p: 0 } } }], {}).map((c) => c.pool);
    expect(claimsOf(false, "no")).toEqual([]);
    expect(claimsOf(true, "no")).toEqual(["el:bus"]);
    expect(claimsOf(false, "yes")).toEqual(["el:dinner"]);
  });

  it("'Sold out' when nothing is left, 'Only N left' when fewer than wanted, nothing when they fit", () => {
    expect(placeProblem(5, 5, 1)).toBe("Sold out");
    expect(placeProblem(5, 4, 2)).toBe("Only 1 left");
    expect(placeProblem(5, 3, 2)).toBeNull();
    fc.assert(
      fc.property(fc.nat(50), fc.nat(60), fc.integer({ min: 1, max: 10 }), (cap, taken, wanted) => {
        const problem = placeProblem(cap, taken, wanted);
        expect(problem === null).toBe(taken + wanted <= cap);
      }),
      fcParams(),
    );
  });
});
