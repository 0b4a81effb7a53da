import { describe, expect, it } from "vitest";
import { formatPhone, phoneField, phoneTypeOf } from "./phone";
import { EN, makeElement } from "./test-elements";

const PHONE_MESSAGE = "Phone numbers should be in the format 123-456-7890";
const phone = makeElement("phone");

describe("phoneField", () => {
  it("keeps the digits of 7- and 10-digit numbers", () => {
    expect(phoneField.parse(phone, "(613) 555-0123", EN)).toEqual({ ok: true, value: "6135550123" });
    expect(phoneField.parse(phone, "613.555.0123", EN)).toEqual({ ok: true, value: "6135550123" });
    expect(phoneField.parse(phone, "555 0123", EN)).toEqual({ ok: true, value: "5550123" });
    expect(phoneField.parse(phone, "", EN)).toEqual({ ok: true, value: null });
  });

  it("refuses other digit counts and letters", () => {
    for (const text of ["555-012", "1-613-555-0123", "61355501234", "call me 5550123", "613-555-O123"]) {
      expect(phoneField.parse(phone, text, EN), text).toEqual({ ok: false, error: PHONE_MESSAGE });
    }
  });

  it("displays 10 digits as 123-456-7890 and 7 as 456-7890", () => {
    expect(phoneField.display(phone, "1234567890", "en")).toBe("123-456-7890");
    expect(phoneField.display(phone, "4567890", "en")).toBe("456-7890");
    expect(formatPhone("12")).toBe("12");
  });
});

describe("phoneTypeOf", () => {
  it("reads the type from the caption, home otherwise", () => {
    expect(phoneTypeOf("Work Phone")).toBe("work");
    expect(phoneTypeOf("cell  phone")).toBe("cell");
    expect(phoneTypeOf("[en]Fax Number[fr]Télécopieur")).toBe("fax");
    expect(phoneTypeOf("Phone")).toBe("home");
    expect(phoneTypeOf("Emergency contact phone")).toBe("home");
  });
});
