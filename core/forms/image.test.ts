import { describe, expect, it } from "vitest";
import { imageField, imageLogicOf } from "./image";
import { EN, makeElement } from "./test-elements";

describe("imageField", () => {
  const headshot = makeElement("image", { config: { logic: "headshot" } });

  it("stores the upload key", () => {
    expect(imageField.parse(headshot, "uploads/4f2a.jpg", EN)).toEqual({ ok: true, value: "uploads/4f2a.jpg" });
    expect(imageField.parse(headshot, "", EN)).toEqual({ ok: true, value: null });
    for (const key of ["../secrets", "uploads/../x", "/etc/passwd", "a b.jpg"]) expect(imageField.parse(headshot, key, EN).ok, key).toBe(false);
  });

  it("reads its logic", () => {
    expect(imageLogicOf(headshot)).toBe("headshot");
    expect(imageLogicOf(makeElement("image", { config: { logic: "vaccine" } }))).toBe("vaccine");
    expect(imageLogicOf(makeElement("image"))).toBeNull();
  });
});
