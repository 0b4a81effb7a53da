import { describe, expect, it } from "vitest";
import { nameFieldsOf } from "./name-fields";
import { makeElement } from "./test-elements";

const none = { firstNameFieldId: null, lastNameFieldId: null };

describe("which fields hold a person's names", () => {
  it("takes the fields the registration chose over any other", () => {
    const elements = [makeElement("text", { id: "a", caption: "First name" }), makeElement("text", { id: "b", caption: "Nickname" })];
    expect(nameFieldsOf(elements, { firstNameFieldId: "b", lastNameFieldId: null })).toEqual({ first: "b", last: undefined });
  });

  it("takes a field keyed first_name / last_name before one only captioned so", () => {
    const elements = [
      makeElement("text", { id: "captioned", caption: "Last name" }),
      makeElement("text", { id: "keyed", caption: "Nom", logic_key: "last_name" }),
    ];
    expect(nameFieldsOf(elements, none).last).toBe("keyed");
  });

  it("reads English and French captions, in any language part, and only text fields", () => {
    const elements = [
      makeElement("email", { id: "mail", caption: "Last name e-mail" }),
      makeElement("text", { id: "prenom", caption: "[en]Given name[fr]Prénom" }),
      makeElement("text", { id: "nom", caption: "Nom de famille" }),
    ];
    expect(nameFieldsOf(elements, none)).toEqual({ first: "prenom", last: "nom" });
  });

  it("finds nothing on a form that asks for no name", () => {
    expect(nameFieldsOf([makeElement("text", { id: "x", caption: "Club" })], none)).toEqual({ first: undefined, last: undefined });
  });
});
