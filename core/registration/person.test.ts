import { describe, expect, it } from "vitest";
import { makeElement } from "../forms/test-elements";
import { personChooser } from "./person";

describe("personChooser", () => {
  const elements = [makeElement("dob", { id: "born" }), makeElement("gender", { id: "sex" })];

  it("takes the age on the calculation date and the gender from the person's answers", () => {
    expect(personChooser(elements, { born: { v: "2012-12-31", p: 0 }, sex: { v: "F", p: 0 } }, "2026-12-31", false)).toEqual({
      isAdmin: false,
      age: 14,
      gender: "F",
    });
  });

  it("knows neither when the form does not ask or the person has not answered", () => {
    expect(personChooser([], {}, "2026-12-31", true)).toEqual({ isAdmin: true, age: null, gender: null });
    expect(personChooser(elements, {}, "2026-12-31", false)).toEqual({ isAdmin: false, age: null, gender: null });
  });
});
