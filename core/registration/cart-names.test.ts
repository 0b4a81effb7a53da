import { describe, expect, it } from "vitest";
import { makeElement } from "../forms/test-elements";
import { cartDisplayName, cartNumberOf, personNameOf } from "./cart-names";

describe("cartDisplayName", () => {
  it("lists up to three names", () => {
    expect(cartDisplayName([])).toBe("");
    expect(cartDisplayName(["Ann Lee"])).toBe("Ann Lee");
    expect(cartDisplayName(["Ann", "Bo", "Cy"])).toBe("Ann, Bo, Cy");
  });

  it("counts the rest as +N more…", () => {
    expect(cartDisplayName(["Ann", "Bo", "Cy", "Di"])).toBe("Ann, Bo, Cy +1 more…");
    expect(cartDisplayName(["Ann", "Bo", "Cy", "Di", "Ed"])).toBe("Ann, Bo, Cy +2 more…");
  });

  it("leaves out blank names", () => {
    expect(cartDisplayName([" ", "Ann", "", "Bo "])).toBe("Ann, Bo");
  });
});

describe("cartNumberOf", () => {
  const id = "3f2a9c1e-0b4d-4e6f-8a1b-2c3d4e5f6a7b";

  it("falls back from legacy_id to cart_number to the id's first segment", () => {
    expect(cartNumberOf({ legacy_id: 81234, cart_number: 17, id })).toBe("81234");
    expect(cartNumberOf({ legacy_id: null, cart_number: 17, id })).toBe("17");
    expect(cartNumberOf({ legacy_id: null, cart_number: null, id })).toBe("3f2a9c1e");
  });

  it("keeps 0 and skips blanks", () => {
    expect(cartNumberOf({ legacy_id: 0, cart_number: 17, id })).toBe("0");
    expect(cartNumberOf({ legacy_id: " ", cart_number: "", id })).toBe("3f2a9c1e");
    expect(cartNumberOf({ legacy_id: null, cart_number: null, id: "plain" })).toBe("plain");
  });
});

describe("personNameOf", () => {
  const first = makeElement("text", { id: "given", caption: "Prénom", logic_key: "first_name" });
  const last = makeElement("text", { id: "family", caption: "Nom", logic_key: "last_name" });
  const captioned = makeElement("text", { id: "captioned", caption: "First name" });
  const values = { given: { v: "Ada", p: 0 }, family: { v: "Lovelace", p: 0 }, captioned: { v: "Bo", p: 0 } };
  const unset = { firstNameFieldId: null, lastNameFieldId: null };

  it("takes the chosen fields, then the fields keyed first_name and last_name, then the captions", () => {
    expect(personNameOf([first, last, captioned], { firstNameFieldId: "captioned", lastNameFieldId: "family" }, values, 0)).toBe("Bo Lovelace");
    expect(personNameOf([captioned, first, last], unset, values, 0)).toBe("Ada Lovelace");
    expect(personNameOf([captioned], unset, values, 0)).toBe("Bo");
  });

  it("falls back to the form's label for one registrant and their place", () => {
    expect(personNameOf([first, last], unset, {}, 1)).toBe("Person 2");
    expect(personNameOf([first, last], unset, {}, 2, { singular: "racer", plural: "racers" })).toBe("Racer 3");
  });
});
