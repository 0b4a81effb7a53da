import { describe, expect, it } from "vitest";
import { licenceBodyOf, licenceField, licenceKindOf } from "./licence";
import { EN, makeElement } from "./test-elements";

describe("licenceField", () => {
  const uci = makeElement("licence", { config: { licence_kind: "uci" }, price_1: 500 });

  it("keeps the number trimmed", () => {
    expect(licenceField.parse(uci, "  10012345678 ", EN)).toEqual({ ok: true, value: "10012345678" });
    expect(licenceField.parse(uci, "", EN)).toEqual({ ok: true, value: null });
    expect(licenceField.parse(uci, "x".repeat(65), EN).ok).toBe(false);
    expect(licenceField.price(uci, "1", 1)).toBe(500);
  });

  it("knows its body", () => {
    expect(licenceKindOf(uci)).toBe("uci");
    expect(licenceBodyOf(makeElement("licence", { config: { licence_kind: "ussa" } }))).toBe("USSA");
    expect(licenceKindOf(makeElement("licence"))).toBeNull();
  });
});
