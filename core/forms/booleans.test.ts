import { describe, expect, it } from "vitest";
import { checkboxField, waiverField, waiverTextOf, yesNoField } from "./booleans";
import { EN, makeElement } from "./test-elements";

const priced = { price_1: 1000, price_2: 1200, price_3: 1500 };

describe("checkboxField", () => {
  const box = makeElement("checkbox", priced);

  it("is checked by on/yes/true, unchecked when nothing is posted", () => {
    expect(checkboxField.parse(box, "on", EN)).toEqual({ ok: true, value: true });
    expect(checkboxField.parse(box, "true", EN)).toEqual({ ok: true, value: true });
    expect(checkboxField.parse(box, undefined, EN)).toEqual({ ok: true, value: false });
    expect(checkboxField.parse(box, "maybe", EN)).toEqual({ ok: false, error: "No such option" });
  });

  it("costs its tier price only when checked", () => {
    expect(checkboxField.price(box, true, 2)).toBe(1200);
    expect(checkboxField.price(box, false, 2)).toBe(0);
    expect(checkboxField.isEmpty(false)).toBe(true);
  });
});

describe("yesNoField", () => {
  const question = makeElement("yesno", priced);

  it("stores yes or no; blank is no answer", () => {
    expect(yesNoField.parse(question, "Yes", EN)).toEqual({ ok: true, value: "yes" });
    expect(yesNoField.parse(question, "no", EN)).toEqual({ ok: true, value: "no" });
    expect(yesNoField.parse(question, "", EN)).toEqual({ ok: true, value: null });
    expect(yesNoField.isEmpty("no")).toBe(false);
  });

  it("costs its tier price when yes", () => {
    expect(yesNoField.price(question, "yes", 3)).toBe(1500);
    expect(yesNoField.price(question, "no", 3)).toBe(0);
    expect(yesNoField.display(question, "yes", "fr")).toBe("Oui");
    expect(yesNoField.display(question, "no", "en")).toBe("No");
  });
});

describe("waiverField", () => {
  const waiver = makeElement("waiver", { config: { waiver_text: "[en]I accept the risks[fr]J'accepte les risques" } });

  it("is signed or not; only signed is a value", () => {
    expect(waiverField.parse(waiver, "signed", EN)).toEqual({ ok: true, value: true });
    expect(waiverField.parse(waiver, undefined, EN)).toEqual({ ok: true, value: false });
    expect(waiverField.isEmpty(false)).toBe(true);
    expect(waiverField.display(waiver, true, "en")).toBe("Signed");
    expect(waiverField.display(waiver, false, "en")).toBe("Not signed");
    expect(waiverTextOf(waiver, "fr")).toBe("J'accepte les risques");
  });
});
