import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeElement } from "../forms/test-elements";
import { fcParams } from "../testing/fast-check";
import { racerEntryOf } from "./racer-entry";
import {
  customValueOf,
  defaultRacerMapping,
  effectiveRacerMapping,
  mappingTargetsOf,
  raceCustomFieldsOf,
  racerDateOf,
  racerProvinceOf,
  racerSexOf,
} from "./racer-mapping";

const form = [
  makeElement("text", { id: "first", caption: "[en]First name[fr]Prénom" }),
  makeElement("text", { id: "last", caption: "Last name" }),
  makeElement("dob", { id: "born", caption: "Birth date" }),
  makeElement("gender", { id: "gender", caption: "Gender" }),
  makeElement("text", { id: "club", caption: "Club / team" }),
  makeElement("text", { id: "team", caption: "Équipe", logic_key: "team" }),
  makeElement("province", { id: "prov", caption: "Province" }),
  makeElement("licence", { id: "lic", caption: "Nordiq Canada licence" }),
  makeElement("text", { id: "chip", caption: "Chip number" }),
  makeElement("option", {
    id: "shirt",
    caption: "T-shirt size",
    options_list: [
      { id: "s", display: "[en]Small[fr]Petit" },
      { id: "l", display: "Large" },
    ],
  }),
  makeElement("heading", { id: "h", caption: "Club" }),
];
const names = { firstNameFieldId: null, lastNameFieldId: null };
const custom = raceCustomFieldsOf([
  { key: "tshirtsize", display: "T-shirt size", type: "option", options: ["Small", "Medium", "Large"] },
  { key: "ski_club", display: "Ski club", type: "text" },
  { display: "no key", type: "text" },
  { key: "odd", type: "not-a-type" },
]);

describe("racer field defaults", () => {
  it("find each racer field by type, caption or logic key, and each custom field by its name", () => {
    expect(custom.map((f) => f.key)).toEqual(["tshirtsize", "ski_club"]);
    expect(defaultRacerMapping(form, names, custom)).toEqual({
      first_name: "first",
      last_name: "last",
      dob: "born",
      sex: "gender",
      club: "club",
      team: "team",
      province: "prov",
      licence: "lic",
      chip: "chip",
      "custom:tshirtsize": "shirt",
    });
    expect(mappingTargetsOf(custom).map((t) => t.label)).toContain("T-shirt size");
  });

  it("give way to the organiser's choices: another field, or none; a field no longer on the form is dropped", () => {
    const defaults = defaultRacerMapping(form, names, custom);
    const mapping = effectiveRacerMapping(defaults, { club: "", "custom:ski_club": "club", chip: "gone" }, form);
    expect(mapping.club).toBeUndefined();
    expect(mapping["custom:ski_club"]).toBe("club");
    expect(mapping.chip).toBeUndefined();
    expect(mapping.first_name).toBe("first");
  });

  it("only ever name fields of the form (property)", () => {
    const ids = form.map((e) => e.id);
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("club", "sex", "dob", "custom:x"), fc.oneof(fc.constantFrom(...ids, ""), fc.string())), (stored) => {
        const mapping = effectiveRacerMapping(defaultRacerMapping(form, names, custom), stored, form);
        return Object.values(mapping).every((id) => ids.includes(id));
      }),
      fcParams(),
    );
  });
});

describe("converting answers to racer values", () => {
  it("reads sex from M/F/O and the words; Other is left unset", () => {
    expect([racerSexOf("M"), racerSexOf("Female"), racerSexOf("femme"), racerSexOf("O"), racerSexOf("x"), racerSexOf(3)]).toEqual([
      "M",
      "F",
      "F",
      null,
      null,
      null,
    ]);
  });

  it("writes dates as YYYY-MM-DD of a real day", () => {
    expect(racerDateOf("2011-02-28")).toBe("2011-02-28");
    expect(racerDateOf("2011/2/3")).toBe("2011-02-03");
    expect(racerDateOf("2011-02-29")).toBeNull();
    expect(racerDateOf("28/02/2011")).toBeNull();
  });

  it("gives a date that reads back as itself (property)", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date("1900-01-01"), max: new Date("2100-12-31"), noInvalidDate: true }), (date) => {
        const iso = date.toISOString().slice(0, 10);
        return racerDateOf(iso) === iso && racerDateOf(iso.replaceAll("-", "/")) === iso;
      }),
      fcParams(),
    );
  });

  it("gives province codes from codes or names", () => {
    expect([racerProvinceOf("on"), racerProvinceOf("Québec"), racerProvinceOf("Vermont"), racerProvinceOf("Bavaria"), racerProvinceOf("BY")]).toEqual([
      "ON",
      "QC",
      "VT",
      null,
      "BY",
    ]);
  });

  it("never gives a sex other than M, F or unset, nor a province longer than the racer holds (property)", () => {
    fc.assert(
      fc.property(fc.string(), (text) => [null, "M", "F"].includes(racerSexOf(text)) && (racerProvinceOf(text)?.length ?? 0) <= 8),
      fcParams(),
    );
  });

  it("checks a custom value as the racer pages do, leaving a refused one unset", () => {
    expect(customValueOf({ key: "s", display: "S", type: "option", options: ["Small", "Large"] }, "large")).toBe("Large");
    expect(customValueOf({ key: "s", display: "S", type: "option", options: ["Small"] }, "Huge")).toBeNull();
    expect(customValueOf({ key: "n", display: "N", type: "number" }, "12")).toBe(12);
    expect(customValueOf({ key: "b", display: "B", type: "boolean" }, "yes")).toBe(true);
  });
});

describe("a registered person as a racer", () => {
  const person = {
    id: "p1",
    values: {
      first: { v: "Ada", p: 0 },
      last: { v: "Lovelace", p: 0 },
      born: { v: "1990-12-10", p: 0 },
      gender: { v: "F", p: 0 },
      club: { v: "Nakkertok", p: 0 },
      prov: { v: "QC", p: 0 },
      lic: { v: "AB1234", p: 0 },
      shirt: { v: "s", p: 0 },
    },
  };

  it("fills the mapped fields, converted, and the custom ones by the race's types", () => {
    const mapping = effectiveRacerMapping(defaultRacerMapping(form, names, custom), { "custom:ski_club": "club" }, form);
    const entry = racerEntryOf(form, names, person, mapping, custom);
    expect(entry).toMatchObject({
      source: "registration:p1",
      first_name: "Ada",
      last_name: "Lovelace",
      dob: "1990-12-10",
      sex: "F",
      club: "Nakkertok",
      province: "QC",
      licence: "AB1234",
      chip: null,
      custom: { tshirtsize: "Small", ski_club: "Nakkertok" },
    });
  });

  it("without a mapping uses the defaults, and an Other gender leaves the sex unset", () => {
    const entry = racerEntryOf(form, names, { ...person, values: { ...person.values, gender: { v: "O", p: 0 } } });
    expect(entry.sex).toBeNull();
    expect(entry.custom).toEqual({});
    expect(entry.first_name).toBe("Ada");
  });
});
