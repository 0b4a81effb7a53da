import { describe, expect, it } from "vitest";
import { operatorFromLegacy, type FormElement } from "./model";
import { makeElement } from "./test-elements";
import { parseElement, parseIndividual, type IndividualContext } from "./validate";

const registrant: IndividualContext = { lang: "en", isAdmin: false, isKiosk: false, tier: 1 };
const admin: IndividualContext = { ...registrant, isAdmin: true };

describe("parseElement", () => {
  it("requires a value once, for every type", () => {
    const required = (type: FormElement["type"], raw?: string) => parseElement(makeElement(type, { is_mandatory: true }), raw, registrant);
    for (const type of [
      "text",
      "city",
      "date",
      "email",
      "phone",
      "option",
      "multioption",
      "country",
      "province",
      "gender",
      "waiver",
      "checkbox",
      "yesno",
      "donation",
      "membership",
    ] as const) {
      expect(required(type), type).toEqual({ ok: false, error: "This field is required" });
    }
    expect(required("text", "----")).toEqual({ ok: false, error: "This field is required" });
    expect(required("yesno", "no")).toEqual({ ok: true, value: "no" });
    expect(required("heading")).toEqual({ ok: true, value: null });
  });

  it("reports the type's own error before the mandatory rule", () => {
    expect(parseElement(makeElement("date", { is_mandatory: true }), "2023-02-29", registrant)).toEqual({
      ok: false,
      error: "Invalid Date.  Dates should be in the format YYYY-MM-DD",
    });
  });

  it("makes is_admin_mandatory bind only an admin", () => {
    const element = makeElement("text", { is_admin_mandatory: true });
    expect(parseElement(element, "", registrant)).toEqual({ ok: true, value: null });
    expect(parseElement(element, "", admin)).toEqual({ ok: false, error: "This field is required" });
  });
});

describe("parseIndividual", () => {
  const distance = makeElement("option", {
    id: "distance",
    ordinal: 1,
    is_mandatory: true,
    price_1: 2000,
    price_2: 3000,
    price_3: 4000,
    options_list: [
      { id: "5k", display: "5 km", price_1: 0 },
      { id: "marathon", display: "Marathon", price_1: 2500, price_2: 3500 },
    ],
  });
  const pacer = makeElement("yesno", {
    id: "pacer",
    ordinal: 2,
    is_mandatory: true,
    price_1: 500,
    condition: { element: "distance", operator: "eq", value: "marathon" },
  });
  const pacerTime = makeElement("text", { id: "pace", ordinal: 3, is_mandatory: true, condition: { element: "pacer", operator: "eq", value: "yes" } });
  const heading = makeElement("heading", { id: "h", ordinal: 0 });
  const notes = makeElement("text", { id: "notes", ordinal: 4, is_admin_only: true });
  const elements = [pacerTime, distance, heading, pacer, notes];

  it("parses, prices at the tier and stores { v, p }", () => {
    const result = parseIndividual(elements, { distance: "marathon", pacer: "yes", pace: " 4:30 " }, { ...registrant, tier: 2 });
    expect(result).toEqual({
      values: { distance: { v: "marathon", p: 6500 }, pacer: { v: "yes", p: 500 }, pace: { v: "4:30", p: 0 } },
      errors: {},
    });
  });

  it("neither validates, prices nor requires elements hidden by a condition, down the chain", () => {
    const result = parseIndividual(elements, { distance: "5k", pacer: "yes", pace: "" }, registrant);
    expect(result).toEqual({ values: { distance: { v: "5k", p: 2000 } }, errors: {} });
  });

  it("collects every error", () => {
    const result = parseIndividual(elements, { distance: "marathon", pace: "" }, registrant);
    expect(result.errors).toEqual({ pacer: "This field is required" });
    expect(parseIndividual(elements, { distance: "ultra" }, registrant).errors).toEqual({ distance: "No such option" });
    expect(parseIndividual(elements, {}, registrant).errors).toEqual({ distance: "This field is required" });
  });

  it("leaves admin-only elements to admins, keeping what they saved", () => {
    const saved = { notes: { v: "paid cash", p: 0 } };
    expect(parseIndividual(elements, { distance: "5k", notes: "hacked" }, { ...registrant, saved }).values.notes).toEqual({ v: "paid cash", p: 0 });
    expect(parseIndividual(elements, { distance: "5k", notes: "new" }, { ...admin, saved }).values.notes).toEqual({ v: "new", p: 0 });
    expect(parseIndividual(elements, { distance: "5k", notes: "hacked" }, registrant).values.notes).toBeUndefined();
  });

  it("keeps a saved is_edit_forbidden value unless an admin changes it", () => {
    const bib = makeElement("number", { id: "bib", is_edit_forbidden: true });
    const saved = { bib: { v: 7, p: 0 } };
    expect(parseIndividual([bib], { bib: "99" }, { ...registrant, saved }).values).toEqual({ bib: { v: 7, p: 0 } });
    expect(parseIndividual([bib], { bib: "99" }, { ...admin, saved }).values).toEqual({ bib: { v: 99, p: 0 } });
    expect(parseIndividual([bib], { bib: "99" }, registrant).values).toEqual({ bib: { v: 99, p: 0 } });
  });

  it("shows kiosk-mode elements only in kiosk mode", () => {
    const photoWaiver = makeElement("waiver", { id: "kw", is_kiosk_mode: true, is_mandatory: true });
    expect(parseIndividual([photoWaiver], {}, registrant)).toEqual({ values: {}, errors: {} });
    expect(parseIndividual([photoWaiver], {}, { ...registrant, isKiosk: true }).errors).toEqual({ kw: "This field is required" });
  });

  it("evaluates legacy multi-option operators and cart-level conditions", () => {
    const extras = makeElement("multioption", {
      id: "extras",
      options_list: [
        { id: "shirt", display: "Shirt" },
        { id: "meal", display: "Meal", price_1: 1200 },
      ],
    });
    const size = makeElement("option", {
      id: "size",
      is_mandatory: true,
      options_list: [{ id: "m", display: "M" }],
      condition: { element: "extras", operator: operatorFromLegacy(1) ?? "eq", value: "shirt" },
    });
    const cartCode = makeElement("discount", { id: "code" });
    const vip = makeElement("text", { id: "vip", is_mandatory: true, condition: { element: "code", operator: "contains", value: "vip" } });
    const ctx = { ...registrant, cartElements: [cartCode], cartValues: { code: { v: "VIP2024", p: 0 } } };
    const result = parseIndividual([extras, size, vip], { extras: ["meal", "shirt"] }, ctx);
    expect(result.values.extras).toEqual({ v: ["shirt", "meal"], p: 1200 });
    expect(result.errors).toEqual({ size: "This field is required", vip: "This field is required" });
  });
});

