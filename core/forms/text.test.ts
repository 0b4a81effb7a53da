import { describe, expect, it } from "vitest";
import { EN, makeElement } from "./test-elements";
import { cityField, TEXT_MAX_LENGTH, textField } from "./text";

describe("text and city", () => {
  it("trim, and treat blank or ---- as empty", () => {
    const name = makeElement("text");
    expect(textField.parse(name, "  Ann  ", EN)).toEqual({ ok: true, value: "Ann" });
    expect(textField.parse(name, "   ", EN)).toEqual({ ok: true, value: null });
    expect(textField.parse(name, "----", EN)).toEqual({ ok: true, value: null });
    expect(cityField.parse(makeElement("city"), " ---- ", EN)).toEqual({ ok: true, value: null });
    expect(cityField.parse(makeElement("city"), "Ottawa", EN)).toEqual({ ok: true, value: "Ottawa" });
  });

  it("refuse text beyond the limit", () => {
    expect(textField.parse(makeElement("text"), "x".repeat(TEXT_MAX_LENGTH + 1), EN).ok).toBe(false);
  });
});
