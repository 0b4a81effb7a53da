import { describe, expect, it } from "vitest";
import { genderField, readGender } from "./gender";
import { EN, makeElement } from "./test-elements";

describe("genderField", () => {
  const gender = makeElement("gender");
  const words = makeElement("gender", { config: { is_show_unspecified: true } });

  it("stores M, F or O from letters or words", () => {
    expect(genderField.parse(gender, "f", EN)).toEqual({ ok: true, value: "F" });
    expect(genderField.parse(gender, "Male", EN)).toEqual({ ok: true, value: "M" });
    expect(genderField.parse(gender, "autre", EN)).toEqual({ ok: true, value: "O" });
    expect(genderField.parse(gender, "", EN)).toEqual({ ok: true, value: null });
    expect(genderField.parse(gender, "X", EN)).toEqual({ ok: false, error: "No such option" });
    expect(readGender("FEMME")).toBe("F");
  });

  it("displays full words with is_show_unspecified, else the letter", () => {
    expect(genderField.display(words, "F", "en")).toBe("Female");
    expect(genderField.display(words, "M", "en")).toBe("Male");
    expect(genderField.display(words, "O", "en")).toBe("Other");
    expect(genderField.display(words, "O", "fr")).toBe("Autre");
    expect(genderField.display(gender, "F", "en")).toBe("F");
    expect(genderField.display(gender, null, "en")).toBe("");
  });
});