describe("a membership's person details", () => {
  const membership = makeElement("membership", { id: "member", ordinal: 20, options_list: [{ id: "racing", display: "Racing", member_class: "racing" }] });
  const person = [
    makeElement("text", { id: "first", caption: "First name", ordinal: 1 }),
    makeElement("text", { id: "last", caption: "Last name", ordinal: 2 }),
    makeElement("dob", { id: "born", ordinal: 3 }),
    makeElement("gender", { id: "sex", ordinal: 4 }),
    makeElement("text", { id: "street", caption: "Street address", ordinal: 5 }),
    makeElement("city", { id: "city", caption: "City", ordinal: 6 }),
    makeElement("province", { id: "prov", ordinal: 7 }),
    makeElement("text", { id: "postal", caption: "Postal code", ordinal: 8 }),
  ];
  const full = {
    first: "Ada",
    last: "Lovelace",
    born: "2010-12-10",
    sex: "F",
    street: "1 Main St",
    city: "Ottawa",
    prov: "ON",
    postal: "K1A 0A1",
    member: "racing",
  };
  const ctx = { lang: "en" as const, tier: 1 as const, isAdmin: false, isKiosk: false };

  it("issues a membership when first name, last name, birth date, gender, street address, city, province and postal code are given", () => {
    expect(parseIndividual([...person, membership], full, ctx).errors).toEqual({});
  });

  it("names the details a chosen membership lacks, and asks nothing without one", () => {
    const { street: _street, postal: _postal, ...partial } = full;
    expect(parseIndividual([...person, membership], partial, ctx).errors).toEqual({ member: "A membership needs the member's street address, postal code" });
    const noForm = parseIndividual([membership], { member: "racing" }, ctx).errors.member;
    expect(noForm).toBe("A membership needs the member's first name, last name, birth date, gender, street address, city, province, postal code");
    const { member: _member, ...noMembership } = partial;
    expect(parseIndividual([...person, membership], noMembership, ctx).errors).toEqual({});
  });
});
