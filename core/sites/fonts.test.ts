import { describe, expect, it } from "vitest";
import { FONT_CHOICES, FONT_KEYS, fontStackOf } from "./fonts";

describe("a site's font", () => {
  it("is one of the system stacks, each ending in a generic family", () => {
    for (const key of FONT_KEYS) expect(FONT_CHOICES[key].stack).toMatch(/(sans-serif|serif)$/);
  });
  it("never names a web font file or url", () => {
    for (const key of FONT_KEYS) expect(FONT_CHOICES[key].stack).not.toMatch(/url\(|@import|http/);
  });
  it("falls back to the system font for an unknown choice", () => {
    expect(fontStackOf("comic")).toBe(FONT_CHOICES.system.stack);
    expect(fontStackOf(undefined)).toBe(FONT_CHOICES.system.stack);
    expect(fontStackOf("classical")).toBe(FONT_CHOICES.classical.stack);
  });
});
