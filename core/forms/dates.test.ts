import { describe, expect, it } from "vitest";
import { dateField, dobField, isPrivate } from "./dates";
import { EN, makeElement } from "./test-elements";

const DATE_MESSAGE = "Invalid Date.  Dates should be in the format YYYY-MM-DD";

describe("dateField and dobField", () => {
  it("accept real calendar days as YYYY-MM-DD", () => {
    expect(dateField.parse(makeElement("date"), "2024-02-29", EN)).toEqual({ ok: true, value: "2024-02-29" });
    expect(dobField.parse(makeElement("dob"), " 1990-12-31 ", EN)).toEqual({ ok: true, value: "1990-12-31" });
    expect(dateField.parse(makeElement("date"), "", EN)).toEqual({ ok: true, value: null });
  });

  it("refuse other days and formats with the spec's message", () => {
    for (const text of ["2023-02-29", "2024-13-01", "2024-04-31", "2024-00-10", "24-02-01", "2024/02/01", "2024-2-1", "Feb 1 2024"]) {
      expect(dateField.parse(makeElement("date"), text, EN), text).toEqual({ ok: false, error: DATE_MESSAGE });
      expect(dobField.parse(makeElement("dob"), text, EN), text).toEqual({ ok: false, error: DATE_MESSAGE });
    }
  });

  it("marks date of birth private", () => {
    expect(isPrivate(makeElement("dob"))).toBe(true);
    expect(isPrivate(makeElement("date"))).toBe(false);
  });

  it("price only when filled", () => {
    const priced = makeElement("date", { price_1: 300 });
    expect(dateField.price(priced, "2024-01-01", 1)).toBe(300);
    expect(dateField.price(priced, null, 1)).toBe(0);
  });
});
