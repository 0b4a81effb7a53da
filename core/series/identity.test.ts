import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { foldName, foldUnicode, racerIdentity } from "./identity";

describe("racer identity across races", () => {
  it("folds case, accents, punctuation and word order", () => {
    expect(foldName("Virtanen, Anna")).toBe(foldName("anna  VIRTANEN"));
    expect(foldName("Émilie Ørsted-Lévy")).toBe("emilie levy ørsted");
    expect(racerIdentity({ name: "O'Brien, Seán", club: "Nordic SC" })).toBe(racerIdentity({ name: "sean o brien", club: "nordic sc" }));
    expect(racerIdentity({ name: "Anna", club: null, personId: "p1" })).toBe("p:p1");
  });

  it("takes the same words by the plain ASCII road as by the Unicode one", () => {
    const ascii = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 });
    fc.assert(
      fc.property(ascii, (text) => {
        expect(foldName(text)).toBe(foldUnicode(text));
      }),
      fcParams(),
    );
  });
});
