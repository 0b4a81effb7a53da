import { describe, expect, it } from "vitest";
import { canEdit, conditionChecker, isAccessible, isRequired, testCondition, visibleElements } from "./conditions";
import type { ConditionOperator, FormElement, StoredValue } from "./model";
import { makeElement } from "./test-elements";

const texts = (values: string[]) => ({ texts: values, isEmpty: values.length === 0, isSigned: false });
const holds = (operator: ConditionOperator, expected: string, values: string[]) => testCondition(operator, expected, texts(values));

describe("testCondition", () => {
  it("compares eq, ne, contains and startswith ignoring case", () => {
    expect(holds("eq", "Yes", ["yes"])).toBe(true);
    expect(holds("ne", "yes", ["YES"])).toBe(false);
    expect(holds("ne", "yes", [])).toBe(true);
    expect(holds("contains", "BIKE", ["Mountain bike"])).toBe(true);
    expect(holds("startswith", "moun", ["Mountain bike"])).toBe(true);
    expect(holds("startswith", "bike", ["Mountain bike"])).toBe(false);
  });

  it("compares lt and gt as numbers when both are numbers, else as text", () => {
    expect(holds("lt", "10", ["9"])).toBe(true);
    expect(holds("gt", "10", ["9"])).toBe(false);
    expect(holds("gt", "b", ["c"])).toBe(true);
    expect(holds("lt", "10", [])).toBe(false);
  });

  it("tests emptiness and signatures", () => {
    expect(holds("empty", "", [])).toBe(true);
    expect(holds("notempty", "", ["x"])).toBe(true);
    expect(testCondition("signed", "", { texts: ["yes"], isEmpty: false, isSigned: true })).toBe(true);
    expect(testCondition("notsigned", "", { texts: [], isEmpty: true, isSigned: false })).toBe(true);
  });

  it("holds for any chosen option of a multi-option, ne for none", () => {
    expect(holds("eq", "b", ["a", "b"])).toBe(true);
    expect(holds("ne", "b", ["a", "b"])).toBe(false);
    expect(holds("ne", "c", ["a", "b"])).toBe(true);
  });
});

const stored = (v: unknown): StoredValue => ({ v, p: 0 });

describe("conditionChecker", () => {
  const level = makeElement("option", {
    id: "level",
    options_list: [
      { id: "o1", display: "[en]Beginner[fr]Débutant", value: "beg" },
      { id: "o2", display: "Racer" },
    ],
  });
  const racing = makeElement("licence", { id: "licence", condition: { element: "level", operator: "eq", value: "o2" } });
  const team = makeElement("text", { id: "team", condition: { element: "licence", operator: "notempty", value: "" } });
  const coach = makeElement("text", { id: "coach", condition: { element: "team", operator: "empty", value: "" } });
  const elements = [level, racing, team, coach];

  it("follows chains: a hidden controlling element counts as empty", () => {
    const values = { level: stored("o1"), licence: stored("123"), team: stored("Blue") };
    const isShown = conditionChecker({ elements, values });
    expect(isShown(racing)).toBe(false);
    expect(isShown(team)).toBe(false);
    expect(isShown(coach)).toBe(true);
    const racer = conditionChecker({ elements, values: { ...values, level: stored("o2") } });
    expect([racer(racing), racer(team), racer(coach)]).toEqual([true, true, false]);
  });

  it("matches an option by id, value or label", () => {
    const byValue = makeElement("text", { id: "x", condition: { element: "level", operator: "eq", value: "BEG" } });
    const byLabel = makeElement("text", { id: "y", condition: { element: "level", operator: "startswith", value: "begin" } });
    const byFrench = makeElement("text", { id: "z", condition: { element: "level", operator: "eq", value: "débutant" } });
    const isShown = conditionChecker({ elements: [level, byValue, byLabel, byFrench], values: { level: stored("o1") } });
    expect([isShown(byValue), isShown(byLabel), isShown(byFrench)]).toEqual([true, true, true]);
  });

  it("reads waivers, donations in dollars, and cart-level values", () => {
    const waiver = makeElement("waiver", { id: "w" });
    const gift = makeElement("donation", { id: "gift" });
    const cartEmail = makeElement("email", { id: "cart-email" });
    const signed = makeElement("text", { id: "a", condition: { element: "w", operator: "signed", value: "" } });
    const big = makeElement("text", { id: "b", condition: { element: "gift", operator: "gt", value: "50" } });
    const fromCart = makeElement("text", { id: "c", condition: { element: "cart-email", operator: "contains", value: "@club.ca" } });
    const isShown = conditionChecker({
      elements: [waiver, gift, signed, big, fromCart],
      values: { w: stored(true), gift: stored(7500) },
      cartElements: [cartEmail],
      cartValues: { "cart-email": stored({ addresses: "me@club.ca", optin: true }) },
    });
    expect([isShown(signed), isShown(big), isShown(fromCart)]).toEqual([true, true, true]);
    const unsigned = conditionChecker({ elements: [waiver, signed], values: { w: stored(false) } });
    expect(unsigned(signed)).toBe(false);
  });

  it("treats a deleted controlling element as empty and hides a cycle", () => {
    const orphan = makeElement("text", { id: "o", condition: { element: "gone", operator: "empty", value: "" } });
    const a: FormElement = makeElement("text", { id: "a", condition: { element: "b", operator: "ne", value: "x" } });
    const b: FormElement = makeElement("text", { id: "b", condition: { element: "a", operator: "ne", value: "x" } });
    const afterCycle = makeElement("text", { id: "c", condition: { element: "a", operator: "empty", value: "" } });
    const isShown = conditionChecker({ elements: [orphan, a, b, afterCycle], values: { a: stored("y"), b: stored("y") } });
    expect([isShown(orphan), isShown(a), isShown(b), isShown(afterCycle)]).toEqual([true, false, false, true]);
  });
});

describe("visibility flags", () => {
  const adminOnly = makeElement("text", { id: "admin", is_admin_only: true });
  const kiosk = makeElement("waiver", { id: "kiosk", is_kiosk_mode: true });
  const plain = makeElement("text", { id: "plain" });

  it("shows admin-only elements to admins and kiosk elements in kiosk mode", () => {
    const ids = (isAdmin: boolean, isKiosk: boolean) => visibleElements([adminOnly, kiosk, plain], {}, { isAdmin, isKiosk }).map((e) => e.id);
    expect(ids(false, false)).toEqual(["plain"]);
    expect(ids(true, false)).toEqual(["admin", "plain"]);
    expect(ids(false, true)).toEqual(["kiosk", "plain"]);
    expect(isAccessible(kiosk, { isAdmin: true, isKiosk: false })).toBe(false);
  });

  it("makes is_admin_mandatory bind admins only", () => {
    const element = makeElement("text", { is_admin_mandatory: true });
    expect(isRequired(element, { isAdmin: true })).toBe(true);
    expect(isRequired(element, { isAdmin: false })).toBe(false);
    expect(isRequired(makeElement("text", { is_mandatory: true }), { isAdmin: false })).toBe(true);
  });

  it("lets only admins change a saved is_edit_forbidden value", () => {
    const locked = makeElement("text", { is_edit_forbidden: true });
    expect(canEdit(locked, { isAdmin: false, hasSavedValue: true })).toBe(false);
    expect(canEdit(locked, { isAdmin: false, hasSavedValue: false })).toBe(true);
    expect(canEdit(locked, { isAdmin: true, hasSavedValue: true })).toBe(true);
    expect(canEdit(plain, { isAdmin: false, hasSavedValue: true })).toBe(true);
  });
});
